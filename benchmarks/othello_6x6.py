"""6x6 Othello solved from the start by the numba kernel, resumably: the moonshot.

    nice -n 19 python benchmarks/othello_6x6.py --results benchmarks/othello_6x6.results.json \
        --window -5 -3 --store >> /tmp/othello_6x6.log 2>&1 &

The four first moves are one move turned about the board's symmetries (the start position
is symmetric under the two diagonal reflections and the half turn, which carry each of
Black's four openings onto each other), so one of them is solved. Its value is the least of
White's replies' values; the top ``--split`` plies are searched here in Python (principal
variation search in the kernel's order: the first move with the whole window, the others
with a null window and again with a wider one when they beat it), and each position below
them is handed to the kernel with its window. ``--window`` narrows the root's window to an
aspiration around an expected value: a value inside it is exact, one outside is a bound.
Every kernel answer is written to the results file under its line of moves and window as
soon as it is found, so a restart asks the kernel only what it has not
answered yet (the search here is deterministic: it asks the same questions in the same
order). The kernel's table is kept from one question to the next within a run.

Phase 1 proves the value of the opening (``--store`` then writes it where
perfectplay.games.othello.proved reads it); phase 2 (``--every-reply``) solves each of White's
replies exactly too. Printed: each kernel answer with its nodes, CPU and wall seconds, then
the values and the totals (summed over every run that added to the results file).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

WIDE = 127


class Split:
    """The top plies of the search in Python over the rules; the kernel below them."""

    def __init__(self, game: Any, searcher: Any, results: Path) -> None:
        self.game = game
        self.searcher = searcher
        self.path = results
        self.answers: dict[str, dict[str, Any]] = json.loads(results.read_text()) if results.exists() else {}
        self.asked = 0

    def kernel(self, position: Any, line: list[str], alpha: int, beta: int) -> int:
        """The final disc difference for the mover, fail-soft within alpha, beta."""
        from perfectplay.games.othello.kernel import NODES
        from perfectplay.games.othello.kernel_method import to_words
        key = f"{' '.join(line)} [{alpha},{beta}]"
        if key in self.answers:
            return int(self.answers[key]["value"])
        self.searcher.counters[:] = 0
        began_cpu, began = time.process_time(), time.perf_counter()
        found = self.searcher.score(*to_words(self.game, position), alpha, beta, 1 << 62,
                                    lambda nodes: None)
        assert found is not None  # no budget, no stop word
        answer = {"value": int(found[0]), "nodes": int(self.searcher.counters[NODES]),
                  "cpu_s": round(time.process_time() - began_cpu, 2),
                  "wall_s": round(time.perf_counter() - began, 2)}
        self.answers[key] = answer
        spare = self.path.with_suffix(".tmp")
        spare.write_text(json.dumps(self.answers, indent=1))
        spare.replace(self.path)  # a kill mid-write leaves the old file whole
        self.asked += 1
        print(f"{key:<34} value {answer['value']:+3d}  {answer['nodes']:>14,} nodes  "
              f"{answer['cpu_s']:8.1f} CPU s  {answer['wall_s']:8.1f} s  {time.strftime('%H:%M:%S')}",
              flush=True)
        return int(answer["value"])

    def value(self, position: Any, line: list[str], alpha: int, beta: int, plies: int) -> int:
        """The final disc difference for the mover, fail-soft within alpha, beta, split for
        ``plies`` more plies."""
        game = self.game
        moves = game.moves(position)
        if plies == 0 or not moves or moves == [-1]:
            return self.kernel(position, line, alpha, beta)
        best = -WIDE - 1
        for index, move in enumerate(self._ordered(position, moves)):
            child = game.play(position, move)
            child_line = [*line, game.format_move(position, move)]
            floor = max(alpha, best)
            if index == 0:
                found = -self.value(child, child_line, -beta, -floor, plies - 1)
            else:
                found = -self.value(child, child_line, -floor - 1, -floor, plies - 1)
                if floor < found < beta:
                    found = -self.value(child, child_line, -beta, -found, plies - 1)
            if found > best:
                best = found
                if best >= beta:
                    break
        return best

    def _ordered(self, position: Any, moves: list[int]) -> list[int]:
        """The kernel's order: fastest first, after a shallow search far from the end."""
        import numpy as np

        from perfectplay.games.othello.bitboard import legal_moves
        from perfectplay.games.othello.kernel import MAX_MOVES, _order
        from perfectplay.games.othello.kernel_method import to_cell, to_words
        mine, theirs = (np.uint64(word) for word in to_words(self.game, position))
        board = self.searcher.board
        squares, scores = np.zeros(MAX_MOVES, dtype=np.int64), np.zeros(MAX_MOVES, dtype=np.int64)
        left = self.searcher.cells - bin(int(mine | theirs)).count("1")
        count = _order(mine, theirs, legal_moves(mine, theirs, board), left, board, self.game.size, squares,
                       scores)
        ordered = [to_cell(self.game, int(square)) for square in squares[:count]]
        assert sorted(ordered) == sorted(moves)
        return ordered


def store(game: Any, start: Any, openings: list[int], value: int, answers: Any, size: int) -> None:
    """The start's value and its openings' into the file games/othello/proved.py reads."""
    from perfectplay.games.othello.proved import STORE
    answers = list(answers)
    how = (f"proved from the start by the othello-kernel through benchmarks/othello_6x6.py: "
           f"{sum(a['nodes'] for a in answers):,} nodes, {sum(a['cpu_s'] for a in answers):.0f} "
           f"CPU s; docs/othello.md")
    texts = [game.format_move(start, move) for move in openings]
    entry = {"value": value, "best": texts, "moves": dict.fromkeys(texts, value), "how": how}
    STORE.write_text(json.dumps({"positions": {f"{size}x{size} {game.format_position(start)}": entry}},
                                indent=1) + "\n")
    print(f"stored in {STORE}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=Path, default=Path("othello_6x6.json"))
    parser.add_argument("--split", type=int, default=2, help="plies searched in Python below the first move")
    parser.add_argument("--table-bits", type=int, default=24)
    parser.add_argument("--size", type=int, default=6, help="4 checks the script in a second (-10)")
    parser.add_argument("--window", type=int, nargs=2, default=[-WIDE, WIDE], metavar=("LOW", "HIGH"),
                        help="the window for Black's value (an aspiration: -5 -3 proves -4 if "
                        "the value falls inside)")
    parser.add_argument("--store", action="store_true",
                        help="once proved, write the start's value for perfectplay to answer at once "
                        "(perfectplay/games/othello/solved_6x6.json)")
    parser.add_argument("--every-reply", action="store_true",
                        help="then each of White's replies' exact value (phase 2)")
    options = parser.parse_args()
    from perfectplay.games.othello.rules import Othello
    from perfectplay.games.othello.searcher import Searcher
    game = Othello(options.size)
    start = game.start()
    openings = game.moves(start)
    first = openings[0]
    after = game.play(start, first)
    opening = game.format_move(start, first)
    names = ", ".join(game.format_move(start, move) for move in openings)
    print(f"{options.size}x{options.size}: Black's openings {names}: one move under the start's "
          f"symmetries; solving {opening}", flush=True)
    split = Split(game, Searcher(options.size, 1 << options.table_bits), options.results)
    began = time.perf_counter()
    low, high = options.window
    value = -split.value(after, [opening], -high, -low, options.split)
    if low < value < high:
        print(f"phase 1: {opening} is worth {value:+d} to Black (every opening: the same)", flush=True)
        if options.store:
            store(game, start, openings, value, split.answers.values(), options.size)
    else:
        print(f"phase 1: {opening} is worth {'at most' if value <= low else 'at least'} {value:+d} "
              f"to Black, outside the window {low:+d}, {high:+d}: search again wider", flush=True)
    if options.every_reply:
        for reply in game.moves(after):
            child = game.play(after, reply)
            line = [opening, game.format_move(after, reply)]
            print(f"after {' '.join(line)}: {split.value(child, line, -WIDE, WIDE, options.split - 1):+d} "
                  "to Black", flush=True)
    answers = split.answers.values()
    print(f"kernel questions: {len(split.answers)} ({split.asked} asked in this run, "
          f"{time.perf_counter() - began:.0f} s wall)")
    print(f"totals over every run: {sum(a['nodes'] for a in answers):,} nodes, "
          f"{sum(a['cpu_s'] for a in answers):.0f} CPU s, {sum(a['wall_s'] for a in answers):.0f} s wall")


if __name__ == "__main__":
    main()

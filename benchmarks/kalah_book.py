"""Kalah's opening book (src/perfectplay/games/kalah/book.json), computed ply by ply and
resumably, and what each entry cost: the measurement of how deep the kernel's proofs of an
optimal move get cheap enough for play's perfect level (docs/extra_turns.md).

    PERFECTPLAY_KALAH_DIR=DIR nice -n 19 .venv/bin/python benchmarks/kalah_book.py \\
        --pits 6 --seeds 4 --capture empty standard --plies 4 --log kalah-book.jsonl

For each ply up to --plies and each rule in turn, every position the computer can face at
that ply (either side the computer's, the other side playing anything: games/kalah/
book_build.py) gets its value and every optimal move, proved by the kernel with the endgame
database it finds in $PERFECTPLAY_KALAH_DIR. Each entry is saved to --book (default: the
package's book.json) as soon as it is found, and one line (ply, position, value, optimal
moves, nodes, CPU seconds, the load average) is appended to --log: a restart skips the
entries the book holds. A board's ``complete_plies`` rises only when a ply is finished.

With --line (pits played from the start, e.g. 3,1,6,2), the book is left alone: each
position along the line is proved as play's perfect level proves it (value, then one
null-window test per move, the table kept from one position to the next) and its CPU
seconds printed: how deep a line must go before a proof fits the level's patience.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from perfectplay.games.kalah.book import Board, board_name
from perfectplay.games.kalah.book_build import Proved, build, load, save, shipped_path
from perfectplay.games.kalah.endgame import find
from perfectplay.games.kalah.rules import CAPTURE_RULES, Kalah


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--capture", choices=sorted(CAPTURE_RULES), nargs="+", default=["empty"])
    parser.add_argument("--plies", type=int, default=2, help="build the book up to this ply")
    parser.add_argument("--book", type=Path, default=shipped_path())
    parser.add_argument("--log", type=Path, required=True, help="JSON lines, one per entry")
    parser.add_argument("--line", default=None,
                        help="prove each position along these pits, e.g. 3,1,6,2 (no book)")
    return parser.parse_args()


def prove_along(game: Kalah, line: list[int], log: Path) -> None:
    """Each position along ``line`` proved by the kernel alone, the table kept, as play does."""
    from perfectplay.games.kalah.kernel_method import prove_by_search
    position = game.start()
    for ply, pit in enumerate([*line, None]):
        if not game.legal_moves(position):
            break
        cpu = time.process_time()
        value, best, nodes = prove_by_search(game, position)
        record = {"board": board_name(game), "line": line[:ply], "ply": ply,
                  "position": game.format_position(position), "value": value, "best": best,
                  "nodes": nodes, "cpu_s": round(time.process_time() - cpu, 2),
                  "load": os.getloadavg()[0]}
        with log.open("a") as out:
            out.write(json.dumps(record) + "\n")
        print(json.dumps(record), flush=True)
        if pit is None:
            break
        position = game.play(position, pit)


def main() -> None:
    args = parse()
    book = load(args.book)
    games = [Kalah(args.pits, args.seeds, empty_capture=rule == "empty") for rule in args.capture]
    if args.line is not None:
        for game in games:
            prove_along(game, [int(pit) for pit in args.line.split(",")], args.log)
        return
    for game in games:
        database = find(game.pits, game.empty_capture)
        print(f"{board_name(game)}: endgame database "
              f"{'of ' + str(database.seeds) + ' seeds' if database else 'none'}", flush=True)
    for plies in range(1, args.plies + 1):
        for game in games:
            name = board_name(game)

            def saved(proved: Proved, game: Kalah = game, name: str = name) -> None:
                old = book.get(name, Board(0, {}))
                book[name] = Board(old.complete_plies, {**old.positions, proved.key: proved.entry})
                save(args.book, book)
                line = {"board": name, "ply": proved.ply, "position": game.format_position(proved.position),
                        "value": proved.entry.value, "best": list(proved.entry.best),
                        "nodes": proved.nodes, "cpu_s": round(proved.cpu_seconds, 2),
                        "load": os.getloadavg()[0]}
                with args.log.open("a") as log:
                    log.write(json.dumps(line) + "\n")
                print(json.dumps(line), flush=True)
            book[name] = build(game, plies, book, saved)
            save(args.book, book)
            print(f"{name}: every position before ply {plies} booked "
                  f"({len(book[name].positions)} entries)", flush=True)


if __name__ == "__main__":
    main()

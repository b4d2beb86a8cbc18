"""Chess perft: perfectplay's perft (search/perft.py over games/chess/rules.py) against the
published counts, and its speed against two perfts written directly on python-chess:

* "bulk": python-chess's own test-suite perft, push/pop on one board, counting the moves of
  the nodes one ply above the leaves without visiting the leaves (bulk counting);
* "leaves": push/pop visiting every leaf and generating its legal moves.

perfectplay counts the last ply in bulk too (``Game.count_moves``), so "bulk" is the
like-for-like comparison; the ratio columns are perfectplay's time over each.

    .venv/bin/python benchmarks/chess_perft.py            # the published deep counts (minutes)
    .venv/bin/python benchmarks/chess_perft.py --quick    # one depth less each
    .venv/bin/python benchmarks/chess_perft.py --only start --no-leaves

"nodes/s" is leaves (the perft count) per CPU second of this process.
"""

from __future__ import annotations

import argparse
import time

import chess

from perfectplay.games.chess.rules import Chess
from perfectplay.search.perft import perft

# Chess Programming Wiki, "Perft Results"; the quickest first.
CASES = [
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624, 43_238),
    ("start", chess.STARTING_FEN, 5, 4_865_609, 197_281),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     4, 4_085_603, 97_862),
]


def bulk_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += bulk_perft(board, depth - 1)
        board.pop()
    return total


def leaf_perft(board: chess.Board, depth: int) -> int:
    moves = list(board.generate_legal_moves())
    if depth == 0:
        return 1
    total = 0
    for move in moves:
        board.push(move)
        total += leaf_perft(board, depth - 1)
        board.pop()
    return total


def timed(count: object, *args: object) -> tuple[int, float]:
    """The count and the CPU seconds it took (this process's, all threads): on a machine
    shared with other work, wall-clock time measures the others too."""
    started = time.process_time()
    found = count(*args)  # type: ignore[operator]
    return found, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one depth less (seconds, not minutes)")
    parser.add_argument("--only", action="append", default=None, metavar="NAME",
                        help="only these positions (start, Kiwipete, 'position 3'); repeatable")
    parser.add_argument("--no-compare", action="store_true",
                        help="perfectplay's count and speed only, without the python-chess perfts")
    parser.add_argument("--no-leaves", action="store_true",
                        help="compare with python-chess's bulk perft only (the leaf-visiting one is slow)")
    args = parser.parse_args()
    game = Chess()
    print("position    depth   published  perfectplay: s, nodes/s   python-chess bulk: s, nodes/s, "
          "ratio   python-chess leaves: s, nodes/s, ratio")
    for name, fen, depth, count, shallower in CASES:
        if args.only and name not in args.only:
            continue
        if args.quick:
            depth, count = depth - 1, shallower
        ours, ours_s = timed(lambda fen=fen, depth=depth: perft(game, game.parse_position(fen), depth).count)
        assert ours == count, (name, depth, ours, count)
        row = f"{name:<11} {depth:>5} {count:>11,}  {ours_s:>7.1f} {count / ours_s:>9,.0f}"
        if not args.no_compare:
            bulk, bulk_s = timed(bulk_perft, chess.Board(fen), depth)
            assert bulk == count, (name, depth, bulk, count)
            row += f"             {bulk_s:>7.1f} {count / bulk_s:>9,.0f} {ours_s / bulk_s:>5.2f}x"
        if not (args.no_compare or args.no_leaves):
            leaves, leaves_s = timed(leaf_perft, chess.Board(fen), depth)
            assert leaves == count, (name, depth, leaves, count)
            row += f"         {leaves_s:>7.1f} {count / leaves_s:>9,.0f} {ours_s / leaves_s:>5.2f}x"
        print(row, flush=True)


if __name__ == "__main__":
    main()

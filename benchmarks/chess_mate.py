"""The exact mate search (solve --mate) on known mates and on a position with none: the
answer, the nodes searched and the time. Nodes do not depend on the machine; times do.

    .venv/bin/python benchmarks/chess_mate.py
"""

from __future__ import annotations

import time

from perfectplay.games.chess.rules import Chess
from perfectplay.search.mate import find_mate

CASES = [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 3),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 4),
    ("startpos", 3),
]


def main() -> None:
    game = Chess()
    print("| position | --mate | answer | line | nodes | ms |")
    print("|---|---:|---|---|---:|---:|")
    for fen, limit in CASES:
        position = game.parse_position(fen)
        started = time.perf_counter()
        found = find_mate(game, position, limit)
        elapsed = time.perf_counter() - started
        answer = f"mate in {found.moves}" if found.moves else f"none within {limit}"
        line = game.describe_line(position, found.line) if found.line else "-"
        print(f"| `{fen}` | {limit} | {answer} | {line} | {found.nodes:,} | {elapsed * 1000:,.0f} |",
              flush=True)


if __name__ == "__main__":
    main()

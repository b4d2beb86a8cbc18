"""The exact mate search (solve --mate) on known mates and on a position with none: the
answer, the nodes searched and the time. Nodes do not depend on the machine; times do, and
on a shared machine the CPU time (this process's) says more than the wall clock.

    .venv/bin/python benchmarks/chess_mate.py            # WAC.278's mate in 5 takes a while
    .venv/bin/python benchmarks/chess_mate.py --quick    # without WAC.283 and WAC.278
"""

from __future__ import annotations

import sys
import time

from perfectplay.games.chess.rules import Chess
from perfectplay.search.mate import find_mate

CASES = [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 3),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 3),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 4),
    ("startpos", 3),
    # Win at Chess 283 and 278 (they once stopped at 512 MB, before --tt-size was obeyed).
    ("3q1rk1/4bp1p/1n2P2Q/3p1p2/6r1/Pp2R2N/1B4PP/7K w - - 0 1", 4),
    ("r2qkb1r/pppb2pp/2np1n2/5pN1/2BQP3/2N5/PPP2PPP/R1B1K2R w KQkq - 0 1", 5),
]


def main() -> None:
    game = Chess()
    print("| position | --mate | answer | line | nodes | ms | CPU ms |")
    print("|---|---:|---|---|---:|---:|---:|")
    for fen, limit in CASES[:4] if "--quick" in sys.argv else CASES:
        position = game.parse_position(fen)
        started, cpu = time.perf_counter(), time.process_time()
        found = find_mate(game, position, limit)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        answer = f"mate in {found.moves}" if found.moves else f"none within {limit}"
        line = game.describe_line(position, found.line) if found.line else "-"
        print(f"| `{fen}` | {limit} | {answer} | {line} | {found.nodes:,} | {elapsed * 1000:,.0f} | "
              f"{cpu * 1000:,.0f} |",
              flush=True)


if __name__ == "__main__":
    main()

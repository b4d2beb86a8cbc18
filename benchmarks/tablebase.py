"""Chess endgame table figures (docs/tablebase.md): build time, sizes, counts, longest mates.

    .venv/bin/python benchmarks/tablebase.py [--dir DIR] [--repeat 3]

Builds KQK, KRK and KPK from scratch into DIR (a temporary directory by default) ``repeat``
times after one warm-up build (which compiles the numba kernels, or loads them from numba's
cache), and prints the best wall time of each table, its legal positions and moves, the file
size, the counts by value for each side to move, the longest mates and how many positions
have them, counted both as positions and up to the board's symmetries (the form in which
the published statistics give them).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from perfectplay.games.chess.tablebase import build_tables
from perfectplay.games.chess.tablebase.files import load, path_of
from perfectplay.games.chess.tablebase.index import (
    ILLEGAL,
    SIZE,
    TABLES,
    moves_to_mate,
    summary,
    symmetry_classes,
)


def report(name: str, values: np.ndarray) -> None:
    half = SIZE // 2
    for side, part in (("strong", values[:half]), ("weak", values[half:])):
        counts = summary(values)[side]
        kind = "win" if side == "strong" else "loss"
        plies = counts[f"longest_{kind}"]
        extreme = part.max() if side == "strong" else part[part != ILLEGAL].min()
        longest = np.flatnonzero(part == extreme)
        print(f"  {side} side to move: {counts['positions']:,} positions, {counts['wins']:,} wins, "
              f"{counts['draws']:,} draws, {counts['losses']:,} losses; longest {kind}: "
              f"{'mate' if side == 'strong' else 'mated'} in {moves_to_mate(plies)} ({plies} plies), "
              f"{len(longest)} positions, "
              f"{symmetry_classes(name, longest)} up to symmetry")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    directory = Path(args.dir or tempfile.mkdtemp(prefix="tables-"))
    started = time.perf_counter()
    build_tables(list(TABLES), directory)
    print(f"warm-up build (numba compile or cache load included): {time.perf_counter() - started:.2f} s")
    best: dict[str, float] = {}
    for _ in range(args.repeat):
        for table in build_tables(list(TABLES), directory):
            best[table.name] = min(best.get(table.name, float("inf")), table.seconds)
            positions, edges = table.positions, table.edges
            best[f"{table.name} positions"], best[f"{table.name} edges"] = positions, edges
    print(f"load average: {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    for name in TABLES:
        path = path_of(name, directory)
        print(f"{name}: built in {best[name]:.2f} s (best of {args.repeat}); "
              f"{int(best[name + ' positions']):,} legal positions, {int(best[name + ' edges']):,} moves; "
              f"{path.stat().st_size:,} bytes")
        report(name, load(name, directory))


if __name__ == "__main__":
    main()

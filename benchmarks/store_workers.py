"""The compiled builder on one thread against N (``db build --workers N``), interleaved in
one run so that a shared machine's load falls on both alike: wall and CPU seconds of each
build, the ratio of each pair, and whether the files hold the same rows and batches.

    python benchmarks/store_workers.py --width 5 --height 4 --rounds 3
    python benchmarks/store_workers.py --game tictactoe --rounds 3

Each build is a fresh process (`perfectplay db build`, as a user runs it), so imports and
the kernels' compilation count, as they do for a user.
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def build(arguments: list[str], path: Path, workers: int) -> tuple[float, float]:
    """Wall and CPU seconds of one build from scratch."""
    path.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "perfectplay", "db", "build", *arguments, "--db", str(path),
                    "--quiet", "--workers", str(workers)], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def contents(path: Path) -> tuple[list[object], list[object]]:
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT id, key, value FROM positions ORDER BY id").fetchall()
        batches = connection.execute("SELECT tier, part, first_id, last_id, count, checksum "
                                     "FROM batches ORDER BY id").fetchall()
    return rows, batches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--width", type=int, default=5)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    arguments = [args.game] + (["--width", str(args.width), "--height", str(args.height)]
                               if args.game == "connect4" else [])
    with tempfile.TemporaryDirectory() as folder:
        one, many = Path(folder) / "one.db", Path(folder) / "many.db"
        ratios = []
        for round_ in range(1, args.rounds + 1):
            # Alternate which goes first, so neither always meets the same moment of load.
            order = [(1, one), (args.workers, many)]
            times = {}
            for workers, path in order if round_ % 2 else order[::-1]:
                times[workers] = build(arguments, path, workers)
            ratio = times[1][0] / times[args.workers][0]
            ratios.append(ratio)
            load = os.getloadavg()[0]
            print(f"round {round_}: 1 thread {times[1][0]:.2f} s wall ({times[1][1]:.2f} s CPU), "
                  f"{args.workers} threads {times[args.workers][0]:.2f} s wall "
                  f"({times[args.workers][1]:.2f} s CPU): {ratio:.2f}x; load {load:.1f}", flush=True)
        same = contents(one) == contents(many)
        print(f"{' '.join(arguments)}: {args.workers} threads against 1, wall: "
              f"{min(ratios):.2f}x-{max(ratios):.2f}x over {args.rounds} rounds; identical files: {same}")


if __name__ == "__main__":
    main()

"""The dense record file written by the compiled builder itself (``db build --dense PATH``
without ``--db``) on one thread against N, alternating which goes first, each build a fresh
process: wall and CPU seconds of each, the CPU of each phase, and whether the files are the
same bytes. One line prints the whole table:

    python benchmarks/dense_build.py --boards 5x4,5x5,6x4 --rounds 1 --against-sqlite

A phase's CPU is the process's (every thread's) between the build's progress lines, and
its wall time beside it (a phase split across threads takes less wall than CPU):
``forward`` (expanding and folding the tiers), ``backward`` (valuing, packing, writing the
records at their ranks; each finished tier kept for a resume by one more thread),
``checksums`` (a CRC-32 a chunk of 2^20 records) and ``flush`` (the map written out, the
header in front: the only phase on one thread). ``other`` is the rest of the process:
imports and loading the kernels. ``main thread CPU`` is what the build's own thread spent
(the pool's threads do the pieces): with N threads, the part of the build that no thread
count shortens. 6x4 and 5x5 are 2^30 records (a 2 GiB file each, and the
scratch folder holds two at a time).
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PHASES = ("forward", "backward", "checksums", "flush")

# Run in the child: one build in this process, the CPU and wall time at each phase's end.
CHILD = """
import json, resource, sys, time
from perfectplay import registry
from perfectplay.store.build import build
marks = []
def report(line):
    marks.append((line.split(":")[0], time.process_time(), time.perf_counter()))
width, height, threads, path = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game, start = registry.load("connect4", {"width": width, "height": height})
begun = (time.process_time(), time.perf_counter())
build(game, start, None, dense_path=path, workers=threads, report=report)
ends = {}
for phase, cpu, wall in marks:
    ends[phase] = (cpu, wall)
print(json.dumps({"begun": begun, "ends": ends, "main": time.thread_time(),
                  "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def one_build(width: int, height: int, threads: int, path: Path) -> dict[str, float]:
    """Wall and CPU seconds of one build from scratch in a fresh process, and each phase's CPU."""
    path.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(width), str(height), str(threads), str(path)],
                          check=True, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    marks = json.loads(done.stdout.splitlines()[-1])
    figures = {"wall": wall, "cpu": after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime}
    # The phases end at the last line each reports; "dense" is the line after the flush.
    ends = marks["ends"]
    previous = marks["begun"]
    for phase, line in zip(PHASES, ("forward", "backward", "checksums", "dense"), strict=True):
        figures[phase] = ends[line][0] - previous[0]
        figures[f"{phase} wall"] = ends[line][1] - previous[1]
        previous = ends[line]
    figures["other"] = figures["cpu"] - sum(figures[phase] for phase in PHASES)
    figures["other wall"] = wall - sum(figures[f"{phase} wall"] for phase in PHASES)
    figures["main"] = marks["main"]
    figures["peak"] = marks["peak"] / 1024 ** 2  # kB to GB
    return figures


def sqlite_build(width: int, height: int, path: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the compiled builder's SQLite file on one thread, as a user
    runs it: the build the goal is measured against."""
    path.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "perfectplay", "db", "build", "connect4", "--width",
                    str(width), "--height", str(height), "--db", str(path), "--quiet"],
                   check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    path.unlink()
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", default="5x4", help="WxH,WxH,... (Connect Four)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against-sqlite", action="store_true",
                        help="each round also builds the SQLite file with the compiled builder "
                             "on one thread, and gives N threads' dense build against it")
    args = parser.parse_args()
    print(f"{'board':5} {'round':>5} {'threads':>7} {'wall s':>8} {'CPU s':>7} "
          + " ".join(f"{phase + ' CPU/wall':>19}" for phase in (*PHASES, "other"))
          + f" {'main thread CPU':>15} {'peak GB':>7} {'ratio':>6} {'load':>5}")
    with tempfile.TemporaryDirectory(dir=os.environ.get("DENSE_SCRATCH")) as folder:
        for board in args.boards.split(","):
            width, height = (int(side) for side in board.split("x"))
            one, many = Path(folder) / "one.dense", Path(folder) / "many.dense"
            ratios = []
            for round_ in range(1, args.rounds + 1):
                # Alternate which goes first, so neither always meets the same moment of load.
                order = [(1, one), (args.threads, many)]
                times = {}
                for threads, path in order if round_ % 2 else order[::-1]:
                    times[threads] = one_build(width, height, threads, path)
                ratios.append(times[1]["wall"] / times[args.threads]["wall"])
                load = os.getloadavg()[0]
                if args.against_sqlite:
                    wall, cpu = sqlite_build(width, height, Path(folder) / "one.db")
                    print(f"{board:5} {round_:>5} {'1 (SQLite)':>7} {wall:>8.2f} {cpu:>7.2f} "
                          f"{'':>123} {wall / times[args.threads]['wall']:>5.2f}x "
                          f"{os.getloadavg()[0]:>5.1f}", flush=True)
                for threads in (1, args.threads):
                    figures = times[threads]
                    ratio = f"{ratios[-1]:.2f}x" if threads != 1 else ""
                    print(f"{board:5} {round_:>5} {threads:>7} {figures['wall']:>8.2f} "
                          f"{figures['cpu']:>7.2f} "
                          + " ".join(f"{figures[phase]:>11.2f}/{figures[phase + ' wall']:<7.2f}"
                                     for phase in (*PHASES, "other"))
                          + f" {figures['main']:>15.2f} {figures['peak']:>7.2f} {ratio:>6} {load:>5.1f}",
                          flush=True)
            same = filecmp.cmp(one, many, shallow=False)
            print(f"{board}: {args.threads} threads against 1, wall {min(ratios):.2f}x-{max(ratios):.2f}x "
                  f"over {args.rounds} rounds; identical files: {same}", flush=True)
            one.unlink()
            many.unlink()


if __name__ == "__main__":
    main()

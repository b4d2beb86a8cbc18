"""The Python engine on Pascal Pons' Connect Four test sets, against the compiled kernel.

    python benchmarks/connect4_python.py ../shared/data/connect4/Test_L2_R1 ... [--every K]
        [--sample N] [--cap S] [--algorithm auto|tt|...]

For every K-th position (or a fixed random sample of N, seed 13): the Python engine's exact
solve (``perfectplay.solve(..., engine="python")``, by default ``--algorithm auto``, which
for Connect Four is the kernel's mirror ``null-window``; value, every optimal move; no line)
and the kernel's score alone (its ``narrow`` entry point called directly, without the
worker thread that Engine.score starts for positions with 20 or more empty squares), both
timed in CPU seconds of this process, the score checked against the set. A Python solve
stopped by the cap counts as unsolved. Prints per set: positions, solved, mismatches, how
many Python solves counted the kernel's nodes to find the value, total times, the median
and worst ratio Python / kernel, and how many positions the Python engine solves within
100x the kernel's time (issue 13's target).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from perfectplay import solve
import numpy as np

from perfectplay.compiled import c4_kernel as K
from perfectplay.compiled.connect4 import Engine
from perfectplay.errors import LimitReached
from perfectplay.games.connect4 import ConnectFour
from perfectplay.search.limits import Limits

# The kernel's time below this is the clock's noise; ratios use at least this much.
KERNEL_FLOOR = 20e-6


def python_score(game: ConnectFour, moves: str, cap: float,
                 algorithm: str) -> tuple[int | None, float, int]:
    """The score, the CPU time and the nodes spent finding the value (not the moves)."""
    position = game.parse_position(moves)
    started = time.process_time()
    try:
        found = solve(game, position, algorithm=algorithm, engine="python", pv_limit=0,
                      limits=Limits(time=cap))
    except LimitReached:
        return None, time.process_time() - started, 0
    return int(game.score_of(position, found.value)), time.process_time() - started, \
        found.stats.nodes


def kernel_score(engine: Engine, game: ConnectFour, moves: str) -> tuple[int, float, int]:
    """The score, the CPU time and the nodes, by the kernel's ``narrow`` called directly."""
    position = game.parse_position(moves)
    mover, occupied, stones = np.uint64(position[0]), np.uint64(position[1]), game.stones(position)
    engine.new_solve()
    started = time.process_time()
    low, high = -game.cells, game.cells
    while low < high:
        low, high = K.narrow(mover, occupied, stones, low, high, game.cells, engine.work)
    return int(low), time.process_time() - started, engine.counters()[0]


def run_set(path: Path, every: int, sample: int | None, cap: float, algorithm: str,
            engine: Engine, game: ConnectFour) -> str:
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()][::every]
    if sample is not None and sample < len(lines):
        lines = random.Random(13).sample(lines, sample)
    ratios: list[float] = []
    solved = mismatches = within = same_nodes = 0
    python_total = kernel_total = 0.0
    for moves, expected in lines:
        score, python_time, python_nodes = python_score(game, moves, cap, algorithm)
        kernel, kernel_time, kernel_nodes = kernel_score(engine, game, moves)
        same_nodes += python_nodes == kernel_nodes
        python_total += python_time
        kernel_total += kernel_time
        if kernel != int(expected) or (score is not None and score != int(expected)):
            mismatches += 1
            print(f"  MISMATCH {moves}: expected {expected}, python {score}, kernel {kernel}",
                  file=sys.stderr)
        if score is None:
            ratios.append(float("inf"))
            continue
        solved += 1
        ratio = python_time / max(kernel_time, KERNEL_FLOOR)
        ratios.append(ratio)
        within += ratio <= 100
    worst = max(ratios, default=0.0)
    return (f"| {path.name} | {len(lines)} | {solved} | {mismatches} | {same_nodes} | "
            f"{python_total:.2f} s | "
            f"{kernel_total * 1e3:.1f} ms | {statistics.median(ratios):.0f}x | "
            f"{'unsolved' if worst == float('inf') else f'{worst:.0f}x'} | {within} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="test set files (moves score)")
    parser.add_argument("--every", type=int, default=1, help="every K-th line only")
    parser.add_argument("--sample", type=int, help="a fixed random sample of this many lines")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per Python solve")
    parser.add_argument("--algorithm", default="auto", help="the Python method (default auto)")
    args = parser.parse_args(argv)
    game = ConnectFour()
    engine = Engine(game)
    kernel_score(engine, game, "4455")  # load or compile the kernel before timing
    print("| set | positions | Python solved | mismatches | kernel's node count | Python CPU | "
          "kernel CPU | median ratio | worst ratio | within 100x |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in args.sets:
        print(run_set(path, args.every, args.sample, args.cap, args.algorithm, engine, game),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

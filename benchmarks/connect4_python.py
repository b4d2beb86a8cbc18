"""The Python engine on Pascal Pons' Connect Four test sets, against the compiled kernel.

    python benchmarks/connect4_python.py ../shared/data/connect4/Test_L2_R1 ... [--every K] [--cap S]

For every K-th position: the Python engine's exact solve (``--algorithm tt --engine python``,
value, every optimal move; no line) and the kernel's score, both timed in CPU seconds of
this process, the score checked against the set. A Python solve stopped by the cap counts as
unsolved. Prints per set: positions, solved, mismatches, total times, the median and worst
ratio Python / kernel, and how many positions the Python engine solves within 100x the
kernel's time (issue 13's target).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from perfectplay import solve
from perfectplay.compiled.connect4 import Engine
from perfectplay.errors import LimitReached
from perfectplay.games.connect4 import ConnectFour
from perfectplay.search.limits import Limits

# The kernel's time below this is the clock's noise; ratios use at least this much.
KERNEL_FLOOR = 20e-6


def python_score(game: ConnectFour, moves: str, cap: float) -> tuple[int | None, float, int]:
    position = game.parse_position(moves)
    started = time.process_time()
    try:
        found = solve(game, position, algorithm="tt", engine="python", pv_limit=0,
                      limits=Limits(time=cap))
    except LimitReached:
        return None, time.process_time() - started, 0
    nodes = found.stats.nodes + found.stats.extra_nodes
    return int(game.score_of(position, found.value)), time.process_time() - started, nodes


def kernel_score(engine: Engine, game: ConnectFour, moves: str) -> tuple[int, float]:
    position = game.parse_position(moves)
    engine.new_solve()
    started = time.process_time()
    score = engine.score(position)
    return score, time.process_time() - started


def run_set(path: Path, every: int, cap: float, engine: Engine, game: ConnectFour) -> str:
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()][::every]
    ratios: list[float] = []
    solved = mismatches = within = 0
    python_total = kernel_total = 0.0
    for moves, expected in lines:
        score, python_time, _ = python_score(game, moves, cap)
        kernel, kernel_time = kernel_score(engine, game, moves)
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
    return (f"| {path.name} | {len(lines)} | {solved} | {mismatches} | {python_total:.2f} s | "
            f"{kernel_total * 1e3:.1f} ms | {statistics.median(ratios):.0f}x | "
            f"{'unsolved' if worst == float('inf') else f'{worst:.0f}x'} | {within} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="test set files (moves score)")
    parser.add_argument("--every", type=int, default=1, help="every K-th line only")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per Python solve")
    args = parser.parse_args(argv)
    game = ConnectFour()
    engine = Engine(game)
    kernel_score(engine, game, "4455")  # load or compile the kernel before timing
    print("| set | positions | Python solved | mismatches | Python CPU | kernel CPU | "
          "median ratio | worst ratio | within 100x |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in args.sets:
        print(run_set(path, args.every, args.cap, engine, game), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

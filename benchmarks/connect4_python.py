"""The Python engine on Pascal Pons' Connect Four test sets, against the compiled kernel.

    python benchmarks/connect4_python.py ../shared/data/connect4/Test_L2_R1 ... [--every K]
        [--sample N] [--repeat R] [--cap S] [--algorithm auto|tt|...]

For every K-th position (or a fixed random sample of N, seed 13), each timed in CPU seconds
of this process, the best of R runs (the machine is shared; the minimum is the least
disturbed run):

* Python: ``perfectplay.solve(..., engine="python", pv_limit=0)``, by default ``--algorithm
  auto``, which for Connect Four is ``null-window``, the kernel's search in pure Python: the
  value and every optimal move, no line;
* the kernel's score alone: its ``narrow`` entry point called directly (as the previous
  round of this benchmark measured it, with Engine.score);
* the kernel doing the Python solve's work: value and every optimal move through the same
  answers.solve, its entry points called directly (without the worker thread that
  Engine._run starts once a solve passes DIRECT_NODES nodes, which would only add
  time to the kernel's side).

Scores are checked against the set; a Python solve stopped by the cap counts as unsolved.
Prints per set: positions, solved, mismatches, how many Python solves counted exactly the
kernel's nodes to find the value, total times, then the ratio Python / kernel against each
kernel figure: median, worst, and how many positions are within 100x (the target).
The three worst positions go to stderr.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay import solve
from perfectplay.errors import LimitReached
from perfectplay.games.connect4 import answers
from perfectplay.games.connect4 import kernel as K
from perfectplay.games.connect4.kernel_engine import Engine
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.search.limits import Limits

# The kernel's time below this is the clock's noise; ratios use at least this much.
KERNEL_FLOOR = 20e-6
TARGET = 100


class DirectEngine(Engine):
    """The kernel's engine with its entry points called in this thread."""

    def _run(self, kernel: Any, *args: Any) -> Any:
        return kernel(*args)

    def reset_counters(self, node_limit: int | None = None) -> None:
        super().reset_counters(node_limit)
        self.direct_part = False  # no direct part to end: the node limit is the caller's
        self.work[K.NODE_LIMIT] = self.node_limit


def best_time(run: Callable[[], Any], repeat: int) -> tuple[Any, float]:
    """What ``run`` returns, and its least CPU time over ``repeat`` runs."""
    least = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        answer = run()
        least = min(least, time.process_time() - started)
    return answer, least


def python_solve(game: ConnectFour, moves: str, cap: float, algorithm: str,
                 repeat: int) -> tuple[int | None, float, int]:
    """The score, the CPU time and the nodes spent finding the value (not the moves)."""
    position = game.parse_position(moves)
    try:
        found, seconds = best_time(lambda: solve(game, position, algorithm=algorithm,
                                                 engine="python", pv_limit=0,
                                                 limits=Limits(time=cap)), repeat)
    except LimitReached:
        return None, cap, 0
    return int(game.score_of(position, found.value)), seconds, found.stats.nodes


def kernel_score(engine: Engine, game: ConnectFour, moves: str,
                 repeat: int) -> tuple[int, float, int]:
    """The score, the CPU time and the nodes, by the kernel's ``narrow`` called directly."""
    position = game.parse_position(moves)
    mover, occupied, stones = np.uint64(position[0]), np.uint64(position[1]), game.stones(position)

    def run() -> int:
        engine.new_solve()
        low, high = -game.cells, game.cells
        while low < high:
            low, high = K.narrow(mover, occupied, stones, low, high, game.cells, engine.work)
        return int(low)

    score, seconds = best_time(run, repeat)
    return score, seconds, engine.counters()[0]


def kernel_solve(engine: Engine, game: ConnectFour, moves: str, repeat: int) -> float:
    """The CPU time of the kernel's value and every optimal move (the Python solve's work)."""
    position = game.parse_position(moves)

    def run() -> None:
        engine.new_solve()
        answers.solve(engine, position, "kernel", pv_limit=0)

    return best_time(run, repeat)[1]


def summary(ratios: list[float]) -> str:
    worst = max(ratios, default=0.0)
    within = sum(ratio <= TARGET for ratio in ratios)
    return (f"{statistics.median(ratios):.0f}x | "
            f"{'unsolved' if worst == float('inf') else f'{worst:.0f}x'} | {within}")


def run_set(path: Path, args: argparse.Namespace, engine: Engine, game: ConnectFour) -> str:
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()][::args.every]
    if args.sample is not None and args.sample < len(lines):
        lines = random.Random(13).sample(lines, args.sample)
    to_score: list[float] = []
    to_solve: list[float] = []
    worst: list[tuple[float, str, int, float, float]] = []
    solved = mismatches = same_nodes = 0
    python_total = kernel_total = 0.0
    for moves, expected in lines:
        score, python_time, python_nodes = python_solve(game, moves, args.cap, args.algorithm,
                                                        args.repeat)
        kernel, kernel_time, kernel_nodes = kernel_score(engine, game, moves, args.repeat)
        solve_time = kernel_solve(engine, game, moves, args.repeat)
        same_nodes += python_nodes == kernel_nodes
        python_total += python_time
        kernel_total += kernel_time
        if kernel != int(expected) or (score is not None and score != int(expected)):
            mismatches += 1
            print(f"  MISMATCH {moves}: expected {expected}, python {score}, kernel {kernel}",
                  file=sys.stderr)
        if score is None:
            to_score.append(float("inf"))
            to_solve.append(float("inf"))
            continue
        solved += 1
        to_score.append(python_time / max(kernel_time, KERNEL_FLOOR))
        to_solve.append(python_time / max(solve_time, KERNEL_FLOOR))
        worst.append((to_score[-1], moves, kernel_nodes, python_time, kernel_time))
    for ratio, moves, nodes, python_time, kernel_time in sorted(worst)[-3:]:
        print(f"  {path.name} {moves}: {ratio:.0f}x the kernel's score ({nodes:,} nodes; "
              f"Python {python_time * 1e3:.2f} ms, kernel {kernel_time * 1e3:.3f} ms)",
              file=sys.stderr)
    return (f"| {path.name} | {len(lines)} | {solved} | {mismatches} | {same_nodes} | "
            f"{python_total:.2f} s | {kernel_total * 1e3:.1f} ms | {summary(to_score)} | "
            f"{summary(to_solve)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="test set files (moves score)")
    parser.add_argument("--every", type=int, default=1, help="every K-th line only")
    parser.add_argument("--sample", type=int, help="a fixed random sample of this many lines")
    parser.add_argument("--repeat", type=int, default=3, help="runs per position; the least counts")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds per Python solve")
    parser.add_argument("--algorithm", default="auto", help="the Python method (default auto)")
    args = parser.parse_args(argv)
    game = ConnectFour()
    engine = DirectEngine(game)
    kernel_score(engine, game, "4455", 1)  # load or compile the kernel before timing
    print("| set | positions | Python solved | mismatches | kernel's node count | Python CPU | "
          "kernel CPU (score) | vs score: median | worst | within 100x | "
          "vs same solve: median | worst | within 100x |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in args.sets:
        print(run_set(path, args, engine, game), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

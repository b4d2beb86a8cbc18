"""Nodes and CPU time per algorithm on the classic small cases.

The take-away game at 20 sticks, tic-tac-toe, the crate line's two contest samples, the
claim line at 12 and 20, Nim 3 4 5 and 7 5 3 1, and the matchgame (misère Nim from 7 5 3 1).

Usage: python benchmarks/seeds.py [--repeat N]

CPU time (time.process_time) of the whole `solve` call, best of N runs, so other processes
on the machine disturb it little. The Python peers' figures compared with them were measured
the same way: easyAI (with its table) solves tic-tac-toe in 0.067 s, OpenSpiel's Python
alpha-beta in 0.038 s; OpenSpiel's Python alpha-beta needs 93 s for Nim 7 5 3 1.
"""

from __future__ import annotations

import argparse
import platform
import time

from perfectplay import registry, solve

CASES = [
    ("takeaway", "20", ["minimax", "memo", "alphabeta", "tt", "table", "grundy"]),
    ("tictactoe", None, ["minimax", "memo", "alphabeta", "tt", "id"]),
    ("crates", "3 9 1", ["minimax", "memo", "alphabeta", "tt", "table"]),
    ("crates", "4 1 7 2 9", ["minimax", "memo", "alphabeta", "tt", "table"]),
    ("claim", "12", ["minimax", "memo", "alphabeta", "tt", "grundy"]),
    ("claim", "20", ["memo", "alphabeta", "tt", "grundy"]),
    ("nim", "3 4 5", ["minimax", "memo", "alphabeta", "tt", "grundy"]),
    ("nim", "7 5 3 1", ["memo", "alphabeta", "tt", "grundy"]),
    ("matchgame", None, ["memo", "alphabeta", "tt", "grundy"]),
]


def measure(name: str, position: str | None, algorithm: str, repeat: int,
            **options: object) -> tuple[object, float]:
    best = float("inf")
    solution = None
    for _ in range(repeat):
        # A fresh game each time: no cache (e.g. tic-tac-toe's symmetry keys) survives a run.
        game, start = registry.load(name, {}, position)
        started = time.process_time()
        solution = solve(game, start, algorithm=algorithm, **options)
        best = min(best, time.process_time() - started)
    return solution, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}")
    print("| game | position | algorithm | value | nodes | table hits | cutoffs | "
          f"CPU ms (best of {args.repeat}) |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for name, position, algorithms in CASES:
        for algorithm in algorithms:
            repeat = 1 if algorithm == "minimax" else args.repeat
            solution, seconds = measure(name, position, algorithm, repeat)
            stats = solution.stats  # type: ignore[attr-defined]
            print(f"| {name} | {position or 'start'} | {algorithm} | {solution.describe()} | "  # type: ignore[attr-defined]
                  f"{stats.nodes:,} | {stats.table_hits:,} | {stats.cutoffs:,} | {seconds * 1000:.2f} |")
    print()
    print("Against the Python peers (CPU seconds, whole solve call: value, every optimal move, line):")
    ttt, ttt_s = measure("tictactoe", None, "auto", args.repeat)
    nim, nim_s = measure("nim", "7 5 3 1", "tt", args.repeat)
    print(f"- tic-tac-toe exactly from the empty board (auto = tt): {ttt_s:.4f} s "
          f"(target < 0.02 s; easyAI 0.067 s, OpenSpiel Python alpha-beta 0.038 s)")
    print(f"- Nim 7 5 3 1 exactly by search (tt, with remoteness): {nim_s:.4f} s "
          f"(target < 0.010 s; OpenSpiel Python alpha-beta 93 s) -> {nim.describe()}")  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()

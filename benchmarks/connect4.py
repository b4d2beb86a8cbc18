"""Solve Pascal Pons' Connect Four test sets with the compiled kernel and check every score.

    python benchmarks/connect4.py ../shared/data/connect4/Test_L3_R1 ... [--every K]

Per set: positions solved, mismatches, mean and max time per position, mean nodes (explored
positions, counted as Pons counts them: one per call of the search function), nodes per
second. Any mismatch makes the exit code 1. The table is cleared before each position (in
O(1), by a new generation: see perfectplay.games.connect4.kernel_table), as Pons' benchmark resets
its solver; times cover the solve only, not reading the line. Times are CPU time of this
process (the machine is shared; wall time is printed too).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from perfectplay.games.connect4.kernel_engine import Engine
from perfectplay.games.connect4.rules import ConnectFour


@dataclass
class SetResult:
    name: str
    count: int = 0
    mismatches: list[str] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    wall: float = 0.0
    nodes: int = 0

    def row(self) -> str:
        mean = sum(self.cpu) / max(self.count, 1)
        rate = self.nodes / max(sum(self.cpu), 1e-9)
        return (f"| {self.name} | {self.count} | {len(self.mismatches)} | {_time(mean)} | "
                f"{_time(max(self.cpu, default=0.0))} | {self.nodes / max(self.count, 1):,.1f} | "
                f"{rate / 1e6:.2f} M | {self.wall:.1f} s |")


def _time(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def run_set(path: Path, every: int, engine: Engine, game: ConnectFour) -> SetResult:
    result = SetResult(path.name)
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    started = time.perf_counter()
    for moves, expected in lines[::every]:
        position = game.parse_position(moves)
        engine.new_solve()
        cpu = time.process_time()
        score = engine.score(position)
        result.cpu.append(time.process_time() - cpu)
        result.nodes += engine.counters()[0]
        result.count += 1
        if score != int(expected):
            result.mismatches.append(f"{moves}: expected {expected}, got {score}")
    result.wall = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="test set files (moves score)")
    parser.add_argument("--every", type=int, default=1, help="solve every K-th line only")
    parser.add_argument("--tt-size", default=None, help="table size (default 64MB)")
    args = parser.parse_args(argv)
    game = ConnectFour()
    engine = Engine(game, args.tt_size)
    engine.new_solve()
    engine.score(game.parse_position("4455"))  # load or compile the kernel before timing
    print("| set | positions | mismatches | mean time | max time | mean nodes | nodes/s | wall |")
    print("|---|---|---|---|---|---|---|---|")
    failed = False
    for path in args.sets:
        result = run_set(path, args.every, engine, game)
        print(result.row(), flush=True)
        for line in result.mismatches[:10]:
            print(f"  MISMATCH {line}", file=sys.stderr)
        failed = failed or bool(result.mismatches)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

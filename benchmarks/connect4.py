"""Solve Pascal Pons' Connect Four test sets with the compiled kernel and check every score.

    python benchmarks/connect4.py ../shared/data/connect4/Test_L3_R1 ... [--every K]
    python benchmarks/connect4.py SETS ... --pons DRIVER [--direct]

Per set: positions solved, mismatches, mean and max time per position, mean nodes (explored
positions, counted as Pons counts them: one per call of the search function), nodes per
second. Any mismatch makes the exit code 1. The table is cleared before each position (in
O(1), by a new generation: see perfectplay.games.connect4.kernel_table), as Pons' benchmark resets
its solver; times cover the solve only, not reading the line. Times are CPU time of this
process (the machine is shared; wall time is printed too).

With ``--pons DRIVER``, each position is also solved by Pascal Pons' C++ solver, interleaved
position by position (in every order in turn), so that both see the same machine load.
DRIVER is a program built outside this repository from his solver (never committed here):
it reads one line of moves, resets the solver's table, solves without an opening book and
prints ``score nodes cpu_us wall_us``. ``--direct`` adds the kernel's entry point called
directly (no Engine._run: no lock, no slice, no thread), the floor of what ours can cost.
Then a second table gives the mean CPU and wall time per position of each and the ratios.
"""

from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfectplay.games.connect4 import kernel as K
from perfectplay.games.connect4 import kernel_table as T
from perfectplay.games.connect4.kernel_engine import Engine, write_geometry
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


class DirectEngine(Engine):
    """The kernel's entry points called in this thread, nothing around them; its own array,
    so that its table is as cold or warm as the others' (engines of one board size share an
    array, and the second to solve a position would find the table's lines in the cache)."""

    def __init__(self, game: ConnectFour, table_size: str | None = None) -> None:
        super().__init__(game, table_size)
        entries = len(self.work) - T.HEADER
        self.work = T.allocate(entries, (game.height + 1) * game.width)
        write_geometry(self.work, game)
        self.lock = threading.RLock()

    def _run(self, kernel: Any, *args: Any) -> Any:
        return kernel(*args)

    def reset_counters(self, node_limit: int | None = None) -> None:
        super().reset_counters(node_limit)
        self.direct_part = False  # no direct part to end: the node limit is the caller's
        self.work[K.NODE_LIMIT] = self.node_limit


@dataclass
class Side:
    """One solver's totals over a set, side by side."""

    cpu: float = 0.0
    wall: float = 0.0
    nodes: int = 0


class Pons:
    """Pascal Pons' solver behind a pipe (see the module's docstring for DRIVER)."""

    def __init__(self, driver: str) -> None:
        self.process = subprocess.Popen([driver], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)

    def solve(self, moves: str) -> tuple[int, int, float, float]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(moves + "\n")
        self.process.stdin.flush()
        score, nodes, cpu_us, wall_us = self.process.stdout.readline().split()
        return int(score), int(nodes), float(cpu_us) / 1e6, float(wall_us) / 1e6

    def close(self) -> None:
        self.process.terminate()
        self.process.wait()


def ours(engine: Engine, position: Any) -> tuple[int, int, float, float]:
    engine.new_solve()
    cpu, wall = time.process_time(), time.perf_counter()
    score = engine.score(position)
    return score, engine.counters()[0], time.process_time() - cpu, time.perf_counter() - wall


def side_by_side(path: Path, every: int, engines: dict[str, Engine], pons: Pons,
                 game: ConnectFour) -> tuple[dict[str, Side], int, list[str]]:
    """Every ``every``-th position of ``path`` solved by each engine and by Pons' solver,
    interleaved, in every order in turn, so that each follows each other equally often (one
    that follows the C++ process pays for the switch: a rotation put "as shipped" after it
    twice as often as the directly called kernel, 16 us more a position)."""
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    names = [*engines, "Pons"]
    orders = list(itertools.permutations(names))
    sides = {name: Side() for name in names}
    wrong: list[str] = []
    count = 0
    for index, (moves, expected) in enumerate(lines[::every]):
        position = game.parse_position(moves)
        for name in orders[index % len(orders)]:
            if name == "Pons":
                score, nodes, cpu, wall = pons.solve(moves)
            else:
                score, nodes, cpu, wall = ours(engines[name], position)
            side = sides[name]
            side.cpu, side.wall, side.nodes = side.cpu + cpu, side.wall + wall, side.nodes + nodes
            if score != int(expected):
                wrong.append(f"{name} {moves}: expected {expected}, got {score}")
        count += 1
    return sides, count, wrong


def compare(args: argparse.Namespace, game: ConnectFour) -> int:
    engines: dict[str, Engine] = {"as shipped": Engine(game, args.tt_size)}
    if args.direct:
        engines["called directly"] = DirectEngine(game, args.tt_size)
    pons = Pons(args.pons)
    names = [*engines, "Pons"]
    print("| set | positions | wrong | " + " | ".join(
        f"{name}: mean CPU, wall, nodes" for name in names) + " | " + " | ".join(
        f"{name} / Pons: CPU, wall" for name in engines) + " |")
    print("|---" * (3 + len(names) + len(engines)) + "|")
    try:
        for path in args.sets:
            sides, count, wrong = side_by_side(path, args.every, engines, pons, game)
            means = [f"{_time(s.cpu / count)}, {_time(s.wall / count)}, {s.nodes / count:,.0f}"
                     for s in sides.values()]
            ratios = [f"{sides[n].cpu / sides['Pons'].cpu:.2f}x, "
                      f"{sides[n].wall / sides['Pons'].wall:.2f}x" for n in engines]
            print(f"| {path.name} | {count} | {len(wrong)} | " + " | ".join(means + ratios) + " |",
                  flush=True)
            for line in wrong[:10]:
                print(f"  MISMATCH {line}", file=sys.stderr)
            if wrong:
                return 1
    finally:
        pons.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="test set files (moves score)")
    parser.add_argument("--every", type=int, default=1, help="solve every K-th line only")
    parser.add_argument("--tt-size", default=None, help="table size (default 64MB)")
    parser.add_argument("--pons", metavar="DRIVER", help="also run Pons' solver, interleaved")
    parser.add_argument("--direct", action="store_true",
                        help="with --pons: also the kernel called directly")
    args = parser.parse_args(argv)
    game = ConnectFour()
    engine = Engine(game, args.tt_size)
    engine.new_solve()
    engine.score(game.parse_position("4455"))  # load or compile the kernel before timing
    if args.pons:
        return compare(args, game)
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

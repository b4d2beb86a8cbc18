"""Retrograde analysis speed: positions valued per CPU second, Python and compiled.

Usage: python benchmarks/retro.py [--repeat N] [--skip-large]

For each game: positions and edges reached from the start, the counts by value, and the best
of N runs' CPU time (time.process_time) of the whole analysis (enumerate, parents, retrograde)
on each engine. The compiled engine's first run in a process compiles its kernel: that is
reported apart ("compile + first run") and the speed is taken from the later runs, on the
same game object. Targets: at least 1 M positions/s compiled on a game with integer
positions, at least 50 k/s in Python.
"""

from __future__ import annotations

import argparse
import platform
import time
from typing import Any

from perfectplay import value as V
from perfectplay.games.chopsticks import Chopsticks
from perfectplay.games.dodgem import Dodgem
from perfectplay.games.morris3 import Tapatan, ThreeMensMorris
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.retro import solve_all


class EveryTicTacToePosition(TicTacToe):
    """Tic-tac-toe with no symmetry folding: 5,478 positions."""

    def key(self, position: int) -> int:
        return position

    def compiled_spec(self) -> Any:
        from dataclasses import replace

        from perfectplay.compiled.generic import identity_key
        from perfectplay.games.tictactoe.compiled import SPEC
        return replace(SPEC, key=identity_key)


def cpu_run(game: Any, engine: str) -> tuple[float, Any]:
    started = time.process_time()
    result = solve_all(game, engine=engine)
    return time.process_time() - started, result


def engine_cell(game: Any, engine: str, repeat: int) -> tuple[str, Any]:
    """'best ms = rate' for one engine, and the last result."""
    note = ""
    if engine == "compiled":
        first, _ = cpu_run(game, engine)
        note = f" (compile + first run {first:.1f} s)"
    runs = [cpu_run(game, engine) for _ in range(repeat)]
    best = min(seconds for seconds, _ in runs)
    result = runs[-1][1]
    rate = result.stats.positions / best if best > 0 else float("inf")
    return f"{best * 1000:,.1f} ms = {rate / 1000:,.0f} k/s{note}", result


def measure(label: str, game: Any, repeat: int) -> None:
    python, result = engine_cell(game, "python", repeat)
    compiled, compiled_result = engine_cell(game, "compiled", repeat)
    assert compiled_result.counts() == result.counts()
    counts = result.counts()
    print(f"| {label} | {result.stats.positions:,} | {result.stats.edges:,} | "
          f"{counts['win']:,} / {counts['loss']:,} / {counts['draw']:,} | "
          f"{V.describe(result.root_value)} | {python} | {compiled} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-large", action="store_true", help="leave out Dodgem 4x4")
    args = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}, {platform.processor() or '?'}")
    print("| game | positions | edges | win / loss / draw | start | Python | compiled |")
    print("|---|---:|---:|---|---|---:|---:|")
    games: list[tuple[str, Any]] = [
        ("tic-tac-toe (every position)", EveryTicTacToePosition()),
        ("tic-tac-toe (symmetry keys)", TicTacToe()),
        ("Chopsticks", Chopsticks()),
        ("Dodgem 3x3", Dodgem(3)),
        ("Three Men's Morris", ThreeMensMorris()),
        ("Tapatan", Tapatan()),
    ]
    if not args.skip_large:
        games.append(("Dodgem 4x4", Dodgem(4)))
    for label, game in games:
        measure(label, game, args.repeat)


if __name__ == "__main__":
    main()

"""Positions a second through the public API (solve without a line, analyze, lookup_many) on
database files of one Connect Four board, SQLite or dense, side by side: the same positions
reached by random play, every file in turn for ``--rounds`` rounds (the first round of a
SQLite file also checks each chunk's checksum as it first reads it; later rounds show a
long-lived reader's rate).

    perfectplay db build connect4 --width 5 --height 4 --db c54.db
    perfectplay db build connect4 --width 5 --height 4 --dense c54.dense --workers 2
    python benchmarks/api_lookups.py c54.db c54.dense --width 5 --height 4
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from perfectplay import analyze, lookup_many
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.solving import solve


def random_positions(game: ConnectFour, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        position = game.start()
        for _ in range(rng.randrange(0, game.width * game.height - 4)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(game.legal_moves(position)))
        if game.outcome(position) is None:
            found.append(position)
    return found


def rate(work: Callable[[], None], count: int) -> tuple[float, float]:
    """Positions a CPU second and a wall second."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return count / (time.process_time() - cpu), count / (time.perf_counter() - wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--width", type=int, default=5)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--positions", type=int, default=5_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = ConnectFour(args.width, args.height)
    positions = random_positions(game, args.positions, args.seed)
    many = positions * 20
    print(f"{len(positions):,} positions of Connect Four {args.width}x{args.height}; "
          "positions a CPU second (a wall second)")
    print("| round | file | solve(pv_limit=0) | analyze | lookup_many |")
    print("|---|---|---:|---:|---:|")
    for round_number in range(1, args.rounds + 1):
        for path in args.files:
            def solving(path: str = path) -> None:
                for position in positions:
                    solve(game, position, database=path, pv_limit=0)

            def analysing(path: str = path) -> None:
                for position in positions:
                    analyze(game, position, database=path)

            figures = [rate(solving, len(positions)), rate(analysing, len(positions)),
                       rate(lambda path=path: lookup_many(game, many, database=path), len(many))]
            cells = " | ".join(f"{cpu:,.0f} ({wall:,.0f})" for cpu, wall in figures)
            print(f"| {round_number} | {path} | {cells} |", flush=True)


if __name__ == "__main__":
    main()

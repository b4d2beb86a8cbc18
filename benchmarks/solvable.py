"""How long an exact solve takes at the edge of ``Game.solvable``: for each game with a
size rule, a few random positions at the threshold (the largest the game calls solvable)
and just past it, each solved by ``--engine auto`` (a game's kernel where it has one) with
every optimal move and no line. The rule the thresholds follow: a solve from a solvable
position finishes in seconds to a few minutes.

    nice -n 19 python benchmarks/solvable.py [--cap 120] [--positions 2] [--seed 1]
        [--only NAME [--counts 36,40]]

Time: CPU seconds of this process (the machine is shared, so wall time would mislead); a
solve that passes ``--cap`` seconds of CPU is stopped and shown as "> cap". Positions are
reached by uniformly random legal moves from the start (seeded), so a run is repeatable.
docs/benchmarks-log.md holds the table.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from perfectplay import registry, solving
from perfectplay.deciding import cpu_budget
from perfectplay.errors import LimitReached


@dataclass(frozen=True)
class Edge:
    """One game's threshold: the board, what is counted, and the counts to measure."""

    label: str
    game: str
    options: dict[str, Any]
    measure: Callable[[Any, Any], int]  # (game, position) -> the count the rule reads
    counts: tuple[int, ...]  # the threshold first, then just past it
    what: str


def empties(game: Any, position: Any) -> int:
    return int(game.board.bit_count() - (position[0] | position[1]).bit_count())


def hex_empties(game: Any, position: Any) -> int:
    return int(game.size * game.size - (position[0] | position[1]).bit_count())


def seeds(game: Any, position: Any) -> int:
    return int(game.total_points(position))


def undrawn(game: Any, position: Any) -> int:
    return int(game.edges - position[0].bit_count())


def c4_empties(game: Any, position: Any) -> int:
    return int(game.cells - position[1].bit_count())


EDGES = [
    Edge("Othello 8x8", "othello", {"size": 8}, empties, (12, 14), "empty squares"),
    Edge("Hex 5x5", "hex", {"size": 5}, hex_empties, (16, 18), "empty cells"),
    Edge("Kalah 6x4", "kalah", {}, seeds, (36, 40), "seeds in play"),
    Edge("Dots 4x3 boxes (31 lines)", "dots", {"width": 4, "height": 3}, undrawn, (16, 18),
         "lines left"),
    Edge("Connect Four 7x6", "connect4", {}, c4_empties, (42,), "empty squares"),
    Edge("Connect Four 8x6", "connect4", {"width": 8, "height": 6}, c4_empties, (44, 43),
         "empty squares"),
]


def random_position(game: Any, edge: Edge, count: int, rng: random.Random) -> Any | None:
    """A position with exactly ``count`` (the game not over) by random moves, or None."""
    for _ in range(200):
        position = game.start()
        while edge.measure(game, position) > count and game.outcome(position) is None:
            moves = list(game.moves(position))
            if not moves:
                break
            position = game.play(position, rng.choice(moves))
        if edge.measure(game, position) == count and game.outcome(position) is None \
                and game.moves(position):
            return position
    return None


def timed(game: Any, position: Any, cap: float) -> tuple[str, float]:
    """The value and the CPU seconds of an exact solve, stopped past ``cap`` seconds."""
    started = time.process_time()
    try:
        with cpu_budget(cap) as budget:
            solution = solving.solve(game, position, engine="auto", pv_limit=0, budget=budget)
    except LimitReached:
        return "stopped", time.process_time() - started
    return solution.describe(), time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="CPU seconds per solve")
    parser.add_argument("--positions", type=int, default=2, help="random positions per count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, help="one game's name")
    parser.add_argument("--counts", default=None,
                        help="with --only: the counts to measure instead, comma-separated (36,40)")
    arguments = parser.parse_args()
    print(f"python {platform.python_version()} on {platform.machine()}; cap {arguments.cap:g} s CPU")
    print("| game | count | solvable | position | value | CPU s |")
    print("|---|---|---|---|---|---:|")
    for edge in EDGES:
        if arguments.only not in (None, edge.game):
            continue
        game, _ = registry.resolve(edge.game, edge.options).load(None)
        rng = random.Random(arguments.seed)
        counts = edge.counts if arguments.counts is None else \
            tuple(int(word) for word in arguments.counts.split(","))
        for count in counts:
            for _ in range(arguments.positions if count != 42 or edge.options else 1):
                position = game.start() if count == 42 and not edge.options else \
                    random_position(game, edge, count, rng)
                if position is None:
                    print(f"| {edge.label} | {count} {edge.what} | - | none reached | - | - |")
                    continue
                value, seconds = timed(game, position, arguments.cap)
                shown = f"> {arguments.cap:g}" if value == "stopped" else f"{seconds:.1f}"
                print(f"| {edge.label} | {count} {edge.what} | {game.solvable(position)} | "
                      f"`{game.format_position(position)}` | {value} | {shown} |", flush=True)


if __name__ == "__main__":
    main()

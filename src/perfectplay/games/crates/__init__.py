"""The crate line, a score game: crates with values stand in a row; a move takes
the leftmost crate (L), the two leftmost (LL) or the rightmost (R), and the mover scores what
they take. The value is the best lead the mover can force: f = max(gain - f(rest)).

A position is the range [left, right) of crates still standing; the row lives in the game.
The rules are those of every row game (perfectplay.scoring.rows); the crate line only names
its takes. ``auto`` solves it bottom-up (--algorithm table) with O(n) memory.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from perfectplay.entry import Entry, TourSolve, TourStop, tour_solver
from perfectplay.game import Game
from perfectplay.games._parse import parse_ints
from perfectplay.scoring.contest import RowLoaders
from perfectplay.scoring.rows import Range, RowGame

__all__ = ["CrateLine", "Range", "brute_force_difference", "parse_row", "random_row"]


class CrateLine(RowGame):
    name = "crates"
    item = "crate"
    # The contest problem's order: L, then LL, then R (tie-breaks and node counts follow it).
    takes = ((1, 0), (2, 0), (0, 1))
    default_algorithm = "table"

    def __init__(self, values: Sequence[int] = (3, 9, 1)) -> None:
        super().__init__(values)

    def random_position(self, rng: random.Random) -> Range:
        return self.start()


def parse_row(text: str) -> list[int]:
    return parse_ints(text, "crate values")


def random_row(rng: random.Random, longest: int = 11, top: int = 20) -> list[int]:
    """The contest problem's test family: n from 1 to 11, values from 0 to 20."""
    return [rng.randint(0, top) for _ in range(rng.randint(1, longest))]


def brute_force_difference(values: list[int]) -> int:
    """The contest problem's reference: plain recursion over the list of remaining crates, no table and
    no code shared with the engine. Exponential; for rows of a dozen crates."""
    if not values:
        return 0
    options = [values[0] - brute_force_difference(values[1:]),
               values[-1] - brute_force_difference(values[:-1])]
    if len(values) >= 2:
        options.append(values[0] + values[1] - brute_force_difference(values[2:]))
    return max(options)


_LOADERS = RowLoaders(lambda values: CrateLine() if values is None else CrateLine(values),
                      parse_row, random_row, "crate")


def _brute_force(game: Game[Any, Any], position: Any) -> int:
    left, right = position
    return brute_force_difference(list(game.values[left:right]))  # type: ignore[attr-defined]


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop: two rows solved, with their totals and lines."""
    solved = tour_solver(solve, _LOADERS.load)
    lines = ["crate line (score game):"]
    for row in ("3 9 1", "4 1 7 2 9"):
        result = solved(row)
        mover, other = result.totals
        lines.append(f"  {row:<10} diff {result.value}, mover {mover} other {other}; "
                     f"line {' '.join(result.pv)}")
    return [*lines, ""]


def tour_at_scale(solve: TourSolve) -> list[str]:
    """The tour's stop among theory at scale: 2,000 crates by the bottom-up table."""
    row = " ".join(str((i * 7919) % 1_000_001) for i in range(2000))
    crates = tour_solver(solve, _LOADERS.load)(row, pv_limit=0)
    return [f"  2,000 crates tabulated bottom-up: diff {crates.value:,} in "
            f"{crates.stats.elapsed_s * 1000:.0f} ms", ""]


ENTRY = Entry("crates", "score game: take the leftmost crate, the two leftmost, or the rightmost",
              "VALUE..., e.g. 3 9 1", _LOADERS.load, aliases=("crate-line", "crateline"),
              random_case=_LOADERS.random_case, brute_force=_brute_force,
              read_input=_LOADERS.read_input,
              contest="perfectplay.games.crates.command:crates_command",
              tour=(TourStop(30, "perfectplay.games.crates:tour_lines"),
                    TourStop(72, "perfectplay.games.crates:tour_at_scale")), order=40)

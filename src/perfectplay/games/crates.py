"""The crate line (seed 002), a score game: crates with values stand in a row; a move takes
the leftmost crate (L), the two leftmost (LL) or the rightmost (R), and the mover scores what
they take. The value is the best lead the mover can force: f = max(gain - f(rest)).

A position is the range [left, right) of crates still standing; the row lives in the game.
"""

from __future__ import annotations

import random
from itertools import accumulate
from typing import Sequence

from perfectplay.errors import BadPosition
from perfectplay.game import Game, Kind, Properties
from perfectplay.games._parse import parse_ints

Range = tuple[int, int]


class CrateLine(Game[Range, str]):
    name = "crates"
    default_algorithm = "memo"

    def __init__(self, values: Sequence[int] = (3, 9, 1)) -> None:
        if any(value < 0 for value in values):
            raise BadPosition(f"crate values must not be negative (got {list(values)!r})")
        self.values = tuple(values)
        self.prefix = (0, *accumulate(self.values))
        self.properties = Properties(kind=Kind.SCORE, value_bound=self.prefix[-1],
                                     max_length=len(self.values))

    def start(self) -> Range:
        return (0, len(self.values))

    def moves(self, crates: Range) -> list[str]:
        left, right = crates
        if left >= right:
            return []
        return ["L", "LL", "R"] if right - left >= 2 else ["L", "R"]

    def play(self, crates: Range, move: str) -> Range:
        left, right = crates
        if move == "L":
            return (left + 1, right)
        if move == "LL":
            return (left + 2, right)
        return (left, right - 1)

    def gain(self, crates: Range, move: str) -> int:
        left, right = crates
        if move == "L":
            return self.values[left]
        if move == "LL":
            return self.values[left] + self.values[left + 1]
        return self.values[right - 1]

    def total_points(self, crates: Range) -> int:
        return self.prefix[crates[1]] - self.prefix[crates[0]]

    def format_position(self, crates: Range) -> str:
        return " ".join(map(str, self.values[crates[0]:crates[1]]))

    def render(self, crates: Range) -> str:
        left, right = crates
        if left >= right:
            return "(no crates left)"
        return "  ".join(f"[{value}]" for value in self.values[left:right])

    def random_position(self, rng: random.Random) -> Range:
        return self.start()


def parse_row(text: str) -> list[int]:
    return parse_ints(text, "crate values")


def random_row(rng: random.Random, longest: int = 11, top: int = 20) -> list[int]:
    """The seed's test family: n from 1 to 11, values from 0 to 20."""
    return [rng.randint(0, top) for _ in range(rng.randint(1, longest))]


def brute_force_difference(values: list[int]) -> int:
    """The seed's reference: plain recursion over the list of remaining crates, no table and
    no code shared with the engine. Exponential; for rows of a dozen crates."""
    if not values:
        return 0
    options = [values[0] - brute_force_difference(values[1:]),
               values[-1] - brute_force_difference(values[:-1])]
    if len(values) >= 2:
        options.append(values[0] + values[1] - brute_force_difference(values[2:]))
    return max(options)

"""The crate-line contest format for row games, read and written exactly.

Input: n, then n values (whitespace anywhere). Output:

    diff D
    mover M other O

where D is the first player's best lead and M, O the two totals under optimal play. With
``--pv`` two lines follow: ``best`` and every optimal first move, ``line`` and the whole
principal variation ("-" when the row is empty).

The input is checked once, here, and every error is one line that names the input (the
file, or <stdin>) and the offending token. n = 0 is a valid empty game: diff 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import BadPosition
from perfectplay.game import Game
from perfectplay.search.results import Solution


def read_row_input(text: str, source: str, item: str) -> list[int]:
    """The n values of a contest input; BadPosition (exit code 2 in the CLI) otherwise."""
    tokens = text.split()
    if not tokens:
        raise BadPosition(f"{source}: the input is empty; expected n, then n {item} values")
    count_text, value_texts = tokens[0], tokens[1:]
    if not _is_whole(count_text):
        raise BadPosition(f"{source}: the {item} count {count_text!r} is not a whole number "
                          "0 or more")
    count = int(count_text)
    if count != len(value_texts):
        raise BadPosition(f"{source}: n = {count} but {len(value_texts)} {item} values follow")
    # The common case in one pass; the slow scan below only runs to name a bad token.
    if text.isascii() and all(map(str.isdigit, value_texts)):
        return list(map(int, value_texts))
    for place, token in enumerate(value_texts, 1):
        _check_value(token, place, source, item)
    return list(map(int, value_texts))


def _is_whole(token: str) -> bool:
    return token.isascii() and token.isdigit()


def _check_value(token: str, place: int, source: str, item: str) -> None:
    if _is_whole(token):
        return
    if token.startswith("-") and _is_whole(token[1:]):
        raise BadPosition(f"{source}: {item} value {place} is {token}; {item} values must be "
                          "0 or more")
    raise BadPosition(f"{source}: {item} value {place} is {token!r}, not a whole number")


def answer_lines(solution: Solution, *, pv: bool = False) -> list[str]:
    """The contest's two output lines, and with ``pv`` the best first moves and the line."""
    mover, other = solution.totals if solution.totals is not None else (None, None)
    if mover is None:
        raise BadPosition(f"{solution.game}: totals unknown; the line was cut short")
    lines = [f"diff {solution.value}", f"mover {mover} other {other}"]
    if pv:
        lines.append("best " + (" ".join(solution.best_moves) or "-"))
        lines.append("line " + (" ".join(solution.pv) or "-"))
    return lines


@dataclass(frozen=True)
class RowLoaders:
    """The registry entry's loaders of a row game (crates, coins): from position text, at
    random for `verify`, and from a contest input file. ``make`` builds the game from its
    values, or with its default row when given None."""

    make: Callable[[list[int] | None], Game[Any, Any]]
    parse: Callable[[str], list[int]]
    random_values: Callable[[random.Random], list[int]]
    item: str

    def load(self, options: Mapping[str, Any], text: str | None) -> tuple[Game[Any, Any], Any]:
        return self._started(self.make(None if text is None else self.parse(text)))

    def random_case(self, rng: random.Random, options: Mapping[str, Any]) -> tuple[Game[Any, Any], Any]:
        return self._started(self.make(self.random_values(rng)))

    def read_input(self, text: str, source: str) -> tuple[Game[Any, Any], Any]:
        return self._started(self.make(read_row_input(text, source, self.item)))

    @staticmethod
    def _started(game: Game[Any, Any]) -> tuple[Game[Any, Any], Any]:
        return game, game.start()

"""The coin row, a score game: coins with values lie in a row; a move takes the coin at
either end, and the mover scores its value. It is the classic "Optimal Strategy for a Game"
interval problem, and a row game like the crate line (perfectplay.scoring.rows) with a
different set of takes: L (the left coin) or R (the right coin).

A known fact checks it: with an even number of coins the first player can take every
odd-placed coin or every even-placed one (taking an end always leaves the opponent ends of
the other parity), so the first player never loses with an even count.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from perfectplay.entry import Entry
from perfectplay.game import Game
from perfectplay.games._parse import parse_ints
from perfectplay.scoring.contest import RowLoaders
from perfectplay.scoring.rows import Range, RowGame

__all__ = ["CoinRow", "Range", "brute_force_first_total", "parse_coins", "random_coins"]


class CoinRow(RowGame):
    name = "coins"
    item = "coin"
    item_shape = "discs"
    takes = ((1, 0), (0, 1))
    default_algorithm = "table"

    def __init__(self, values: Sequence[int] = (8, 15, 3, 7)) -> None:
        super().__init__(values)

    def random_position(self, rng: random.Random) -> Range:
        return self.start()


def parse_coins(text: str) -> list[int]:
    return parse_ints(text, "coin values")


def random_coins(rng: random.Random, longest: int = 12, top: int = 20) -> list[int]:
    """Random rows for `perfectplay verify coins`: 1 to 12 coins, values 0 to 20."""
    return [rng.randint(0, top) for _ in range(rng.randint(1, longest))]


def brute_force_first_total(coins: list[int]) -> int:
    """The most the player to move can collect from ``coins``, by plain recursion over the
    list. It counts points, not the lead, so it shares neither code nor formulation with the
    engine: the opponent collects their best from what is left, the mover gets the rest."""
    if not coins:
        return 0
    rest_left, rest_right = coins[1:], coins[:-1]
    return max(coins[0] + sum(rest_left) - brute_force_first_total(rest_left),
               coins[-1] + sum(rest_right) - brute_force_first_total(rest_right))


_LOADERS = RowLoaders(lambda values: CoinRow() if values is None else CoinRow(values),
                      parse_coins, random_coins, "coin")


def _brute_force(game: Game[Any, Any], position: Any) -> int:
    left, right = position
    coins = list(game.values[left:right])  # type: ignore[attr-defined]
    return 2 * brute_force_first_total(coins) - sum(coins)


# After octal, so the numbers of the games listed before it (e.g. in `play`) do not move.
ENTRY = Entry("coins", "score game: take the coin at either end of the row",
              "VALUE..., e.g. 8 15 3 7", _LOADERS.load, aliases=("coin-row", "coinrow"),
              random_case=_LOADERS.random_case, brute_force=_brute_force,
              read_input=_LOADERS.read_input, order=80)

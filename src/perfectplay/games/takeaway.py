"""The take-away game (seed 000): one pile, a move takes an amount from a subtraction set
(1, 2 or 3 by default), and whoever takes the last stick wins (loses under misère play)."""

from __future__ import annotations

import random
from typing import Sequence

from perfectplay.errors import BadOption
from perfectplay.game import Game, Properties
from perfectplay.games._parse import parse_count


class TakeAway(Game[int, int]):
    name = "takeaway"
    default_algorithm = "memo"

    def __init__(self, takes: Sequence[int] = (1, 2, 3), *, sticks: int = 20,
                 misere: bool = False) -> None:
        if not takes or min(takes) < 1:
            raise BadOption(f"subtraction set {list(takes)!r} must hold positive amounts")
        # Ascending, as seed 000 tries them: its call counts depend on this order.
        self.takes = tuple(sorted(set(takes)))
        self.sticks = sticks
        self.properties = Properties(misere=misere, impartial=True)

    def start(self) -> int:
        return self.sticks

    def moves(self, pile: int) -> list[int]:
        return [take for take in self.takes if take <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def tabulation(self, pile: int) -> range:
        """Piles by size: a move always makes the pile smaller."""
        return range(0, pile + 1)

    def components(self, pile: int) -> list[int]:
        # One pile, one component: declared so the Sprague-Grundy solver takes the game.
        return [pile]

    def parse_position(self, text: str) -> int:
        return parse_count(text, "take-away pile")

    def render(self, pile: int) -> str:
        return f"{pile} sticks: " + "|" * min(pile, 60) + ("..." if pile > 60 else "")

    def random_position(self, rng: random.Random) -> int:
        return rng.randrange(0, 25)

"""Nim (seed 004, challenge 3): piles of sticks; a move takes any positive number from one
pile. Normal play: taking the last stick wins; misère play (--misere): it loses.

Moves are written ROW:COUNT with rows numbered from 1 ("2:3" takes 3 from row 2); "2 3" and
"2,3" are read too.
"""

from __future__ import annotations

import random
import re
from typing import Sequence

from perfectplay.errors import IllegalMove
from perfectplay.game import Game, Properties
from perfectplay.games._parse import parse_ints
from perfectplay.games._size import refuse_long_move_list

Piles = tuple[int, ...]
Move = tuple[int, int]

_MOVE = re.compile(r"^\s*(\d+)\s*[:, ]\s*(\d+)\s*$")


class Nim(Game[Piles, Move]):
    name = "nim"

    def __init__(self, piles: Sequence[int] = (3, 4, 5), *, misere: bool = False) -> None:
        self.piles = tuple(piles)
        self.properties = Properties(misere=misere, impartial=True)

    def start(self) -> Piles:
        return self.piles

    def moves(self, piles: Piles) -> list[Move]:
        refuse_long_move_list(sum(piles), f"nim {self.format_position(piles)}")
        # Big takes first: they end the game sooner, which tightens the window early.
        return [(row, take) for row, size in enumerate(piles) for take in range(size, 0, -1)]

    def is_legal(self, piles: Piles, move: Move) -> bool:
        # Without listing moves: a heap of 10^30 has 10^30 of them (issue 13: play nim 10^30).
        row, take = move
        return 0 <= row < len(piles) and 1 <= take <= piles[row]

    def has_moves(self, piles: Piles) -> bool:
        return any(piles)

    def play(self, piles: Piles, move: Move) -> Piles:
        row, take = move
        return piles[:row] + (piles[row] - take,) + piles[row + 1:]

    def key(self, piles: Piles) -> Piles:
        # The order of the piles and the empty ones do not change the game.
        return tuple(sorted(size for size in piles if size))

    def components(self, piles: Piles) -> list[Piles]:
        # Each pile is a game of its own: the sum is what the XOR rule solves.
        return [(size,) for size in piles if size]

    def format_move(self, piles: Piles, move: Move) -> str:
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, piles: Piles, text: str) -> Move:
        match = _MOVE.match(text)
        if not match:
            raise IllegalMove(f"{text!r} is not a move; write ROW COUNT, e.g. '1 3' takes 3 from row 1")
        row, take = int(match.group(1)), int(match.group(2))
        if not 1 <= row <= len(piles):
            raise IllegalMove(f"{text!r}: there is no row {row}; rows are 1 to {len(piles)}")
        if take < 1:
            raise IllegalMove(f"{text!r}: take at least one stick")
        if take > piles[row - 1]:
            raise IllegalMove(f"{text!r}: row {row} has only {piles[row - 1]} sticks")
        return (row - 1, take)

    def format_position(self, piles: Piles) -> str:
        return " ".join(map(str, piles))

    def parse_position(self, text: str) -> Piles:
        return tuple(parse_ints(text, "nim piles"))

    def render(self, piles: Piles) -> str:
        width = len(str(len(piles)))
        return "\n".join(f"{row + 1:>{width}}: {'|' * size} ({size})"
                         for row, size in enumerate(piles))

    def random_position(self, rng: random.Random) -> Piles:
        # Small enough for plain minimax, the reference of `perfectplay verify`.
        return tuple(rng.randrange(0, 5) for _ in range(rng.randrange(1, 4)))

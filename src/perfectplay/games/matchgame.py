"""The matchgame (seed 003): rows of 7, 5, 3 and 1 matches; take any number from one row;
whoever takes the last match loses. It is misère Nim from 7 5 3 1."""

from __future__ import annotations

from typing import Sequence

from perfectplay.games.nim import Nim, Piles


class MatchGame(Nim):
    name = "matchgame"

    def __init__(self, rows: Sequence[int] = (7, 5, 3, 1)) -> None:
        super().__init__(rows, misere=True)

    def render(self, piles: Piles) -> str:
        widest = max(piles, default=0)
        lines = []
        for row, size in enumerate(piles):
            sticks = " ".join("|" * size).ljust(2 * widest)
            lines.append(f"row {row + 1}: {sticks} ({size})")
        return "\n".join(lines)

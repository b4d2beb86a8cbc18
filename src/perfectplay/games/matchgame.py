"""The matchgame: rows of 7, 5, 3 and 1 matches; take any number from one row; whoever takes
the last match loses. It is misère Nim from 7 5 3 1 (Bouton 1902 solved misère Nim too)."""

from __future__ import annotations

from collections.abc import Sequence

from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text, tour_solver
from perfectplay.games.nim import Nim, Piles


class MatchGame(Nim):
    name = "matchgame"
    heap_style = "matches"

    def __init__(self, rows: Sequence[int] = (7, 5, 3, 1)) -> None:
        super().__init__(rows, misere=True)

    def headline(self, start: Piles) -> str:
        rows = " ".join(map(str, start))
        return f"rows of matches ({rows}); take any number from one row; whoever takes the last one loses"

    def render(self, piles: Piles) -> str:
        widest = max(piles, default=0)
        lines = []
        for row, size in enumerate(piles):
            sticks = " ".join("|" * size).ljust(2 * widest)
            lines.append(f"row {row + 1}: {sticks} ({size})")
        return "\n".join(lines)


def _load(options: Options, text: str | None) -> Loaded:
    return from_text(MatchGame(), text)


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop, closing Nim's: rows 7 5 3 1, where the last match loses."""
    match = tour_solver(solve, _load)(None, algorithm="tt")
    return [f"  matchgame 7 5 3 1 (last match loses): {match.describe()}", ""]


ENTRY = Entry("matchgame", "misère Nim from rows 7 5 3 1", "ROW..., default 7 5 3 1",
              _load, aliases=("matches",), tour=(TourStop(55, "perfectplay.games.matchgame:tour_lines"),),
              order=30)

"""The values of the first lines of boards too big to search in a user's command (4x4 boxes:
1.3 billion nodes, 20 CPU minutes, benchmarks/dots_solve.py), stored as Connect Four stores its
opening book: a small file in the game's package (book.json), read on first use.

The book holds, per board, the value of the empty board and of one line of each class of
first lines that the board's symmetries make equal (the others are found through the
symmetries). A position the book answers is the empty board of such a board: its value and
every line's value. Only light imports here: no numba.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Opening:
    """One board's solved start: its value (first player's margin) and each line's."""
    value: int
    lines: dict[int, int]
    source: str


@cache
def _stored() -> dict[str, Any]:
    text = resources.files("perfectplay.games.dots").joinpath("book.json").read_text()
    return dict(json.loads(text)["boards"])


def opening(game: Any, stored: dict[str, Any] | None = None) -> Opening | None:
    """The solved start of ``game``'s board (games/dots/rules.DotsAndBoxes), or None when the
    book does not hold it. ``stored``: a book's boards other than the shipped one (tests)."""
    boards = _stored() if stored is None else stored
    found = boards.get(f"{game.width}x{game.height}")
    spell: Callable[[str], str] = str
    if found is None:
        # The board turned a quarter: the same lines with rows and columns swapped.
        found, spell = boards.get(f"{game.height}x{game.width}"), _transposed
        if found is None:
            return None
    from perfectplay.games.dots.symmetry import symmetries
    start = game.start()
    by_name = {game.format_move(start, line): line for line in range(game.edges)}
    lines: dict[int, int] = {}
    for name, worth in found["first_lines"].items():
        for image in symmetries(game):
            lines[image[by_name[spell(name)]]] = int(worth)
    if len(lines) != game.edges or max(lines.values()) != found["value"]:
        raise ValueError(f"the Dots and Boxes book's {game.width}x{game.height} entry is damaged")
    return Opening(int(found["value"]), lines, str(found["source"]))


def _transposed(name: str) -> str:
    """A line's name on the board turned a quarter (rows for columns): ``b1-b2`` is ``a2-b2``."""
    dots = [f"{chr(ord('a') + int(dot[1:]) - 1)}{ord(dot[0]) - ord('a') + 1}" for dot in name.split("-")]
    return "-".join(sorted(dots, key=lambda dot: (int(dot[1:]), dot[0])))


def answers(game: Any, position: Any) -> Opening | None:
    """The book's opening when ``position`` is the empty board it holds."""
    if position is None or position[0] != 0:
        return None
    return opening(game)

"""Kalah's opening book: the proved value and optimal moves of the positions the computer can
face in a game's first plies, whichever side it plays and whatever its opponent plays, for
boards whose early positions take the kernel longer than a player waits (Kalah(6,4): up to
minutes of CPU each, docs/extra_turns.md). A small file in the game's package (book.json),
read on first use; benchmarks/kalah_book.py computes it, each entry by the kernel with the
endgame database.

The stores are banked, so what a position is worth from here on depends on its pits alone,
seen from the side to move: an entry is keyed by the mover's pits, then the opponent's
(``4 4 4 4 4 4 / 4 4 4 4 4 4``), and holds the value (the margin the mover still gains with
best play, as the kernel's search counts it) and every optimal pit (1 to m from the mover's
side). Only light imports here: no numba.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from perfectplay.errors import PerfectPlayError

BOOK_FILE = "book.json"


class BookError(PerfectPlayError):
    """A book file that does not read as a Kalah book, or whose entry is impossible."""


@dataclass(frozen=True)
class Entry:
    """A booked position's value for its mover and its optimal pits, in the game's order."""

    value: int
    best: tuple[int, ...]


def board_name(game: Any) -> str:
    """The book's name for ``game``'s board and rule (games/kalah/rules.Kalah): ``6x4-empty``."""
    return f"{game.pits}x{game.seeds}-{'empty' if game.empty_capture else 'standard'}"


def position_key(game: Any, position: Any) -> str:
    """The mover's pits, then the opponent's, as the book keys a position."""
    cells, mover = position
    m = game.pits
    south, north = cells[:m], cells[m + 1:2 * m + 1]
    own, other = (south, north) if mover == 0 else (north, south)
    return f"{' '.join(map(str, own))} / {' '.join(map(str, other))}"


@dataclass(frozen=True)
class Board:
    """One board and rule's part of the book: the plies it covers whichever side the computer
    plays (``complete_plies``: every position the computer can face before that many plies
    have been played is held) and its entries by position_key."""

    complete_plies: int
    positions: dict[str, Entry]


Book = dict[str, Board]


def read(text: str, where: str) -> Book:
    """Every board of a book's text; BookError (naming ``where``) when it is not one."""
    try:
        boards = json.loads(text)["boards"]
        return {name: Board(int(board["complete_plies"]),
                            {key: _entry(found) for key, found in board["positions"].items()})
                for name, board in boards.items()}
    except (ValueError, KeyError, TypeError, AttributeError) as problem:
        raise BookError(f"the Kalah opening book {where} is damaged ({problem})") from None


def _entry(found: Any) -> Entry:
    best = tuple(int(pit) for pit in found["best"])
    if not best:
        raise ValueError("an entry with no optimal move")
    return Entry(int(found["value"]), best)


@cache
def _shipped() -> Book:
    text = resources.files("perfectplay.games.kalah").joinpath(BOOK_FILE).read_text()
    return read(text, f"perfectplay/games/kalah/{BOOK_FILE}")


def board(game: Any, book: Book | None = None) -> Board | None:
    """The book's part for ``game``'s board and rule, None when it has none; ``book``: another
    book than the shipped one (tests, the build)."""
    return (_shipped() if book is None else book).get(board_name(game))


def lookup(game: Any, position: Any, book: Book | None = None) -> Entry | None:
    """The entry for ``position`` (it has a legal move), or None when the book does not hold
    it. An entry naming a pit the position cannot play is damage: BookError."""
    part = board(game, book)
    found = None if part is None else part.positions.get(position_key(game, position))
    if found is None:
        return None
    legal = game.legal_moves(position)
    if any(pit not in legal for pit in found.best) or abs(found.value) > game.total_points(position):
        raise BookError(f"the Kalah opening book's entry for {game.format_position(position)!r} "
                        f"is damaged: value {found.value:+d}, optimal pits {list(found.best)}")
    return found

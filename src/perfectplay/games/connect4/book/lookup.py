"""Reading the Connect Four opening book: exact scores of every position up to K stones.

A :class:`Book` answers three questions about a position of its board, all in the test sets'
scores (perfectplay.games.connect4.rules): its score (:meth:`Book.score`), every move's score for
the player who plays it (:meth:`Book.move_scores`, when the children are in the book too),
and one optimal line through the book (:meth:`Book.line`). It never searches; a position it
does not hold gives None, and the caller searches instead.

The book shipped inside the package is :func:`shipped_book` (package data, loaded once per
process, about 10 ms); its file, checksum and figures are described in docs/book.md.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.game import Outcome
from perfectplay.games.connect4.book.positions import canonical
from perfectplay.games.connect4.book.storage import BookError, read_book
from perfectplay.games.connect4.rules import ConnectFour, Position

SHIPPED_NAME = "connect4-7x6.book"


class Book:
    """An opening book for one board size; ``stones`` is K: every live position with at
    most K stones is in it."""

    def __init__(self, path: Path, header: dict[str, Any], keys: np.ndarray,
                 scores: np.ndarray) -> None:
        self.path = path
        self.header = header
        self.width, self.height = int(header["width"]), int(header["height"])
        self.stones = int(header["stones"])
        self.keys, self.scores = keys, scores

    @classmethod
    def open(cls, path: str | Path) -> Book:
        header, keys, scores = read_book(Path(path))
        if header.get("game") != "connect4":
            raise BookError(f"{path}: a book for {header.get('game')!r}, not connect4")
        return cls(Path(path), header, keys, scores)

    @property
    def reach(self) -> str:
        """"up to K stones", as answers say it."""
        return f"up to {self.stones} stone{'s' if self.stones != 1 else ''}"

    def __len__(self) -> int:
        return len(self.keys)

    def fits(self, game: Any) -> bool:
        """Whether this book is for ``game``'s board."""
        return (isinstance(game, ConnectFour) and game.width == self.width
                and game.height == self.height)

    def covers(self, game: Any, position: Position) -> bool:
        """Whether the book holds this position's score (live, at most K stones)."""
        return (self.fits(game) and game.stones(position) <= self.stones
                and game.outcome(position) is None)

    def score(self, game: ConnectFour, position: Position) -> int | None:
        """The position's exact score, or None when the book does not hold it."""
        if not self.covers(game, position):
            return None
        key = canonical(game, game.key(position))
        index = int(np.searchsorted(self.keys, np.uint64(key)))
        if index == len(self.keys) or int(self.keys[index]) != key:
            return None  # cannot happen for a reachable position: the book holds them all
        return int(self.scores[index])

    def move_scores(self, game: ConnectFour, position: Position) -> dict[int, int] | None:
        """Each legal column's score for the player who plays it, when the book holds the
        position and all its children (fewer than K stones); else None."""
        if not self.covers(game, position) or game.stones(position) >= self.stones:
            return None
        found = {}
        win_now = (game.cells + 1 - game.stones(position)) // 2
        for column in game.moves(position):
            child = game.play(position, column)
            if game.outcome(child) is Outcome.LOSS:  # this stone completes four
                found[column] = win_now
                continue
            child_score = self.score(game, child)
            if child_score is None:
                return None
            found[column] = -child_score
        return found

    def line(self, game: ConnectFour, position: Position) -> list[int]:
        """Optimal moves from ``position`` while the book can tell them (the first optimal
        column in the game's move order at each step, as the search's line takes it)."""
        line: list[int] = []
        while True:
            scores = self.move_scores(game, position)
            if not scores:
                return line
            best = max(scores.values())
            column = next(c for c in game.moves(position) if scores[c] == best)
            line.append(column)
            position = game.play(position, column)
            if game.outcome(position) is not None:
                return line


@functools.cache
def shipped_book() -> Book | None:
    """The book inside the package, or None when this install has none."""
    source = resources.files("perfectplay.games.connect4.book") / "data" / SHIPPED_NAME
    if not source.is_file():
        return None
    with resources.as_file(source) as path:
        return Book.open(path)


def book_for(game: Any, path: str | Path | None = None) -> Book | None:
    """The book to consult for ``game``: the one at ``path`` when given (it must fit the
    board), else the shipped book when it fits, else None."""
    if path is not None:
        book = Book.open(path)
        if not book.fits(game):
            board = f"{game.width}x{game.height}" if isinstance(game, ConnectFour) else game.name
            raise BookError(f"{path}: a book for the {book.width}x{book.height} board, not {board}")
        return book
    shipped = shipped_book()
    return shipped if shipped is not None and shipped.fits(game) else None

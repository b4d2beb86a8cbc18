"""Checking a book: its structure from its own entries, and a sample of scores by search.

* :func:`check_structure` needs no search: every live position up to K stones is present,
  nothing else is, and every entry below the frontier equals the one-ply negamax of its
  children's entries (so a book is as right as its frontier).
* :func:`resolve_sample` re-solves sampled entries with the compiled kernel, each with a
  fresh table, and lists every disagreement. Sampling from the frontier checks the part the
  structure check cannot.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from perfectplay.games.connect4.book import tiers
from perfectplay.games.connect4.book.lookup import Book
from perfectplay.games.connect4.book.positions import position_of
from perfectplay.games.connect4.book.storage import BookError
from perfectplay.games.connect4.rules import ConnectFour


@dataclass(frozen=True)
class Checked:
    """One re-solved position: its key, stones, the book's score and the kernel's."""

    key: int
    stones: int
    book: int
    search: int
    seconds: float

    @property
    def agrees(self) -> bool:
        return self.book == self.search


def game_of(book: Book) -> ConnectFour:
    return ConnectFour(book.width, book.height)


def check_structure(book: Book) -> int:
    """Raise BookError unless the book holds exactly the live positions up to K stones and
    its lower levels back up from its frontier; returns the number of entries checked."""
    import numpy as np

    game = game_of(book)
    expected = tiers.levels(game, book.stones)
    wanted = np.concatenate(expected)
    stored_keys = np.asarray(book.keys, dtype=np.uint64)
    order = np.argsort(stored_keys, kind="stable")
    stored_keys, stored_scores = stored_keys[order], np.asarray(book.scores, dtype=np.int64)[order]
    if stored_keys.size != wanted.size or not np.array_equal(stored_keys, np.sort(wanted)):
        held = np.unique(stored_keys).size
        raise BookError(f"{book.path}: holds {held:,} positions, but there are "
                        f"{wanted.size:,} live positions {book.reach}")
    by_level = [stored_scores[np.searchsorted(stored_keys, keys)] for keys in expected]
    backed = tiers.back_up(game, expected, by_level[-1])
    wrong = [int(key) for keys, mine, theirs in zip(expected, backed, by_level, strict=True)
             for key in keys[mine != theirs].tolist()]
    if wrong:
        raise BookError(f"{book.path}: {len(wrong):,} entries disagree with their children "
                        f"(first: key {wrong[0]:x})")
    return int(stored_keys.size)


def sample_keys(book: Book, count: int, seed: int, stones: int | None = None) -> list[int]:
    """``count`` book keys drawn at random (seeded), from one level when ``stones`` is given."""
    game = game_of(book)
    pool = [int(k) for k in book.keys
            if stones is None or game.stones(position_of(game, int(k))) == stones]
    return random.Random(seed).sample(pool, min(count, len(pool)))


def resolve_sample(book: Book, keys: list[int], table_size: str | None = None,
                   on_checked: Callable[[Checked], None] | None = None) -> list[Checked]:
    """Re-solve ``keys`` with the compiled kernel (fresh table each) against the book."""
    from perfectplay.games.connect4.kernel_engine import Engine

    game = game_of(book)
    engine = Engine(game, table_size)
    found = []
    for key in keys:
        position = position_of(game, key)
        started = time.process_time()
        with engine.solving():
            score = engine.score(position)
        checked = Checked(key, game.stones(position), int(book.score(game, position) or 0), score,
                          time.process_time() - started)
        found.append(checked)
        if on_checked is not None:
            on_checked(checked)
    return found

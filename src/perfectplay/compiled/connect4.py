"""Connect Four through the compiled kernel, answered as perfectplay.search answers.

The kernel works in the test sets' scores; this module turns them into perfectplay values
(win or loss with its distance, via ConnectFour.value_of_score), finds every optimal move
and the principal variation with null-window tests, and counts nodes as the Python engine
does (every call of the search function).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from perfectplay.compiled import c4_kernel as K
from perfectplay.compiled import c4_table as T
from perfectplay.games.connect4 import ConnectFour, Position
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.tables import parse_table_size

_TABLES: dict[tuple[int, int], np.ndarray] = {}


class Engine:
    """One board size, one table (kept for the process: generations make reuse free)."""

    def __init__(self, game: ConnectFour, table_size: str | int | None = None) -> None:
        self.game = game
        self.geo = geometry(game)
        entries = parse_table_size(table_size, T.BYTES_PER_ENTRY)
        key_bits = (game.height + 1) * game.width
        cached = _TABLES.get((entries, key_bits))
        self.table = cached if cached is not None else T.allocate(entries, key_bits)
        _TABLES[(entries, key_bits)] = self.table
        self.stats = np.zeros(4, dtype=np.int64)
        self.scratch = np.zeros((game.cells + 2, 32), dtype=np.int64)

    def new_solve(self) -> None:
        T.new_generation(self.table)
        self.stats[:] = 0

    def _args(self, position: Position) -> tuple[Any, ...]:
        mover, occupied, _ = position
        return np.uint64(mover), np.uint64(occupied), self.game.stones(position)

    def score(self, position: Position, weak: bool = False) -> int:
        """The test sets' score of a live position (its sign only when ``weak``)."""
        mover, occupied, stones = self._args(position)
        low, high = (-1, 1) if weak else (-self.game.cells, self.game.cells)
        return int(K.solve_score(mover, occupied, stones, low, high, self.geo, self.table,
                                 self.stats, self.scratch))

    def at_least(self, position: Position, target: int) -> bool:
        mover, occupied, stones = self._args(position)
        return bool(K.at_least(mover, occupied, stones, target, self.geo, self.table,
                               self.stats, self.scratch))

    def move_score(self, position: Position, column: int, weak: bool = False) -> int:
        """The score of playing ``column``, for its player."""
        child = self.game.play(position, column)
        if self.game.outcome(child) is not None:
            return -self.terminal_score(child)
        return -self.score(child, weak)

    def move_at_least(self, position: Position, column: int, target: int) -> bool:
        """Whether playing ``column`` scores at least ``target`` for its player."""
        child = self.game.play(position, column)
        if self.game.outcome(child) is not None:
            return -self.terminal_score(child) >= target
        return not self.at_least(child, 1 - target)

    def terminal_score(self, position: Position) -> int:
        """A finished game's score for the side to move (lost, or drawn)."""
        if self.game.outcome(position) is not None and self.game.stones(position) < self.game.cells:
            return -((self.game.cells + 2 - self.game.stones(position)) // 2)
        from perfectplay.game import Outcome
        return 0 if self.game.outcome(position) is Outcome.DRAW else \
            -((self.game.cells + 2 - self.game.stones(position)) // 2)


def geometry(game: ConnectFour) -> np.ndarray:
    geo = np.zeros(K.GEO_ORDER + game.width, dtype=np.uint64)
    geo[K.GEO_HEIGHT] = game.height
    geo[K.GEO_WIDTH] = game.width
    geo[K.GEO_BOARD] = game.board
    geo[K.GEO_BOTTOM] = game.bottom_row
    geo[K.GEO_CELLS] = game.cells
    geo[K.GEO_ORDER:] = game.order
    return geo

"""Tic-tac-toe for the generic compiled engine: perfectplay.games.tictactoe's rules as
``@njit`` functions of the same int state (bits 0-8 the mover's stones, 9-17 the other's),
with the same move order and the same symmetric table key, so both engines search the same
tree. The tests compare the two on every reachable position.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from perfectplay.compiled.generic import DRAW, LOSS, ONGOING, WIN, Spec
from perfectplay.games.tictactoe.board import HAS_LINE, ORDER, SYMMETRY_TABLES

_ORDER = np.array(ORDER, dtype=np.int64)
_HAS_LINE = np.array(HAS_LINE, dtype=np.bool_)
_SYMMETRIES = np.array(SYMMETRY_TABLES, dtype=np.int64)
FULL = 0o777


@njit
def moves(state: int, out: np.ndarray) -> int:
    taken = (state | state >> 9) & FULL
    count = 0
    for square in _ORDER:
        if not taken >> square & 1:
            out[count] = square
            count += 1
    return count


@njit
def play(state: int, square: int) -> int:
    mine, theirs = state & FULL, state >> 9
    return theirs | (mine | 1 << square) << 9


@njit
def outcome(state: int) -> int:
    mine, theirs = state & FULL, state >> 9
    if _HAS_LINE[theirs]:
        return LOSS
    if _HAS_LINE[mine]:
        return WIN
    if mine | theirs == FULL:
        return DRAW
    return ONGOING


@njit
def key(state: int) -> int:
    """The least of the position's eight rotations and reflections."""
    mine, theirs = state & FULL, state >> 9
    best = state
    for t in range(8):
        image = _SYMMETRIES[t, mine] | _SYMMETRIES[t, theirs] << 9
        if image < best:
            best = image
    return best


@njit
def tier(state: int) -> int:
    """Stones on the board, as TicTacToe.tier."""
    count = 0
    while state:
        state &= state - 1
        count += 1
    return count


@njit
def rank(state: int) -> int:
    """The canonical position in base 3, as TicTacToe.rank."""
    canonical = key(state)
    index = 0
    for square in range(8, -1, -1):
        digit = 1 if canonical >> square & 1 else 2 if canonical >> (square + 9) & 1 else 0
        index = index * 3 + digit
    return index


SPEC = Spec(moves=moves, play=play, outcome=outcome, key=key, max_moves=9, max_length=9, tier=tier,
            rank=rank)

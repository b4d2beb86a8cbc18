"""Connect Four as ``@njit`` functions of one int64 state, for the compiled database builder
(perfectplay.store.compiled_build): the state is the position's key, ``mover + occupied``
(perfectplay.games.connect4.rules), so the key function is the identity.

Why the key decodes: in each column of ``height + 1`` bits, ``mover`` is a subset of the
``c`` occupied bits ``2**c - 1``, so the column's part of the key lies in
``[2**c - 1, 2**(c+1) - 2]``; adding one gives a number whose highest bit is bit ``c``,
the first free square, and no column carries into the next. ``occupied`` is therefore
every bit below the highest bit of ``key + bottom row``, column by column.

The functions are built per board size (the geometry is compiled in as constants), so each
process compiles them once per size; moves are in column order (a build needs no ordering).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from numba import njit

from perfectplay.compiled.generic import DRAW, LOSS, ONGOING, Spec

# The state must stay a non-negative int64.
MAX_STATE_BITS = 62


@cache
def make_spec(width: int, height: int) -> Spec | None:
    """The spec of a ``width`` x ``height`` board, or None when its key needs more than
    MAX_STATE_BITS bits."""
    span = height + 1
    if span * width > MAX_STATE_BITS:
        return None
    column_bits = (1 << span) - 1
    column = (1 << height) - 1
    board = sum(column << c * span for c in range(width))
    diagonal_up, diagonal_down = span, height

    @njit
    def occupied_of(state: int) -> int:
        occupied = 0
        for c in range(width):
            shifted = ((state >> (c * span)) & column_bits) + 1
            first_free = 1
            while first_free * 2 <= shifted:
                first_free *= 2
            occupied |= (first_free - 1) << (c * span)
        return occupied

    @njit
    def has_four(stones: int) -> bool:
        for shift in (1, diagonal_up, diagonal_down, span + 1):
            pairs = stones & (stones >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    @njit
    def moves(state: int, out: Any) -> int:
        occupied = occupied_of(state)
        count = 0
        for c in range(width):
            if not (occupied >> (c * span + height - 1)) & 1:
                out[count] = c
                count += 1
        return count

    @njit
    def play(state: int, c: int) -> int:
        occupied = occupied_of(state)
        mover = state - occupied
        after = occupied | (occupied + (1 << (c * span)))
        return (mover ^ occupied) + after

    @njit
    def outcome(state: int) -> int:
        occupied = occupied_of(state)
        if has_four((state - occupied) ^ occupied):
            return LOSS
        if occupied == board:
            return DRAW
        return ONGOING

    @njit
    def tier(state: int) -> int:
        occupied = occupied_of(state)
        count = 0
        while occupied:
            occupied &= occupied - 1
            count += 1
        return count

    def encode(position: Any) -> int:
        return int(position[0] + position[1])

    return Spec(moves=moves, play=play, outcome=outcome, max_moves=width,
                max_length=width * height, encode=encode, tier=tier)

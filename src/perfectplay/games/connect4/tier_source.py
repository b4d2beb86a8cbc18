"""Connect Four as ``@njit`` functions of one int64 state, for the compiled database builder,
as source: tier_spec.py binds this text to one board size (its geometry compiled in as
constants) through perfectplay.compiled.kernel_cache, so numba caches each size's functions,
and the builder's kernels over them, on disk.

The state is the position's key, ``mover + occupied`` (perfectplay.games.connect4.rules), so
the key function is the identity. Why the key decodes: in each column of ``height + 1`` bits,
``mover`` is a subset of the ``c`` occupied bits ``2**c - 1``, so the column's part of the key
lies in ``[2**c - 1, 2**(c+1) - 2]``; adding one gives a number whose highest bit is bit
``c``, the first free square, and no column carries into the next. ``occupied`` is therefore
every bit below the highest bit of ``key + bottom row``, column by column. Moves are in
column order (a build needs no ordering).
"""

from __future__ import annotations

from typing import Any

from numba import njit

from perfectplay.compiled.generic import DRAW, LOSS, ONGOING

# BINDINGS: one board size (this block is replaced in every copy).
WIDTH = 7
HEIGHT = 6
SPAN = 7  # bits a column takes: HEIGHT + 1
COLUMN_BITS = 127
BOARD = 0  # every square's bit
CACHE = False
# END BINDINGS


@njit(cache=CACHE)
def occupied_of(state: int) -> int:
    occupied = 0
    for c in range(WIDTH):
        shifted = ((state >> (c * SPAN)) & COLUMN_BITS) + 1
        first_free = 1
        while first_free * 2 <= shifted:
            first_free *= 2
        occupied |= (first_free - 1) << (c * SPAN)
    return occupied


@njit(cache=CACHE)
def has_four(stones: int) -> bool:
    # Vertical, the two diagonals, horizontal.
    for shift in (1, SPAN, HEIGHT, SPAN + 1):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit(cache=CACHE)
def moves(state: int, out: Any) -> int:
    occupied = occupied_of(state)
    count = 0
    for c in range(WIDTH):
        if not (occupied >> (c * SPAN + HEIGHT - 1)) & 1:
            out[count] = c
            count += 1
    return count


@njit(cache=CACHE)
def play(state: int, c: int) -> int:
    occupied = occupied_of(state)
    mover = state - occupied
    after = occupied | (occupied + (1 << (c * SPAN)))
    return (mover ^ occupied) + after


@njit(cache=CACHE)
def outcome(state: int) -> int:
    occupied = occupied_of(state)
    if has_four((state - occupied) ^ occupied):
        return LOSS
    if occupied == BOARD:
        return DRAW
    return ONGOING


@njit(cache=CACHE)
def tier(state: int) -> int:
    occupied = occupied_of(state)
    count = 0
    while occupied:
        occupied &= occupied - 1
        count += 1
    return count

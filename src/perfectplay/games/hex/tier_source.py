"""Hex as ``@njit`` functions of one int64 state, for the compiled database builder, as source:
tiers.py binds this text to one board size through perfectplay.compiled.kernel_cache, so
numba caches each size's functions, and the builder's kernels over them, on disk.

The state is the position's key (rules.py): X's cells, and O's shifted up by O_SHIFT, each a
bit set over cells numbered row * STRIDE + column, whose spare column stops a shift by one
from wrapping a chain into the next row. The tier is the number of stones.
"""

from __future__ import annotations

from typing import Any

from numba import njit

from perfectplay.compiled.generic import LOSS, ONGOING, WIN
from perfectplay.games.hex.connections import bit_index, popcount
from perfectplay.games.hex.kernel import chain_to

# BINDINGS: one board size (this block is replaced in every copy).
SIZE = 4
STRIDE = 5
O_SHIFT = 20  # bits below O's cells: SIZE * STRIDE
CELLS = 0  # every cell's bit
TOP = 0
BOTTOM = 0
LEFT = 0
RIGHT = 0
CACHE = False
# END BINDINGS


@njit(cache=CACHE)
def stones_of(state: int) -> tuple[int, int]:
    return state & ((1 << O_SHIFT) - 1), state >> O_SHIFT


@njit(cache=CACHE)
def connected(stones: int, source: int, target: int) -> bool:
    """Whether a chain of ``stones`` joins the edge ``source`` to the edge ``target``."""
    return (chain_to(stones, source, SIZE, STRIDE, CELLS) & target) != 0


@njit(cache=CACHE)
def moves(state: int, out: Any) -> int:
    x, o = stones_of(state)
    empty = CELLS & ~(x | o)
    found = 0
    while empty:
        low = empty & -empty
        out[found] = bit_index(low)
        found += 1
        empty ^= low
    return found


@njit(cache=CACHE)
def play(state: int, cell: int) -> int:
    x, o = stones_of(state)
    if popcount(x) == popcount(o):
        return state | (1 << cell)
    return state | (1 << (cell + O_SHIFT))


@njit(cache=CACHE)
def outcome(state: int) -> int:
    # As Hex.outcome: the side that just moved may have joined its edges (the side to move
    # lost); a board given as text may hold the mover's own chain (the side to move won).
    x, o = stones_of(state)
    if popcount(x) > popcount(o):
        moved, moved_from, moved_to, mover, mover_from, mover_to = x, TOP, BOTTOM, o, LEFT, RIGHT
    else:
        moved, moved_from, moved_to, mover, mover_from, mover_to = o, LEFT, RIGHT, x, TOP, BOTTOM
    if moved != 0 and connected(moved, moved_from, moved_to):
        return LOSS
    if mover & mover_from and mover & mover_to and connected(mover, mover_from, mover_to):
        return WIN
    return ONGOING


@njit(cache=CACHE)
def tier(state: int) -> int:
    return popcount(state)

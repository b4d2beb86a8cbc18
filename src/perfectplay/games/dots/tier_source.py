"""Dots and Boxes as ``@njit`` functions of one int64 state, for the compiled database builder,
as source: tiers.py binds this text to one board through perfectplay.compiled.kernel_cache, so
numba caches each board's functions, and the builder's kernels over them, on disk.

The state is the set of lines drawn, which is the game's key (what is left to win depends on
the lines alone), and its tier is how many are drawn. A line's gain is the boxes it
completes, and a player who completes one moves again. Moves are in line order (a build
needs no ordering).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from perfectplay.compiled.generic import ONGOING
from perfectplay.games.dots.chains import boxes_taken

# BINDINGS: one board (this block is replaced in every copy).
EDGES = 12
BOX_MASKS: tuple[int, ...] = (0,)  # each box's four lines
TOUCHING: tuple[int, ...] = (-1, -1)  # each line's one or two boxes, -1 for none, in pairs
CACHE = False
# END BINDINGS

# numba compiles global arrays in as constants.
MASKS = np.array(BOX_MASKS, dtype=np.int64)
BOXES_OF_LINE = np.array(TOUCHING, dtype=np.int64).reshape(-1, 2)


@njit(cache=CACHE)
def moves(state: int, out: Any) -> int:
    count = 0
    for line in range(EDGES):
        if not (state >> line) & 1:
            out[count] = line
            count += 1
    return count


@njit(cache=CACHE)
def play(state: int, move: int) -> int:
    return state | (1 << move)


@njit(cache=CACHE)
def outcome(state: int) -> int:
    return ONGOING  # the game ends when no line is left: "no move", worth 0


@njit(cache=CACHE)
def gain(state: int, move: int) -> int:
    return boxes_taken(state, move, MASKS, BOXES_OF_LINE)


@njit(cache=CACHE)
def keeps_turn(state: int, move: int) -> bool:
    return gain(state, move) > 0


@njit(cache=CACHE)
def tier(state: int) -> int:
    count = 0
    while state:
        state &= state - 1
        count += 1
    return count

"""Every set of lines of a small Dots and Boxes board valued at once, in numba.

The value of a position (boxes still to win, from the side to move) depends on the lines
drawn alone, so one int8 per subset of the E lines holds them all: 2^24 bytes (16 MB) for
3x3 boxes. Drawing a line only adds a bit, so every child's mask is larger than its
parent's, and one pass from the full mask down to 0 sees every child before its parent:
no recursion, no search order, no table misses. Each line's value is the boxes it completes
plus the child's value when it completes one (the mover moves again) or minus it when it
does not; a position's value is the best line's. About E * 2^(E-1) line visits.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import njit

from perfectplay.games.dots.rules import DotsAndBoxes

# Boards up to this many lines are tabulated: 2^25 bytes is 32 MB.
MAX_LINES = 25
_TABLES: dict[tuple[int, int], np.ndarray] = {}


@njit(cache=True)
def _fill(edges: int, box_masks: np.ndarray, boxes_of: np.ndarray, values: np.ndarray,
          high: int, low: int) -> None:
    """Value the masks from ``high`` down to ``low`` (every larger mask already valued)."""
    full = (1 << edges) - 1
    values[full] = 0
    for drawn in range(min(high, full - 1), low - 1, -1):
        best = -128
        for line in range(edges):
            bit = 1 << line
            if drawn & bit:
                continue
            after = drawn | bit
            taken = 0
            for slot in range(2):
                box = boxes_of[line, slot]
                if box >= 0 and after & box_masks[box] == box_masks[box]:
                    taken += 1
            child = values[after]
            worth = taken + child if taken else -child
            if worth > best:
                best = worth
        values[drawn] = best


# Masks valued between two polls of the budget: a few milliseconds of work on 25 lines.
CHUNK = 1 << 15


def cached(game: DotsAndBoxes) -> np.ndarray | None:
    """The table of ``game``'s board when this process has it already."""
    return _TABLES.get((game.width, game.height))


def table(game: DotsAndBoxes, poll: Callable[[int], None] | None = None) -> tuple[np.ndarray, float]:
    """The values of every set of lines of ``game``'s board, and the seconds it took (0.0 when
    this process had it already). ``poll(masks valued)`` is called every CHUNK masks and may
    raise to stop the fill (a table left unfinished is not kept)."""
    shape = (game.width, game.height)
    if shape in _TABLES:
        return _TABLES[shape], 0.0
    started = time.perf_counter()
    box_masks = np.array(game.box_masks, dtype=np.int64)
    boxes_of = np.full((game.edges, 2), -1, dtype=np.int64)
    for line, boxes in enumerate(game.boxes_of):
        boxes_of[line, :len(boxes)] = boxes
    values = np.zeros(1 << game.edges, dtype=np.int8)
    high = (1 << game.edges) - 1
    while high >= 0:
        low = max(0, high - CHUNK + 1)
        _fill(game.edges, box_masks, boxes_of, values, high, low)
        high = low - 1
        if poll is not None and high >= 0:
            poll((1 << game.edges) - 1 - high)
    _TABLES.clear()  # one board at a time: a 5x5 table would not fit beside others
    _TABLES[shape] = values
    return values, time.perf_counter() - started

"""Dots and Boxes as ``@njit`` functions of one int64 state, for the compiled database builder
(perfectplay.store.compiled_build): the state is the set of lines drawn, which is the game's
key (what is left to win depends on the lines alone), and its tier is how many are drawn.
A line's gain is the boxes it completes, and a player who completes one moves again.

The functions are built per board (the boxes' masks are compiled in as constants), so each
process compiles them once per size; moves are in line order (a build needs no ordering).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from perfectplay.compiled.generic import ONGOING, Spec


@cache
def make_spec(width: int, height: int, edges: int, box_masks: tuple[int, ...],
              boxes_of: tuple[tuple[int, ...], ...]) -> Spec:
    """The spec of a board: ``edges`` lines, each box's four lines as a mask, and each
    line's one or two boxes (DotsAndBoxes.box_masks and boxes_of)."""
    masks = np.array(box_masks, dtype=np.int64)
    # Each line's boxes, -1 where a line has only one.
    touching = np.array([list(boxes) + [-1] * (2 - len(boxes)) for boxes in boxes_of], dtype=np.int64)

    @njit
    def moves(state: int, out: np.ndarray) -> int:
        count = 0
        for line in range(edges):
            if not (state >> line) & 1:
                out[count] = line
                count += 1
        return count

    @njit
    def play(state: int, move: int) -> int:
        return state | (1 << move)

    @njit
    def outcome(state: int) -> int:
        return ONGOING  # the game ends when no line is left: "no move", worth 0

    @njit
    def gain(state: int, move: int) -> int:
        after = state | (1 << move)
        taken = 0
        for side in range(2):
            box = touching[move, side]
            if box >= 0 and after & masks[box] == masks[box]:
                taken += 1
        return taken

    @njit
    def keeps_turn(state: int, move: int) -> bool:
        return gain(state, move) > 0

    @njit
    def tier(state: int) -> int:
        count = 0
        while state:
            state &= state - 1
            count += 1
        return count

    return Spec(moves=moves, play=play, outcome=outcome, max_moves=edges, max_length=edges,
                encode=lambda position: position[0], tier=tier, gain=gain, keeps_turn=keeps_turn)

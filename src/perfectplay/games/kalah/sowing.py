"""Kalah's moves on a board held from the side to move, in numba: shared by the kernel's
search and the endgame databases' build.

The board is ``pits[0:m]``, the mover's own pits (pit 1 first), then ``pits[m:2m]``, the
opponent's, in sowing order; the stores are left out and a move's worth is its gain."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def sow(pits: np.ndarray, pit: int, out: np.ndarray, m: int, empty_capture: bool) -> tuple[int, bool]:
    """Play ``pit`` (0-based) from ``pits`` into ``out``: the gain and whether it keeps the turn.
    Ring positions: 0..m-1 own pits, m the own store, m+1..2m the opponent's pits."""
    for i in range(2 * m):
        out[i] = pits[i]
    seeds = out[pit]
    out[pit] = 0
    lap = 2 * m + 1
    gain = 0
    ring = pit
    full, seeds = divmod(seeds, lap)
    if full:
        for i in range(2 * m):
            out[i] += full
        gain += full
    for _ in range(seeds):
        ring += 1
        if ring == lap:
            ring = 0
        if ring == m:
            gain += 1
        elif ring < m:
            out[ring] += 1
        else:
            out[ring - 1] += 1
    if full and seeds == 0:
        ring = pit  # a whole number of laps ends in the pit it started from
    again = ring == m
    if ring < m and out[ring] == 1:
        opposite = 2 * m - 1 - ring
        if empty_capture or out[opposite]:
            gain += out[opposite] + 1
            out[ring] = 0
            out[opposite] = 0
    own = 0
    other = 0
    for i in range(m):
        own += out[i]
        other += out[m + i]
    if own == 0 or other == 0:
        gain += own - other
        for i in range(2 * m):
            out[i] = 0
    return gain, again


@njit(cache=True, nogil=True)
def turn(board: np.ndarray, m: int) -> None:
    for i in range(m):
        board[i], board[m + i] = board[m + i], board[i]

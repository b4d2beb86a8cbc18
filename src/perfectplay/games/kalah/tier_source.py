"""Kalah as ``@njit`` functions of one int64 state, for the compiled database builder, as
source: tiers.py binds this text to one board (pits a side, seeds, capture rule) through
perfectplay.compiled.kernel_cache, so numba caches each board's functions, and the builder's
kernels over them, on disk.

The state is the game's key (rules.py): the board's index among every board of 2m pits seen
from the side to move, the endgame databases' index (endgame.py), so a move unranks the pits,
sows them (sowing.py, as the kernel does) and ranks the child. The tier is Kalah.tier: the
seeds gone from play, then the seeds' distance to their stores, reversed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from perfectplay.compiled.generic import ONGOING
from perfectplay.games.kalah.endgame import rank, unrank
from perfectplay.games.kalah.sowing import sow, turn

# BINDINGS: one board (this block is replaced in every copy).
M = 1  # pits a side
SEEDS = 2  # seeds on the board at the start: 2 * M * seeds a pit
EMPTY_CAPTURE = True
BINOMIALS: tuple[int, ...] = (1, 0, 0, 1, 1, 0, 1, 2, 1, 1, 3, 3, 1, 4, 6)  # C(n, r), rows of 2M + 1
CACHE = False
# END BINDINGS

BINOM = np.array(BINOMIALS, dtype=np.int64).reshape(-1, 2 * M + 1)
# Tier k of the index starts after the C(k + 2M - 1, 2M) boards with fewer seeds.
STARTS = np.array([BINOM[k + 2 * M - 1, 2 * M] if k else 0 for k in range(SEEDS + 2)],
                  dtype=np.int64)
MOST_DISTANCE = SEEDS * M


@njit(cache=CACHE)
def board(state: int) -> Any:
    pits = np.empty(2 * M, dtype=np.int64)
    unrank(state, pits, M, STARTS, BINOM)
    return pits


@njit(cache=CACHE)
def index(pits: Any) -> int:
    total = 0
    for i in range(2 * M):
        total += pits[i]
    return STARTS[total] + rank(pits, M, total, BINOM)


@njit(cache=CACHE)
def moves(state: int, out: Any) -> int:
    pits = board(state)
    count = 0
    for pit in range(M):
        if pits[pit]:
            out[count] = pit
            count += 1
    return count


@njit(cache=CACHE)
def play(state: int, move: int) -> int:
    out = np.empty(2 * M, dtype=np.int64)
    _, again = sow(board(state), move, out, M, EMPTY_CAPTURE)
    if not again:
        turn(out, M)
    return index(out)


@njit(cache=CACHE)
def outcome(state: int) -> int:
    return ONGOING  # a finished board has no seeds left: "no move", worth 0


@njit(cache=CACHE)
def gain(state: int, move: int) -> int:
    out = np.empty(2 * M, dtype=np.int64)
    taken, _ = sow(board(state), move, out, M, EMPTY_CAPTURE)
    return taken


@njit(cache=CACHE)
def keeps_turn(state: int, move: int) -> bool:
    out = np.empty(2 * M, dtype=np.int64)
    _, again = sow(board(state), move, out, M, EMPTY_CAPTURE)
    return again


@njit(cache=CACHE)
def tier(state: int) -> int:
    pits = board(state)
    in_play = 0
    distance = 0
    for i in range(2 * M):
        in_play += pits[i]
        distance += (M - i % M) * pits[i]
    return (SEEDS - in_play) * (MOST_DISTANCE + 1) + MOST_DISTANCE - distance

"""The generic compiled engine's kernels (minimax, alpha-beta, tt), as source.

perfectplay.compiled.generic never calls these functions from here. It copies this file's
text, with the block between the BINDINGS lines replaced by one game's functions and
settings, into a module of its own under the user's cache directory, and imports that: the
kernels then refer to the game's ``@njit`` functions as module globals, not as closure
variables, so numba can cache them on disk (``cache=True``) and a second process loads them
instead of compiling again (tic-tac-toe's compiled solve once spent 1.3 s compiling in
every process). The module's name holds a digest of the game's source files and of this
text, so an edited game never loads a stale kernel. Where no cache directory can be written,
the same text is executed in memory, without caching.

Each kernel repeats the Python algorithm step for step: see perfectplay.search.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from perfectplay.compiled.generic import (
    ABORTED,
    BIG,
    CUTOFFS,
    DECISIVE,
    DRAW,
    FULL_DRAFT,
    HITS,
    HORIZON,
    MAX_PLY,
    NODE_CAP,
    NODES,
    ONGOING,
    STOP,
    WIN,
)
from perfectplay.value import EXACT, LOWER, UPPER

# BINDINGS: one game's functions and settings (this block is replaced in every copy).
moves_of: Any = None
play: Any = None
outcome_of: Any = None
key_of: Any = None
evaluate: Any = None
DISTANCE = True
NO_MOVE = -1
GAME_WIN = 1_000_000_000
MAGNITUDE_ONLY = 1
CACHE = False
# END BINDINGS


@njit(cache=CACHE)
def end_value(result: int, ply: int) -> int:
    if result == DRAW:
        return 0
    magnitude = GAME_WIN - ply if DISTANCE else MAGNITUDE_ONLY
    return magnitude if result == WIN else -magnitude


@njit(cache=CACHE)
def enter(stats: np.ndarray, ply: int) -> bool:
    """Count the node; True when it is refused: the caller's stop word is set or the node
    budget is spent (then ABORTED is set, every search returns at once, and tt stores
    nothing, so its table keeps only true entries)."""
    stats[NODES] += 1
    if ply > stats[MAX_PLY]:
        stats[MAX_PLY] = ply
    if stats[STOP] != 0 or stats[NODES] > stats[NODE_CAP]:
        stats[ABORTED] = 1
        return True
    return False


@njit(cache=CACHE, nogil=True)
def minimax(state, alpha, beta, ply, depth, buffer, stats, table):
    if enter(stats, ply):
        return 0
    result = outcome_of(state)
    if result != ONGOING:
        return end_value(result, ply)
    count = moves_of(state, buffer[ply])
    if count == 0:
        return end_value(NO_MOVE, ply)
    if depth <= 0:
        stats[HORIZON] += 1
        return evaluate(state)
    best = -BIG
    for i in range(count):
        # alpha and beta pass through unused: literal zeros would give the recursive call a
        # second signature, a mutually recursive pair that numba's cache loads as a crash.
        value = -minimax(play(state, buffer[ply, i]), alpha, beta, ply + 1, depth - 1,
                         buffer, stats, table)
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
    return best


@njit(cache=CACHE, nogil=True)
def alphabeta(state, alpha, beta, ply, depth, buffer, stats, table):
    if enter(stats, ply):
        return 0
    result = outcome_of(state)
    if result != ONGOING:
        return end_value(result, ply)
    if DISTANCE:  # mate-distance pruning, as perfectplay.search.alphabeta
        if ply - GAME_WIN >= beta:
            return ply - GAME_WIN
        if GAME_WIN - ply <= alpha:
            return GAME_WIN - ply
    count = moves_of(state, buffer[ply])
    if count == 0:
        return end_value(NO_MOVE, ply)
    if depth <= 0:
        stats[HORIZON] += 1
        return evaluate(state)
    best = -BIG
    for i in range(count):
        value = -alphabeta(play(state, buffer[ply, i]), -beta, -alpha, ply + 1, depth - 1,
                           buffer, stats, table)
        if stats[ABORTED]:
            return 0
        if value > best:
            best = value
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    stats[CUTOFFS] += 1
                    break
    return best


@njit(cache=CACHE, nogil=True)
def tt(state, alpha, beta, ply, depth, buffer, stats, table):
    if enter(stats, ply):
        return 0
    result = outcome_of(state)
    if result != ONGOING:
        return end_value(result, ply)
    if DISTANCE:
        if ply - GAME_WIN >= beta:
            return ply - GAME_WIN
        if GAME_WIN - ply <= alpha:
            return GAME_WIN - ply
    key = key_of(state)
    slot = key & (table.shape[0] - 1)
    tt_move = -1
    found = table[slot, 0] == key + 1
    if found:
        stats[HITS] += 1
        draft = table[slot, 2] >> 2
        if draft >= depth:
            stored = from_table(table[slot, 1], ply)
            flag = table[slot, 2] & 3
            if flag == EXACT or (flag == LOWER and stored >= beta) or (
                    flag == UPPER and stored <= alpha):
                if draft != FULL_DRAFT:
                    stats[HORIZON] += 1
                return stored
        tt_move = table[slot, 3]
    count = moves_of(state, buffer[ply])
    if count == 0:
        return end_value(NO_MOVE, ply)
    if depth <= 0:
        stats[HORIZON] += 1
        return evaluate(state)
    if found:
        move_first(buffer[ply], count, tt_move)
    alpha_in, horizon_in = alpha, stats[HORIZON]
    best, best_move = -BIG, -1
    for i in range(count):
        move = buffer[ply, i]
        value = -tt(play(state, move), -beta, -alpha, ply + 1, depth - 1, buffer, stats, table)
        if stats[ABORTED]:
            return 0
        if value > best:
            best, best_move = value, move
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    stats[CUTOFFS] += 1
                    break
    flag = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
    draft = FULL_DRAFT if stats[HORIZON] == horizon_in else depth
    if table[slot, 0] == 0 or table[slot, 0] == key + 1 or draft >= table[slot, 2] >> 2:
        table[slot, 0] = key + 1
        table[slot, 1] = to_table(best, ply)
        table[slot, 2] = flag | (draft << 2)
        table[slot, 3] = best_move
    return best


# In this file, not imported: a cached kernel must carry the code it calls (numba links a
# call to another module's cached function by name, and crashed when that one was not loaded).
@njit(cache=CACHE)
def to_table(value: int, ply: int) -> int:
    """perfectplay.value.to_table, compiled."""
    if value >= DECISIVE:
        return value + ply
    if value <= -DECISIVE:
        return value - ply
    return value


@njit(cache=CACHE)
def from_table(value: int, ply: int) -> int:
    """perfectplay.value.from_table, compiled."""
    if value >= DECISIVE:
        return value - ply
    if value <= -DECISIVE:
        return value + ply
    return value


@njit(cache=CACHE)
def move_first(moves: np.ndarray, count: int, move: int) -> None:
    """Put ``move`` first, keeping the others in order (perfectplay.search.ordering)."""
    for i in range(count):
        if moves[i] == move:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = move
            return

"""The tier builder's kernels over one game's functions (expand, value_states, value_scores,
scatter_records), as source.

perfectplay.store.compiled_build never calls these functions from here: it binds this text
to one game's ``@njit`` functions through perfectplay.compiled.kernel_cache, so numba caches
the compiled kernels on disk and a later process (a build's next run, a worker, a Ray task)
loads them instead of compiling them again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from perfectplay import value as V
from perfectplay.compiled.generic import DRAW, LOSS, ONGOING, WIN
from perfectplay.store.compiled_build import find_key

WIN_VALUE = V.WIN
DECISIVE = V.DECISIVE

# BINDINGS: one game's functions and settings (this block is replaced in every copy).
moves: Any = None
play: Any = None
outcome: Any = None
key: Any = None
tier: Any = None
gain: Any = None
keeps_turn: Any = None
rank: Any = None
MAX_MOVES = 1
NO_MOVE = -1
CACHE = False
# END BINDINGS


# nogil: with --workers, pieces of a tier are expanded and valued on several threads.
@njit(cache=CACHE, nogil=True)
def expand(states: Any, tier_now: int, keys_out: Any, states_out: Any, tiers_out: Any) -> int:
    """The children of ``states`` into the three arrays; returns how many, or -1 - i when a
    move from states[i] does not lead to a later tier."""
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    found = 0
    for i in range(states.shape[0]):
        state = states[i]
        if outcome(state) != ONGOING:
            continue
        for j in range(moves(state, buffer)):
            child = play(state, buffer[j])
            child_tier = tier(child)
            if child_tier <= tier_now:
                return -1 - i
            keys_out[found] = key(child)
            states_out[found] = child
            tiers_out[found] = child_tier
            found += 1
    return found


@njit(cache=CACHE, nogil=True)
def value_states(states: Any, child_keys: Any, child_values: Any, buckets: Any, low: int,
                 shift: int, values_out: Any) -> int:
    """Each state's node-relative value from its children's (perfectplay.store.work's rule);
    returns -1, or the index of a state with a child missing from child_keys. ``buckets``,
    ``low`` and ``shift`` are child_keys' KeyBuckets."""
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(states.shape[0]):
        state = states[i]
        result = outcome(state)
        if result == WIN:
            values_out[i] = WIN_VALUE
            continue
        if result == LOSS:
            values_out[i] = -WIN_VALUE
            continue
        if result == DRAW:
            values_out[i] = 0
            continue
        count = moves(state, buffer)
        if count == 0:
            values_out[i] = NO_MOVE
            continue
        best = -WIN_VALUE - 1
        for j in range(count):
            at = find_key(child_keys, buckets, low, shift, key(play(state, buffer[j])))
            if at < 0:
                return i
            child = child_values[at]
            # One ply further from the end (perfectplay.value.from_table(child, 1)).
            if child >= DECISIVE:
                child -= 1
            elif child <= -DECISIVE:
                child += 1
            if -child > best:
                best = -child
        values_out[i] = best
    return -1


@njit(cache=CACHE, nogil=True)
def value_scores(states: Any, child_keys: Any, child_values: Any, buckets: Any, low: int,
                 shift: int, values_out: Any) -> int:
    """value_states for a score game: a move is worth its gain minus the reply's value, or
    plus the child's own when its player moves again (perfectplay.value.move_worth); a
    position without a move is worth 0 (nothing left to take). A position the game's outcome
    ends is valued as perfectplay.store.work values it, as a win, loss or draw."""
    buffer = np.empty(MAX_MOVES, dtype=np.int64)
    for i in range(states.shape[0]):
        state = states[i]
        result = outcome(state)
        if result != ONGOING:
            values_out[i] = WIN_VALUE if result == WIN else -WIN_VALUE if result == LOSS else 0
            continue
        count = moves(state, buffer)
        best = 0 if count == 0 else -(1 << 62)
        for j in range(count):
            move = buffer[j]
            at = find_key(child_keys, buckets, low, shift, key(play(state, move)))
            if at < 0:
                return i
            child = child_values[at]
            worth = gain(state, move) + (child if keeps_turn(state, move) else -child)
            if worth > best:
                best = worth
        values_out[i] = best
    return -1


@njit(cache=CACHE, nogil=True)
def scatter_records(states: Any, packed: Any, empty: int, records: Any) -> int:
    """records[rank(states[i])] = packed[i] for every state (a dense file's records, written
    straight into its memory map); returns -1, or the index of a state whose rank is outside
    the records or already holds a record (a rank that is not one-to-one, or a key in two
    tiers: the file would hold one of two values)."""
    size = records.shape[0]
    for i in range(states.shape[0]):
        at = rank(states[i])
        if at < 0 or at >= size or records[at] != empty:
            return i
        records[at] = packed[i]
    return -1

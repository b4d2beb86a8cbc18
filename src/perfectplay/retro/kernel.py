"""Retrograde analysis compiled by numba, for games with integer states (``compiled_spec()``).

The same three phases as retro/solver.py (its docstring explains them; that module is this
one's oracle in the tests), over a game given as ``@njit`` functions of an int64 state
(perfectplay.compiled.generic.Spec). Positions are identified by ``spec.key(state)`` in an
open-addressing hash table (linear probing, Fibonacci hashing, at most half full).

Each phase runs in chunks of CHUNK positions so that Python can report progress, poll for
a stop and grow the arrays between calls; the kernels themselves never allocate.
Memory per position: hash slots (16 bytes at half load), key, state, first edge and
remoteness (8 bytes each), codes, counters and the queue, plus 16 bytes per edge.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.retro.result import Progress, ProgressFn, RetroResult, RetroStats
from perfectplay.retro.solver import DRAWN, LOST, UNKNOWN, WON, node_values

CHUNK = 1 << 16
# Status codes of expand().
FINISHED, GROW, PAUSED = 0, 1, 2
# meta slots: positions found, positions expanded, edges, then the queue's head and tail.
FOUND, EXPANDED, EDGES, HEAD, TAIL = 0, 1, 2, 3, 4
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def _slot_of(key: int, bits: int) -> Any:
    return np.int64((np.uint64(key) * GOLDEN) >> np.uint64(64 - bits))


@njit(cache=True)
def _rehash(keys: np.ndarray, count: int, bits: int) -> np.ndarray:
    """A fresh hash table of 2**bits slots (each index + 1; 0 = empty) for keys[:count]."""
    slots = np.zeros(1 << bits, dtype=np.int64)
    mask = (1 << bits) - 1
    for index in range(count):
        slot = _slot_of(keys[index], bits)
        while slots[slot] != 0:
            slot = (slot + 1) & mask
        slots[slot] = index + 1
    return slots


@njit(cache=True)
def _reverse(first: np.ndarray, edges: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Parents in CSR form: starts[i]:starts[i + 1] slices parents."""
    total = first[count]
    starts = np.zeros(count + 1, dtype=np.int64)
    for e in range(total):
        starts[edges[e] + 1] += 1
    for i in range(count):
        starts[i + 1] += starts[i]
    fill = starts[:-1].copy()
    parents = np.empty(total, dtype=np.int64)
    for parent in range(count):
        for e in range(first[parent], first[parent + 1]):
            child = edges[e]
            parents[fill[child]] = parent
            fill[child] += 1
    return starts, parents


@njit(cache=True)
def _propagate(starts: np.ndarray, parents: np.ndarray, codes: np.ndarray, remoteness: np.ndarray,
               pending: np.ndarray, queue: np.ndarray, meta: np.ndarray, budget: int) -> None:
    """Take up to ``budget`` solved positions off the queue (retro/solver.py's propagate)."""
    head, tail = meta[HEAD], meta[TAIL]
    stop = head + budget
    while head < tail and head < stop:
        child = queue[head]
        head += 1
        further = remoteness[child] + 1
        lost = codes[child] == LOST
        for e in range(starts[child], starts[child + 1]):
            parent = parents[e]
            if codes[parent] != UNKNOWN:
                continue
            if lost:
                codes[parent] = WON
            else:
                pending[parent] -= 1
                if pending[parent] != 0:
                    continue
                codes[parent] = LOST
            remoteness[parent] = further
            queue[tail] = parent
            tail += 1
    meta[HEAD], meta[TAIL] = head, tail


def build_expand(spec: Any) -> Callable[..., int]:
    """The enumeration kernel for one spec (closing over its rule functions)."""
    moves_of, play, outcome_of, key_of = spec.moves, spec.play, spec.outcome, spec.key
    width = spec.max_moves
    no_move = WON if spec.misere else LOST

    @njit
    def expand(slots: np.ndarray, bits: int, keys: np.ndarray, states: np.ndarray,
               first: np.ndarray, edges: np.ndarray, codes: np.ndarray, meta: np.ndarray,
               budget: int) -> int:
        """Expand up to ``budget`` positions breadth first; GROW when an array might
        overflow (nothing half-done is left behind), FINISHED when none is left."""
        buffer = np.empty(width, dtype=np.int64)
        mask = (1 << bits) - 1
        found, done, total = meta[FOUND], meta[EXPANDED], meta[EDGES]
        stop = done + budget
        status = FINISHED
        while done < found:
            if done >= stop:
                status = PAUSED
                break
            if found + width > len(keys) or total + width > len(edges) or 2 * (found + width) > len(slots):
                status = GROW
                break
            state = states[done]
            result = outcome_of(state)
            count = moves_of(state, buffer) if result == 2 else 0
            if result == 1:
                codes[done] = WON
            elif result == -1:
                codes[done] = LOST
            elif result == 0:
                codes[done] = DRAWN
            elif count == 0:
                codes[done] = no_move
            for i in range(count):
                child = play(state, buffer[i])
                key = key_of(child)
                slot = _slot_of(key, bits)
                while slots[slot] != 0 and keys[slots[slot] - 1] != key:
                    slot = (slot + 1) & mask
                if slots[slot] == 0:
                    slots[slot] = found + 1
                    keys[found] = key
                    states[found] = child
                    found += 1
                edges[total] = slots[slot] - 1
                total += 1
            done += 1
            first[done] = total
        meta[FOUND], meta[EXPANDED], meta[EDGES] = found, done, total
        return status

    return expand


# Per game object: (the game, its spec, its compiled expand); the game is kept so that its
# id is never reused while the entry lives.
_KERNELS: dict[int, tuple[Game[Any, Any], Any, Callable[..., int]]] = {}


def expand_kernel(game: Game[Any, Any]) -> tuple[Any, Callable[..., int]]:
    """(spec, expand) for ``game``, compiled once per game object in this process."""
    cached = _KERNELS.get(id(game))
    if cached is None or cached[0] is not game:
        spec = spec_for(game)
        cached = _KERNELS[id(game)] = (game, spec, build_expand(spec))
    return cached[1], cached[2]


def spec_for(game: Game[Any, Any]) -> Any:
    """The game's own ``compiled_spec()`` (retro.has_kernel says which games have one)."""
    return game.compiled_spec()


class _Arrays:
    """The growing arrays of an enumeration."""

    def __init__(self, capacity: int, width: int) -> None:
        self.bits = max(4, (2 * capacity).bit_length())
        self.slots = np.zeros(1 << self.bits, dtype=np.int64)
        self.keys = np.empty(capacity, dtype=np.int64)
        self.states = np.empty(capacity, dtype=np.int64)
        self.first = np.zeros(capacity + 1, dtype=np.int64)
        self.codes = np.zeros(capacity, dtype=np.uint8)
        self.edges = np.empty(capacity * max(2, width // 2), dtype=np.int64)
        self.meta = np.zeros(5, dtype=np.int64)

    def grow(self, width: int, limit: int) -> None:
        found, total = int(self.meta[FOUND]), int(self.meta[EDGES])
        if found + width > len(self.keys):
            if len(self.keys) >= limit:
                raise LimitReached(f"retrograde analysis stopped: more than {limit:,} positions "
                                   "(the limit: --nodes, or max_positions in the library)")
            size = min(2 * len(self.keys), limit + width)
            self.keys = _resized(self.keys, size)
            self.states = _resized(self.states, size)
            self.first = _resized(self.first, size + 1)
            self.codes = _resized(self.codes, size)
        if total + width > len(self.edges):
            self.edges = _resized(self.edges, 2 * len(self.edges))
        if 2 * (found + width) > len(self.slots):
            self.bits += 1
            self.slots = _rehash(self.keys, found, self.bits)


def _resized(values: np.ndarray, size: int) -> np.ndarray:
    grown = np.zeros(size, dtype=values.dtype)
    grown[:len(values)] = values
    return grown


def solve_compiled(game: Game[Any, Any], root: Any, *, max_positions: int,
                   progress: ProgressFn | None = None,
                   poll: Callable[[int], None] | None = None) -> RetroResult:
    """retro.solve_all on the compiled engine: keys are ints (spec.key of each state)."""
    started = time.perf_counter()
    spec, expand = expand_kernel(game)
    root_state = spec.encode(root)
    arrays = _Arrays(min(max_positions, 1 << 16), spec.max_moves)
    arrays.keys[0], arrays.states[0] = spec.key(root_state), root_state
    arrays.slots[_slot_of(arrays.keys[0], arrays.bits)] = 1
    arrays.meta[FOUND] = 1
    while True:
        status = expand(arrays.slots, arrays.bits, arrays.keys, arrays.states, arrays.first,
                        arrays.edges, arrays.codes, arrays.meta, CHUNK)
        done = int(arrays.meta[EXPANDED])
        if status == GROW:
            arrays.grow(spec.max_moves, max_positions)
        elif status == FINISHED:
            break
        _report(progress, poll, "enumerate", done, None, started)
    count = int(arrays.meta[FOUND])
    if count > max_positions:
        raise LimitReached(f"retrograde analysis stopped: more than {max_positions:,} positions "
                           "(the limit: --nodes, or max_positions in the library)")
    enumerated = time.perf_counter()
    _report(progress, None, "enumerate", count, count, started)
    codes, remoteness = _retrograde(arrays, count, progress, poll, started)
    stats = RetroStats(positions=count, edges=int(arrays.meta[EDGES]),
                       enumerate_s=enumerated - started, solve_s=time.perf_counter() - enumerated,
                       engine="compiled")
    _report(progress, None, "retrograde", count, count, started)
    return RetroResult(game.name, arrays.keys[:count].copy(), node_values(codes, remoteness),
                       arrays.states[:count].copy(), stats)


def _retrograde(arrays: _Arrays, count: int, progress: ProgressFn | None,
                poll: Callable[[int], None] | None, started: float) -> tuple[np.ndarray, np.ndarray]:
    first, codes = arrays.first[:count + 1], arrays.codes[:count]
    return retrograde(first, arrays.edges, codes, progress=progress, poll=poll, started=started)


def retrograde(first: np.ndarray, edges: np.ndarray, codes: np.ndarray, *,
               progress: ProgressFn | None = None, poll: Callable[[int], None] | None = None,
               started: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Phases 2 and 3 on a graph someone else enumerated (the endgame tables index theirs).

    ``first``/``edges`` are int64 CSR children (``first[i]:first[i + 1]`` slices ``edges``);
    ``codes`` (uint8, changed in place) holds WON or LOST for ended positions, DRAWN for
    drawn or unused ones and UNKNOWN for the rest. Returns the final codes and remoteness
    (plies): UNKNOWN left at the end means a draw."""
    started = time.perf_counter() if started is None else started
    count = len(codes)
    starts, parents = _reverse(first, edges, count)
    _report(progress, None, "parents", count, count, started)
    pending = np.diff(first)
    queue = np.empty(count, dtype=np.int64)
    solved = np.flatnonzero((codes == WON) | (codes == LOST))
    queue[:len(solved)] = solved
    meta = np.zeros(5, dtype=np.int64)
    meta[HEAD], meta[TAIL] = 0, len(solved)
    remoteness = np.zeros(count, dtype=np.int64)
    while meta[HEAD] < meta[TAIL]:
        _propagate(starts, parents, codes, remoteness, pending, queue, meta, CHUNK)
        _report(progress, poll, "retrograde", int(meta[HEAD]), count, started)
    return codes, remoteness


def _report(progress: ProgressFn | None, poll: Callable[[int], None] | None, phase: str,
            done: int, total: int | None, started: float) -> None:
    if poll is not None:
        poll(done)
    if progress is not None:
        progress(Progress(phase, done, total, time.perf_counter() - started))

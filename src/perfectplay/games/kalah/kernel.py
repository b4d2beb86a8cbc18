"""Kalah's compiled search: alpha-beta with extra turns, a transposition table keyed by the
pits alone, and safe futility bounds, in numba (as Irving, Donkers and Uiterwijk's solver
does it, "Solving Kalah", 2000, less their endgame databases and MTD(f)).

The board is held from the side to move: ``pits[0:m]`` its own pits (pit 1 first),
``pits[m:2m]`` the opponent's, in sowing order; the stores are left out, since a move's
worth is counted as it is played (``gain``: seeds it adds to the mover's store minus those
it adds to the opponent's). A move after which the mover moves again keeps the board's
orientation and its child's value (no negation, no bound swap); any other move turns the
board round and negates. With T seeds still on the board the value lies in [-T, T], so a
window outside that range is decided at once: futility pruning that is exact here.

A search gives up after ``budget`` nodes, or at its next node once ``counters[STOP]`` is
set (by a watching thread: the search releases the GIL), and says so (``aborted``); nothing
it computed after that enters the table, so calling it again goes on where the table left
off. The caller slices a long solve this way and hears Ctrl-C between slices.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from perfectplay.games.kalah.rules import Kalah, Position
from perfectplay.search.worker import in_slices
from perfectplay.value import EXACT, LOWER, UPPER

TABLE_BITS = 22
# Seeds a pit may hold in the table's key: 7 bits, so boards of up to 127 seeds.
MAX_SEEDS_IN_KEY = 127
MAX_PITS = 6
# Plies a search may go down (a game of Kalah(6,5) lasts well under 200).
MAX_PLIES = 1024
# counters' slots
NODES, HITS, CUTOFFS, ABORTED, STOP = range(5)


@njit(cache=True)
def _keys(pits: np.ndarray, m: int) -> tuple[int, int]:
    own = 0
    other = 0
    for i in range(m):
        own = own << 7 | pits[i]
        other = other << 7 | pits[m + i]
    return own, other


@njit(cache=True)
def _sow(pits: np.ndarray, pit: int, out: np.ndarray, m: int, empty_capture: bool) -> tuple[int, bool]:
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


@njit(cache=True)
def _turn(board: np.ndarray, m: int) -> None:
    for i in range(m):
        board[i], board[m + i] = board[m + i], board[i]


@njit(cache=True, nogil=True)
def _search(boards: np.ndarray, ply: int, alpha: int, beta: int, m: int, empty_capture: bool,
            keys_own: np.ndarray, keys_other: np.ndarray, values: np.ndarray, flags: np.ndarray,
            best_moves: np.ndarray, counters: np.ndarray, budget: int) -> int:
    """The value of ``boards[ply]`` (fail-soft). counters: nodes, hits, cutoffs, aborted,
    stop (set from outside)."""
    counters[0] += 1
    if counters[3] or counters[4] or counters[0] > budget:
        counters[3] = 1
        return 0
    pits = boards[ply]
    left = 0
    for i in range(2 * m):
        left += pits[i]
    if left == 0:
        return 0
    if alpha >= left:
        return left
    if beta <= -left:
        return -left
    own, other = _keys(pits, m)
    mask = (1 << TABLE_BITS) - 1
    slot = ((own * 0x9E3779B97F4A7C15) ^ (other * 0xC2B2AE3D27D4EB4F)) >> 20 & mask
    first = -1
    if keys_own[slot] == own and keys_other[slot] == other and flags[slot]:
        counters[1] += 1
        stored = values[slot]
        flag = flags[slot]
        if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
            return stored
        first = best_moves[slot]
    alpha_in = alpha
    best = -1000
    best_pit = -1
    child = boards[ply + 1]
    lap = 2 * m + 1
    # Order: the table's move, then moves ending in the store (nearest it first), the rest.
    for stage in range(3):
        for index in range(m):
            pit = m - 1 - index
            if pits[pit] == 0:
                continue
            keeps = pits[pit] % lap == m - pit
            if stage == 0 and pit != first:
                continue
            if stage > 0 and pit == first:
                continue
            if stage == 1 and not keeps:
                continue
            if stage == 2 and keeps:
                continue
            gain, again = _sow(pits, pit, child, m, empty_capture)
            if again:
                value = gain + _search(boards, ply + 1, alpha - gain, beta - gain, m, empty_capture,
                                       keys_own, keys_other, values, flags, best_moves, counters, budget)
            else:
                _turn(child, m)
                value = gain - _search(boards, ply + 1, gain - beta, gain - alpha, m, empty_capture,
                                       keys_own, keys_other, values, flags, best_moves, counters, budget)
            if counters[3]:
                return 0
            if value > best:
                best = value
                best_pit = pit
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        counters[2] += 1
                        break
        if alpha >= beta:
            break
    keys_own[slot] = own
    keys_other[slot] = other
    values[slot] = best
    flags[slot] = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
    best_moves[slot] = best_pit
    return best


class Searcher:
    """One table for one Kalah board, kept across searches."""

    def __init__(self, game: Kalah) -> None:
        self.game = game
        size = 1 << TABLE_BITS
        self.keys_own = np.zeros(size, dtype=np.int64)
        self.keys_other = np.zeros(size, dtype=np.int64)
        self.values = np.zeros(size, dtype=np.int16)
        self.flags = np.zeros(size, dtype=np.int8)
        self.best_moves = np.zeros(size, dtype=np.int8)
        self.counters = np.zeros(5, dtype=np.int64)
        self.boards = np.zeros((MAX_PLIES, 2 * game.pits), dtype=np.int64)

    def board(self, position: Position) -> np.ndarray:
        """The pits of ``position`` from the side to move."""
        cells, mover = position
        m = self.game.pits
        south, north = list(cells[:m]), list(cells[m + 1:2 * m + 1])
        return np.array(south + north if mover == 0 else north + south, dtype=np.int64)

    def value(self, position: Position, slice_nodes: int, poll: Callable[[int], None],
              node_cap: int | None = None) -> int | None:
        """The exact value of ``position``, searched in slices of ``slice_nodes`` nodes with
        ``poll(nodes)`` between them (it may raise to stop); None when the search stopped
        first: at ``node_cap`` nodes in the counters (never more), or on the STOP word."""
        self.boards[0, :] = self.board(position)
        left = int(self.boards[0].sum())

        def search(budget: int) -> int:
            return int(_search(self.boards, 0, -left - 1, left + 1, self.game.pits,
                               self.game.empty_capture, self.keys_own, self.keys_other, self.values,
                               self.flags, self.best_moves, self.counters, budget))
        return in_slices(search, self.counters, slice_nodes, poll, node_cap,
                         nodes=NODES, aborted=ABORTED, stop=STOP)


def supports(game: Kalah) -> bool:
    return game.pits <= MAX_PITS and 2 * game.pits * game.seeds <= MAX_SEEDS_IN_KEY

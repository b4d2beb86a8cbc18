"""Kalah's compiled search, as Irving, Donkers and Uiterwijk solved Kalah ("Solving Kalah",
ICGA Journal 23(3), 2000): null-window alpha-beta driven by MTD(f), a transposition table of
bounds keyed by the pits alone, extra-turn moves and captures first, enhanced transposition
cut-offs, exact futility bounds, and the endgame databases at the leaves.

The board is held from the side to move (perfectplay.games.kalah.sowing): its own pits, then
the opponent's; a move's worth is its gain (seeds it adds to the mover's store minus those it
adds to the opponent's). A move after which the mover moves again keeps the board's
orientation and its child's value (no negation, no bound swap); any other move turns the
board round and negates. With T seeds still on the board the value lies in [-T, T], so a
window outside that range is decided at once: futility pruning that is exact here. A board
with no more seeds than the endgame database holds is read from it.

The table (``Table``) holds, per board, a lower and an upper bound on its value, the depth
they were searched to (TO_THE_END when they hold for the game) and the best pit found, in
buckets of two slots: a board goes to the slot holding it, else to the one whose search took
fewer nodes (kept as a power of two). An entry's data is one word and its key is stored
XORed with it (Hyatt and Mann, "A lockless transposition-table implementation for parallel
search", ICGA Journal 25(1), 2002), so threads may share a table without locks. MTD(f)
(Plaat et al., 1996) calls the search with null windows only, so both bounds of a board are
worth keeping. As Irving et al. did, MTD(f) deepens iteratively: a few depth-limited passes
(a board at the limit is worth the stores' difference) fill the table's best pits and give
the first guess of the search to the end. A value that rested on no depth limit is exact
whatever the depth it was searched to (the HORIZON counter tells), so its bound is kept as
TO_THE_END and proves the game's value early.

A search gives up after ``budget`` nodes, or at its next node once ``counters[STOP]`` is
set (by a watching thread: the search releases the GIL), and says so (``aborted``); nothing
it computed after that enters the table, so calling it again goes on where the table left
off. The caller slices a long solve this way and hears Ctrl-C between slices.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
from numba import njit

from perfectplay.games.kalah.endgame import Database, lookup
from perfectplay.games.kalah.rules import Kalah, Position
from perfectplay.games.kalah.sowing import sow, turn
from perfectplay.search.worker import in_slices

TABLE_BITS = 22
# Seeds a pit may hold in the table's key: 7 bits, so boards of up to 127 seeds.
MAX_SEEDS_IN_KEY = 127
MAX_PITS = 6
# Plies a search may go down (a game of Kalah(6,5) lasts well under 200).
MAX_PLIES = 1024
# counters' slots; HORIZON counts the values that rest on the depth limit (a leaf cut off by
# it, or a table bound found by a depth-limited search), so a search that leaves it unchanged
# found an exact value.
NODES, HITS, CUTOFFS, ABORTED, STOP, DATABASE_HITS, HORIZON = range(7)
# The depth of a search without a limit, and the depth the table gives a bound that holds
# for the game itself.
UNLIMITED = 1000
TO_THE_END = 127
# A bound no board reaches (values fit in [-127, 127]).
OPEN = 127
# Enhanced transposition cut-offs cost a sowing per move: worth it only far from the leaves.
ETC_FROM_SEEDS = 4
# The depths MTD(f) searches to, each from the last one's value, before it searches to the
# end: on Kalah(5,4) and (6,3) these cost 20 to 40 % fewer nodes than none, and than 2 or 3
# plies apart.
DEEPENING = (4, 8, 12)


@njit(cache=True, nogil=True)
def _keys(pits: np.ndarray, m: int) -> tuple[int, int]:
    own = 0
    other = 0
    for i in range(m):
        own = own << 7 | pits[i]
        other = other << 7 | pits[m + i]
    return own, other


@njit(cache=True, nogil=True)
def _pack(low: int, high: int, pit: int, depth: int, size: int) -> int:
    """An entry's data in one word, a byte each: the bounds (offset to be unsigned), the best
    pit, the depth and the log2 of the subtree's nodes."""
    return (low + 128) | (high + 128) << 8 | pit << 16 | depth << 24 | size << 32


@njit(cache=True, nogil=True)
def _low(data: int) -> int:
    return (data & 0xFF) - 128


@njit(cache=True, nogil=True)
def _high(data: int) -> int:
    return (data >> 8 & 0xFF) - 128


@njit(cache=True, nogil=True)
def _pit(data: int) -> int:
    return data >> 16 & 0xFF


@njit(cache=True, nogil=True)
def _depth(data: int) -> int:
    return data >> 24 & 0xFF


@njit(cache=True, nogil=True)
def _size(data: int) -> int:
    return data >> 32 & 0xFF


@njit(cache=True, nogil=True)
def _entry(own: int, other: int, keys_own: np.ndarray, keys_other: np.ndarray,
           datas: np.ndarray) -> tuple[int, int]:
    """The slot holding the board and its data, else (-1 - the first slot of its bucket, 0).
    The keys are stored XORed with the data (Hyatt's lockless table): a slot that another
    thread is rewriting while this one reads it (the words of two entries mixed) matches
    both 42-bit halves of the key only by coincidence, so it reads as a miss."""
    mask = len(keys_own) - 2
    first = ((own * 0x9E3779B97F4A7C15) ^ (other * 0xC2B2AE3D27D4EB4F)) >> 20 & mask
    for slot in range(first, first + 2):
        data = datas[slot]
        if keys_own[slot] ^ data == own and keys_other[slot] ^ data == other:
            return slot, data
    return -1 - first, 0


@njit(cache=True, nogil=True)
def _store(own: int, other: int, low: int, high: int, pit: int, work: int, depth: int,
           keys_own: np.ndarray, keys_other: np.ndarray, datas: np.ndarray) -> None:
    """Record the bounds [low, high] that a search to ``depth`` (TO_THE_END: the game's own)
    found on a board: tightening those already held from the same depth, replacing shallower
    ones, leaving deeper ones."""
    slot, data = _entry(own, other, keys_own, keys_other, datas)
    if slot >= 0:
        held = _depth(data)
        if held > depth:
            return
        if held == depth and _low(data) <= high and _high(data) >= low:
            low = max(low, _low(data))
            high = min(high, _high(data))
    else:
        first = -1 - slot
        slot = first if _size(datas[first]) <= _size(datas[first + 1]) else first + 1
    size = 0
    while work > 1 and size < 60:
        work >>= 1
        size += 1
    data = _pack(low, high, pit, depth, size)
    datas[slot] = data
    keys_own[slot] = own ^ data
    keys_other[slot] = other ^ data


@njit(cache=True, nogil=True)
def _order(pits: np.ndarray, m: int, first: int, order: np.ndarray) -> int:
    """The pits to try, best first, into ``order[:m]`` (its other m cells hold their
    scores); how many. The table's pit first, then moves ending in the store (nearest it
    first: they leave the others unchanged), then captures (most seeds taken first), then
    moves that pass the store (they bank a seed), then the rest, each group from the store
    side. (Measured on Kalah(5,4) and (6,3): other orders of the last two groups, such as
    keeping seeds at home first, cost from 10 % to 9 times more nodes.)"""
    lap = 2 * m + 1
    scores = order[m:]
    count = 0
    for index in range(m):
        pit = m - 1 - index
        seeds = pits[pit]
        if seeds == 0:
            continue
        score = 0
        if pit == first:
            score = 10000
        elif seeds % lap == m - pit:
            score = 5000 + pit
        elif pit + seeds < m and pits[pit + seeds] == 0:
            score = 1000 + pits[2 * m - 1 - pit - seeds]
        elif seeds > m - pit:
            score = 500
        at = count
        while at > 0 and scores[at - 1] < score:
            scores[at] = scores[at - 1]
            order[at] = order[at - 1]
            at -= 1
        scores[at] = score
        order[at] = pit
        count += 1
    return count


@njit(cache=True, nogil=True)
def _search(boards: np.ndarray, ply: int, depth: int, alpha: int, beta: int, m: int,
            empty_capture: bool, keys_own: np.ndarray, keys_other: np.ndarray,
            datas: np.ndarray, counters: np.ndarray, budget: int, db_values: np.ndarray,
            db_starts: np.ndarray, db_binom: np.ndarray, db_seeds: int) -> int:
    """The value of ``boards[ply]`` (fail-soft), searched ``depth`` moves deep (UNLIMITED:
    to the end); a board at the depth limit is worth 0 more, the stores' difference."""
    counters[NODES] += 1
    if counters[ABORTED] or counters[STOP] or counters[NODES] > budget:
        counters[ABORTED] = 1
        return 0
    pits = boards[ply]
    left = 0
    for i in range(2 * m):
        left += pits[i]
    if left <= db_seeds:
        counters[DATABASE_HITS] += 1
        return lookup(pits, m, left, db_values, db_starts, db_binom)
    if left == 0:
        return 0
    if alpha >= left:
        return left
    if beta <= -left:
        return -left
    own, other = _keys(pits, m)
    slot, data = _entry(own, other, keys_own, keys_other, datas)
    first = -1
    if slot >= 0:
        counters[HITS] += 1
        first = _pit(data)
        held = _depth(data)
        if held >= depth or held == TO_THE_END:
            if held != TO_THE_END:
                counters[HORIZON] += 1
            low = _low(data)
            high = _high(data)
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low == high:
                return low
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
    if depth <= 0:
        counters[HORIZON] += 1
        return 0
    deeper = depth if depth >= UNLIMITED else depth - 1
    child = boards[ply + 1]
    if left >= db_seeds + ETC_FROM_SEEDS:
        cut = _transposition_cut(pits, child, m, deeper, empty_capture, beta, keys_own,
                                 keys_other, datas, counters, db_values, db_starts, db_binom,
                                 db_seeds)
        if cut >= beta:
            counters[CUTOFFS] += 1
            return cut
    alpha_in = alpha
    best = -1000
    best_pit = -1
    # Row ply's columns 2m..4m hold its move order and their scores: no allocation a node.
    order = boards[ply, 2 * m:]
    count = _order(pits, m, first, order)
    began = counters[NODES]
    horizon = counters[HORIZON]
    for index in range(count):
        pit = order[index]
        gain, again = sow(pits, pit, child, m, empty_capture)
        if again:
            value = gain + _search(boards, ply + 1, deeper, alpha - gain, beta - gain, m,
                                   empty_capture, keys_own, keys_other, datas, counters,
                                   budget, db_values, db_starts, db_binom, db_seeds)
        else:
            turn(child, m)
            value = gain - _search(boards, ply + 1, deeper, gain - beta, gain - alpha, m,
                                   empty_capture, keys_own, keys_other, datas, counters,
                                   budget, db_values, db_starts, db_binom, db_seeds)
        if counters[ABORTED]:
            return 0
        if value > best:
            best = value
            best_pit = pit
            if value > alpha:
                alpha = value
                if alpha >= beta:
                    counters[CUTOFFS] += 1
                    break
    low = best if best > alpha_in else -OPEN
    high = best if best < beta else OPEN
    found_at = TO_THE_END if counters[HORIZON] == horizon else min(depth, TO_THE_END - 1)
    _store(own, other, low, high, best_pit, counters[NODES] - began, found_at, keys_own,
           keys_other, datas)
    return best


@njit(cache=True, nogil=True)
def _transposition_cut(pits: np.ndarray, child: np.ndarray, m: int, depth: int,
                       empty_capture: bool, beta: int, keys_own: np.ndarray,
                       keys_other: np.ndarray, datas: np.ndarray, counters: np.ndarray,
                       db_values: np.ndarray, db_starts: np.ndarray, db_binom: np.ndarray,
                       db_seeds: int) -> int:
    """Enhanced transposition cut-offs (Plaat et al., 1996): a move whose child the table (or
    the database) already bounds well enough, at the children's ``depth``, proves a fail high
    without a search. The best such bound, or -OPEN - 1 (a cut that rests on a depth-limited
    bound counts in ``counters[HORIZON]``)."""
    best = -OPEN - 1
    for pit in range(m):
        if pits[pit] == 0:
            continue
        gain, again = sow(pits, pit, child, m, empty_capture)
        if not again:
            turn(child, m)
        left = 0
        for i in range(2 * m):
            left += child[i]
        exact = True
        if left <= db_seeds:
            value = lookup(child, m, left, db_values, db_starts, db_binom)
            worth = gain + value if again else gain - value
        else:
            own, other = _keys(child, m)
            slot, data = _entry(own, other, keys_own, keys_other, datas)
            if slot < 0:
                continue
            held = _depth(data)
            if held < depth and held != TO_THE_END:
                continue
            exact = held == TO_THE_END
            worth = gain + _low(data) if again else gain - _high(data)
        if worth > best:
            best = worth
            if best >= beta:
                if not exact:
                    counters[HORIZON] += 1
                return best
    return best


class Table:
    """The transposition table's arrays, kept across searches of one board size: per slot
    the two halves of the key, each XORed with the data word (``_pack``), and the data word.
    Searchers in several threads may share one (``_entry`` tells a slot being rewritten)."""

    def __init__(self, bits: int = TABLE_BITS) -> None:
        size = 1 << bits
        self.keys_own = np.full(size, -1, dtype=np.int64)
        self.keys_other = np.full(size, -1, dtype=np.int64)
        self.datas = np.zeros(size, dtype=np.int64)


_NO_DATABASE = (np.zeros(1, dtype=np.int8), np.zeros(2, dtype=np.int64),
                np.zeros((1, 1), dtype=np.int64))


class Searcher:
    """One table for one Kalah board, kept across searches, and the endgame database when
    one is given; ``table``: one that other searchers (in other threads) use too."""

    def __init__(self, game: Kalah, database: Database | None = None,
                 table_bits: int = TABLE_BITS, table: Table | None = None) -> None:
        self.game = game
        self.database = database
        self.table = Table(table_bits) if table is None else table
        self.counters = np.zeros(HORIZON + 1, dtype=np.int64)
        # Each row: the board (2m pits), then its move order and their scores (2m cells).
        self.boards = np.zeros((MAX_PLIES, 4 * game.pits), dtype=np.int64)
        if database is None:
            self.db_arrays = _NO_DATABASE
            self.db_seeds = -1
        else:
            self.db_arrays = (database.values, database.starts, database.binom)
            self.db_seeds = database.seeds

    def board(self, position: Position) -> np.ndarray:
        """The pits of ``position`` from the side to move."""
        cells, mover = position
        m = self.game.pits
        south, north = list(cells[:m]), list(cells[m + 1:2 * m + 1])
        return np.array(south + north if mover == 0 else north + south, dtype=np.int64)

    def bounded(self, alpha: int, beta: int, budget: int, depth: int = UNLIMITED) -> int:
        """One alpha-beta search of ``boards[0]`` in (alpha, beta), ``depth`` moves deep, up
        to ``budget`` nodes."""
        table = self.table
        values, starts, binom = self.db_arrays
        return int(_search(self.boards, 0, depth, alpha, beta, self.game.pits,
                           self.game.empty_capture, table.keys_own, table.keys_other,
                           table.datas, self.counters, budget, values, starts, binom,
                           self.db_seeds))

    def value(self, position: Position, slice_nodes: int, poll: Callable[[int], None],
              node_cap: int | None = None, guess: int = 0,
              deepening: tuple[int, ...] = DEEPENING, driver: MtdF | None = None) -> int | None:
        """The exact value of ``position`` by MTD(f) from ``guess``, first to each depth of
        ``deepening`` (each depth's value the next one's guess), then to the end; searched in
        slices of ``slice_nodes`` nodes with ``poll(nodes)`` between them (it may raise to
        stop); None when the search stopped first: at ``node_cap`` nodes in the counters
        (never more), or on the STOP word. ``driver``: an MTD(f) of this position already
        under way (one a snapshot kept), to go on with instead of a new one."""
        m = self.game.pits
        self.boards[0, :2 * m] = self.board(position)
        mtd = driver if driver is not None else MtdF(int(self.boards[0, :2 * m].sum()), guess,
                                                     deepening)
        return in_slices(lambda budget: mtd.run(self.bounded, self.counters, budget), self.counters,
                         slice_nodes, poll, node_cap, nodes=NODES, aborted=ABORTED, stop=STOP)

    def arrays(self) -> dict[str, np.ndarray]:
        """What a snapshot of a long search keeps (perfectplay.search.checkpoint): the table
        and the counters."""
        return {"keys_own": self.table.keys_own, "keys_other": self.table.keys_other,
                "datas": self.table.datas, "counters": self.counters}

    def at_least(self, position: Position, target: int, slice_nodes: int,
                 poll: Callable[[int], None], node_cap: int | None = None) -> bool | None:
        """Whether the value of ``position`` is ``target`` or more, by one null-window search
        to the end (in slices, as ``value``); None when the search stopped first."""
        m = self.game.pits
        self.boards[0, :2 * m] = self.board(position)
        found = in_slices(lambda budget: self.bounded(target - 1, target, budget), self.counters,
                          slice_nodes, poll, node_cap, nodes=NODES, aborted=ABORTED, stop=STOP)
        return None if found is None else found >= target

    def window_value(self, position: Position, budget: int) -> int:
        """The value by one full-window alpha-beta search (the reference MTD(f) is tested
        against)."""
        m = self.game.pits
        self.boards[0, :2 * m] = self.board(position)
        left = int(self.boards[0, :2 * m].sum())
        return self.bounded(-left - 1, left + 1, budget)


class MtdF:
    """MTD(f) (Plaat, Schaeffer, Pijls and de Bruin, 1996) by iterative deepening: at each
    depth of ``deepening`` and then to the end, null-window searches close in on that
    depth's value from the previous one's. A search that rested on no depth limit (the
    HORIZON counter unchanged) proves a bound on the game's value, whatever its depth: the
    value is found when the proved bounds meet. Stopped between or inside searches (the
    search sets the aborted word), it goes on from the bounds it holds."""

    def __init__(self, seeds: int, guess: int, deepening: tuple[int, ...] = ()) -> None:
        self.proved_lower = -seeds
        self.proved_upper = seeds
        self.depths = [*deepening, UNLIMITED]
        self.lower = -seeds
        self.upper = seeds
        self.guess = max(self.lower, min(self.upper, guess))

    def state(self) -> dict[str, Any]:
        """Everything the driver knows, as JSON-ready values (a snapshot keeps it)."""
        return {name: list(held) if isinstance(held, list) else int(held)
                for name, held in vars(self).items()}

    @classmethod
    def resumed(cls, state: dict[str, Any]) -> MtdF:
        """The driver a snapshot's ``state()`` describes."""
        driver = cls(0, 0)
        for name in vars(driver):
            setattr(driver, name, list(state[name]) if name == "depths" else int(state[name]))
        return driver

    def run(self, bounded: Callable[[int, int, int, int], int], counters: np.ndarray,
            budget: int) -> int:
        """Search until the proved bounds meet (the value) or the search is aborted (then 0,
        with ``counters[ABORTED]`` set, and the bounds as they were)."""
        while self.proved_lower < self.proved_upper:
            if self.lower >= self.upper:
                # This depth's value is found: the next depth starts from it.
                self.depths.pop(0)
                self.lower, self.upper = self.proved_lower, self.proved_upper
            beta = self.guess + 1 if self.guess <= self.lower else self.guess
            horizon = counters[HORIZON]
            found = bounded(beta - 1, beta, budget, self.depths[0])
            if counters[ABORTED]:
                return 0
            proved = counters[HORIZON] == horizon
            if found < beta:
                self.upper = found
                if proved:
                    self.proved_upper = min(self.proved_upper, found)
            else:
                self.lower = found
                if proved:
                    self.proved_lower = max(self.proved_lower, found)
            self.lower = max(self.lower, self.proved_lower)
            self.upper = min(self.upper, self.proved_upper)
            self.guess = max(self.lower, min(self.upper, found))
        return self.proved_lower


def move_values(game: Kalah, position: Position, pits: Iterable[int],
                child_value: Callable[[Position, int], int],
                best: int | None = None) -> Iterator[tuple[int, int]]:
    """Each of ``pits``' worth for the mover of ``position``, in the order given: its gain,
    plus the child's value after an extra turn, else minus it. ``child_value(child, guess)``
    is the child's exact value (one searcher's MTD(f), so that each search reuses the table
    the earlier ones filled); its first guess is the best worth found so far (or ``best``,
    found before), seen from the child: given the best move first, every later search starts
    at the value it falls short of."""
    for pit in pits:
        child = game.play(position, pit)
        gain = game.gain(position, pit)
        again = game.keeps_turn(position, pit)
        known = 0 if best is None else best
        guess = known - gain if again else gain - known
        value = child_value(child, guess) if game.legal_moves(child) else 0
        worth = gain + value if again else gain - value
        best = worth if best is None else max(best, worth)
        yield pit, worth


def supports(game: Kalah) -> bool:
    return game.pits <= MAX_PITS and 2 * game.pits * game.seeds <= MAX_SEEDS_IN_KEY

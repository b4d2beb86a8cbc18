"""Hex's compiled search: "does the side to move win?", in numba, over the rules' bit sets.

Hex has no draws, so one yes/no search answers a position (alpha-beta with a null window
on a win/loss value is exactly this AND/OR search). The value carries no distance: the
search stops at the first winning move it finds, not the fastest.

What a node does, in order (each step is sound; ``tests/games/hex/test_hex_kernel.py``
checks the kernel against tt and df-pn):

1. **A winning cell**: an empty cell that touches the mover's first edge (or a chain joined
   to it) and the second edge (or a chain joined to it) completes a chain: a win at once.
2. **The opponent's winning cells**: two or more cannot both be blocked, so the mover
   (who has no winning cell) loses; exactly one must be taken, since any other move lets
   the opponent complete the chain: that cell is the only move searched.
3. **The table**: positions proved before, keyed by both bit sets (the mover follows from
   the stone counts). Entries hold only proved results, so a hit is final.
4. **Two moves ahead** (``_two_ahead``, when the opponent has no winning cell): a mover cell
   after which the mover has two winning cells wins at once (one block cannot stop both).
   An opponent cell c after which the opponent would have two winning cells confines the
   mover to c, those cells, and the cells that give the mover a winning cell of its own:
   any other move loses to c. No such move left: a loss. (Hayward's Hex solvers call this
   confinement the must-play region; here only from these small patterns.) On 5x5 after c3
   this cut the nodes 7.5 times and the CPU 4.7 times.
5. **The moves** in order: the two killers of this ply (the last replies that won here),
   then by the history score of the mover's colour, ties broken centre first (Schaeffer's
   history heuristic, 1989); the first that leaves the opponent lost wins.

The table: ``entries`` int64 slots in buckets of two, ``index = hash & (buckets - 1)``,
keyed by ``(mover's stones + 1, opponent's stones)`` (key 0: empty). A slot's data is
``won | best cell << 1 | work << 8`` where ``work`` is the bit length of the nodes the proof
took. Replacement: the first slot of a bucket keeps the proof that took the most work (a new
one replaces it when it took at least as much), the second takes whatever the first did not.

A search gives up after the node limit in ``counters`` or when its stop flag is set, and
says so (``ABORTED``); nothing is stored on the way out, so every entry stays a proof and
calling again goes on from the table. ``Searcher`` runs it in a worker thread and sets the
stop flag when the caller's budget (time, stop, Ctrl-C) runs out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np
from numba import njit

from perfectplay.games.hex.rules import Hex
from perfectplay.search.worker import Worker

# Up to 7x7: cells r * (n + 1) + c, shifted by n + 1 at most, stay below bit 63.
MAX_SIZE = 7
# counters' slots
NODES, HITS, CUTOFFS, ABORTED, NODE_LIMIT, STOP, MAX_PLY, ROOT_MOVE = range(8)
# geometry's slots
G_N, G_STRIDE, G_BOARD, G_TOP, G_BOTTOM, G_LEFT, G_RIGHT = range(7)
BYTES_PER_ENTRY = 24  # two keys and the data, int64 each
MAX_CELLS = 64
NO_CELL = 63
KILLER_FIRST = 1 << 60
KILLER_SECOND = 1 << 59
NO_LIMIT = (1 << 62)
WATCH_SECONDS = 0.05


@njit(cache=True)
def _neighbours(cells: int, n: int, stride: int, board: int) -> int:
    """Every cell next to one of ``cells`` (the spare column keeps rows from wrapping)."""
    return (cells << 1 | cells >> 1 | cells << n | cells >> n | cells << stride
            | cells >> stride) & board


@njit(cache=True)
def chain_to(stones: int, edge: int, n: int, stride: int, board: int) -> int:
    """The stones joined to ``edge`` by a chain of ``stones``: a flood fill."""
    reached = stones & edge
    while True:
        grown = reached | _neighbours(reached, n, stride, board) & stones
        if grown == reached:
            return reached
        reached = grown


@njit(cache=True)
def _reach(stones: int, empty: int, source: int, target: int, n: int, stride: int,
           board: int) -> tuple[int, int, int, int]:
    """(the stones chained to ``source``, those chained to ``target``, the empty cells that
    touch the source side (the edge itself or its chain), those that touch the target side)."""
    from_source = chain_to(stones, source, n, stride, board)
    from_target = chain_to(stones, target, n, stride, board)
    touch_source = (_neighbours(from_source, n, stride, board) | source) & empty
    touch_target = (_neighbours(from_target, n, stride, board) | target) & empty
    return from_source, from_target, touch_source, touch_target


@njit(cache=True)
def _winning_after(stones: int, cell: int, empty: int, from_source: int, from_target: int,
                   touch_source: int, touch_target: int, source: int, target: int, n: int,
                   stride: int, board: int) -> int:
    """The winning cells of ``stones`` once it also holds ``cell`` (a bit). Only the chain
    through ``cell`` is new: it joins the source side when ``cell`` touched it, the target
    side likewise (one flood fill, where _reach takes two)."""
    through = chain_to(stones | cell, cell, n, stride, board)
    if touch_source & cell:
        from_source |= through
    if touch_target & cell:
        from_target |= through
    left = empty & ~cell
    return (_neighbours(from_source, n, stride, board) | source) & \
        (_neighbours(from_target, n, stride, board) | target) & left


@njit(cache=True)
def _two_ahead(mover: int, other: int, empty: int, mover_reach: tuple[int, int, int, int],
               other_reach: tuple[int, int, int, int], source: int, target: int,
               other_source: int, other_target: int, n: int, stride: int,
               board: int) -> tuple[int, int]:
    """For a position where neither side completes a chain in one move: (a cell that wins
    for the mover by making two winning cells at once, or 0; the cells worth searching).

    The opponent's double threats narrow the mover's moves: if the opponent, moving
    first, would have a cell c after which it completes a chain in two places, then a mover
    move that is neither c nor one of those places, and that gives the mover no winning cell
    of its own, loses (the opponent plays c; the mover blocks one place). So the mover
    searches the cells inside every such pattern, and the cells that make a threat. The
    reaches are each side's ``_reach``, which the search has already computed."""
    from_source, from_target, touch_source, touch_target = mover_reach
    threatening = 0
    rest = touch_source | touch_target
    while rest:
        cell = rest & -rest
        rest ^= cell
        made = _winning_after(mover, cell, empty, from_source, from_target, touch_source,
                              touch_target, source, target, n, stride, board)
        if made:
            if made & (made - 1):
                return cell, 0
            threatening |= cell
    from_source, from_target, touch_source, touch_target = other_reach
    needed = board
    rest = touch_source | touch_target
    while rest:
        cell = rest & -rest
        rest ^= cell
        made = _winning_after(other, cell, empty, from_source, from_target, touch_source,
                              touch_target, other_source, other_target, n, stride, board)
        if made & (made - 1):
            needed &= cell | made
    return 0, (needed | threatening) & empty


@njit(cache=True)
def _cell_of(bit: int) -> int:
    cell = 0
    while bit > 1:
        bit >>= 1
        cell += 1
    return cell


@njit(cache=True)
def _slot(mover: int, other: int, buckets: int) -> int:
    mixed = mover * 0x1E3779B97F4A7C15 ^ other * 0x42B2AE3D27D4EB4F
    mixed ^= mixed >> 29
    return (mixed & (buckets - 1)) * 2


@njit(cache=True)
def _bit_length(count: int) -> int:
    length = 0
    while count:
        count >>= 1
        length += 1
    return length


@njit(cache=True)
def _store(mover: int, other: int, won: bool, cell: int, work: int, keys_mover: np.ndarray,
           keys_other: np.ndarray, data: np.ndarray) -> int:
    """Keep the result in the position's slot pair (the entry of less work gives way);
    the slot used."""
    slot = _slot(mover, other, len(data) // 2)
    effort = _bit_length(work)
    entry = (1 if won else 0) | cell << 1 | effort << 8
    if keys_mover[slot] == 0 or data[slot] >> 8 <= effort or \
            (keys_mover[slot] == mover + 1 and keys_other[slot] == other):
        slot_used = slot
    else:
        slot_used = slot + 1
    keys_mover[slot_used] = mover + 1
    keys_other[slot_used] = other
    data[slot_used] = entry
    return slot_used


@njit(cache=True)
def _probe(mover: int, other: int, keys_mover: np.ndarray, keys_other: np.ndarray,
           data: np.ndarray) -> int:
    """The slot's data for this position, or -1 when the table does not hold it."""
    slot = _slot(mover, other, len(data) // 2)
    for way in range(2):
        if keys_mover[slot + way] == mover + 1 and keys_other[slot + way] == other:
            return data[slot + way]
    return -1


@njit(cache=True)
def _ordered(candidates: int, colour: int, ply: int, order: np.ndarray, history: np.ndarray,
             killers: np.ndarray, moves: np.ndarray, scores: np.ndarray) -> int:
    """Fill ``moves[ply]`` with the candidate cells, best first; returns how many."""
    count = 0
    for index in range(len(order)):
        cell = order[index]
        if not candidates >> cell & 1:
            continue
        score = history[colour, cell]
        if cell == killers[ply, 0]:
            score = KILLER_FIRST
        elif cell == killers[ply, 1]:
            score = KILLER_SECOND
        place = count  # insertion sort, stable: ties keep the centre-first order
        while place > 0 and scores[ply, place - 1] < score:
            moves[ply, place] = moves[ply, place - 1]
            scores[ply, place] = scores[ply, place - 1]
            place -= 1
        moves[ply, place] = cell
        scores[ply, place] = score
        count += 1
    return count


@njit(cache=True)
def _first_cell(cells: int, order: np.ndarray) -> int:
    for index in range(len(order)):
        if cells >> order[index] & 1:
            return order[index]
    return NO_CELL


@njit(cache=True, nogil=True)
def wins(mover: int, other: int, mover_is_x: bool, ply: int, geometry: np.ndarray,
         order: np.ndarray, keys_mover: np.ndarray, keys_other: np.ndarray, data: np.ndarray,
         history: np.ndarray, killers: np.ndarray, moves: np.ndarray, scores: np.ndarray,
         counters: np.ndarray) -> bool:
    """Whether the side to move (stones ``mover``) wins; the position must be undecided.
    At ply 0 the winning move found (or a move, in a loss) is left in counters[ROOT_MOVE]."""
    counters[NODES] += 1
    if ply > counters[MAX_PLY]:
        counters[MAX_PLY] = ply
    if counters[NODES] > counters[NODE_LIMIT] or counters[STOP] != 0:
        counters[ABORTED] = 1
        return False
    n, stride, board = geometry[G_N], geometry[G_STRIDE], geometry[G_BOARD]
    if mover_is_x:
        source, target = geometry[G_TOP], geometry[G_BOTTOM]
        other_source, other_target = geometry[G_LEFT], geometry[G_RIGHT]
    else:
        source, target = geometry[G_LEFT], geometry[G_RIGHT]
        other_source, other_target = geometry[G_TOP], geometry[G_BOTTOM]
    empty = board & ~(mover | other)
    mover_reach = _reach(mover, empty, source, target, n, stride, board)
    finishing = mover_reach[2] & mover_reach[3]
    if finishing:
        if ply == 0:
            counters[ROOT_MOVE] = _first_cell(finishing, order)
        return True
    other_reach = _reach(other, empty, other_source, other_target, n, stride, board)
    threats = other_reach[2] & other_reach[3]
    if threats & (threats - 1):  # two cells the opponent completes with: one stays open
        if ply == 0:
            counters[ROOT_MOVE] = _first_cell(empty, order)
        return False
    found = _probe(mover, other, keys_mover, keys_other, data)
    if found >= 0:
        counters[HITS] += 1
        if ply == 0:
            counters[ROOT_MOVE] = found >> 1 & 63
        return found & 1 == 1
    if threats:
        candidates = threats
    else:
        double, candidates = _two_ahead(mover, other, empty, mover_reach, other_reach, source,
                                        target, other_source, other_target, n, stride, board)
        if double:
            if ply == 0:
                counters[ROOT_MOVE] = _cell_of(double)
            return True
        if not candidates:
            if ply == 0:
                counters[ROOT_MOVE] = _first_cell(empty, order)
            return False
    colour = 0 if mover_is_x else 1
    count = _ordered(candidates, colour, ply, order, history, killers, moves, scores)
    nodes_before = counters[NODES]
    for index in range(count):
        cell = moves[ply, index]
        opponent_wins = wins(other, mover | 1 << cell, not mover_is_x, ply + 1, geometry, order,
                             keys_mover, keys_other, data, history, killers, moves, scores,
                             counters)
        if counters[ABORTED]:
            return False
        if not opponent_wins:
            counters[CUTOFFS] += 1
            if killers[ply, 0] != cell:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = cell
            history[colour, cell] += count * count
            _store(mover, other, True, cell, counters[NODES] - nodes_before, keys_mover,
                   keys_other, data)
            if ply == 0:
                counters[ROOT_MOVE] = cell
            return True
    first = moves[ply, 0] if count else NO_CELL
    _store(mover, other, False, first, counters[NODES] - nodes_before, keys_mover, keys_other, data)
    if ply == 0:
        counters[ROOT_MOVE] = first
    return False


class Searcher:
    """One board size and one table, kept across searches (the table's proofs stay true)."""

    bytes_per_entry = BYTES_PER_ENTRY

    def __init__(self, game: Hex, entries: int) -> None:
        size = game.size
        if size > MAX_SIZE:
            raise ValueError(f"the Hex kernel takes boards up to {MAX_SIZE}x{MAX_SIZE}")
        self.game = game
        self.geometry = np.array([size, game.stride, game.board, game.top, game.bottom,
                                  game.left, game.right], dtype=np.int64)
        self.order = np.array(game.order, dtype=np.int64)
        entries = max(2, entries - entries % 2)
        self.keys_mover = np.zeros(entries, dtype=np.int64)
        self.keys_other = np.zeros(entries, dtype=np.int64)
        self.data = np.zeros(entries, dtype=np.int64)
        self.history = np.zeros((2, MAX_CELLS), dtype=np.int64)
        plies = size * size + 2
        self.killers = np.full((plies, 2), NO_CELL, dtype=np.int64)
        self.moves = np.zeros((plies, MAX_CELLS), dtype=np.int64)
        self.scores = np.zeros((plies, MAX_CELLS), dtype=np.int64)
        self.counters = np.zeros(8, dtype=np.int64)
        # One search at a time on these arrays: the web's thinkers share a searcher, and two
        # searches at once would mix their counters and stop flag.
        self.lock = threading.Lock()

    @property
    def entries(self) -> int:
        return len(self.data)

    def clear(self) -> None:
        """Forget every proof (for a measurement that must start cold)."""
        self.keys_mover[:] = 0
        self.keys_other[:] = 0
        self.data[:] = 0
        self.history[:] = 0
        self.killers[:] = NO_CELL

    def kernel_call(self, mover: int, other: int, mover_is_x: bool) -> bool:
        """The compiled search on this searcher's arrays (run in the worker thread)."""
        return bool(wins(mover, other, mover_is_x, 0, self.geometry, self.order,
                         self.keys_mover, self.keys_other, self.data, self.history,
                         self.killers, self.moves, self.scores, self.counters))

    def mover_wins(self, position: tuple[int, int], should_stop: Callable[[], bool] | None = None,
                   node_cap: int | None = None) -> tuple[bool, int] | None:
        """Whether the mover of an undecided ``position`` wins, and the move that does it
        (in a loss: a move); None when the search stopped first: at ``node_cap`` nodes in
        the counters, or when ``should_stop()``, asked every 50 ms, says so.

        The kernel runs in a worker thread (it releases the GIL) and this thread watches it,
        so a deadline, a stop flag or Ctrl-C stops it within milliseconds, however busy the
        machine (a search in slices overran the CLI's hard time limit at a load of 14)."""
        with self.lock:
            return self._search(position, should_stop, node_cap)

    def _search(self, position: tuple[int, int], should_stop: Callable[[], bool] | None,
                node_cap: int | None) -> tuple[bool, int] | None:
        x, o = position
        x_to_move = x.bit_count() == o.bit_count()
        mover, other = (x, o) if x_to_move else (o, x)
        counters = self.counters
        counters[ABORTED] = 0
        counters[STOP] = 0
        # The node past the limit is counted, then refused: stop one short of the cap.
        counters[NODE_LIMIT] = NO_LIMIT if node_cap is None else node_cap - 1
        worker = Worker(lambda: self.kernel_call(mover, other, x_to_move))
        try:
            worker.start()  # inside the try: a Ctrl-C while the thread starts is handled too
            while not worker.finished.wait(WATCH_SECONDS):
                if should_stop is not None and should_stop():
                    counters[STOP] = 1
        except BaseException:  # Ctrl-C, or the CLI's hard time limit: stop the worker first
            if worker.give_up():
                counters[STOP] = 1
                worker.wait_out()
            raise
        if counters[ABORTED] or not worker.answer:
            return None
        return bool(worker.answer[0]), int(counters[ROOT_MOVE])

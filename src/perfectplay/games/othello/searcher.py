"""Othello's endgame search (perfectplay.games.othello.kernel) with its table, kept across
searches, and over two threads.

Two threads split the tree by Young Brothers Wait (Feldmann, Monien, Mysliwietz and
Vornberger 1989; Hyatt's DTS and Edax's parallel search are of its kind): at a node with
many empty cells the first move is searched alone, and only when it has not cut off are the
others, each with a null window against the best so far, handed to whichever thread is free;
a thread waiting for a brother of its own node helps below it meanwhile (the "helpful
master"). The top of the tree, the nodes with at least ``SPLIT_FROM`` empty cells that lie
within ``SPLIT_PLIES`` of the root, is walked here in Python; below it each thread calls the
kernel, which shares one table with the other (an entry torn by two writers reads as absent).
A beta cutoff at a node stops the threads working below it (their kernels' stop word), and
what an aborted search computed never enters the table.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np

from perfectplay.games.othello.bitboard import board_word, flips, legal_moves, stable_discs
from perfectplay.games.othello.kernel import (
    ABORTED,
    CUTOFFS,
    DEFAULT_TABLE_BITS,
    ETC_FROM,
    HITS,
    INFINITY,
    MAX_MOVES,
    MAX_PLIES,
    NODES,
    PASS,
    STOP,
    _deep,
    _lower,
    _move,
    _order,
    _probe,
    _store,
    _transposition_cutoff,
    _upper,
)
from perfectplay.search.worker import in_slices

# The split covers the nodes with at least this many empty cells...
SPLIT_FROM = 12
# ... within this many plies of the root: below them a kernel call is a few milliseconds at
# least, so the Python walk above costs little beside it.
SPLIT_PLIES = 6
# Seconds between looks at the caller's stop word while a thread waits.
WAIT_SECONDS = 0.01
ENDLESS = 1 << 62


class Lane:
    """One thread's arrays: the moves and scores of each ply, the best moves, the counters."""

    def __init__(self) -> None:
        self.squares = np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64)
        self.scores = np.zeros((MAX_PLIES, MAX_MOVES), dtype=np.int64)
        self.best_moves = np.zeros(MAX_PLIES, dtype=np.int64)
        self.counters = np.zeros(6, dtype=np.int64)


class Searcher:
    """One table for one board size, kept across searches (its bounds stay true), searched by
    ``threads`` threads (more than one: Young Brothers Wait over the shared table, in a
    search without a node cap)."""

    def __init__(self, size: int, entries: int = 1 << DEFAULT_TABLE_BITS, threads: int = 1) -> None:
        self.size = size
        self.cells = size * size
        self.board = np.uint64(board_word(size))
        self.mask = entries - 1
        # per entry: the mover's word and the opponent's, each XORed with the scrambled data,
        # and the data (kernel._pack: lower bound, upper bound, best move, empty cells); an
        # empty place is all 0, a board without discs, which has no move and is never probed
        self.keys = np.zeros((entries, 3), dtype=np.uint64)
        main = Lane()
        self.squares, self.scores, self.best_moves = main.squares, main.scores, main.best_moves
        # the caller's counters: nodes, hits and cutoffs of every search, and the stop word
        # (a Watch's) that stops them
        self.counters = main.counters
        self.threads = threads
        # nodes the second thread searched (not counted in ``counters``)
        self.helper_nodes = 0

    def clear(self) -> None:
        self.keys[:] = 0

    def score(self, mine: int, theirs: int, alpha: int, beta: int, slice_nodes: int,
              poll: Callable[[int], None], node_cap: int | None = None,
              helped: bool = True) -> tuple[int, int] | None:
        """The final score of the position (``mine``, ``theirs``: kernel words, the mover's
        first) within ``alpha``, ``beta`` (fail-soft) and its best move (a kernel square, or
        PASS), searched in slices of ``slice_nodes`` nodes with ``poll(nodes)`` between them (it
        may raise to stop); None when the search stopped first: at ``node_cap`` nodes in the
        counters (never more), or on the STOP word. Two threads search only a search
        ``helped`` and without a node cap (the second's nodes are not counted in it:
        ``helper_nodes``)."""
        left = self.cells - bin(mine | theirs).count("1")
        if self.threads > 1 and helped and node_cap is None and left >= SPLIT_FROM:
            return _Split(self, left, poll, slice_nodes).run(mine, theirs, alpha, beta)
        own, other = np.uint64(mine), np.uint64(theirs)

        def search(budget: int) -> tuple[int, int]:
            found = _deep(own, other, alpha, beta, left, 0, self.board, self.cells, self.size,
                          self.keys, self.mask, self.squares, self.scores, self.best_moves,
                          self.counters, budget)
            return int(found), int(self.best_moves[0])
        return in_slices(search, self.counters, slice_nodes, poll, node_cap,
                         nodes=NODES, aborted=ABORTED, stop=STOP)


class _Stopped(Exception):
    """The work of a thread is abandoned: a cutoff above it, or the caller's stop word."""


class _Node:
    """A split node: its moves still to hand out, its window, the best found so far, how many
    of its moves are being searched, whether it has cut off, and the node whose move was
    being searched when it was reached (None on the first moves' line from the root)."""

    def __init__(self, mine: int, theirs: int, moves: list[int], alpha: int, beta: int, best: int,
                 best_move: int, left: int, parent: _Node | None) -> None:
        self.mine, self.theirs, self.moves = mine, theirs, moves
        self.alpha, self.beta, self.best, self.best_move = alpha, beta, best, best_move
        self.left, self.parent = left, parent
        self.busy = 0
        self.cut = False

    def within(self, other: _Node) -> bool:
        node: _Node | None = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False

    def abandoned(self) -> bool:
        node = self.parent
        while node is not None:
            if node.cut:
                return True
            node = node.parent
        return False


class _Thread:
    """A thread's lane and the split node whose move it is searching (None at first)."""

    def __init__(self, lane: Lane) -> None:
        self.lane = lane
        self.at: _Node | None = None


# a move handed out: its node, its square, the node's ply, and the split node the thread
# searched below before it
_Task = tuple[_Node, int, int, "_Node | None"]


class _Split:
    """One search over two threads (the module's account)."""

    def __init__(self, searcher: Searcher, left: int, poll: Callable[[int], None], poll_every: int) -> None:
        self.searcher = searcher
        self.root_left = left
        self.poll, self.poll_every = poll, poll_every
        self.polled = 0
        self.lock = threading.Condition()
        self.open: list[_Node] = []
        self.stopping = False
        self.done = False
        self.failure: BaseException | None = None
        self.workers = [_Thread(Lane()) for _ in range(searcher.threads)]

    def run(self, mine: int, theirs: int, alpha: int, beta: int) -> tuple[int, int] | None:
        searcher = self.searcher
        helpers = [threading.Thread(target=self._help, args=(worker,), daemon=True)
                   for worker in self.workers[1:]]
        for helper in helpers:
            helper.start()
        relay = threading.Thread(target=self._relay, daemon=True)
        relay.start()
        try:
            if self._stop_requested():
                return None
            return self._node(self.workers[0], mine, theirs, alpha, beta, self.root_left, 0)
        except _Stopped:
            return None
        finally:
            with self.lock:
                self.done = True
                for worker in self.workers:
                    worker.lane.counters[STOP] = 1
                self.lock.notify_all()
            for thread in [*helpers, relay]:
                thread.join()
            if self.failure is not None:
                raise self.failure
            counters = self.workers[0].lane.counters
            for slot in (NODES, HITS, CUTOFFS):
                searcher.counters[slot] += counters[slot]
            searcher.helper_nodes += sum(int(worker.lane.counters[NODES]) for worker in self.workers[1:])

    def _relay(self) -> None:
        """Pass the caller's stop word on to every thread's kernel."""
        while not self.done and not self._stop_requested():
            with self.lock:
                self.lock.wait(WAIT_SECONDS)

    def _stop_requested(self) -> bool:
        if self.searcher.counters[STOP] and not self.stopping:
            with self.lock:
                self.stopping = True
                for worker in self.workers:
                    worker.lane.counters[STOP] = 1
                self.lock.notify_all()
        return self.stopping

    def _kernel(self, worker: _Thread, mine: int, theirs: int, alpha: int, beta: int, left: int) -> int:
        """The kernel's value (fail-soft): raises _Stopped when it was stopped."""
        searcher, lane = self.searcher, worker.lane
        lane.counters[ABORTED] = 0
        value = _deep(np.uint64(mine), np.uint64(theirs), alpha, beta, left, 1, searcher.board,
                      searcher.cells, searcher.size, searcher.keys, searcher.mask, lane.squares,
                      lane.scores, lane.best_moves, lane.counters, ENDLESS)
        if lane.counters[ABORTED]:
            raise _Stopped
        if worker is self.workers[0] and lane.counters[NODES] >= self.polled + self.poll_every:
            self.polled = int(lane.counters[NODES])
            self.poll(int(searcher.counters[NODES]) + self.polled)
        return int(value)

    def _node(self, worker: _Thread, mine: int, theirs: int, alpha: int, beta: int, left: int,
              ply: int) -> tuple[int, int]:
        """The value (fail-soft) and best move of a node: split when near the root."""
        if left < SPLIT_FROM or ply >= SPLIT_PLIES:
            return self._kernel(worker, mine, theirs, alpha, beta, left), PASS
        searcher = self.searcher
        own, other = np.uint64(mine), np.uint64(theirs)
        moves = np.uint64(legal_moves(own, other, searcher.board))
        if not moves:
            return self._kernel(worker, mine, theirs, alpha, beta, left), PASS
        word = np.uint64(_probe(own, other, searcher.keys, searcher.mask))
        table_move = -1
        if word:
            lower, upper, table_move = _lower(word), _upper(word), _move(word)
            if lower >= beta or lower == upper:
                return lower, table_move
            if upper <= alpha:
                return upper, table_move
            alpha, beta = max(alpha, lower), min(beta, upper)
        proven = self._cutoff(own, other, moves, alpha, beta, left) if ply > 0 else -INFINITY
        if proven > -INFINITY:
            return proven, PASS
        order = self._order(worker, own, other, moves, left, table_move)
        alpha_in = alpha
        first = order[0]
        best = -self._node(worker, *self._child(mine, theirs, first), -beta, -alpha, left - 1,
                           ply + 1)[0]
        best_move = first
        if best < beta and len(order) > 1:
            node = _Node(mine, theirs, order[1:], alpha, beta, best, first, left, worker.at)
            best, best_move = self._split(worker, node, ply)
        lower, upper = -INFINITY, INFINITY
        if best >= beta:
            lower = best
        elif best <= alpha_in:
            upper = best
            best_move = table_move if table_move >= 0 else best_move
        else:
            lower = upper = best
        _store(own, other, lower, upper, best_move, left, searcher.keys, searcher.mask)
        return best, best_move

    def _cutoff(self, own: np.uint64, other: np.uint64, moves: np.uint64, alpha: int, beta: int,
                left: int) -> int:
        """The kernel's cutoffs before a move is searched, at a split node: a bound from the
        opponent's stable discs at most alpha, or a child's table entry proving at least beta
        (an enhanced transposition cutoff); -INFINITY when neither holds."""
        searcher = self.searcher
        cells = searcher.cells
        if alpha >= 2 * left + cells - 64:
            cap = cells - 2 * bin(int(stable_discs(other, own | other, searcher.size))).count("1")
            if cap <= alpha:
                return cap
        if left > ETC_FROM:
            proven = int(_transposition_cutoff(own, other, moves, beta, searcher.keys, searcher.mask))
            if proven >= beta:
                return proven
        return -INFINITY

    def _order(self, worker: _Thread, own: np.uint64, other: np.uint64, moves: np.uint64,
               left: int, table_move: int) -> list[int]:
        lane = worker.lane
        searcher = self.searcher
        count = _order(own, other, moves, left, searcher.board, searcher.size, lane.squares[0],
                       lane.scores[0])
        order = [int(square) for square in lane.squares[0, :count]]
        if table_move in order:
            order.remove(table_move)
            order.insert(0, table_move)
        return order

    @staticmethod
    def _child(mine: int, theirs: int, square: int) -> tuple[int, int]:
        turned = int(flips(np.uint64(mine), np.uint64(theirs), square))
        return theirs & ~turned, mine | turned | 1 << square

    def _split(self, worker: _Thread, node: _Node, ply: int) -> tuple[int, int]:
        """The node's other moves over the threads; its best value and move once all are
        searched or one cuts off."""
        with self.lock:
            self.open.append(node)
            self.lock.notify_all()
        try:
            self._work(worker, node, ply)
            with self.lock:
                while node.busy:
                    helped = self._take(worker, lambda other: other is not node and other.within(node))
                    if helped is None:
                        self.lock.wait(WAIT_SECONDS)
                        with self._unlocked():
                            self._stop_requested()
                        continue
                    with self._unlocked():
                        self._search_move(worker, *helped)
        finally:
            with self.lock:
                self.open.remove(node)
                node.moves.clear()  # nothing more of it is handed out
        if self.stopping or node.abandoned():
            raise _Stopped
        return node.best, node.best_move

    def _work(self, worker: _Thread, node: _Node, ply: int) -> None:
        """Search the node's moves as long as some are left to hand out."""
        while True:
            with self.lock:
                if node.cut or not node.moves or node.abandoned() or self.stopping:
                    return
                task = self._hand_out(worker, node, ply)
            self._search_move(worker, *task)

    def _hand_out(self, worker: _Thread, node: _Node, ply: int) -> _Task:
        """(under the lock) The node's next move, given to ``worker``."""
        square = node.moves.pop(0)
        node.busy += 1
        previous = worker.at
        worker.at = node
        return node, square, ply, previous

    def _take(self, worker: _Thread, wanted: Callable[[_Node], bool]) -> _Task | None:
        """(under the lock) A move of an open node ``wanted`` by the worker, or None."""
        for node in reversed(self.open):
            if node.moves and not node.cut and not node.abandoned() and wanted(node):
                return self._hand_out(worker, node, self.root_left - node.left)
        return None

    def _search_move(self, worker: _Thread, node: _Node, square: int, ply: int,
                     previous: _Node | None) -> None:
        """Search a move handed out at ``node``: a null window against the node's best, again
        with a wider one when it beats it; the node's best and cutoff updated."""
        value = None
        try:
            value = self._null_window_value(worker, node, square, ply)
        except _Stopped:
            pass
        finally:
            with self.lock:
                node.busy -= 1
                worker.at = previous
                if value is not None and value > node.best and not node.cut:
                    node.best, node.best_move = value, square
                    if value >= node.beta:
                        node.cut = True
                        self._stop_below(node)
                self._resume(worker)
                self.lock.notify_all()

    def _null_window_value(self, worker: _Thread, node: _Node, square: int, ply: int) -> int:
        child = self._child(node.mine, node.theirs, square)
        while True:
            floor = max(node.alpha, node.best)
            value = -self._node(worker, *child, -floor - 1, -floor, node.left - 1, ply + 1)[0]
            if value <= floor or value >= node.beta:
                return value
            if value <= max(node.alpha, node.best):
                continue  # the best rose meanwhile: test against it
            with self.lock:
                # the bound is proved: the other threads test their moves against it while
                # this one finds the exact value
                if value > node.best and not node.cut:
                    node.best, node.best_move = value, square
            found = -self._node(worker, *child, -node.beta, -value, node.left - 1, ply + 1)[0]
            return max(found, value)

    def _stop_below(self, node: _Node) -> None:
        """(under the lock) Stop every thread searching below the node, which has cut off."""
        for worker in self.workers:
            if worker.at is not None and worker.at.within(node):
                worker.lane.counters[STOP] = 1

    def _resume(self, worker: _Thread) -> None:
        """(under the lock) A thread's stop word as its work now is: set while it works below
        a node that has cut off, or once the caller has stopped the search."""
        stopped = self.stopping or self.done or (worker.at is not None and
                                                 (worker.at.cut or worker.at.abandoned()))
        worker.lane.counters[STOP] = 1 if stopped else 0

    def _help(self, worker: _Thread) -> None:
        """A helper thread: search moves of open nodes until the search is done; a failure
        stops the search, and the caller's thread raises it."""
        try:
            self._help_until_done(worker)
        except BaseException as failure:
            with self.lock:
                self.failure = failure
                self.stopping = True
                for each in self.workers:
                    each.lane.counters[STOP] = 1

    @contextmanager
    def _unlocked(self) -> Iterator[None]:
        """The shared lock released for a search (held by the caller), taken back after it."""
        self.lock.release()
        try:
            yield
        finally:
            self.lock.acquire()

    def _help_until_done(self, worker: _Thread) -> None:
        with self.lock:
            while not self.done:
                task = self._take(worker, lambda node: True)
                if task is None:
                    self.lock.wait(WAIT_SECONDS)
                    continue
                with self._unlocked():
                    self._search_move(worker, *task)

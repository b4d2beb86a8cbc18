"""Connect Four through the compiled kernel, answered as perfectplay.search answers.

The kernel works in the test sets' scores; perfectplay.games.connect4.answers turns them
into perfectplay values, finds every optimal move and the principal variation, for this
engine and for the kernel's pure-Python mirror alike. Nodes are counted as the Python engine
counts them (every call of the search function).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from perfectplay.errors import LimitReached
from perfectplay.games.connect4 import answers
from perfectplay.games.connect4 import kernel as K
from perfectplay.games.connect4 import kernel_table as T
from perfectplay.games.connect4.rules import ConnectFour, Position
from perfectplay.search.limits import Budget
from perfectplay.search.results import MoveValue, Solution
from perfectplay.search.transposition import parse_table_size
from perfectplay.search.worker import Worker

_ARRAYS: dict[tuple[int, int, int], np.ndarray] = {}
# One solve at a time per array. The kernel releases the GIL, and two searches writing the
# same table entry at once could leave one search's key with the other's bound; and a solve
# is several kernel calls sharing the array's counters, node limit and table generation, which
# another thread's new_solve would reset mid-way (stopping this solve at that thread's limit,
# or letting a stopped search's bounds survive). Threads that share an array (the web
# server's thinkers, a warm-up thread, a caller's own threads) take turns for whole solves.
_LOCKS: dict[tuple[int, int, int], threading.RLock] = {}


# Every solve first runs directly, in the caller's thread, for at most this many nodes in all
# (about 10 ms idle at 10 M nodes/s); a solve still going then goes on in a worker thread,
# where Ctrl-C is heard, the interrupted call and every later one (Engine._run). A thread
# costs about 0.14 ms of CPU, more wall time on a busy machine: small solves, nearly all, no
# longer pay it, and the larger ones pay at most about 1.4% a call. With 500,000
# nodes the direct part held Ctrl-C up to 0.8 s on a machine busy on both cores
# (benchmarks/interrupts.py --busy 2, load 15); with 100,000, 69 ms at worst.
DIRECT_NODES = 100_000


class Engine(answers.ScoreEngine):
    """One board size, one array (kept for the process: generations make reuse free)."""

    def __init__(self, game: ConnectFour, table_size: str | int | None = None) -> None:
        self.game = game
        entries = parse_table_size(table_size, T.BYTES_PER_ENTRY)
        shape = (entries, game.width, game.height)
        if shape not in _ARRAYS:
            _ARRAYS[shape] = T.allocate(entries, (game.height + 1) * game.width)
            write_geometry(_ARRAYS[shape], game)
            _ARRAYS[shape][K.NODE_LIMIT] = K.NO_LIMIT
            _LOCKS[shape] = threading.RLock()
        # One array holds the work area and the table (see kernel.TABLE_AT).
        self.work = _ARRAYS[shape]
        self.lock = _LOCKS[shape]
        self.budget: Budget | None = None
        # The solve's state (reset_counters): the node budget it was given, whether the
        # array's node limit is for now the direct part's end, whether calls run in a thread.
        self.node_limit = K.NO_LIMIT
        self.asked_nodes: int | None = None
        self.direct_part = False
        self.threaded = False

    @contextmanager
    def solving(self, node_limit: int | None = None,
                budget: Budget | None = None) -> Iterator[None]:
        """One solve: hold the array throughout (see _LOCKS) and start it with new_solve.
        Every kernel call of the solve belongs inside."""
        with self.exclusive(budget):
            self.new_solve(node_limit, budget)
            yield

    @contextmanager
    def exclusive(self, budget: Budget | None = None) -> Iterator[None]:
        """Hold the array; a caller with a deadline waits no longer than that for another
        thread's solve to end (LimitReached after)."""
        wait = -1.0
        if budget is not None and budget.deadline is not None:
            wait = max(0.0, budget.deadline - time.perf_counter())
        if not self.lock.acquire(timeout=wait):
            raise LimitReached("the compiled search's time ran out while another search "
                               "held its table")
        try:
            yield
        finally:
            self.lock.release()

    def new_solve(self, node_limit: int | None = None, budget: Budget | None = None) -> None:
        """Start a search: a fresh table, zero counters, this node budget. ``budget``'s
        deadline and stop flag are watched while a long search runs (``_run``)."""
        T.new_generation(self.work)
        self.reset_counters(node_limit)
        self.budget = budget

    def reset_counters(self, node_limit: int | None = None) -> None:
        """Zero the statistics and set the node budget (None: unlimited), table untouched;
        the solve starts in this thread, for DIRECT_NODES nodes at most (``_run``)."""
        self.work[K.NODES:K.MAX_PLY + 1] = 0
        self.asked_nodes = node_limit
        # The kernel refuses a node once NODES passes NODE_LIMIT, the refused one counted:
        # one short of the budget, so that a search never enters more nodes than asked.
        self.node_limit = K.NO_LIMIT if node_limit is None else np.uint64(max(node_limit - 1, 0))
        self.direct_part = bool(self.node_limit > DIRECT_NODES)
        self.threaded = False
        self.work[K.NODE_LIMIT] = DIRECT_NODES if self.direct_part else self.node_limit

    def _check_budget(self) -> None:
        if self.work[K.NODES] > self.work[K.NODE_LIMIT]:
            T.new_generation(self.work)  # the stopped search left bounds that are not true
            raise LimitReached(self.stopped("nodes") + f": the compiled search used its budget "
                               f"of {self.asked_nodes or 0:,} nodes")

    def _args(self, position: Position) -> tuple[Any, ...]:
        mover, occupied, _ = position
        return np.uint64(mover), np.uint64(occupied), self.game.stones(position)

    def narrow(self, position: Position, low: int, high: int, probes: int) -> tuple[int, int]:
        mover, occupied, stones = self._args(position)
        low, high = self._run(K.narrow, mover, occupied, stones, low, high, probes, self.work)
        self._check_budget()
        return int(low), int(high)

    def at_least(self, position: Position, target: int) -> bool:
        mover, occupied, stones = self._args(position)
        found = bool(self._run(K.at_least, mover, occupied, stones, target, self.work))
        self._check_budget()
        return found

    def _run(self, kernel: Any, *args: Any) -> Any:
        """Call a kernel entry point: directly while the solve is within its first
        DIRECT_NODES nodes, else in a worker thread (the kernel releases the GIL), so that
        Ctrl-C, which Python handles only in the main thread, stops it within milliseconds
        instead of seconds. A call that crosses that line is stopped by the
        kernel's node limit and made again in a thread: a stopped search stores nothing, so
        the table keeps every bound proved so far and the second call starts from them.
        Checking costs one comparison a call, not a thread."""
        with self.lock:
            # A solve is many kernel calls: one whose caller stopped waiting for it (a hard
            # time limit, search/deep.py) ends at its next call instead of running on.
            if self._out_of_time():
                raise LimitReached(self.stopped(self._why()))
            if self.threaded:
                return self._run_threaded(kernel, *args)
            answer = kernel(*args)
            if not self.direct_part or self.work[K.NODES] <= self.work[K.NODE_LIMIT]:
                return answer
            self.direct_part = False
            self.threaded = True
            self.work[K.NODE_LIMIT] = self.node_limit
            return self._run_threaded(kernel, *args)

    def _run_threaded(self, kernel: Any, *args: Any) -> Any:
        worker = Worker(lambda: kernel(*args))
        try:
            # Inside the try: a Ctrl-C while the thread starts is handled like any other.
            worker.start()
            while not worker.finished.wait(0.05):
                if self._out_of_time():
                    raise LimitReached(self.stopped(self._why()))
        except BaseException:  # that, Ctrl-C, or the CLI's hard time limit (cli/watchdog.py)
            if worker.give_up():
                self._stop(worker)
            raise
        return worker.answer[0]

    def _out_of_time(self) -> bool:
        budget = self.budget
        if budget is None:
            return False
        return budget.stop.is_set() or \
            (budget.deadline is not None and time.perf_counter() > budget.deadline)

    def _why(self) -> str:
        return "stopped" if self.budget is not None and self.budget.stop.is_set() else "time"

    def stopped(self, reason: str) -> str:
        """What the user reads when a limit stops the solve, as the Python searches say it."""
        return (f"the Connect Four kernel stopped ({reason}) after {int(self.work[K.NODES]):,} "
                "nodes without an answer")

    def _stop(self, worker: Worker) -> None:
        self.work[K.STOP] = 1
        # The kernel sees the flag at its next node, so this wait is milliseconds; it must
        # end before the flag is cleared, or the worker would run on beside the next search.
        worker.wait_out()
        self.work[K.STOP] = 0
        T.new_generation(self.work)  # the stopped search left bounds that are not true

    def counters(self) -> tuple[int, int, int, int]:
        work = self.work
        return int(work[K.NODES]), int(work[K.HITS]), int(work[K.CUTOFFS]), int(work[K.MAX_PLY])


def write_geometry(geo: np.ndarray, game: ConnectFour) -> None:
    geo[K.GEO_HEIGHT] = game.height
    geo[K.GEO_WIDTH] = game.width
    geo[K.GEO_BOARD] = game.board
    geo[K.GEO_BOTTOM] = game.bottom_row
    geo[K.GEO_CELLS] = game.cells
    geo[K.GEO_ORDER:K.GEO_ORDER + game.width] = game.order


ALGORITHM = "compiled null-window"


def solve(game: ConnectFour, position: Position, *, outcome_only: bool = False,
          table_size: str | int | None = None, pv_limit: int = 1000,
          on_depth: Callable[[Any], None] | None = None, book: Any = None,
          node_limit: int | None = None, budget: Budget | None = None,
          on_optimal: Callable[[int, int], None] | None = None, **_: Any) -> Solution:
    """Like perfectplay.solve, by the kernel (answers.solve); past ``node_limit`` nodes in
    all (when given), past ``budget``'s deadline or on its stop flag a long search raises
    LimitReached."""
    engine = Engine(game, table_size)
    with engine.solving(node_limit, budget):
        return answers.solve(engine, position, ALGORITHM, outcome_only=outcome_only,
                             pv_limit=pv_limit, on_depth=on_depth, book=book,
                             on_optimal=on_optimal)


def analyze(game: ConnectFour, position: Position, *, outcome_only: bool = False,
            table_size: str | int | None = None, book: Any = None, node_limit: int | None = None,
            budget: Budget | None = None, **_: Any) -> list[MoveValue]:
    """Every legal column's value, by the kernel (answers.analyze); past ``node_limit``
    nodes in all it raises LimitReached; ``budget`` as for solve."""
    engine = Engine(game, table_size)
    with engine.solving(node_limit, budget):
        return answers.analyze(engine, position, outcome_only=outcome_only, book=book)

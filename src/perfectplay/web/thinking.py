"""The computer's thinking, watched live: iterative deepening in a worker thread, one event
per completed depth, until every move's value is exact, the time is up, or the page cancels.

Each depth is a full-window analysis (every move's value to that depth, exact where the
search saw the end), so the page can colour moves as estimates while it waits. A cancel (the
page closes the event stream) sets the search's stop flag, which the search polls every few
hundred nodes; the thread then ends and the best depth so far is kept.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from perfectplay import value as V
from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.game_faults import explain
from perfectplay.search.limits import Budget, Limits
from perfectplay.solving import analyze, estimating_algorithm
from perfectplay.web.positions import TABLE_ENTRIES, Analyses, Known, quick_analysis

DEFAULT_SECONDS = 5.0
MAX_SECONDS = 60.0
# At most this many searches think at once; more would only share the same 2 cores.
MAX_THINKERS = 4


@dataclass
class Progress:
    """One completed depth, or the end."""

    depth: int
    known: Known | None
    elapsed_s: float
    done: bool = False
    reason: str = ""  # why it ended: "exact", "time", "cancelled"


@dataclass
class Thinker:
    """Deepens on ``position`` until exact, out of time or stopped; reports every depth."""

    game: Game[Any, Any]
    position: Any
    memory: Analyses
    seconds: float
    report: Callable[[Progress], None]
    budget: Budget = field(init=False)

    def __post_init__(self) -> None:
        self.budget = Budget(Limits(time=self.seconds))

    def cancel(self) -> None:
        self.budget.stop.set()

    def run(self) -> None:
        try:
            self._run()
        except Exception as error:  # a user's game may raise anything: the page shows it
            self.report(Progress(0, None, self.budget.elapsed(), True, f"error: {explain(error) or error}"))

    def _run(self) -> None:
        started = time.perf_counter()
        known = quick_analysis(self.game, self.position, self.memory)
        if known is not None and known.exact:
            self.report(Progress(0, known, time.perf_counter() - started, True, "exact"))
            return
        best: Known | None = known
        if estimating_algorithm(self.game) == "mcts":
            self._sample(started)  # no evaluation to deepen with: Monte Carlo (issue 23)
            return
        max_depth = self.game.properties.max_length or 10_000
        reason = "time"
        for depth in range(1, max_depth + 1):
            found = self._depth(depth)
            if found is None:
                reason = "cancelled" if self.budget.stop.is_set() else "time"
                break
            best = found
            self.memory.put(self.game, self.position, found)
            if found.exact:
                reason = "exact"
                break
            self.report(Progress(depth, found, time.perf_counter() - started))
        depth_reached = (best.depth or 0) if best is not None else 0
        self.report(Progress(depth_reached, best, time.perf_counter() - started, True, reason))

    def _sample(self, started: float) -> None:
        """Monte Carlo tree search for the whole think time (or until cancelled, or the
        root is proved), reported once at the end."""
        moves = analyze(self.game, self.position, algorithm="mcts", budget=self.budget)
        exact = bool(moves) and all(move.exact for move in moves)
        found = Known(tuple(moves), exact) if moves else None
        if found is not None:
            self.memory.put(self.game, self.position, found)
        reason = "exact" if exact else "cancelled" if self.budget.stop.is_set() else "time"
        self.report(Progress(0, found, time.perf_counter() - started, True, reason))

    def _depth(self, depth: int) -> Known | None:
        """Every move's value searched ``depth`` plies deep, or the exact analysis when a try
        as long as that depth took finds it; None if stopped first."""
        if self._stopped():
            return None
        began = time.perf_counter()
        try:
            moves = analyze(self.game, self.position, algorithm="id", limits=Limits(depth=depth),
                            budget=self.budget, table_size=TABLE_ENTRIES)
        except LimitReached:
            return None
        if self._stopped() or not moves:
            return None  # the last depth may be unfinished: keep the one before
        exact = self._exact_try(max(time.perf_counter() - began, 0.01))
        if exact is not None:
            return exact
        # A depth-limited value is proven only when it is a forced win or loss.
        return Known(tuple(replace(move, exact=V.is_decisive(move.value) and not move.score_game)
                           for move in moves), False, depth)

    def _exact_try(self, seconds: float) -> Known | None:
        """The exact analysis if it takes no longer than ``seconds`` (at most doubling the
        time spent, as each depth costs more than all before it)."""
        remaining = self.seconds - self.budget.elapsed()
        if remaining <= 0:
            return None
        attempt = Budget(Limits(time=min(seconds, remaining)))
        attempt.stop = self.budget.stop  # a cancel stops this try too
        try:
            moves = analyze(self.game, self.position, budget=attempt, table_size=TABLE_ENTRIES)
        except LimitReached:
            return None
        return Known(tuple(moves), True) if moves and not self._stopped() else None

    def _stopped(self) -> bool:
        return self.budget.stop.is_set() or self.budget.elapsed() >= self.seconds


class Thinkers:
    """Bounds the searches running at once; a new one beyond the bound cancels the oldest."""

    def __init__(self, limit: int = MAX_THINKERS) -> None:
        self.limit = limit
        self._running: list[Thinker] = []
        self._lock = threading.Lock()

    def start(self, thinker: Thinker) -> threading.Thread:
        with self._lock:
            self._running.append(thinker)
            while len(self._running) > self.limit:
                self._running.pop(0).cancel()

        def target() -> None:
            try:
                thinker.run()
            finally:
                with self._lock:
                    if thinker in self._running:
                        self._running.remove(thinker)

        thread = threading.Thread(target=target, name="perfectplay-thinker", daemon=True)
        thread.start()
        return thread

    def cancel_all(self) -> None:
        with self._lock:
            for thinker in self._running:
                thinker.cancel()

"""Lazy SMP (as in Stockfish): helper processes search the same position as the main search,
sharing its transposition table in shared memory, and cross-pollinate through it.

Helpers are forked once and wait for jobs, so a search pays no process start-up. A forked
helper inherits the game, the settings and the mapping of the shared table; a job sends only
the position and the table's generation. Helper ``i`` shuffles its root moves (seeded by
``i``) and odd helpers start one iteration deeper, so they explore other subtrees first
instead of repeating the main search. The main search alone decides the move; when it ends
it sets the stop event, and each helper answers with its node count before the next job.
"""

from __future__ import annotations

import multiprocessing
import queue
from typing import Any

from perfectplay.engine.api import MAX_DEPTH, SearchLimits, Settings
from perfectplay.engine.clock import Clock
from perfectplay.engine.search import Probe, Searcher
from perfectplay.engine.transposition import HELPER_BIT, EngineTable
from perfectplay.game import Game

# How long the main process waits for a stopped helper to answer (it polls every 32 nodes).
ANSWER_SECONDS = 5.0


def _helper_loop(game: Game[Any, Any], settings: Settings, table: EngineTable, helper: int,
                 jobs: Any, answers: Any, stop: Any, pace: Any, probe: Probe | None) -> None:
    table.writer = HELPER_BIT  # this process's copy of the table object marks what it writes
    searcher = Searcher(game, settings, table, helper=helper, probe=probe)
    searcher.pace = pace
    while True:
        job = jobs.get()
        if job is None:
            return
        kind, position, generation, max_depth = job
        if kind == "new_game":
            searcher.new_game()
            answers.put((helper, 0))
            continue
        table.generation = (generation - 1) & 63  # iterate() advances it to the main's
        clock = Clock(SearchLimits(infinite=True), stop)
        try:
            for _ in searcher.iterate(position, clock, max_depth, start_depth=1 + helper % 2):
                pass
        except Exception:  # noqa: BLE001 - a helper's failure must not hang the main search
            pass
        answers.put((helper, searcher.nodes))


class HelperPool:
    """``count`` forked helper processes over one shared table."""

    def __init__(self, game: Game[Any, Any], settings: Settings, table: EngineTable, count: int,
                 probe: Probe | None = None) -> None:
        context = multiprocessing.get_context("fork")
        self.stop = context.Event()
        # The depth the main search is on: one shared int, no lock (one writer; a stale read
        # only makes a helper pick a depth one off).
        self.pace: Any = context.Value("i", 0, lock=False)
        self.answers: Any = context.Queue()
        self.jobs: list[Any] = []
        self.processes = []
        for helper in range(1, count + 1):
            jobs = context.Queue()
            process = context.Process(target=_helper_loop, daemon=True,
                                      args=(game, settings, table, helper, jobs, self.answers, self.stop,
                                            self.pace, probe))
            process.start()
            self.jobs.append(jobs)
            self.processes.append(process)
        self.running = False

    def start(self, position: Any, generation: int, max_depth: int = MAX_DEPTH) -> None:
        self.stop.clear()
        self.pace.value = 1
        for jobs in self.jobs:
            jobs.put(("search", position, generation, max_depth))
        self.running = True

    def finish(self) -> int:
        """Stop the helpers and return the nodes they searched."""
        if not self.running:
            return 0
        self.stop.set()
        self.running = False
        return self._collect()

    def new_game(self) -> None:
        for jobs in self.jobs:
            jobs.put(("new_game", None, 0, 0))
        self._collect()

    def _collect(self) -> int:
        nodes = 0
        for _ in self.jobs:
            try:
                nodes += self.answers.get(timeout=ANSWER_SECONDS)[1]
            except queue.Empty:
                break
        return nodes

    def close(self) -> None:
        self.stop.set()
        for jobs in self.jobs:
            jobs.put(None)
        for process in self.processes:
            process.join(timeout=1.0)
            if process.is_alive():
                process.terminate()
        self.processes = []

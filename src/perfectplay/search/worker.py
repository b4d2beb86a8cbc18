"""A compiled search run in a worker thread, so that the main thread stays free to hear
Ctrl-C and time limits while the kernel (which releases the GIL) works.

The caller must never give up on such a worker without knowing whether it runs: one left
running works on in the table it shares with the next search and gives that search wrong
values. The hard case is an interrupt that lands while ``Thread.start`` itself waits for the
new thread (longer on a busy machine): the thread may or may not have been launched, and the
interrupted caller cannot tell. So the worker passes a gate before it begins: the caller
closes the gate when it gives up, and learns whether the work began (stop it and wait) or
never will.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar


class Worker:
    """``work()`` in a daemon thread; ``answer`` holds its return value once ``finished``."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.work = work
        self.answer: list[Any] = []
        # Reported through an Event, not Thread.is_alive: on CPython 3.11 a Ctrl-C that
        # interrupts Thread.join can mark a running thread as stopped (python/cpython#90882).
        self.finished = threading.Event()
        self._gate = threading.Lock()
        self._given_up = False
        self._began = False
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            with self._gate:
                if self._given_up:
                    return
                self._began = True
            self.answer.append(self.work())
        finally:
            self.finished.set()

    def start(self) -> None:
        self.thread.start()

    def give_up(self) -> bool:
        """Close the gate: True when the work began (the caller must stop it and wait for
        ``finished``), False when it never will."""
        with self._gate:
            self._given_up = True
            return self._began

    def wait_out(self) -> None:
        """Wait for the work to end after the caller asked it to stop. A second Ctrl-C must
        not cut this short: the worker would run on beside the next search."""
        while not self.finished.is_set():
            try:
                self.finished.wait()
            except KeyboardInterrupt:
                continue


# How often a Watch looks at the clock: a kernel stopped by it overruns a deadline by
# about this much.
WATCH_SECONDS = 0.01


class Watch:
    """Sets ``flags[slot]`` to 1 once ``budget``'s deadline passes or its stop flag is set,
    from a daemon thread, for a kernel that runs in the caller's thread, releases the GIL and
    polls that word as it searches. Used as a context manager around one solve: on the way
    out the thread is joined, so no flag is set after the solve has ended (it would stop the
    next one). ``reason`` says what set it ("time" or "stopped"), None while unset."""

    def __init__(self, budget: Any, flags: Any, slot: int) -> None:
        self.budget = budget
        self.flags = flags
        self.slot = slot
        self.reason: str | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def __enter__(self) -> Watch:
        self.flags[self.slot] = 0
        if not self._check():  # a budget spent already stops the solve at its first node
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()
        self.flags[self.slot] = 0

    def _watch(self) -> None:
        while not self._done.wait(WATCH_SECONDS) and not self._check():
            pass

    def _check(self) -> bool:
        """Set the flag when the budget is spent; whether it is."""
        budget = self.budget
        if budget.stop.is_set():
            self.reason = "stopped"
        elif budget.deadline is not None and time.perf_counter() >= budget.deadline:
            self.reason = "time"
        else:
            return False
        self.flags[self.slot] = 1
        return True


Found = TypeVar("Found")


def in_slices(search: Callable[[int], Found], counters: Any, slice_nodes: int,
              poll: Callable[[int], None], node_cap: int | None, *, nodes: int, aborted: int,
              stop: int) -> Found | None:
    """A kernel search run in slices of ``slice_nodes`` nodes: ``search(budget)`` searches
    until ``counters[nodes]`` reaches ``budget`` and then sets ``counters[aborted]``; between
    slices ``poll(nodes so far)`` runs (it may raise to stop). Returns what a search that was
    not aborted found, or None when it stopped first: at ``node_cap`` nodes in the counters
    (never more), or on the ``counters[stop]`` word (a Watch's)."""
    # The node past the cap is counted, then refused: stop one short of it.
    last = None if node_cap is None else node_cap - 1
    while True:
        counters[aborted] = 0
        budget = int(counters[nodes]) + slice_nodes
        if last is not None and budget >= last:
            budget = last
        found = search(budget)
        if not counters[aborted]:
            return found
        if counters[stop] or budget == last:
            return None
        poll(int(counters[nodes]))

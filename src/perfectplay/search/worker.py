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
from typing import Any, Callable


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

"""Run a recursive search where Python's recursion limit cannot stop it.

Searches recurse once per ply, and games such as take-away from 100,000 sticks go far
deeper than CPython's default limit of 1,000 frames. The search runs in a worker thread
with a large stack and a raised frame limit; the main thread waits, and turns Ctrl-C into
a stop request that the search sees at its next poll (any other exception raised while it
waits, such as the CLI's hard time limit, also stops the search, without waiting for it).
"""

from __future__ import annotations

import sys
import threading
from typing import Callable, TypeVar

from perfectplay.search.limits import Budget

T = TypeVar("T")

# Enough for several million plies of CPython 3.11 frames; the memory is only reserved.
STACK_BYTES = 1 << 30
FRAME_LIMIT = 10_000_000


def run_deep(task: Callable[[], T], budget: Budget) -> T:
    """Run ``task`` in a deep-stack thread and return its result or raise its exception."""
    outcome: dict[str, object] = {}

    def target() -> None:
        try:
            outcome["result"] = task()
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            outcome["error"] = error

    if sys.getrecursionlimit() < FRAME_LIMIT:
        sys.setrecursionlimit(FRAME_LIMIT)
    previous = threading.stack_size()
    threading.stack_size(STACK_BYTES)
    try:
        worker = threading.Thread(target=target, name="perfectplay-search", daemon=True)
        worker.start()
    finally:
        threading.stack_size(previous)
    try:
        worker.join()
    except KeyboardInterrupt:
        budget.stop.set()
        worker.join()
        raise
    except BaseException:
        # A hard time limit (cli/watchdog.py) fired while the search was inside code it cannot
        # interrupt: ask it to stop at its next poll, and do not wait for that.
        budget.stop.set()
        raise
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]

"""Run a recursive search where Python's recursion limit cannot stop it.

Searches recurse once per ply, and games such as take-away from 100,000 sticks go far
deeper than CPython's default limit of 1,000 frames. The search runs in a worker thread
with a large stack and a raised frame limit; the main thread waits, and turns Ctrl-C into
a stop request that the search sees at its next poll (any other exception raised while it
waits, such as the CLI's hard time limit, also stops the search, without waiting for it).

A search that stops deep in a game takes long to return even after it has decided to stop:
Python unwinds some 130,000-300,000 frames a second and holds the GIL all the while, so the
waiting thread cannot even run a signal handler (`--time 1` in a game that never ends once
stopped after 2.4 s in the library, 4.5-5.7 s in the CLI). So a search that must stop
(a limit, Ctrl-C) with more than DEEP_FRAMES frames below it first hands over: it wakes the
caller, which raises LimitReached (or KeyboardInterrupt) at once, and only then unwinds, in
the background (a daemon thread: it never holds the process open). Under a time limit the
caller also stops waiting a short allowance after the deadline, for a search stuck in one
slow call of a game's own code.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from perfectplay.errors import LimitReached
from perfectplay.search.limits import Budget

T = TypeVar("T")

# Enough for several million plies of CPython 3.11 frames; the memory is only reserved.
STACK_BYTES = 1 << 30
FRAME_LIMIT = 10_000_000
# How long past its deadline a search may take to return: ABANDON_SECONDS plus this share
# of the limit. Inside the CLI's cut-off (0.5 s + a tenth of the limit, cli/watchdog.py), so
# that a whole command with --time T, start-up and exit included, ends within that too.
ABANDON_SECONDS = 0.1
ABANDON_SHARE = 0.05
# A stopping search with more frames than this below it hands over before it unwinds (about
# 40-80 ms of unwinding); counting them costs a walk of at most this many frames, once.
DEEP_FRAMES = 10_000
# How long a search that handed over waits before it unwinds.
UNWIND_DELAY = 1.0
# The longest single wait: Event.wait refuses timeouts past threading.TIMEOUT_MAX.
LONGEST_WAIT = 60.0


class _Handover:
    """Between a search thread and the thread waiting for it: ``wake`` is set when the search
    has ended or, deep in a game, is about to unwind; ``reason`` says why it stopped."""

    def __init__(self) -> None:
        self.wake = threading.Event()
        self.taken = threading.Event()
        self.reason: str | None = None

    def before_unwinding(self, reason: str) -> None:
        """Called in the search thread by Budget.poll just before it raises OutOfBudget."""
        if _fewer_frames_than(DEEP_FRAMES):
            return
        self.reason = reason
        self.wake.set()
        if self.taken.wait(1.0):
            # Unwinding holds the GIL for long stretches: give the caller time to print its
            # line and exit (the CLI) before taking it (a measured 2.7 s otherwise).
            time.sleep(UNWIND_DELAY)


def _fewer_frames_than(count: int) -> bool:
    frame = sys._getframe()
    for _ in range(count):
        frame = frame.f_back  # type: ignore[assignment]
        if frame is None:
            return True
    return False


def run_deep(task: Callable[[], T], budget: Budget) -> T:
    """Run ``task`` in a deep-stack thread and return its result or raise its exception."""
    outcome: dict[str, object] = {}
    handover = _Handover()

    def target() -> None:
        try:
            outcome["result"] = task()
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            outcome["error"] = error
        finally:
            handover.wake.set()

    if sys.getrecursionlimit() < FRAME_LIMIT:
        sys.setrecursionlimit(FRAME_LIMIT)
    # A run_deep within a run_deep on the same budget keeps the outer one's hook and answer.
    outer_hook, outer_answer = budget.before_stopping, budget.answer_so_far
    budget.before_stopping, budget.answer_so_far = handover.before_unwinding, None
    try:
        left_behind = _start_and_wait(target, handover, budget)
        answer_so_far = budget.answer_so_far
    finally:
        budget.before_stopping, budget.answer_so_far = outer_hook, outer_answer
    if left_behind and answer_so_far is not None:
        return answer_so_far()
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["result"]  # type: ignore[return-value]


def _start_and_wait(target: Callable[[], None], handover: _Handover, budget: Budget) -> bool:
    """Whether the search was left behind past its deadline with an answer so far."""
    previous = threading.stack_size()
    threading.stack_size(STACK_BYTES)
    try:
        worker = threading.Thread(target=target, name="perfectplay-search", daemon=True)
    finally:
        threading.stack_size(previous)
    try:
        # Inside the try: a Ctrl-C that lands while the thread starts sets the stop flag too,
        # so a search that starts after all ends at its first poll instead of running on.
        worker.start()
        return _wait(worker, handover, budget)
    except KeyboardInterrupt:
        budget.stop.set()
        _wait(worker, handover, budget, interrupted=True)
        raise
    except BaseException:
        # A hard time limit (cli/watchdog.py) fired while the search was inside code it cannot
        # interrupt, or the search was left behind: ask it to stop at its next poll, and do
        # not wait for that.
        budget.stop.set()
        raise


def _wait(worker: threading.Thread, handover: _Handover, budget: Budget,
          interrupted: bool = False) -> bool:
    """Wait for the search to end. Raise LimitReached at once when it hands over (deep in a
    game), or under a time limit once the deadline and its allowance have passed, unless it
    has an answer so far: then leave it behind and say so (True). On a busy machine a search
    that stopped on time can still be finishing its last depth's bookkeeping then."""
    give_up = None
    if budget.deadline is not None:
        seconds = budget.deadline - budget.started
        give_up = budget.deadline + ABANDON_SECONDS + ABANDON_SHARE * seconds
    while worker.is_alive():
        if handover.reason is not None:
            handover.taken.set()
            if interrupted:
                return False  # the caller raises KeyboardInterrupt
            raise LimitReached(_stopped(handover.reason, budget))
        left = LONGEST_WAIT if give_up is None else give_up - time.perf_counter()
        if left <= 0 and not interrupted:
            budget.stop.set()
            if budget.answer_so_far is not None:
                return True
            raise LimitReached(_stopped("time", budget, left_behind=True))
        handover.wake.wait(min(max(left, 0.01), LONGEST_WAIT))
    return False


def _stopped(reason: str, budget: Budget, left_behind: bool = False) -> str:
    limits = budget.limits
    if reason == "time":
        cause = f"the time limit ({limits.time:g} s)"
    elif reason == "nodes":
        cause = f"the node limit ({limits.nodes:,})"
    elif reason == "stopped":
        cause = "a request to stop"
    else:
        cause = "its memory bound" if reason.startswith("memory") else f"its {reason}"
    text = f"by {cause} without an answer, after {budget.polled_nodes:,} nodes"
    if reason.startswith("memory"):
        text += f" ({reason})"
    if left_behind:
        text += ": the search was left where it stood, e.g. inside a slow call of the game's own code"
    return text

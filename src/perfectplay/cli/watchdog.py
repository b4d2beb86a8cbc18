"""``--time`` as a hard limit on the whole command, and play's think time on a user's game code.

A search polls its deadline between nodes, so it stops on time by itself, with the best
answer so far where it has one. What it cannot stop is one slow call of a game's own code: a
user's ``moves()`` that takes a minute is a single step between two polls. So a command given
``--time T`` also arms a timer in the main thread (SIGALRM) for T plus a grace period; when
it fires, LimitReached is raised wherever the main thread is, and the CLI reports "stopped"
with exit code 1, as for any limit. A search running in its worker thread (search/deep.py)
is told to stop and is left behind: the process exits without waiting for it.

The timer is armed only where it can be: in the main thread, on a platform with
``setitimer``, and when nothing else already uses SIGALRM (a program that calls the CLI
in-process keeps its own timer, e.g. the fuzz tests' hang guard).
"""

from __future__ import annotations

import math
import signal
import threading
from typing import Any

import click

from perfectplay.errors import LimitReached

# After the deadline, the search's own stop and the printing of its answer get this long
# (plus a tenth of the limit) before the command is cut off.
GRACE_SECONDS = 0.5
# The longest timer armed: setitimer takes a time_t, and `--time 1e308` overflowed it
# once. A limit past a year bounds nothing a command does, so no timer is armed.
LONGEST_TIMER_SECONDS = 365 * 24 * 3600.0


def grace(seconds: float) -> float:
    return GRACE_SECONDS + seconds / 10


def arm_time_limit(context: click.Context, param: click.Parameter, seconds: float | None) -> float | None:
    """A click callback for --time: arm the watchdog, disarmed when the command ends."""
    if seconds is None or not seconds > 0 or not math.isfinite(seconds) or not _free():
        return seconds  # an invalid value is refused later, with the other limits
    if seconds + grace(seconds) > LONGEST_TIMER_SECONDS:
        return seconds
    limit = seconds

    def expire(signum: int, frame: Any) -> None:
        raise LimitReached(f"by the time limit ({limit:g} s, --time) without an answer: the "
                           "command was cut off where it stood, e.g. inside a slow call of the "
                           "game's own code")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds + grace(seconds))

    def disarm() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    context.call_on_close(disarm)
    return seconds


# How often the think-time watchdog looks at where every thread stands.
CALL_WATCH_INTERVAL_SECONDS = 0.1


def arm_call_limit(context: click.Context, seconds: float, option: str) -> None:
    """Cut the command off when one call of a user's game code runs longer than ``seconds``
    (play's think time, which no search can enforce inside that call): a timer looks at
    every thread's stack every tenth of a second, and when the same call of the user's code
    has been on one for longer, raises LimitReached in the main thread. Searches, kernels and
    the person's typing are never cut: only time spent inside the game's own code counts."""
    if not _free():
        return
    from perfectplay.game_faults import slow_call_words, users_call
    bound = seconds + grace(seconds)
    watched: dict[str, Any] = {"frame": None, "since": 0.0}

    def look(signum: int, frame: Any) -> None:
        import sys
        import time
        # Deep searches run in a worker thread while the main thread waits for them.
        calls = (users_call(running) for running in sys._current_frames().values())
        call = next((found for found in calls if found is not None), None)
        now = time.monotonic()
        if call is None or call is not watched["frame"]:
            watched["frame"], watched["since"] = call, now
            return
        if now - watched["since"] > bound:
            words = slow_call_words(call, now - watched["since"])
            watched["frame"] = None
            raise LimitReached(f"{words}, longer than {option} allows: cut off where it stood")

    previous = signal.signal(signal.SIGALRM, look)
    signal.setitimer(signal.ITIMER_REAL, CALL_WATCH_INTERVAL_SECONDS, CALL_WATCH_INTERVAL_SECONDS)

    def disarm() -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        watched["frame"] = None
    context.call_on_close(disarm)


def _free() -> bool:
    """Whether this thread may take SIGALRM: the main thread, and no handler or timer of
    someone else's in place."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return False
    return signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None) and \
        signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)

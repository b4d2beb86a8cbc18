"""Time management under a clock: a soft limit that decides whether to start another
iteration, a hard limit that aborts one, and the stop flag a front end sets.

The search polls :meth:`Clock.poll` every few dozen nodes; past the hard limit, the node limit
or a stop request it raises :class:`Abort`, and the engine answers with the best move found
so far: the cut iteration's once it has searched a root move, else the last completed one's.

A time for the move (``Limits.time``, UCI's ``movetime``, ``--time``) is used in full:
a new iteration starts whenever time is left, since even a cut one improves the move once
its first root move is searched. With clocks (``wtime``...), :meth:`Clock.may_start` refuses
a new iteration once the soft limit (this move's share of the clock) has passed, or when the
next iteration, predicted from the growth of the last ones, would not finish before the hard
limit: time not spent now is left for later moves. A fail low (the best move's score fell by
FAIL_LOW_DROP at the last finished depth, below the two depths before) raises both limits
once: the soft limit doubled, the hard one to FAIL_LOW_SHARES shares, within the part of the
clock a move may take.

While ``hold`` is set (UCI's ``go ponder``: the engine thinks on the opponent's time) no
time limit runs; the limits start counting when it is cleared (``ponderhit``).
"""

from __future__ import annotations

import threading
import time

from perfectplay.search.limits import Limits

# Seconds kept in hand for the process to answer after an abort (unwinding, the reply).
SAFETY_MARGIN = 0.005
# With only a clock (sudden death), plan for this many more moves: at 10+0.1 a share of
# left/40 + increment leaves about 40% of the base time after 40 moves.
DEFAULT_MOVES_TO_GO = 40
# A move may take at most this many times its share (the hard limit)...
HARD_SHARES = 2.0
# ... and at most this part of what is left on the clock (less the reserve below), so that a
# clock running low recovers on the increment instead of sitting at a few milliseconds.
MOST_OF_CLOCK = 0.4
# With the last move before the time control, this part of the clock may go.
LAST_MOVE_OF_CLOCK = 0.8
# Kept off the plan on every move: the process's own reply, the pipes, a busy machine.
CLOCK_RESERVE_S = 0.02
# What a GUI sees beyond the hard limit (unwinding the search, the reply, the pipes: 10-40 ms
# on a busy machine), taken off twice the share so the move stays within twice its share.
REPLY_S = 0.03
# Below this many increments on the clock, a move spends less than one increment, so that
# the clock builds back up instead of sitting at a few milliseconds.
IN_HAND_INCREMENTS = 10
# Growth of iteration time with depth when only one iteration has been timed.
DEFAULT_GROWTH = 4.0
# A fail low: the best move's score at the last finished depth fell at least this far below
# both depths before it (the game's evaluation units: centipawns in chess; both, so that the
# swing between odd and even depths is no fall). Under a clock the move may then go on to
# this many shares (never past its part of the clock, MOST_OF_CLOCK), its soft limit
# doubled, to look for a way out, as engines spend more when the score drops.
FAIL_LOW_DROP = 50
FAIL_LOW_SHARES = 3.0


class Abort(Exception):
    """Raised inside the search when a hard limit or a stop request ends it."""


class Clock:
    def __init__(self, limits: Limits, stop: threading.Event | None = None,
                 mover: int | None = None, hold: threading.Event | None = None) -> None:
        self.started = time.perf_counter()
        # When the limits start counting: now, or when ``hold`` is cleared (ponderhit).
        self.counting_from = self.started
        self.stop = stop or threading.Event()
        self.hold = hold if hold is not None and hold.is_set() else None
        self.node_limit = limits.nodes
        soft, hard = budget(limits, mover)
        self.soft = soft
        self.hard = hard
        # A fixed time for the move is spent in full, and so is the last move's part of the
        # clock before the time control; a share of a clock is not (see above).
        self.use_all = (limits.time is not None and limits.soft_time is None) or (
            limits.movestogo == 1 and hard is not None)
        self.deadline = self._deadline()
        # The node limit lets the first iteration finish (a move from a whole iteration);
        # the hard time limit and a stop request hold from the first node, even when depth 1
        # alone is slow (a chess quiescence search took 7.8 s against a 0.15 s limit).
        self.armed = False
        self.iteration_times: list[float] = []
        # Under a clock, the hard limit after a fail low (None: no clock, or a fixed time).
        self.fail_low_hard = None if self.use_all else fail_low_limit(limits, mover)
        self.scores: list[int] = []
        self.extended = False

    def _deadline(self) -> float | None:
        if self.hard is None:
            return None
        return self.counting_from + max(self.hard - SAFETY_MARGIN, 0.001)

    def elapsed(self) -> float:
        """Seconds since the search began (pondering included), for reports."""
        return time.perf_counter() - self.started

    def counted(self) -> float:
        """Seconds that count against the limits: since the search began, or since a held
        search was released."""
        return time.perf_counter() - self.counting_from

    def held(self) -> bool:
        """Whether the limits still wait (pondering); releases them once ``hold`` clears."""
        if self.hold is None:
            return False
        if self.hold.is_set():
            return True
        self.hold = None
        self.counting_from = time.perf_counter()
        self.deadline = self._deadline()
        return False

    def poll(self, nodes: int) -> None:
        if self.stop.is_set():
            raise Abort("stopped")
        if self.hold is not None and self.held():
            return
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise Abort("time")
        if not self.armed:
            return
        if self.node_limit is not None and nodes >= self.node_limit:
            raise Abort("nodes")

    def finished_iteration(self, seconds: float, score: int | None = None) -> None:
        """An iteration took ``seconds``; ``score`` is its best move's. A fail low (the score
        FAIL_LOW_DROP below the last two) extends the move's limits once, under a clock."""
        self.iteration_times.append(seconds)
        self.armed = True
        if score is None:
            return
        if self.scores and score <= min(self.scores[-2:]) - FAIL_LOW_DROP:
            self._extend()
        self.scores.append(score)

    def _extend(self) -> None:
        if self.extended or self.fail_low_hard is None or self.hard is None:
            return
        self.extended = True
        self.hard = max(self.hard, self.fail_low_hard)
        if self.soft is not None:
            self.soft = min(2 * self.soft, self.hard)
        self.deadline = self._deadline()

    def may_start(self, nodes: int) -> bool:
        """Whether another iteration is worth starting."""
        if self.stop.is_set():
            return False
        if self.held():
            return True
        if self.node_limit is not None and nodes >= self.node_limit:
            return False
        if self.hard is None:
            return True
        elapsed = self.counted()
        if self.use_all:
            return elapsed < self.hard - SAFETY_MARGIN
        if self.soft is not None and elapsed >= self.soft:
            return False
        return elapsed + self.predicted_next() <= self.hard

    def predicted_next(self) -> float:
        times = [t for t in self.iteration_times if t > 0]
        if not times:
            return 0.0
        growth = DEFAULT_GROWTH
        if len(times) >= 2:
            growth = min(max(times[-1] / times[-2], 1.5), 8.0)
        return times[-1] * growth


def budget(limits: Limits, mover: int | None) -> tuple[float | None, float | None]:
    """(soft, hard) seconds for this move from the limits; (None, None) when untimed."""
    if limits.infinite:
        return None, None
    if limits.time is not None:
        soft = limits.soft_time if limits.soft_time is not None else limits.time
        return min(soft, limits.time), limits.time
    left = limits.btime if mover == 1 else limits.wtime
    if left is None:
        return (limits.soft_time, None)
    increment = (limits.binc if mover == 1 else limits.winc) or 0.0
    share, hard = clock_share(left, increment, limits.movestogo)
    soft = min(limits.soft_time or share, hard)
    return soft, hard


def fail_low_limit(limits: Limits, mover: int | None) -> float | None:
    """The hard limit of a move whose score fell (FAIL_LOW_SHARES shares, within its part of
    the clock), or None when no clock is given (a fixed time, a depth, infinite)."""
    if limits.infinite or limits.time is not None:
        return None
    left = limits.btime if mover == 1 else limits.wtime
    if left is None:
        return None
    increment = (limits.binc if mover == 1 else limits.winc) or 0.0
    share, hard = clock_share(left, increment, limits.movestogo)
    return max(min(FAIL_LOW_SHARES * share - REPLY_S, _most(left, limits.movestogo)), hard)


def _most(left: float, moves_to_go: int | None) -> float:
    """The most a move may take of ``left`` (the reserve kept): a fixed part of it."""
    usable = max(left - min(CLOCK_RESERVE_S, left / 2), 0.0)
    part = LAST_MOVE_OF_CLOCK if (moves_to_go or DEFAULT_MOVES_TO_GO) == 1 else MOST_OF_CLOCK
    return max(usable * part, 0.001)


def clock_share(left: float, increment: float, moves_to_go: int | None) -> tuple[float, float]:
    """(share, most) seconds for a move with ``left`` on the clock: the share is the clock
    split over the moves to go plus the increment (the whole increment while the clock holds
    ``IN_HAND_INCREMENTS`` of them), and no move takes more than twice its share (less the
    reply's time) or, with the reserve kept, a fixed part of the clock (most of it before
    the time control)."""
    usable = max(left - min(CLOCK_RESERVE_S, left / 2), 0.0)
    to_go = moves_to_go or DEFAULT_MOVES_TO_GO
    most = _most(left, moves_to_go)
    share = min(usable / to_go + min(increment, usable / IN_HAND_INCREMENTS), most)
    return share, min(max(HARD_SHARES * share - REPLY_S, share), most)

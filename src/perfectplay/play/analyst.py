"""The computer's view of a position: the value of every legal move, best first.

How a position is answered is perfectplay.deciding's choice, the same the web page and
``perfectplay analyze`` make: a database, tables and theory, then an exact search by the
fastest method (a game's kernel) within half the think time of CPU, and only when none
finishes an estimate (the engine, or Monte Carlo for a game with no evaluation) for the rest
of the think time, marked inexact. Exact analyses are kept per position for the whole
session, so hints, the computer's replies, undo and the end-of-game review never solve the
same position twice.

The perfect level needs less than every move's value: only which moves are optimal
(``Analyst.best_moves``). For a game whose method proves them one by one (a kernel that
declares ``proves_optimal_moves``: perfectplay.deciding.prover) that is a solve (the value,
then one null-window test per move), fewer nodes than scoring every move on Connect Four
positions just past the opening book (docs/book.md). It needs no more than one optimal move to play
perfectly: once the think time is spent, the first move proved optimal is played; while none
is proved the search goes on, with progress lines, up to ``PERFECT_PATIENCE`` seconds of CPU
time. Only past that (never seen on Connect Four 7x6) is an estimate played, and said to be
one, and the next move gets the same patience again (one slow move once made the level
impatient for the rest of the game). Every budget of the compiled kernel here is CPU time of
this process, not the clock's: on a machine busy on both cores the clock ran out on a proof
that needs 5.7 s of CPU, and the "perfect" level played an estimate from a won position.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from perfectplay import deciding
from perfectplay.deciding import CpuWatch, Think
from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import MoveValue, OwnProgress

DEFAULT_THINK_TIME = 2.0
# An exact analysis that needs more nodes than this is "too big": the computer then thinks
# under the clock instead. About half a second of CPython search on a 2020s laptop.
EXACT_NODE_BUDGET = 150_000
# A small table is faster to allocate than the solver's 64 MB default and plenty for games
# that fit the node budget.
TABLE_ENTRIES = 1 << 18
# A game with a compiled kernel that stops at a budget (Connect Four) is analysed by it,
# after its opening book (docs/book.md), within the time given: the kernel watches the clock
# while it searches. Without a clock (the end-of-game review) it gets this many nodes.
COMPILED_REVIEW_NODES = 20_000_000
# The perfect level's exact try for its optimal moves gets this share of the think time;
# the rest is for an estimate if it fails.
BEST_MOVES_SHARE = 0.75
# How long (CPU seconds of this process, or the think time if longer) the perfect level's exact
# try may go on while it has not yet proved one optimal move, in a game it was able to solve at
# the start (Analyst.probe). Connect Four 7x6 just past the book's edge needed up to about
# 10 s of CPU for its first optimal move (`44444222` with an 8-stone book: 4.4 s); six times
# that is the patience.
PERFECT_PATIENCE = 60.0
# How long (CPU seconds, or half the think time if longer) the perfect level's first look at a
# game with a compiled kernel may spend finding the position's value, which decides whether
# exact play is in reach (Analyst's ``value_probe``; other levels give it half the think
# time). Half the think time alone was too little: past the book, Connect Four's `4444422233`
# needs 1.1 s of CPU for its value, so with a 1 s think time the web page's perfect level
# judged the game out of reach and played an estimate (6, where only 2 wins). Connect Four
# 7x6 past the book needs a few seconds at most; a board too big to solve pays this once, at
# the start, with progress lines.
VALUE_PROBE_CPU = 10.0


@dataclass(frozen=True)
class Analysis:
    """Every legal move's value for the player to move, best first (see perfectplay.value).

    ``exact`` is False when the values are estimates from a depth-limited search, which
    then reached ``depth`` plies (None when unknown); ``unproved_after`` is the CPU time the
    perfect level spent trying to prove a move before it fell back on that estimate.
    ``complete`` is False when ``moves`` holds the optimal moves only: either the others
    were not scored in the time (``Analyst.best_moves``), or the position has too many
    moves to list (a Nim heap of 10^30), and then ``value_of`` values any other legal move when asked
    (perfectplay.solving.optimal_moves).
    """

    moves: tuple[MoveValue, ...]
    exact: bool
    depth: int | None = None
    complete: bool = True
    value_of: Callable[[Any], MoveValue] | None = field(default=None, compare=False, repr=False)
    unproved_after: float | None = None
    # How an estimate was made: perfectplay.deciding.ENGINE or MCTS (None: exact).
    estimator: str | None = None

    @classmethod
    def of(cls, answer: deciding.Answer) -> Analysis:
        """The decider's answer as play keeps it."""
        return cls(answer.moves, answer.exact, answer.depth, answer.complete, answer.value_of,
                   estimator=answer.source if answer.estimated else None)

    @property
    def best_value(self) -> int:
        return self.moves[0].value

    def best(self) -> list[MoveValue]:
        """Every move as good as the best one."""
        return [move for move in self.moves if move.value == self.best_value]

    def find(self, notation: str, move: Any = None) -> MoveValue:
        """The value of the move written ``notation`` (``move`` itself: for an incomplete
        analysis, which values a move it does not list)."""
        for known in self.moves:
            if known.notation == notation:
                return known
        if self.value_of is not None and move is not None:
            return self.value_of(move)
        raise KeyError(notation)


def outcome_class(value: int) -> int:
    """+1 winning, 0 drawn (or level in a score game), -1 losing: the sign of a value."""
    return (value > 0) - (value < 0)


class Analyst:
    """Analyses positions of one game with bounded effort, remembering every answer."""

    def __init__(self, game: Game[Any, Any], think_time: float = DEFAULT_THINK_TIME,
                 exact_nodes: int = EXACT_NODE_BUDGET, database: str | None = None,
                 value_probe: float | None = None) -> None:
        self.game = game
        # CPU seconds the first look (probe) may spend on a compiled game's value: half the
        # think time by default, VALUE_PROBE_CPU for the perfect level.
        self.value_probe = max(value_probe or 0.0, think_time / 2)
        # A database file (perfectplay.store): the positions it holds are answered from it.
        self.database = database
        self.from_database = 0
        self.think_time = think_time
        self.exact_nodes = exact_nodes
        self.cache: dict[Hashable, Analysis] = {}
        # Positions whose optimal moves alone are known (Analyst.best_moves).
        self.best_cache: dict[Hashable, Analysis] = {}
        # Set once an exact analysis has failed: the game is big, moves take the think time.
        self.big = False
        # Set when the first look at the game (probe) could not solve it: exact play is out
        # of reach, so the perfect level's tries stop at the think time. Never set by one
        # slow move.
        self.impatient = False
        self.probed = False
        # Set when the first look found the position's value but not every move's in the
        # think time: the perfect level's moves are proved, hints may be estimates.
        self.proves_only = False
        # Set when the first look solved the position but every position a move leads to is
        # past the game's declared reach (a board whose book holds only its start).
        self.reach_ends_here = False
        self.compiled = _has_budgeted_kernel(game)

    def analyze(self, position: Any, on_estimate: Callable[[], None] | None = None,
                partial: bool = False) -> Analysis:
        """The analysis of ``position``, which must have at least one legal move.

        ``on_estimate`` is called when the exact try has failed and deepening begins, so a
        person can be told that the computer is thinking. ``partial``: when every move's
        exact value does not fit the time, the exact optimal moves alone (``best_moves``)
        are better than an estimate of all (a hint)."""
        known = self.cache.get(position) or self._stored(position)
        if known is not None:
            return known
        started = time.perf_counter()
        found = self._exact(position, self.think_time / 2)
        if found is None and partial and self.compiled:
            found = self.best_cache.get(position) or \
                self._best_compiled(position, self.think_time / 2)
            if found is not None:
                self.best_cache[position] = found
                return found
        if found is None:
            self.big = True
            if on_estimate is not None:
                on_estimate()
            spent = time.perf_counter() - started
            found = self._estimate(position, max(self.think_time - spent, self.think_time / 10))
        if found.exact:
            # Estimates are not kept: the next look may have time to see further.
            self.cache[position] = found
        return found

    def best_moves(self, position: Any, on_estimate: Callable[[], None] | None = None,
                   on_progress: Callable[[str], None] | None = None) -> Analysis:
        """The optimal moves of ``position``, exact, for a computer that plays only those: an
        Analysis with ``complete`` False when the other moves were not scored. Only games
        with a compiled kernel gain from it; the others get ``analyze``. In a game the first
        look could solve (``probe``) the search goes on past the think time until a move is
        proved, up to PERFECT_PATIENCE seconds of CPU, telling ``on_progress`` where it is
        once the think time is spent; only when even that fails is the estimate of
        ``analyze`` returned, marked inexact, with the CPU time it waited."""
        known = self.cache.get(position) or self.best_cache.get(position) or \
            self._stored(position)
        if known is not None:
            return known
        if not self.compiled:
            return self.analyze(position, on_estimate)
        if not self.probed:
            # Whether exact play is in reach at all (two computers, the web page).
            self.probe(position, on_progress)
            known = self.cache.get(position) or self.best_cache.get(position)
            if known is not None:
                return known
        started = time.perf_counter()
        # Past the game's declared reach (4x4 Dots and Boxes after its book's first line) a
        # proof is not waited for: the game says a search from here does not finish.
        patient = not self.impatient and self.game.solvable(position)
        patience = max(self.think_time, PERFECT_PATIENCE) if patient else None
        cpu = time.process_time()
        found = self._best_compiled(position, self.think_time * BEST_MOVES_SHARE, patience,
                                    on_progress)
        if found is None:
            if on_estimate is not None:
                on_estimate()
            spent = time.perf_counter() - started
            estimate = self._estimate(position,
                                      max(self.think_time - spent, self.think_time / 10))
            if patience is None:
                return estimate
            return replace(estimate, unproved_after=time.process_time() - cpu)
        self.best_cache[position] = found
        return found

    def probe(self, position: Any, on_progress: Callable[[str], None] | None = None) -> bool:
        """Whether ``position`` can be played exactly (what the banner tells the person): its
        every move analysed within half the think time, or, for a game with a compiled
        kernel, its value known within ``value_probe`` seconds of CPU, the opening book
        included, so that the perfect level proves its moves (``best_moves``). A full
        analysis is kept for the first move or hint. ``on_progress`` hears where a value
        search stands once it has run half the think time."""
        self.probed = True
        if position in self.cache or position in self.best_cache:
            return True
        if self.compiled:
            # Every move's value needs the position's: without it nothing is in reach.
            if not self._value_in_reach(position, on_progress):
                self.big = self.impatient = True
                return False
            self.proves_only = True
            self.reach_ends_here = not any(self.game.solvable(self.game.play(position, move))
                                           for move in self.game.moves(position))
            return True
        found = self._exact(position, self.think_time / 2)
        if found is None:
            self.big = self.impatient = True
            return False
        self.cache[position] = found
        return True

    def exact_only(self, position: Any) -> Analysis | None:
        """The exact analysis if it is known or fits the node budget, else None (no clock)."""
        known = self.cache.get(position) or self._stored(position)
        if known is None:
            known = self._exact(position, None)
            if known is not None:
                self.cache[position] = known
        return known

    def _stored(self, position: Any) -> Analysis | None:
        """The analysis read from the database, when one is given and holds the position."""
        if self.database is None:
            return None
        answer = deciding.stored(self.game, position, self.database)
        if answer is None:
            return None
        self.from_database += 1
        found = Analysis.of(answer)
        self.cache[position] = found
        return found

    def estimator(self) -> str:
        """How this game's positions are estimated where no exact method finishes in time
        (perfectplay.deciding.ENGINE or MCTS): what the banner says."""
        return deciding.estimator(self.game)

    def _exact(self, position: Any, seconds: float | None) -> Analysis | None:
        """The decider's exact answer within ``seconds`` of CPU (half the think time: the
        other half is for an estimate if this fails), or without them (the end-of-game
        review) within a node budget; None when no exact method finishes."""
        nodes = None
        if seconds is None:
            nodes = COMPILED_REVIEW_NODES if self.compiled else self.exact_nodes
        # Retrograde analysis values every position once, kept; once a search has failed on
        # this game, theory answers at once where it applies (Nim 20 30 40).
        think = Think(seconds=seconds, nodes=nodes, exact_share=1.0, table_size=TABLE_ENTRIES,
                      retro_to_the_end=True, remoteness=not self.big)
        answer = deciding.exact(self.game, position, think)
        if answer is None:
            self.big = True  # the game is big here: moves take the think time
            return None
        return Analysis.of(answer)

    def _value_in_reach(self, position: Any,
                        on_progress: Callable[[str], None] | None = None) -> bool:
        """Whether the kernel finds ``position``'s value (its book first) within half the
        think time of CPU, or else (the perfect level) within ``value_probe`` seconds, saying
        so to ``on_progress`` first: the solve is stopped as soon as it starts proving the
        moves. The second look starts again from nothing (the kernel's table is per solve),
        which costs at most the first half think time."""
        if self._value_within(position, self.think_time / 2):
            return True
        if self.value_probe <= self.think_time / 2 or not self.game.solvable(position):
            return False  # past the game's declared reach (8x8 Othello's start): no longer look
        if on_progress is not None:
            on_progress(f"Looking further for this position's value, to see whether I can play "
                        f"it exactly (up to {self.value_probe:g} s of CPU)...")
        return self._value_within(position, self.value_probe, on_progress)

    def _value_within(self, position: Any, seconds: float,
                      on_progress: Callable[[str], None] | None = None) -> bool:
        known: list[bool] = []
        with _compiled_budget(seconds) as (limits, budget, watch):
            assert budget is not None and watch is not None

            def heard(report: Any) -> None:
                if isinstance(report, OwnProgress) and report.value_known:
                    known.append(True)
                    budget.stop.set()
                elif on_progress is not None and watch.spent() >= self.think_time / 2:
                    on_progress(progress_words(report, watch.spent()))
            try:
                solution = deciding.prove(self.game, position, budget, limits=limits,
                                          on_depth=heard)
            except LimitReached:
                return bool(known)
        self._keep_best(position, solution)
        return True

    def _keep_best(self, position: Any, solution: Any) -> Analysis:
        """The optimal moves of a finished solve, kept for the session."""
        source = solution.algorithm if solution.algorithm.startswith("from") else None
        optimal = [move for move in self.game.moves(position) if move in solution.best]
        found = self._optimal(position, optimal, solution.value, source)
        self.best_cache[position] = found
        return found

    def _optimal(self, position: Any, optimal: list[Any], value: int,
                 source: str | None) -> Analysis:
        moves = tuple(MoveValue(move, self.game.format_move(position, move), value,
                                self.game.properties.is_score, True, source)
                      for move in optimal)
        return Analysis(moves, exact=True, complete=False)

    def _best_compiled(self, position: Any, seconds: float, patience: float | None = None,
                       on_progress: Callable[[str], None] | None = None) -> Analysis | None:
        """The kernel's optimal moves (its book first) within ``seconds`` of CPU, or None when
        none is proved in time. When the time runs out in the middle of the tests, the moves
        already proved optimal are returned (exact, ``complete`` False). With ``patience``
        the search goes on past ``seconds`` until the first optimal move is proved, for at
        most ``patience`` seconds of CPU in all, telling ``on_progress`` (after ``seconds``)
        which column it is proving."""
        found: list[tuple[Any, int]] = []  # (move, the position's value), as proved
        limit = max(seconds, patience or 0.0)
        # Past the think time one optimal move is enough; else the patience runs on.
        with _compiled_budget(limit, lambda spent: bool(found) and spent >= seconds) as \
                (limits, budget, watch):
            assert budget is not None and watch is not None

            def proved(move: Any, value: int) -> None:
                found.append((move, value))
                if watch.spent() >= seconds:
                    budget.stop.set()

            def heard(report: Any) -> None:
                spent = watch.spent()
                if on_progress is not None and spent >= seconds and not budget.stop.is_set():
                    on_progress(progress_words(report, spent))
            try:
                solution = deciding.prove(self.game, position, budget, limits=limits,
                                          on_optimal=proved, on_depth=heard)
            except LimitReached:
                self.big = True
                if not found:
                    return None
                return self._optimal(position, [move for move, _ in found], found[0][1], None)
        return self._keep_best(position, solution)

    def _estimate(self, position: Any, seconds: float) -> Analysis:
        """The decider's estimate (the engine, or Monte Carlo for a game with no evaluation)
        for ``seconds``."""
        think = Think(seconds=seconds, table_size=TABLE_ENTRIES)
        return Analysis.of(deciding.estimate(self.game, position, think))


@contextmanager
def _compiled_budget(seconds: float | None, early: Callable[[float], bool] | None = None
                     ) -> Iterator[tuple[Limits, Budget | None, CpuWatch | None]]:
    """What bounds a kernel's exact try: ``seconds`` of this process's CPU time (the
    CpuWatch; ``early`` as there), or, without them (the end-of-game review),
    COMPILED_REVIEW_NODES nodes."""
    if seconds is None:
        yield Limits(nodes=COMPILED_REVIEW_NODES), None, None
        return
    budget = Budget(Limits())
    with CpuWatch(budget, seconds, early) as watch:
        yield Limits(), budget, watch


def progress_words(report: OwnProgress, spent: float) -> str:
    """A progress line while the perfect level proves a move, in the proving method's words
    (which move it tests, or how far the value is)."""
    return report.still_proving(spent)


def _has_budgeted_kernel(game: Game[Any, Any]) -> bool:
    """Whether the decider proves ``game``'s optimal moves one by one within a budget (a
    game's kernel: perfectplay.deciding.prover; nothing is compiled here)."""
    return deciding.prover(game) is not None

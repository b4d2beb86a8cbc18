"""What a position is worth within a budget: the one decider play, the web page, UCI, match
and the library's callers that think under a clock ask, so that none of them chooses a method
of its own and they never disagree (tests/test_architecture.py: no front end calls a chooser).

The one decision path: ``solving.solve``/``analyze`` answer what their caller asked for
(``--algorithm``, ``--engine``, limits) through ``methods.choose``; everything that must
*decide* how to answer a position asks here: ``decide``/``exact``/``estimate`` (play, the
web page), ``prover``/``prove`` (the optimal moves alone, for play's perfect level: a method
that declares ``proves_optimal_moves``), ``estimator`` (engine or Monte Carlo: match),
``route`` (UCI's go: known values, the mate search, the engine) and ``warm_up`` (a server's
start: each method's declared ``warm_up``).

The order, each step only when the ones before it have no answer:

1. a database given (perfectplay.store) that holds the position;
2. a method that leads (a game's endgame tables) or answers at once without a search tree
   (Sprague-Grundy theory, bottom-up tabulation; retrograde analysis, the only exact method
   for a loopy game, which values every reachable position at once);
3. an exact search by the fastest method that applies (``--engine auto``: a game's kernel
   with its opening book, else the Python search) within ``Think.exact_share`` of the think
   time, tried only where the game says the position is small enough (``Game.solvable``); a
   kernel that refuses the budget (UnsupportedSearch) hands on to the next method;
4. an estimate for the time left: the depth-limited engine, or Monte Carlo tree search for a
   game with no evaluation function (perfectplay.solving.estimating_algorithm).

The exact tries' think time is CPU seconds of this process (CpuWatch), not the clock's: on a
machine busy on both cores the clock ran out on a proof that needs 5.7 s of CPU and play's
perfect level played an estimate from a won position. The estimate, which improves with any
time it gets, runs on the clock. A stop flag (the web page's cancel) ends either at once.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from perfectplay import methods, solving
from perfectplay.errors import BadDatabase, LimitReached, PerfectPlayError, UnsupportedSearch
from perfectplay.game import Game, has_evaluation
from perfectplay.methods import Method, Request
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import (
    FROM_DATABASE,
    DepthProgress,
    MoveValue,
    OwnProgress,
    Progress,
    Solution,
)

# Exact methods that answer without a search tree, however big the position.
INSTANT_METHODS = ("grundy", "table")
# Of those, the ones whose values count no plies to the end (Sprague-Grundy theory says win
# or loss): with a budget, an exact search that finishes in it answers first, so that the
# perfect level wins fastest and loses slowest.
WITHOUT_REMOTENESS = ("grundy",)
RETRO = "retro"
# Retrograde analysis under a clock (a caller that must answer soon: the web page) values at
# most this many positions in at least this many seconds; past that the position is refused
# (LimitReached), since a loopy game has no other exact method and no depth to estimate by.
RETRO_SECONDS = 4.0
RETRO_MAX_POSITIONS = 2_000_000
# The share of the think time the exact tries may take; the rest is the estimate's.
EXACT_SHARE = solving.EXACT_SHARE
# How often the CPU clock is read while a search runs (CpuWatch).
CPU_POLL_SECONDS = 0.02

# Where an answer came from (Answer.source).
DATABASE = FROM_DATABASE
THEORY = "theory"  # endgame tables, Sprague-Grundy theory, tabulation, retrograde analysis
KERNEL = "kernel"  # a compiled kernel (and its opening book)
SEARCH = "search"  # the Python search
ENGINE = "engine"  # the depth-limited engine's estimate
MCTS = "mcts"  # Monte Carlo tree search's estimate


@dataclass(frozen=True)
class Think:
    """What a caller allows. ``seconds``: the think time (CPU seconds of this process for
    the exact tries, the clock for the estimate), None for none; ``nodes``: a node limit
    for every search, None for none; ``stop``: a flag the caller sets to stop at once (the
    web's cancel); ``exact_share``: the exact tries' share of ``seconds``; ``table_size``:
    the Python search's table (kernels keep their own); ``retro_to_the_end``: run
    retrograde analysis to the end however long it takes (play keeps every value it finds,
    so it pays once), rather than within RETRO_SECONDS and RETRO_MAX_POSITIONS;
    ``remoteness``: with a budget, try an exact search (which counts the plies to the end)
    before theory that does not (WITHOUT_REMOTENESS); a caller whose search failed on this
    game before may say False to go to theory at once."""

    seconds: float | None = None
    nodes: int | None = None
    stop: threading.Event | None = field(default=None, compare=False)
    exact_share: float = EXACT_SHARE
    table_size: int | str | None = None
    retro_to_the_end: bool = False
    remoteness: bool = True

    @property
    def exact_seconds(self) -> float | None:
        return None if self.seconds is None else self.seconds * self.exact_share

    @property
    def unbounded(self) -> bool:
        return self.seconds is None and self.nodes is None and self.stop is None


@dataclass(frozen=True)
class Answer:
    """Every legal move's value for the player to move, best first (perfectplay.value).

    ``source`` says where the values came from (DATABASE, THEORY, KERNEL, SEARCH, ENGINE,
    MCTS) and ``method`` the registered method that answered. An estimate (``exact`` False)
    has the depth the engine reached or the tree's deepest ply (``depth``) and Monte Carlo's
    simulations (``visits``). ``complete`` is False when the position has too many moves to
    list (a Nim heap of 10^30): ``moves`` then holds the optimal ones and ``value_of``
    values any other legal move."""

    moves: tuple[MoveValue, ...]
    exact: bool
    source: str
    method: str
    depth: int | None = None
    visits: int | None = None
    complete: bool = True
    value_of: Callable[[Any], MoveValue] | None = field(default=None, compare=False, repr=False)

    @property
    def best_value(self) -> int:
        return self.moves[0].value

    @property
    def estimated(self) -> bool:
        return self.source in (ENGINE, MCTS)


def decide(game: Game[Any, Any], position: Any, think: Think = Think(), *,
           database: str | None = None, on_depth: Callable[[Any], None] | None = None,
           on_estimate: Callable[[str], None] | None = None) -> Answer:
    """The answer for ``position`` (which has a legal move) within ``think``: exact where any
    exact method finishes in it, else an estimate for the time left. ``on_estimate`` hears
    the estimating method's name (ENGINE or MCTS) as the estimate begins, ``on_depth`` its
    reports. Without any budget an exact answer is the only one: a position the game calls
    too big is refused (UnsupportedSearch) with what to ask for instead."""
    began = time.perf_counter()
    found = exact(game, position, think, database=database)
    if found is not None:
        return found
    if think.unbounded:
        raise UnsupportedSearch(methods.too_big_words(game))
    method = estimator(game)
    if on_estimate is not None:
        on_estimate(method)
    seconds = think.seconds
    if seconds is not None:
        seconds = max(seconds - (time.perf_counter() - began), seconds / 10)
    return estimate(game, position, replace(think, seconds=seconds), on_depth)


def exact(game: Game[Any, Any], position: Any, think: Think = Think(), *,
          database: str | None = None) -> Answer | None:
    """The exact answer, by the first of steps 1-3 (module docstring) that finishes within
    ``think``, or None when none does."""
    if database is not None:
        found = stored(game, position, database)
        if found is not None:
            return found
    theory = _theory_without_remoteness(game, position)
    solvable = game.solvable(position)
    if theory is None or not think.remoteness or think.unbounded:
        found = at_once(game, position, think)
        if found is not None or not solvable:
            return found
    try:
        found = searched(game, position, think) if solvable else None
    except UnsupportedSearch:
        if theory is None:
            raise
        found = None  # more moves than a search lists (Nim 10^30): theory names the best
    if found is None and theory is not None:
        return at_once(game, position, think)
    return found


def _theory_without_remoteness(game: Game[Any, Any], position: Any) -> str | None:
    """The instant method that answers ``position`` without remoteness, if it is the one."""
    try:
        name = solving.choose(game, Request(engine="auto", position=position)).name
    except UnsupportedSearch:
        return None
    return name if name in WITHOUT_REMOTENESS else None


def stored(game: Game[Any, Any], position: Any, database: str) -> Answer | None:
    """The answer read from ``database`` when it holds ``position`` (a database holds every
    position reachable from its root, so the children too); None when it does not, or when
    the file is another game's (the position is then searched)."""
    from perfectplay.store.method import holds
    try:
        if not holds(database, game, position):
            return None
    except BadDatabase:
        return None
    moves = solving.analyze(game, position, database=database)
    return Answer(tuple(moves), True, DATABASE, FROM_DATABASE)


def at_once(game: Game[Any, Any], position: Any, think: Think = Think()) -> Answer | None:
    """The answer of a method that leads (endgame tables) or needs no search tree (theory,
    tabulation, retrograde analysis), when one answers this position; else None."""
    request = Request(engine="auto", position=position)
    try:
        method = solving.choose(game, request)
    except UnsupportedSearch:
        return None  # too big for any exact method without a limit, and none leads
    if method.leads(game, request):
        try:  # a method that leads hands on what it does not hold (to a search that objects)
            return Answer(tuple(method.analyze(game, position, request)), True, THEORY, method.name)
        except UnsupportedSearch:
            return None
    if method.name in INSTANT_METHODS:
        return _by_theory(game, position, method, request)
    if method.name == RETRO:
        return _retro(game, position, method, think)
    return None


def _by_theory(game: Game[Any, Any], position: Any, method: Method, request: Request) -> Answer:
    try:
        moves = method.analyze(game, position, request)
    except UnsupportedSearch:  # more moves than theory lists (Nim 10^30): the optimal ones
        found = solving.optimal_moves(game, position)
        if found is None:
            raise
        best, value_of = found
        return Answer(tuple(best), True, THEORY, method.name, complete=False, value_of=value_of)
    return Answer(tuple(moves), True, THEORY, method.name)


def _retro(game: Game[Any, Any], position: Any, method: Method, think: Think) -> Answer:
    """Retrograde analysis, to the end where the caller allows it (no budget, or
    ``retro_to_the_end``), else within RETRO_SECONDS (or the think time, if longer) and
    RETRO_MAX_POSITIONS: past them LimitReached says so."""
    limits = Limits()
    if not (think.unbounded or think.retro_to_the_end):
        limits = Limits(nodes=RETRO_MAX_POSITIONS, time=max(think.seconds or 0.0, RETRO_SECONDS))
    request = Request(limits=limits, position=position, algorithm=RETRO)
    try:
        moves = method.analyze(game, position, request)
    except LimitReached as error:
        raise LimitReached(f"{game.name}: retrograde analysis did not value every position within "
                           f"{limits.time:g} s and {RETRO_MAX_POSITIONS:,} positions ({error})") from None
    return Answer(tuple(moves), True, THEORY, method.name)


def searched(game: Game[Any, Any], position: Any, think: Think = Think()) -> Answer | None:
    """The exact answer of the fastest search that applies, within ``think`` (its nodes,
    the exact share of its seconds of CPU, its stop flag); None when it runs out. A kernel
    that refuses the budget hands on to the Python search."""
    limits = Limits(nodes=think.nodes)
    warm_up(game)  # a kernel's compilation or cache load is not the search's think time
    with cpu_budget(think.exact_seconds, think.stop, limits) as budget:
        for engine in ("auto", "python"):
            request = Request(engine=engine, limits=limits, budget=budget, position=position,
                              table_size=think.table_size)
            try:
                method = solving.choose(game, request)
                if method.name in INSTANT_METHODS:  # tried at once, not here: the search
                    searching = solving.resolve_algorithm(game, "auto", Limits(nodes=1))
                    request = replace(request, algorithm=searching)
                    method = solving.choose(game, request)
                if method.engine == "compiled":
                    request = replace(request, table_size=None)  # a kernel keeps its own table
                moves = method.analyze(game, position, request)
            except LimitReached:
                return None
            except UnsupportedSearch:
                if engine == "python":
                    raise
                continue  # the kernel refused this budget (it may not stop at one): next
            source = KERNEL if method.engine == "compiled" else SEARCH
            return Answer(tuple(moves), True, source, method.name)
    return None


def estimator(game: Game[Any, Any], searched: bool = True) -> str:
    """How a position no exact method finished is estimated: ENGINE (a game with an
    evaluation function) or MCTS (none: the engine would search blind). ``searched``: an
    exact try has failed (the default); False asks for the game as declared, before any try
    (a match's players: the engine for a game that is small enough to search to the end)."""
    return MCTS if solving.estimating_algorithm(game, searched=searched) == "mcts" else ENGINE


DEEPENING = "id"  # deepener(): the search family's plain iterative deepening


def deepener(game: Game[Any, Any]) -> str:
    """How a live estimate deepens depth by depth (the web's thinking stream, and its
    one-ply fallback): ENGINE for a game with a heuristic evaluation of its own whose
    positions never repeat and that counts no score, else DEEPENING (``--algorithm id``)."""
    plain = game.properties.loopy or game.properties.is_score
    return ENGINE if has_evaluation(game) and not plain else DEEPENING


def prover(game: Game[Any, Any]) -> Method | None:
    """The method that proves ``game``'s optimal moves without valuing the others and stops
    at a budget (Method.proves_optimal_moves: a game's kernel), when ``--engine auto``
    answers the game with one; else None (nothing is compiled here)."""
    try:
        method = solving.choose(game, Request(engine="auto", limits=Limits(nodes=1)))
    except UnsupportedSearch:
        return None
    return method if method.proves_optimal_moves else None


def faster_way(game: Game[Any, Any], position: Any, algorithm: str, engine: str) -> str | None:
    """The compiled method ``--algorithm auto`` answers ``position`` with, when the caller
    asked for another method by name (``algorithm``) under ``engine``: what to tell a person
    whose pure-Python search of a big position runs on (`solve connect4 --algorithm pns`);
    None when the request is auto's own or nothing compiled would answer."""
    if algorithm == "auto" or engine == "python":
        return None
    try:
        fastest = solving.choose(game, Request(engine="auto", position=position))
        asked = solving.choose(game, Request(algorithm=algorithm, engine=engine, position=position))
    except PerfectPlayError:  # the request's own error comes from the solve itself
        return None
    return fastest.name if fastest.engine == "compiled" and asked is not fastest else None


def prove(game: Game[Any, Any], position: Any, budget: Budget | None = None, *,
          limits: Limits | None = None, on_optimal: Callable[[Any, int], None] | None = None,
          on_depth: Callable[[Any], None] | None = None) -> Solution:
    """The optimal moves of ``position`` (the value, then one test per move, no line) by the
    game's :func:`prover`, within ``budget`` and ``limits``: a caller that plays only
    optimal moves stops it once ``on_optimal`` has heard one (play's perfect level, with its
    patience). Raises LimitReached when stopped, UnsupportedSearch when the game has no
    prover."""
    method = prover(game)
    if method is None:
        raise UnsupportedSearch(f"{game.name}: no method proves the optimal moves one by one")
    request = Request(engine="auto", limits=limits or Limits(), budget=budget, pv_limit=0,
                      optimal_only=True, on_optimal=on_optimal, on_depth=on_depth, position=position)
    return method.solve(game, position, request)


def warm_up(game: Game[Any, Any]) -> None:
    """Pay now the one-off costs of the methods that answer ``game`` (Method.warm_up: a
    kernel compiled, or loaded from numba's cache), so that its first position answers as
    fast as the rest: a server calls it for every game it offers, in the background."""
    solving.load_methods(game, Request(engine="auto"))
    for engine in ("compiled", "python"):
        for method in methods.registered(engine):
            if method.warm_up is not None and method.warm_up not in _WARMED and method.handles(game):
                method.warm_up(game)
                _WARMED.add(method.warm_up)  # once a process; a book and its kernel share one


_WARMED: set[Callable[[Game[Any, Any]], None]] = set()


@dataclass(frozen=True)
class Route:
    """How a search under a clock (UCI's go) answers: ``how`` is THEORY (the game knows the
    root and every move's child: ``value`` and the best ``line``, read with ``probes``
    lookups), MATE (the exact mate search first, within ``mate`` moves; the engine after
    it when it proves none), or ENGINE (the depth-limited engine under the clocks)."""

    how: str
    value: int | None = None
    line: tuple[Any, ...] = ()
    probes: int = 0
    mate: int | None = None


MATE = "mate"  # Route.how: the exact mate search first


def route(game: Game[Any, Any], position: Any, moves: Sequence[Any], *,
          mate: int | None = None) -> Route:
    """How to answer ``position`` (which has ``moves`` to choose among) under a clock: known
    values first (Game.known_value: chess's endgame tables hold the root and every child),
    then the exact mate search when ``mate`` moves were asked for, else the engine."""
    from perfectplay.engine.known import known_root
    known = known_root(game, position, list(moves))
    if known is not None:
        value, _, line = known
        return Route(THEORY, value, tuple(line), 1 + len(moves))
    if mate is not None:
        return Route(MATE, mate=mate)
    return Route(ENGINE)


def mate_search(game: Game[Any, Any], position: Any, most: int, budget: Budget) -> Any:
    """The exact mate search (perfectplay.search.mate) for the shortest forced win within
    ``most`` moves, within ``budget``: its answer (``moves`` None when it proved there is
    none). Raises OutOfBudget when the budget ran out first."""
    from perfectplay.search.mate import find_mate
    return find_mate(game, position, most, budget=budget)


def estimate(game: Game[Any, Any], position: Any, think: Think,
             on_depth: Callable[[Any], None] | None = None) -> Answer:
    """The estimate of every move within ``think`` (its seconds on the clock, its nodes, its
    stop flag), by :func:`estimator`'s method; every move 0 when not even a first depth
    finished."""
    method = estimator(game)
    limits = Limits(time=think.seconds, nodes=think.nodes)
    budget = Budget(limits)
    if think.stop is not None:
        budget.stop = think.stop
    reports: list[DepthProgress] = []

    def heard(report: Progress) -> None:
        if not isinstance(report, OwnProgress):  # the estimators report depths
            reports.append(report)
        if on_depth is not None:
            on_depth(report)
    moves = solving.analyze(game, position, algorithm=method, limits=limits, budget=budget,
                            table_size=think.table_size, on_depth=heard)
    if not moves:
        score_game = game.properties.is_score
        moves = [MoveValue(move, game.format_move(position, move), 0, score_game, False)
                 for move in game.moves(position)]
    last = reports[-1] if reports else None
    depth = None if last is None else last.depth
    visits = None if last is None or method != MCTS else last.nodes
    proven = bool(moves) and all(move.exact for move in moves)
    return Answer(tuple(moves), proven, method, method, depth=depth, visits=visits)


class CpuWatch:
    """Sets ``budget``'s stop flag once this process has spent ``seconds`` of CPU time since
    the watch began, or sooner when ``early(spent)`` says so or ``cancel`` (a caller's stop
    flag) is set. Searches poll the flag (a kernel's long searches every 50 ms, the Python
    searches every few hundred nodes), so a budget counts the search's own work, which a
    machine busy with other programs does not shrink."""

    def __init__(self, budget: Budget, seconds: float,
                 early: Callable[[float], bool] | None = None,
                 cancel: threading.Event | None = None) -> None:
        self.budget = budget
        self.seconds = seconds
        self.early = early
        self.cancel = cancel
        self.started = time.process_time()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def spent(self) -> float:
        return time.process_time() - self.started

    def __enter__(self) -> CpuWatch:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()

    def _watch(self) -> None:
        while not self.done.wait(CPU_POLL_SECONDS):
            spent = self.spent()
            cancelled = self.cancel is not None and self.cancel.is_set()
            if cancelled or spent >= self.seconds or (self.early is not None and self.early(spent)):
                self.budget.stop.set()
                return


@contextmanager
def cpu_budget(seconds: float | None, cancel: threading.Event | None = None,
               limits: Limits | None = None, early: Callable[[float], bool] | None = None
               ) -> Iterator[Budget | None]:
    """A budget of ``limits`` whose stop flag is set after ``seconds`` of this process's CPU
    time or when ``cancel`` is set (None when there is neither: ``limits`` alone bound)."""
    if seconds is None and cancel is None:
        yield None
        return
    budget = Budget(limits or Limits())
    if seconds is None:
        assert cancel is not None
        budget.stop = cancel
        yield budget
        return
    with CpuWatch(budget, seconds, early, cancel):
        yield budget

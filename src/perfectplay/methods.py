"""The registry of solving methods: one way in for every way of answering a position.

A method is anything that can value a position: a search algorithm of the negamax family,
Sprague-Grundy theory, bottom-up tabulation, a compiled kernel, and later database lookups,
retrograde analysis or a depth-limited engine. Each declares itself here, from a module of its
own package, with :func:`register`: its name, the games it is for, when it can answer a
request (and why not), whether ``--algorithm auto`` should prefer it, and the two entry points
``solve`` and ``analyze``. :mod:`perfectplay.solving` imports those modules and picks among
the registered methods with :func:`choose`, so no lower layer ever imports a higher one to
decide how to answer.

Two axes, as on the command line:

* ``--engine python|compiled|auto``: compiled methods (numba kernels) answer when the engine is
  ``compiled``, or ``auto`` and the kernel pays for itself; Python methods otherwise.
* ``--algorithm NAME|auto``: a Python method by name, or for ``auto`` the preferred method of
  lowest priority among those that handle the game. A compiled method lists the algorithm
  names it reproduces in ``answers``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game, has_evaluation
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import MoveValue, Progress, Solution

ENGINES = ("auto", "compiled", "python")
DEFAULT_PV_LIMIT = 1000


@dataclass(frozen=True)
class Request:
    """What a caller asks of a solve or an analysis, apart from the game and position."""

    algorithm: str = "auto"
    engine: str = "python"
    limits: Limits = field(default_factory=Limits)
    outcome_only: bool = False
    table_size: str | int | None = None
    pv_limit: int = DEFAULT_PV_LIMIT
    on_depth: Callable[[Progress], None] | None = None
    # Hears each optimal move, with the position's value, as a solve proves it: for a
    # caller that may stop the solve (through ``budget``) once it knows one (play's perfect
    # level). Connect Four's solves call it; the other methods do not.
    on_optimal: Callable[[Any, int], None] | None = None
    # The optimal moves alone are wanted, not every move's value (deciding.prove): a method
    # that proves them one by one may skip valuing the others (Kalah's kernel).
    optimal_only: bool = False
    budget: Budget | None = None
    # A database file (perfectplay.store) to answer from when it holds the position.
    database: str | None = None
    # An opening book file for a game that has one (Connect Four): None for the book shipped
    # with the package, "none" for no book (perfectplay.games.connect4.book.method).
    book: str | None = None
    # Whether endgame tables (perfectplay.games.chess.tablebase) may answer a chess position they hold;
    # the table method sets it False when it hands a position on.
    endgame_tables: bool = True
    # The position asked about (solving sets it): whether an exact search may start without a
    # limit is the position's question (Game.solvable), not the board's.
    position: Any = None

    @property
    def bounded(self) -> bool:
        """Whether a depth, node or time limit was given."""
        limits = self.limits
        return (limits.depth, limits.nodes, limits.time) != (None, None, None)


def too_big_without_limit(game: Game[Any, Any], request: Request) -> str | None:
    """The objection of an exact search to a position its game says no exact search can
    finish (``Game.solvable``; the game's ``Properties.too_big_to_solve`` when the request
    names no position) when no limit was given: one line saying what to ask for instead,
    where the search would otherwise run for ever in silence."""
    if request.bounded or request.budget is not None:
        return None  # a budget is a limit too: its owner can stop it (the web's think time)
    if request.position is None:
        if not game.properties.too_big_to_solve:
            return None
    elif game.solvable(request.position):
        return None
    return too_big_words(game)


def too_big_words(game: Game[Any, Any]) -> str:
    """The one line saying that ``game`` (this position of it) is too big to solve exactly,
    and what to ask for instead: an estimate by the engine, or by Monte Carlo tree search
    for a game with no evaluation function (the engine would search blind)."""
    mate = "" if game.properties.is_score else ", or --mate N to prove a forced win within N moves"
    estimator = "engine" if has_evaluation(game) else "mcts"
    return (f"{game.name} is too big to solve exactly: use --algorithm {estimator} --time T (seconds) "
            f"for an estimate{mate}")


GameCheck = Callable[[Game[Any, Any]], bool]
RequestCheck = Callable[[Game[Any, Any], Request], bool]
Reason = Callable[[Game[Any, Any], Request], "str | None"]
Solver = Callable[[Game[Any, Any], Any, Request], Solution]
Analyzer = Callable[[Game[Any, Any], Any, Request], list[MoveValue]]


def every_game(game: Game[Any, Any]) -> bool:
    return True


def no_objection(game: Game[Any, Any], request: Request) -> str | None:
    return None


def never(game: Game[Any, Any], request: Request) -> bool:
    return False


@dataclass(frozen=True)
class Method:
    """One registered way of answering.

    ``handles`` says which games the method is for at all (a Connect Four kernel handles only
    Connect Four); ``applies`` says whether it can answer this particular request, returning
    None or the reason it cannot, which becomes the user's one-line error; ``preferred`` says
    whether ``--algorithm auto`` (or ``--engine auto``, for compiled methods) should choose it,
    trying methods in increasing ``priority``.
    """

    name: str
    summary: str
    solve: Solver
    analyze: Analyzer
    engine: str = "python"
    answers: tuple[str, ...] = ()
    handles: GameCheck = every_game
    applies: Reason = no_objection
    preferred: RequestCheck = never
    priority: int = 100
    # Tried before every other method, whatever the algorithm and engine: a method that can
    # answer ahead of any search (a database given with --db). It hands what it cannot
    # answer on by calling choose() again with a request it no longer leads.
    leads: RequestCheck = never
    # Whether the method's solve proves the optimal moves one by one (the value, then one
    # test per move) without valuing the others, and stops at a budget, telling each proved
    # move to Request.on_optimal where it can: a caller that plays only optimal moves (play's
    # perfect level) asks it for a solve, not for every move's value (deciding.prove).
    proves_optimal_moves: bool = False
    # The method's one-off costs (a kernel's compilation or loading from numba's cache),
    # paid when called, so that a server's first answer is as fast as the rest
    # (perfectplay.deciding.warm_up); None when it has none.
    warm_up: Callable[[Game[Any, Any]], None] | None = None


_METHODS: list[Method] = []
ModuleOrder = Callable[[], "dict[str, int]"]
# Each method module's place in the declared order (perfectplay.solving's table of the
# engines' modules, then every game's own in its entry's order), set by declare_order.
_module_order: ModuleOrder = dict


def declare_order(order: ModuleOrder) -> None:
    """Where priorities tie, methods are tried, and ``--algorithm`` lists them, in the
    declared order of their modules (``order()``: each module's place; a module it does not
    name comes after), whatever order the modules happened to be imported in."""
    global _module_order
    _module_order = order


def _in_declared_order(found: list[Method]) -> list[Method]:
    place = _module_order()
    return sorted(found, key=lambda method: place.get(method.solve.__module__, len(place)))


def register(method: Method) -> Method:
    """Add ``method``; one registered again under the same name and engine replaces the old."""
    if method.engine not in ENGINES[1:]:
        raise ValueError(f"method {method.name!r}: engine must be 'python' or 'compiled'")
    _METHODS[:] = [m for m in _METHODS if (m.name, m.engine) != (method.name, method.engine)]
    _METHODS.append(method)
    return method


def registered(engine: str = "python") -> tuple[Method, ...]:
    """The methods of one engine, in their modules' declared order (:func:`declare_order`),
    each module's in the order it registered them."""
    return tuple(method for method in _in_declared_order(_METHODS) if method.engine == engine)


def algorithm_names() -> list[str]:
    """The names ``--algorithm`` accepts besides 'auto'."""
    return [method.name for method in registered("python")]


def choose(game: Game[Any, Any], request: Request) -> Method:
    """The method that answers ``request`` for ``game``; raises UnsupportedSearch with the
    reason when the request names one that cannot."""
    if request.engine not in ENGINES:
        raise UnsupportedSearch(f"unknown engine {request.engine!r}; choose one of: {', '.join(ENGINES)}")
    for method in _in_declared_order(_METHODS):
        if method.leads(game, request) and method.handles(game):
            return method
    if request.engine != "python":
        kernel = _compiled(game, request)
        if kernel is not None:
            return kernel
    return _python(game, request)


def _compiled(game: Game[Any, Any], request: Request) -> Method | None:
    kernels = sorted((m for m in registered("compiled") if m.handles(game)), key=lambda m: m.priority)
    if not kernels:
        if request.engine == "compiled":
            raise UnsupportedSearch(
                f"--engine compiled: {game.name} has no compiled kernel (use --engine python)")
        return None
    kernel = kernels[0]
    if request.engine == "auto" and not kernel.preferred(game, request):
        return None
    problem = kernel.applies(game, request)
    if problem is None:
        return kernel
    if request.engine == "compiled":
        raise UnsupportedSearch(f"--engine compiled: {problem}")
    return None


def _python(game: Game[Any, Any], request: Request) -> Method:
    methods = registered("python")
    if request.algorithm == "auto":
        candidates = sorted((m for m in methods if m.handles(game) and m.preferred(game, request)),
                            key=lambda m: m.priority)
        if not candidates:
            raise UnsupportedSearch(f"no solving method is registered for {game.name}")
        method = candidates[0]
    else:
        found = [m for m in methods if m.name == request.algorithm]
        if not found:
            known = ", ".join(["auto", *algorithm_names()])
            raise UnsupportedSearch(f"unknown algorithm {request.algorithm!r}; choose one of: {known}")
        method = found[0]
    problem = method.applies(game, request)
    if problem is not None:
        raise UnsupportedSearch(problem)
    return method


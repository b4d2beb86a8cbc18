"""The one way in: solve a position or analyse every move, by whichever method answers.

Every solving method registers itself (perfectplay.methods) from a module of its own package;
this module imports those modules (each when a request first needs it), so it is the only
place that knows them all, and it sits above every engine. ``solve`` and ``analyze`` answer
what the caller asked for (an algorithm and engine, 'auto' resolved here); a front end that
must decide how to answer a position within a budget asks perfectplay.deciding, the only
other caller of :func:`choose`, and never picks a strategy itself. A new method is a module
that calls ``methods.register`` plus one line in :data:`METHOD_MODULES` (a game's own: one
line in the tuple its package declares, perfectplay.game.MethodModule).
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from perfectplay import methods
from perfectplay.errors import BadOption, LimitReached
from perfectplay.game import Game, has_evaluation, method_modules
from perfectplay.methods import DEFAULT_PV_LIMIT, Request
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import MoveValue, Progress, Solution
from perfectplay.search.transposition import parse_table_size

# Each engine's method module, the --algorithm names it registers (in the order --algorithm
# lists them), and when a request may need it. A module is imported the first time a request
# needs it, not when this module loads (start-up time: a tic-tac-toe solve needs only
# the search family): the test beside each says when none of the module's methods could
# answer (lead, be chosen by auto, or be asked for by name), so skipping it changes nothing.
# A game's own methods (a kernel, a book, endgame tables) are not listed here: the game's
# package declares their modules and --algorithm names once (perfectplay.game.MethodModule),
# in a tuple its class (Game.method_modules, imported when one of its positions is answered)
# and its registry entry (Entry.methods, read to list the names) both name.
# tests/test_architecture.py checks the names against what each module registers.
NeedCheck = Callable[[Game[Any, Any], Request], bool]


def _always(game: Game[Any, Any], request: Request) -> bool:
    return True


METHOD_MODULES: dict[str, tuple[tuple[str, ...], NeedCheck]] = {
    "perfectplay.search.solver": (("minimax", "memo", "alphabeta", "tt", "id", "table"), _always),
    "perfectplay.search.mate": (
        ("mate",), lambda game, request: request.limits.mate is not None or request.algorithm == "mate"),
    "perfectplay.impartial.method": (
        ("grundy",), lambda game, request: game.properties.impartial or request.algorithm == "grundy"),
    # The generic kernel answers only when asked for by --engine compiled; a game's own kernel
    # that auto prefers is one of the game's methods.
    "perfectplay.compiled.method": ((), lambda game, request: request.engine == "compiled"),
    "perfectplay.retro.method": (
        ("retro",), lambda game, request: game.properties.loopy or request.algorithm == "retro"),
    "perfectplay.engine.method": (("engine",), lambda game, request: request.algorithm == "engine"),
    "perfectplay.pns.method": (("pns",), lambda game, request: request.algorithm == "pns" or (
        request.algorithm == "auto" and game.default_algorithm == "pns")),
    "perfectplay.mcts.method": (("mcts",), lambda game, request: request.algorithm == "mcts"),
    "perfectplay.store.method": (
        ("database",), lambda game, request: request.database is not None or request.algorithm == "database"),
}
_LOADED: set[str] = set()


def load_methods(game: Game[Any, Any] | None = None, request: Request | None = None) -> None:
    """Import the method modules ``request`` may need for ``game``: the engines' by their
    checks, the game's own, and the module of a game's algorithm asked for by name (every one
    when either is None, or when the algorithm is a name no module declares, so the error
    lists them all)."""
    from perfectplay import registry
    engines = {name for names, _ in METHOD_MODULES.values() for name in names} | {"auto"}
    asked = None if request is None else request.algorithm
    own = registry.game_algorithms() if asked not in engines else {}
    everything = game is None or request is None or (asked not in engines and asked not in own)
    wanted = [module for module, (_, needed) in METHOD_MODULES.items()
              if everything or needed(game, request)]  # type: ignore[arg-type]
    if game is not None:
        wanted += [declared.module for declared in method_modules(game.method_modules)]
    if everything:
        wanted += own.values()
    elif request is not None and request.algorithm in own:
        wanted.append(own[request.algorithm])
    for module in wanted:
        if module not in _LOADED:
            importlib.import_module(module)
            _LOADED.add(module)


def _declared_order() -> dict[str, int]:
    """Each method module's place: the engines' in the table's order, then the games' own in
    their entries' order (perfectplay.methods.declare_order)."""
    from perfectplay import registry
    ordered = dict.fromkeys([*METHOD_MODULES, *registry.game_method_modules()])
    return {module: place for place, module in enumerate(ordered)}


methods.declare_order(_declared_order)


def choose(game: Game[Any, Any], request: Request) -> methods.Method:
    """The method that answers ``request`` for ``game`` (perfectplay.methods.choose, after
    importing the modules that may hold it)."""
    load_methods(game, request)
    return methods.choose(game, request)


def algorithm_names() -> list[str]:
    """What ``--algorithm`` accepts besides 'auto' (no method module is imported): the
    engines' names, then those of the games' own methods."""
    from perfectplay import registry
    return [name for names, _ in METHOD_MODULES.values() for name in names] + list(registry.game_algorithms())


def algorithm_summaries() -> dict[str, str]:
    """Each --algorithm name with its one-line summary."""
    load_methods()
    summaries = {method.name: method.summary for method in methods.registered("python")}
    return {name: summaries[name] for name in algorithm_names()}  # in the table's order


def resolve_algorithm(game: Game[Any, Any], name: str, limits: Limits | None = None) -> str:
    """The Python method ``name`` stands for with this game ('auto' resolved)."""
    return choose(game, Request(algorithm=name, limits=limits or Limits())).name


def solve(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
          limits: Limits | None = None, outcome_only: bool = False,
          table_size: str | int | None = None, pv_limit: int = DEFAULT_PV_LIMIT,
          on_depth: Callable[[Progress], None] | None = None,
          budget: Budget | None = None, engine: str = "python",
          database: str | None = None, book: str | None = None,
          mate: int | None = None, on_optimal: Callable[[Any, int], None] | None = None) -> Solution:
    """Solve ``position`` (the start position when None): its value from the side to move,
    every optimal move, the principal variation and the statistics of the search.
    ``engine`` is 'python', 'compiled' or 'auto' (see perfectplay.compiled.method).
    ``database``: a file built by `perfectplay db build`; a position stored there is
    answered from it (``solution.algorithm == "database"``), any other by search.
    ``book``: an opening book file for a game that has one (Connect Four), or 'none'.
    ``mate``: prove the shortest forced win within this many moves, or that there is none
    (the method ``mate``; ``solution.mate`` says what was proved).
    ``on_optimal(move, value)`` hears each optimal move, with the position's value, as it is
    proved where the method finds them one by one (Connect Four), so a caller that stops the
    solve through ``budget`` keeps them."""
    position = game.start() if position is None else position
    if database is not None and _database_answers_first(engine, limits, table_size, mate):
        from perfectplay.store.method import stored_solution
        found = stored_solution(game, position, str(database), pv_limit)
        if found is not None:
            return found
    request = _request(algorithm=algorithm, engine=engine, limits=limits,
                       outcome_only=outcome_only, table_size=table_size, pv_limit=pv_limit,
                       on_depth=on_depth, budget=budget, database=database, book=book,
                       mate=mate, on_optimal=on_optimal)
    request = replace(request, position=position)
    return _answer(game, position, request, _solver)


def analyze(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
            limits: Limits | None = None, outcome_only: bool = False,
            table_size: str | int | None = None, budget: Budget | None = None,
            engine: str = "python", database: str | None = None,
            on_depth: Callable[[Progress], None] | None = None,
            book: str | None = None, mate: int | None = None) -> list[MoveValue]:
    """The value of every legal move for the player who would play it, best first
    (from ``database`` when it holds the position, as for :func:`solve`). ``on_depth`` hears
    of every depth a deepening search completes (``--algorithm id`` or ``engine``).
    ``mate``: each move's shortest forced win within this many moves, or none."""
    position = game.start() if position is None else position
    if database is not None and _database_answers_first(engine, limits, table_size, mate):
        from perfectplay.store.method import stored_moves
        found = stored_moves(game, position, str(database))
        if found is not None:
            return found
    request = _request(algorithm=algorithm, engine=engine, limits=limits,
                       outcome_only=outcome_only, table_size=table_size,
                       pv_limit=DEFAULT_PV_LIMIT, on_depth=on_depth, budget=budget,
                       database=database, book=book, mate=mate)
    request = replace(request, position=position)
    return _answer(game, position, request, _analyzer)


def _database_answers_first(engine: str, limits: Limits | None, table_size: str | int | None,
                            mate: int | None) -> bool:
    """Whether a request naming a database is answered by it before any method is chosen:
    the database method leads every valid request (perfectplay.store.method), so a stored
    position needs none of the choosing, which cost more than the lookup itself (a solve
    from an open handle took 114-137 us through the choice against 64-90 us without).
    A mate search, which refuses a database, and a bad engine or table size go the long
    way, which says what is wrong."""
    if mate is not None or (limits is not None and limits.mate is not None) or engine not in methods.ENGINES:
        return False
    if table_size is not None:
        parse_table_size(table_size)  # a bad size is refused whichever way answers
    return True


T = TypeVar("T")
# Which of a method's two entry points a caller wants: solve or analyze.
EntryPoint = Callable[[methods.Method], Callable[[Game[Any, Any], Any, Request], T]]

# The share of a time limit an exact search gets before an estimate takes the rest: here on a
# position out of exact reach (Game.solvable), and in every think of perfectplay.deciding.
EXACT_SHARE = 0.5
ESTIMATORS = ("engine", "mcts")


def _answer(game: Game[Any, Any], position: Any, request: Request,
            entry_point: EntryPoint[T]) -> T:
    """``request`` answered by the method chosen for it. With ``auto`` (and no kernel asked
    for by ``--engine compiled``) and a time limit on a position the game says no exact
    search can be expected to finish, the exact method gets half the time and, if it does not
    finish, the estimator the rest: a time limit then gives an estimate, said to be one,
    rather than no answer (`solve chess --time 5`)."""
    method = choose(game, request)
    limits = request.limits
    if (request.algorithm != "auto" or request.engine == "compiled" or limits.time is None
            or limits.mate is not None or method.name in ESTIMATORS or request.budget is not None
            or game.solvable(position)):
        return entry_point(method)(game, position, request)
    started = time.perf_counter()
    exact = replace(request, limits=replace(limits, time=limits.time * EXACT_SHARE))
    try:
        return entry_point(method)(game, position, exact)
    except LimitReached:
        pass
    spent = time.perf_counter() - started
    left = max(limits.time - spent, limits.time * (1 - EXACT_SHARE) / 2)
    estimate = replace(request, algorithm=estimating_algorithm(game, searched=True), engine="python",
                       limits=replace(limits, time=left))
    return entry_point(choose(game, estimate))(game, position, estimate)


def _solver(method: methods.Method) -> methods.Solver:
    return method.solve


def _analyzer(method: methods.Method) -> methods.Analyzer:
    return method.analyze


def estimating_algorithm(game: Game[Any, Any], searched: bool = False) -> str:
    """The method that estimates a position no exact search can finish: the depth-limited
    engine when the game has an evaluation function; Monte Carlo tree search (``mcts``) for
    a game too big to solve that has none, where the engine would search blind.
    Too big: the game declares it, or (``searched``) an exact try has just failed within
    its budget (play's first move of 4x4 Hex). play, the web page and match ask here."""
    blind = not has_evaluation(game)
    return "mcts" if blind and (searched or game.properties.too_big_to_solve) else "engine"


MoveValuer = Callable[[Any], MoveValue]


def optimal_moves(game: Game[Any, Any], position: Any) -> tuple[list[MoveValue], MoveValuer] | None:
    """For a position with too many moves to value one by one (analyze refuses it), the
    optimal moves and a way to value any other legal move, when a method answers without
    listing moves: Sprague-Grundy theory for impartial sums (a Nim heap of 10^30). None when
    none does. The values are exact (win or loss, no remoteness)."""
    if resolve_algorithm(game, "auto") != "grundy":
        return None
    from perfectplay.impartial import theory
    return theory.optimal_moves(game, position), lambda move: theory.move_value(game, position, move)


def _request(*, algorithm: str, engine: str, limits: Limits | None,
             table_size: str | int | None, database: str | None, mate: int | None,
             **options: Any) -> Request:
    parse_table_size(table_size)  # reject a bad size whichever method runs
    limits = limits or Limits()
    if mate is not None:
        limits = replace(limits, mate=mate)  # Limits checks the count
    if limits.mate is not None:
        algorithm, engine = _mate_request(algorithm, engine, database)
    return Request(algorithm=algorithm, engine=engine, limits=limits, table_size=table_size,
                   database=None if database is None else str(database), **options)


def _mate_request(algorithm: str, engine: str, database: str | None) -> tuple[str, str]:
    """``mate=N`` names the method ``mate`` (a Python search); anything else asked with it is
    the user's contradiction, said in one line."""
    if algorithm not in ("auto", "mate"):
        raise BadOption(f"--mate runs the exact mate search; drop --algorithm {algorithm}")
    if engine == "compiled":
        raise BadOption("--mate runs the exact mate search in Python; drop --engine compiled")
    if database is not None:
        raise BadOption("--mate searches; a database (--db) already holds exact values: drop one")
    return "mate", "python"


__all__ = ["algorithm_names", "algorithm_summaries", "analyze", "choose", "estimating_algorithm",
           "load_methods", "lookup", "lookup_many", "optimal_moves", "resolve_algorithm", "solve",
           "solve_many"]


def lookup(game: Game[Any, Any], position: Any, *, database: str | os.PathLike[str]) -> int | None:
    """The value ``database`` (a file built by `perfectplay db build`) stores for
    ``position``: node-relative as perfectplay.value counts it, None when not stored. The
    file is opened and checked once per process (perfectplay.store.handles)."""
    from perfectplay.store.handles import lookup as stored
    return stored(game, position, database)


def lookup_many(game: Game[Any, Any], positions: Sequence[Any], *,
                database: str | os.PathLike[str]) -> list[int | None]:
    """:func:`lookup` for many positions at once (one query per thousand): the fast way."""
    from perfectplay.store.handles import lookup_many as stored
    return stored(game, positions, database)


def solve_many(game: Game[Any, Any], positions: Sequence[Any], *, database: str | os.PathLike[str],
               pv_limit: int = 0, **options: Any) -> list[Solution]:
    """:func:`solve` for each position, answered from ``database`` where it holds the
    position (searched otherwise). ``pv_limit`` defaults to 0 here: a line costs a lookup
    per move of every position on it; with 0, stored positions are answered by two
    queries in all (perfectplay.store.handles.solve_many_stored)."""
    from perfectplay.store.handles import solve_many_stored
    stored = solve_many_stored(game, positions, database) if pv_limit == 0 else [None] * len(positions)
    return [found if found is not None else
            solve(game, position, database=os.fspath(database), pv_limit=pv_limit, **options)
            for position, found in zip(positions, stored, strict=True)]

"""The one way in: solve a position or analyse every move, by whichever method answers.

Every solving method registers itself (perfectplay.methods) from a module of its own package;
this module imports those modules, so it is the only place that knows them all, and it sits
above every engine. Callers (the CLI, play, the library API) ask here and never pick a
strategy themselves. A new method is a module that calls ``methods.register`` plus one line
in :data:`METHOD_MODULES`.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from perfectplay import methods
from perfectplay.errors import BadOption
from perfectplay.game import Game
from perfectplay.methods import DEFAULT_PV_LIMIT, Request
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import MoveValue, Solution
from perfectplay.search.tables import parse_table_size

# Imported in this order, which is also the order --algorithm lists the names in. Each
# module is cheap to import: heavy parts (numba, numpy, theory) load when a method runs.
METHOD_MODULES = (
    "perfectplay.search.solver",
    "perfectplay.search.mate",
    "perfectplay.impartial.method",
    "perfectplay.compiled.method",
    "perfectplay.retro.method",
    "perfectplay.engine.method",
    "perfectplay.store.method",
    "perfectplay.book.method",
    "perfectplay.tablebase.method",
)

for _module in METHOD_MODULES:
    importlib.import_module(_module)


def algorithm_names() -> list[str]:
    """What ``--algorithm`` accepts besides 'auto', from the registry."""
    return methods.algorithm_names()


def algorithm_summaries() -> dict[str, str]:
    """Each --algorithm name with its one-line summary."""
    return {method.name: method.summary for method in methods.registered("python")}


def resolve_algorithm(game: Game[Any, Any], name: str, limits: Limits | None = None) -> str:
    """The Python method ``name`` stands for with this game ('auto' resolved)."""
    return methods.choose(game, Request(algorithm=name, limits=limits or Limits())).name


def solve(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
          limits: Limits | None = None, outcome_only: bool = False,
          table_size: str | int | None = None, pv_limit: int = DEFAULT_PV_LIMIT,
          on_depth: Callable[[Any], None] | None = None,
          budget: Budget | None = None, engine: str = "python",
          database: str | None = None, book: str | None = None,
          mate: int | None = None, warm: bool = False) -> Solution:
    """Solve ``position`` (the start position when None): its value from the side to move,
    every optimal move, the principal variation and the statistics of the search.
    ``engine`` is 'python', 'compiled' or 'auto' (see perfectplay.compiled.method).
    ``database``: a file built by `perfectplay db build`; a position stored there is
    answered from it (``solution.algorithm == "database"``), any other by search.
    ``book``: a Connect Four opening book file, or 'none' (see perfectplay.book.method).
    ``mate``: prove the shortest forced win within this many moves, or that there is none
    (the method ``mate``; ``solution.mate`` says what was proved).
    ``warm``: keep the method's table from the previous call (see Request.warm)."""
    request = _request(algorithm=algorithm, engine=engine, limits=limits,
                       outcome_only=outcome_only, table_size=table_size, pv_limit=pv_limit,
                       on_depth=on_depth, budget=budget, database=database, book=book,
                       mate=mate, warm=warm)
    position = game.start() if position is None else position
    return methods.choose(game, request).solve(game, position, request)


def analyze(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
            limits: Limits | None = None, outcome_only: bool = False,
            table_size: str | int | None = None, budget: Budget | None = None,
            engine: str = "python", database: str | None = None,
            on_depth: Callable[[Any], None] | None = None,
            book: str | None = None, mate: int | None = None,
            warm: bool = False) -> list[MoveValue]:
    """The value of every legal move for the player who would play it, best first
    (from ``database`` when it holds the position, as for :func:`solve`). ``on_depth`` hears
    of every depth a deepening search completes (``--algorithm id`` or ``engine``).
    ``mate``: each move's shortest forced win within this many moves, or none."""
    request = _request(algorithm=algorithm, engine=engine, limits=limits,
                       outcome_only=outcome_only, table_size=table_size,
                       pv_limit=DEFAULT_PV_LIMIT, on_depth=on_depth, budget=budget,
                       database=database, book=book, mate=mate, warm=warm)
    position = game.start() if position is None else position
    return methods.choose(game, request).analyze(game, position, request)


def _request(*, algorithm: str, engine: str, limits: Limits | None,
             table_size: str | int | None, database: str | None, mate: int | None,
             **options: Any) -> Request:
    parse_table_size(table_size)  # reject a bad size whichever method runs
    if mate is not None:
        algorithm, engine = _mate_request(algorithm, engine, database)
    return Request(algorithm=algorithm, engine=engine, limits=limits or Limits(),
                   table_size=table_size, mate=mate,
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


__all__ = ["algorithm_names", "algorithm_summaries", "analyze", "resolve_algorithm", "solve"]

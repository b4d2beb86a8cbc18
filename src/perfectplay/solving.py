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
from perfectplay.game import Game
from perfectplay.methods import DEFAULT_PV_LIMIT, Request
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import MoveValue, Solution
from perfectplay.search.tables import parse_table_size

# Imported in this order, which is also the order --algorithm lists the names in. Each
# module is cheap to import: heavy parts (numba, numpy, theory) load when a method runs.
METHOD_MODULES = (
    "perfectplay.search.solver",
    "perfectplay.impartial.method",
    "perfectplay.compiled.method",
    "perfectplay.connect4_search.method",
    "perfectplay.retro.method",
    "perfectplay.engine.method",
    "perfectplay.store.method",
    "perfectplay.book.method",
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
          database: str | None = None, book: str | None = None) -> Solution:
    """Solve ``position`` (the start position when None): its value from the side to move,
    every optimal move, the principal variation and the statistics of the search.
    ``engine`` is 'python', 'compiled' or 'auto' (see perfectplay.compiled.method).
    ``database``: a file built by `perfectplay db build`; a position stored there is
    answered from it (``solution.algorithm == "database"``), any other by search.
    ``book``: a Connect Four opening book file, or 'none' (see perfectplay.book.method)."""
    request, position = _request(game, position, algorithm, limits, outcome_only, table_size,
                                 pv_limit, on_depth, budget, engine, database, book)
    return methods.choose(game, request).solve(game, position, request)


def analyze(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
            limits: Limits | None = None, outcome_only: bool = False,
            table_size: str | int | None = None, budget: Budget | None = None,
            engine: str = "python", database: str | None = None,
            on_depth: Callable[[Any], None] | None = None,
            book: str | None = None) -> list[MoveValue]:
    """The value of every legal move for the player who would play it, best first
    (from ``database`` when it holds the position, as for :func:`solve`). ``on_depth`` hears
    of every depth a deepening search completes (``--algorithm id`` or ``engine``)."""
    request, position = _request(game, position, algorithm, limits, outcome_only, table_size,
                                 DEFAULT_PV_LIMIT, on_depth, budget, engine, database, book)
    return methods.choose(game, request).analyze(game, position, request)


def _request(game: Game[Any, Any], position: Any, algorithm: str, limits: Limits | None,
             outcome_only: bool, table_size: str | int | None, pv_limit: int,
             on_depth: Callable[[Any], None] | None, budget: Budget | None,
             engine: str, database: str | None = None,
             book: str | None = None) -> tuple[Request, Any]:
    parse_table_size(table_size)  # reject a bad size whichever method runs
    request = Request(algorithm=algorithm, engine=engine, limits=limits or Limits(),
                      outcome_only=outcome_only, table_size=table_size, pv_limit=pv_limit,
                      on_depth=on_depth, budget=budget,
                      database=None if database is None else str(database), book=book)
    return request, game.start() if position is None else position


__all__ = ["algorithm_names", "algorithm_summaries", "analyze", "resolve_algorithm", "solve"]

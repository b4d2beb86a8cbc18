"""The database as a solving method: ``--db PATH`` on solve, analyze and play, and
``database=PATH`` in ``perfectplay.solve`` / ``perfectplay.analyze``.

It leads (perfectplay.methods.Method.leads): whenever a request names a database, this
method answers first, whatever the algorithm and engine. A position stored there is
answered from it at once (``solution.algorithm == "database"``); any other position is
handed to the method the same request would choose without the database, so a missing
position is searched, never refused. Opened files are kept per process, so a session that
asks many questions (play) opens and checks each file once.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from perfectplay import methods
from perfectplay.game import Game
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution
from perfectplay.store.records import FROM_DATABASE


def store_for(path: str, game: Game[Any, Any]) -> Any:
    """The open perfectplay.store.lookup.Store at ``path``, checked once per process to be
    for ``game`` (perfectplay.store.handles)."""
    from perfectplay.store.handles import open_handle
    return open_handle(path, game)


def holds(path: str, game: Game[Any, Any], position: Any) -> bool:
    """Whether the database at ``path`` answers ``position`` (so a caller can say so)."""
    return store_for(path, game).values(game, [position])[0] is not None


def stored_solution(game: Game[Any, Any], position: Any, path: str, pv_limit: int) -> Solution | None:
    """The Solution of ``position`` from the database at ``path``, or None when it is not
    stored: what this method answers, asked for directly (perfectplay.solve, when a request
    names a database, asks here before choosing any method)."""
    from perfectplay.store.lookup import solve_stored
    return solve_stored(store_for(path, game), game, position, pv_limit)


def stored_moves(game: Game[Any, Any], position: Any, path: str) -> list[MoveValue] | None:
    """Every move's value for ``position`` from the database at ``path``, or None."""
    from perfectplay.store.lookup import analyze_stored
    return analyze_stored(store_for(path, game), game, position)


def _without_database(request: Request) -> Request:
    return dataclasses.replace(request, database=None)


def _solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    assert request.database is not None
    found = stored_solution(game, position, request.database, request.pv_limit)
    if found is not None:
        return found
    rest = _without_database(request)
    return methods.choose(game, rest).solve(game, position, rest)


def _analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    assert request.database is not None
    found = stored_moves(game, position, request.database)
    if found is not None:
        return found
    rest = _without_database(request)
    return methods.choose(game, rest).analyze(game, position, rest)


def _given(game: Game[Any, Any], request: Request) -> bool:
    return request.database is not None


def _objection(game: Game[Any, Any], request: Request) -> str | None:
    if request.database is None:
        return "--algorithm database needs --db PATH (a file built by `perfectplay db build`)"
    return None


register(Method(FROM_DATABASE, "answers from a database built by `perfectplay db build` (--db PATH); "
                "positions it does not hold are searched", _solve, _analyze,
                applies=_objection, leads=_given))

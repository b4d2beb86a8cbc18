"""``null-window``: Connect Four's exact solve in pure Python, the compiled kernel's search.

What ``--algorithm auto`` runs for Connect Four whenever the kernel does not: under
``--engine python``, without numba, under ``--time`` (which the kernel does not take), and in
``play``'s fallbacks. ``--depth`` leaves it to ``id``: this search only solves exactly.
"""

from __future__ import annotations

from typing import Any

from perfectplay.game import Game
from perfectplay.games.connect4 import is_connect_four
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search.limits import Budget
from perfectplay.search.results import MoveValue, Solution

NAME = "null-window"
ALGORITHM = "null-window (pure Python)"
# Ahead of the search family's default (50), behind nothing else that handles Connect Four.
PRIORITY = 40


def _engine(game: Any, request: Request) -> Any:
    from perfectplay.games.connect4.python_engine import Engine
    return Engine(game, request.table_size, request.budget or Budget(request.limits))


def _solve(game: Any, position: Any, request: Request) -> Solution:
    from perfectplay.games.connect4 import answers
    return answers.solve(_engine(game, request), position, ALGORITHM,
                         outcome_only=request.outcome_only, pv_limit=request.pv_limit,
                         on_depth=request.on_depth, on_optimal=request.on_optimal)


def _analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.games.connect4 import answers
    return answers.analyze(_engine(game, request), position, outcome_only=request.outcome_only)


def _applies(game: Game[Any, Any], request: Request) -> str | None:
    if not is_connect_four(game):
        return f"--algorithm {NAME} solves Connect Four only, not {game.name}"
    if request.limits.depth is not None:
        return f"{NAME} solves exactly; use --algorithm id with --depth"
    return too_big_without_limit(game, request)


register(Method(NAME, "Connect Four: the compiled kernel's null-window search, in pure Python",
                _solve, _analyze, handles=is_connect_four,
                applies=_applies, preferred=lambda game, request: _applies(game, request) is None,
                priority=PRIORITY))

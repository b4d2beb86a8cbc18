"""Connect Four's compiled kernel as a solving method (``--engine compiled|auto``), scored as
the test sets are. Only light imports here: numba and the kernel load when a solve runs."""

from __future__ import annotations

from typing import Any

from perfectplay.compiled.method import kernel_budget, kernel_node_limit, kernel_options, objection
from perfectplay.games.connect4 import is_connect_four
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution

ALGORITHMS = ("auto",)


def kernel_solve(game: Any, position: Any, request: Request, book: Any = None) -> Solution:
    """The kernel's solve; ``book`` (a perfectplay.games.connect4.book Book, or None) answers
    what it holds."""
    from perfectplay.games.connect4.kernel_engine import solve
    budget = kernel_budget(request)
    return solve(game, position, pv_limit=request.pv_limit, on_depth=request.on_depth,
                 on_optimal=request.on_optimal, node_limit=kernel_node_limit(request, budget),
                 book=book, budget=budget, **kernel_options(request))


def kernel_analyze(game: Any, position: Any, request: Request, book: Any = None) -> list[MoveValue]:
    from perfectplay.games.connect4.kernel_engine import analyze
    budget = kernel_budget(request)
    return analyze(game, position, node_limit=kernel_node_limit(request, budget), book=book,
                   budget=budget, **kernel_options(request))


kernel_applies = objection(ALGORITHMS)

register(Method("connect4-kernel", "Connect Four's bitboard kernel, scored as the test sets are",
                kernel_solve, kernel_analyze, engine="compiled", answers=ALGORITHMS,
                handles=is_connect_four, applies=kernel_applies,
                preferred=lambda game, request: True, priority=10))

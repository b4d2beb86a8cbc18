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
# A late 7x6 position whose solve runs every kernel function: the kernel is compiled for any
# board at once, so one solve of it pays the compilation (or numba's cache load) for all.
WARM_UP_POSITION = "44667461156563424431"


def kernel_warm_up(game: Any) -> None:
    """Compile the kernel, or load it from numba's cache (seconds), before the first answer:
    nothing without numba."""
    from perfectplay.compiled import numba_available
    if not numba_available():
        return
    from perfectplay.games.connect4.rules import ConnectFour
    board = ConnectFour()
    position = board.parse_position(WARM_UP_POSITION)
    kernel_solve(board, position, Request(engine="compiled", pv_limit=0, position=position))

register(Method("connect4-kernel", "Connect Four's bitboard kernel, scored as the test sets are",
                kernel_solve, kernel_analyze, engine="compiled", answers=ALGORITHMS,
                handles=is_connect_four, applies=kernel_applies,
                preferred=lambda game, request: True, priority=10, proves_optimal_moves=True,
                warm_up=kernel_warm_up))

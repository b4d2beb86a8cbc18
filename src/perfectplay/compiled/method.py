"""The compiled kernels as solving methods: ``--engine compiled|python|auto``.

This module imports no numba: it only declares the kernels, and imports one when it runs.

* ``python``: the Python methods, always.
* ``compiled``: the game's kernel, or a clear error when it has none, numba is missing, or
  the request (an algorithm, a depth, node or time limit) is one the kernel does not run.
* ``auto``: the kernel when the game has one that pays for itself, numba imports and the
  request suits it; the Python methods otherwise. Tic-tac-toe's kernel does not pay: Python
  solves the whole game faster than numba compiles a generic engine, so auto keeps Python
  there (``--engine compiled`` still runs it).
"""

from __future__ import annotations

from typing import Any

from perfectplay.compiled import numba_available
from perfectplay.game import Game
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search.results import MoveValue, Solution

CONNECT4_ALGORITHMS = ("auto",)
GENERIC_ALGORITHMS = ("auto", "minimax", "alphabeta", "tt")


def _objection(algorithms: tuple[str, ...], node_limits: bool = False) -> Any:
    """The ``applies`` of a kernel running ``algorithms``; ``node_limits``: it stops at a
    node budget (--nodes), raising LimitReached, as the Connect Four kernel does."""
    def applies(game: Game[Any, Any], request: Request) -> str | None:
        if not numba_available():
            return "numba is not installed (pip install 'perfectplay[fast]')"
        if request.algorithm not in algorithms:
            return (f"the {game.name} kernel runs --algorithm {', '.join(algorithms)}, "
                    f"not {request.algorithm!r}")
        limits = request.limits
        if node_limits and (limits.depth, limits.time) != (None, None):
            return "the kernels solve exactly; --depth and --time need --engine python"
        if not node_limits and request.bounded:
            return "the kernels solve exactly; --depth, --nodes and --time need --engine python"
        return too_big_without_limit(game, request)
    return applies


def _kernel_options(request: Request) -> dict[str, Any]:
    return {"algorithm": request.algorithm, "outcome_only": request.outcome_only,
            "table_size": request.table_size}


# -- Connect Four: its own kernel (perfectplay.compiled.connect4) ---------------------------

def connect4_solve(game: Any, position: Any, request: Request, book: Any = None) -> Solution:
    """The kernel's solve; ``book`` (perfectplay.book's Book, or None) answers what it holds."""
    from perfectplay.compiled.connect4 import solve
    return solve(game, position, pv_limit=request.pv_limit, on_depth=request.on_depth,
                 on_optimal=request.on_optimal, node_limit=request.limits.nodes, book=book,
                 budget=request.budget, **_kernel_options(request))


def connect4_analyze(game: Any, position: Any, request: Request,
                     book: Any = None) -> list[MoveValue]:
    from perfectplay.compiled.connect4 import analyze
    return analyze(game, position, node_limit=request.limits.nodes, book=book,
                   budget=request.budget, **_kernel_options(request))


connect4_applies = _objection(CONNECT4_ALGORITHMS, node_limits=True)

register(Method("connect4-kernel", "Connect Four's bitboard kernel, scored as the test sets are",
                connect4_solve, connect4_analyze, engine="compiled",
                answers=CONNECT4_ALGORITHMS, handles=lambda game: game.name == "connect4",
                applies=connect4_applies,
                preferred=lambda game, request: True, priority=10))


# -- the generic engine over a game's compiled spec (docs/compiled.md) ---------------------

def _has_spec(game: Game[Any, Any]) -> bool:
    return game.name == "tictactoe" or hasattr(game, "compiled_spec")


def _spec(game: Game[Any, Any]) -> Any:
    """The game's own ``compiled_spec()``, or the built-in tic-tac-toe spec."""
    if hasattr(game, "compiled_spec"):
        return game.compiled_spec()
    from perfectplay.compiled.tictactoe import SPEC
    return SPEC


def _generic_solve(game: Any, position: Any, request: Request) -> Solution:
    from perfectplay.compiled.generic import solve
    return solve(game, _spec(game), position, pv_limit=request.pv_limit, **_kernel_options(request))


def _generic_analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.compiled.generic import analyze
    return analyze(game, _spec(game), position, **_kernel_options(request))


register(Method("generic-kernel", "negamax, alpha-beta and a table over a game's @njit functions",
                _generic_solve, _generic_analyze, engine="compiled", answers=GENERIC_ALGORITHMS,
                handles=_has_spec, applies=_objection(GENERIC_ALGORITHMS), priority=20))

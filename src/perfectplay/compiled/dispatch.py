"""Choosing between the compiled and the Python engine: ``--engine compiled|python|auto``.

This module imports no numba: it only decides, and imports a kernel once one is chosen.

* ``python``: perfectplay.search, always.
* ``compiled``: the game's kernel, or a clear error when it has none, numba is missing, or
  the request (an algorithm, a depth, node or time limit) is one the kernel does not run.
* ``auto``: the kernel when the game has one that pays for itself, numba imports and the
  request suits it; the Python engine otherwise. Tic-tac-toe's kernel does not pay: Python
  solves the whole game faster than numba compiles a generic engine, so auto keeps Python
  there (``--engine compiled`` still runs it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from perfectplay.compiled import numba_available
from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game
from perfectplay.search.limits import Limits

ENGINES = ("auto", "compiled", "python")


@dataclass(frozen=True)
class Kernel:
    """What a game's compiled engine runs. ``algorithms`` are the --algorithm names it
    reproduces ('auto' always); ``worth_it`` says whether auto should choose it."""

    algorithms: tuple[str, ...]
    worth_it: bool
    solve: Callable[..., Any]
    analyze: Callable[..., Any]
    # Whether the kernel stops at a node budget (--nodes): it then raises LimitReached.
    node_limits: bool = False


def kernel_for(game: Game[Any, Any]) -> Kernel | None:
    """The compiled engine of ``game``, if any (nothing is imported or compiled here)."""
    if game.name == "connect4":
        return Kernel(("auto",), True, _connect4_solve, _connect4_analyze, node_limits=True)
    if game.name == "tictactoe" or hasattr(game, "compiled_spec"):
        return Kernel(("auto", "minimax", "alphabeta", "tt"), False, _generic_solve, _generic_analyze)
    return None


def choose(game: Game[Any, Any], engine: str, algorithm: str, limits: Limits | None) -> Kernel | None:
    """The kernel to run, or None for the Python engine; raises when ``engine`` is
    'compiled' and the kernel cannot answer this request."""
    if engine not in ENGINES:
        raise UnsupportedSearch(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "python":
        return None
    kernel = kernel_for(game)
    if engine == "auto" and (kernel is None or not kernel.worth_it):
        return None
    problem = _problem(game, kernel, algorithm, limits)
    if engine == "auto":
        return kernel if problem is None else None
    if problem is not None:
        raise UnsupportedSearch(f"--engine compiled: {problem}")
    return kernel


def _problem(game: Game[Any, Any], kernel: Kernel | None, algorithm: str,
             limits: Limits | None) -> str | None:
    if kernel is None:
        return f"{game.name} has no compiled kernel (use --engine python)"
    if not numba_available():
        return "numba is not installed (pip install 'perfectplay[fast]')"
    if algorithm not in kernel.algorithms:
        return (f"the {game.name} kernel runs --algorithm {', '.join(kernel.algorithms)}, "
                f"not {algorithm!r}")
    if limits is not None and (limits.depth, limits.time) != (None, None):
        return "the kernels solve exactly; --depth and --time need --engine python"
    if limits is not None and limits.nodes is not None and not kernel.node_limits:
        return f"the {game.name} kernel takes no --nodes limit (use --engine python)"
    return None


def _connect4_solve(game: Any, position: Any, **options: Any) -> Any:
    from perfectplay.book.lookup import book_for
    from perfectplay.compiled.connect4 import solve
    return solve(game, position, book=book_for(game), **options)


def _connect4_analyze(game: Any, position: Any, **options: Any) -> Any:
    from perfectplay.book.lookup import book_for
    from perfectplay.compiled.connect4 import analyze
    return analyze(game, position, book=book_for(game), **options)


def _generic_solve(game: Any, position: Any, **options: Any) -> Any:
    from perfectplay.compiled.generic import solve
    return solve(game, position, **options)


def _generic_analyze(game: Any, position: Any, **options: Any) -> Any:
    from perfectplay.compiled.generic import analyze
    return analyze(game, position, **options)

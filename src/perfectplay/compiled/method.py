"""The compiled kernels as solving methods: ``--engine compiled|python|auto``.

This module imports no numba: it only declares the kernels, and imports one when it runs.

* ``python``: the Python methods, always.
* ``compiled``: the game's kernel, or a clear error when it has none, numba is missing, or
  the request (an algorithm, a depth limit) is one the kernel does not run. Node and time
  limits are the kernels' own: each polls a stop flag and a node budget as it searches.
* ``auto``: the kernel when the game has one that pays for itself, numba imports and the
  request suits it; the Python methods otherwise. Tic-tac-toe's kernel does not pay: Python
  solves the whole game faster than numba compiles a generic engine, so auto keeps Python
  there (``--engine compiled`` still runs it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from perfectplay.compiled import numba_available
from perfectplay.errors import LimitReached
from perfectplay.game import Game, has_compiled_spec
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search.limits import Budget, OutOfBudget
from perfectplay.search.results import MoveValue, Solution

GENERIC_ALGORITHMS = ("auto", "minimax", "alphabeta", "tt")


def objection(algorithms: tuple[str, ...]) -> Any:
    """The ``applies`` of an exact kernel running ``algorithms``. Every kernel polls a stop
    flag and a node budget, so --nodes and --time are its to obey; only --depth, a horizon
    an exact search has no use for, is refused."""
    def applies(game: Game[Any, Any], request: Request) -> str | None:
        if not numba_available():
            return "numba is not installed (pip install 'perfectplay[fast]')"
        if request.algorithm not in algorithms:
            return (f"the {game.name} kernel runs --algorithm {', '.join(algorithms)}, "
                    f"not {request.algorithm!r}")
        if request.limits.depth is not None:
            return "the kernels solve exactly, to the end: --depth needs --engine python"
        return too_big_without_limit(game, request)
    return applies


def kernel_warm_up(small: Callable[[], Game[Any, Any]],
                   solver: Callable[[Any, Any, Request], Any]) -> Callable[[Game[Any, Any]], None]:
    """A ``Method.warm_up`` that compiles a kernel, or loads it from numba's cache, by solving
    the start of ``small()``, a board of the same game that takes the kernel milliseconds: so
    the first budgeted answer is the search's time, not the compiler's. Nothing without numba."""
    def warm_up(game: Game[Any, Any]) -> None:
        if not numba_available():
            return
        board = small()
        start = board.start()
        solver(board, start, Request(engine="compiled", pv_limit=0, position=start))
    return warm_up


def kernel_budget(request: Request) -> Budget:
    """The budget a kernel polls: the caller's (its stop flag, its deadline), or one made
    from the request's limits."""
    return request.budget or Budget(request.limits)


def kernel_node_limit(request: Request, budget: Budget) -> int | None:
    """The fewest nodes any of the request's limits and the budget allow (None: no limit)."""
    caps = [cap for cap in (request.limits.nodes, budget.node_limit) if cap is not None]
    return min(caps) if caps else None


class KernelRun:
    """One solve or analysis by a game's own kernel: its searcher, the budget, the node cap,
    and the watch that sets the kernel's stop word (``counters[stop_word]``) at the deadline
    or on a stop request. :meth:`answer` turns a search that ran out into LimitReached,
    named after ``method``."""

    method = "kernel"

    def __init__(self, game: Any, searcher: Any, request: Request, stop_word: int) -> None:
        from perfectplay.search.worker import Watch
        self.game = game
        self.searcher = searcher
        self.budget = kernel_budget(request)
        self.node_cap = kernel_node_limit(request, self.budget)
        self.watch = Watch(self.budget, searcher.counters, stop_word)

    def nodes(self) -> int:
        return int(self.searcher.counters[0])

    def answer(self, search: Callable[[], int | None]) -> int:
        """``search()``'s value; LimitReached when the budget ends it or it stops without one."""
        try:
            found = search()
        except OutOfBudget as stop:
            raise self.stopped(str(stop)) from None
        if found is None:
            raise self.stopped(self.watch.reason or "nodes")
        return int(found)

    def stopped(self, reason: str) -> LimitReached:
        return LimitReached(f"{self.method} stopped ({reason}) after {self.nodes():,} nodes "
                            "without an answer")


def kernel_options(request: Request) -> dict[str, Any]:
    return {"algorithm": request.algorithm, "outcome_only": request.outcome_only,
            "table_size": request.table_size}


# -- the generic engine over a game's compiled spec (docs/compiled.md) ---------------------

def _negates_every_ply(game: Game[Any, Any]) -> bool:
    """The generic kernel's games: a compiled spec, and the turn passing after every move
    (its backup negates every child; games with extra turns bring their own kernels)."""
    return has_compiled_spec(game) and not game.properties.extra_turns


def _spec(game: Game[Any, Any]) -> Any:
    return game.compiled_spec()


def _limits(request: Request) -> dict[str, Any]:
    budget = kernel_budget(request)
    return {"budget": budget, "node_limit": kernel_node_limit(request, budget)}


def _generic_solve(game: Any, position: Any, request: Request) -> Solution:
    from perfectplay.compiled.generic import solve
    return solve(game, _spec(game), position, pv_limit=request.pv_limit, **_limits(request),
                 **kernel_options(request))


def _generic_analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.compiled.generic import analyze
    return analyze(game, _spec(game), position, **_limits(request), **kernel_options(request))


register(Method("generic-kernel", "negamax, alpha-beta and a table over a game's @njit functions",
                _generic_solve, _generic_analyze, engine="compiled", answers=GENERIC_ALGORITHMS,
                handles=_negates_every_ply, applies=objection(GENERIC_ALGORITHMS), priority=20))

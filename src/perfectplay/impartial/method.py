"""Sprague-Grundy theory as a solving method: ``--algorithm grundy``.

``auto`` prefers it for impartial sums (perfectplay.impartial.theory.applies) unless a depth,
node or time limit asks for what only a search gives (remoteness). It imports the theory only
when asked: declaring the method must stay cheap for the CLI's start-up.
"""

from __future__ import annotations

from typing import Any

from perfectplay.game import Game
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution

NAME = "grundy"  # the name theory.solve reports as its algorithm
# Before the search family's defaults (priority 50): theory is instant where it applies.
PRIORITY = 10


def _theory_applies(game: Game[Any, Any]) -> bool:
    if not game.properties.impartial:
        return False
    from perfectplay.impartial import theory
    return theory.applies(game)


def _preferred(game: Game[Any, Any], request: Request) -> bool:
    return not request.bounded and _theory_applies(game)


def _objection(game: Game[Any, Any], request: Request) -> str | None:
    """A limit asks for a search; theory would silently ignore it."""
    if request.bounded:
        return ("--algorithm grundy answers by theory, at once and to the end: --depth, --nodes "
                "and --time do not apply (use --algorithm id to search under a limit)")
    return None


def _solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    from perfectplay.impartial import theory
    return theory.solve(game, position, pv_limit=request.pv_limit)


def _analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.impartial import theory
    return theory.analyze(game, position)


register(Method(NAME, "impartial games: XOR of component Grundy values (misère Nim by its rule); "
                "no remoteness", _solve, _analyze, applies=_objection, preferred=_preferred,
                priority=PRIORITY))

"""The method that answers Othello positions a long run proved and stored (games/othello/
proved.py: 6x6's start) at once, ahead of any search, and says how they were proved; it
leads only where the file holds the position, so every other goes on to the kernel."""

from __future__ import annotations

import time
from typing import Any

from perfectplay.finish import line_totals
from perfectplay.games.othello.proved import stored
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution, Stats

NAME = "othello-solved"


def _is_othello(game: Any) -> bool:
    from perfectplay.games.othello.rules import Othello
    return isinstance(game, Othello)


def _leads(game: Any, request: Request) -> bool:
    return (request.algorithm == "auto" and request.position is not None and _is_othello(game)
            and request.limits.mate is None and stored(game, request.position) is not None)


def _solve(game: Any, position: Any, request: Request) -> Solution:
    started = time.perf_counter()
    entry = stored(game, position)
    assert entry is not None  # the method leads only where the file holds the position
    best = [game.parse_cell(text) for text in entry["best"]]
    stats = Stats(elapsed_s=time.perf_counter() - started)
    return Solution.of(game, position, f"{NAME} ({entry['how']})", entry["value"], best, best[:1],
                       stats, score_game=True, totals=line_totals(game, position, [], entry["value"]))


def _analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    """Every move's value where the file holds every move's (the start: its openings are one
    move turned about its symmetries, all optimal)."""
    entry = stored(game, position)
    assert entry is not None
    moves = entry.get("moves", {})
    return sorted((MoveValue(game.parse_cell(text), text, value, True, source=f"stored: {entry['how']}")
                   for text, value in moves.items()), key=lambda move_value: -move_value.value)


register(Method(NAME, "Othello positions solved once by a long run and stored (6x6 from the start)",
                _solve, _analyze, engine="compiled", handles=_is_othello, leads=_leads,
                proves_optimal_moves=False))

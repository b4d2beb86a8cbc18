"""Retrograde analysis as a solving method: ``--algorithm retro``.

``auto`` prefers it for games that declare themselves loopy (the searches refuse those); it
also answers acyclic win/loss/draw games when asked by name. Every position reachable from
the one asked about is valued at once, and the result is kept for the game object (a few
results at most), so ``play``, hints and reviews answer later positions from memory.

The compiled engine (``--engine compiled``) runs retro/kernel.py for loopy games that give
integer states (``compiled_spec``); ``auto`` keeps Python, which solves the built-in loopy
games faster than numba compiles the kernel.

Limits: ``--nodes N`` bounds the positions enumerated, ``--time`` the seconds; ``--depth``
is refused (retrograde analysis has no horizon: it solves exactly or not at all).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from perfectplay import value as V
from perfectplay.errors import LimitReached
from perfectplay.game import Game, Outcome, has_compiled_spec
from perfectplay.methods import Method, Request, register
from perfectplay.search.limits import Budget, OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats

NAME = "retro"
# Before grundy (10) and the search family (50): for a loopy game nothing else can answer.
PRIORITY = 5
CACHED_RESULTS = 4

_CACHE: list[tuple[Game[Any, Any], str, Any]] = []


def _applies(game: Game[Any, Any], request: Request) -> str | None:
    if game.properties.is_score:
        return f"retrograde analysis values win/loss/draw games; {game.name} is a score game"
    if request.limits.depth is not None:
        return "retro solves exactly, with no horizon; --depth applies to search (--algorithm id)"
    return None


def _preferred(game: Game[Any, Any], request: Request) -> bool:
    return game.properties.loopy


def result_for(game: Game[Any, Any], position: Any, request: Request, engine: str) -> Any:
    """The analysis that values ``position``: a kept one that reached it, or a new one."""
    from perfectplay.retro import solve_all
    key = game.key(position)
    for kept_game, kept_engine, result in _CACHE:
        if kept_game is game and kept_engine == engine and result.index_of(key) is not None:
            return result
    budget = request.budget or Budget(request.limits)
    try:
        result = solve_all(game, position, engine=engine, max_positions=request.limits.nodes,
                           poll=budget.poll)
    except OutOfBudget as stop:
        raise LimitReached(f"retro stopped ({stop}) before every position was valued") from None
    _CACHE.insert(0, (game, engine, result))
    del _CACHE[CACHED_RESULTS:]
    return result


def _terminal(game: Game[Any, Any], position: Any) -> int | None:
    """The node value of an ended position, else None."""
    result = game.outcome(position)
    if result is None and not game.moves(position):
        result = Outcome.WIN if game.properties.misere else Outcome.LOSS
    if result is None:
        return None
    return {Outcome.WIN: V.WIN, Outcome.LOSS: -V.WIN, Outcome.DRAW: 0}[result]


def _move_values(game: Game[Any, Any], position: Any, result: Any) -> list[tuple[Any, int]]:
    """(move, value for its player) for every legal move, in the game's order."""
    valued = []
    for move in game.moves(position):
        child = result.value(game.key(game.play(position, move)))
        # The child's node value, one ply further from the end, from the mover's side.
        same_mover = game.properties.extra_turns and game.keeps_turn(position, move)
        valued.append((move, V.move_worth(child, 0, same_mover, False)))
    return valued


def _shown(value: int, outcome_only: bool) -> int:
    return ((value > 0) - (value < 0)) * V.WIN_ONLY if outcome_only else value


def _line(game: Game[Any, Any], position: Any, result: Any, limit: int) -> list[Any]:
    """Optimal moves from ``position`` until the game ends, ``limit`` plies, or a position
    comes back (a drawn line goes round for ever)."""
    line: list[Any] = []
    seen = {game.key(position)}
    while len(line) < limit and _terminal(game, position) is None:
        valued = _move_values(game, position, result)
        best = max(value for _, value in valued)
        move = next(move for move, value in valued if value == best)
        line.append(move)
        position = game.play(position, move)
        if game.key(position) in seen:
            break
        seen.add(game.key(position))
    return line


def _solve_with(engine: str) -> Any:
    def solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
        budget = request.budget or Budget(request.limits)
        request = replace(request, budget=budget)
        result = result_for(game, position, request, engine)
        ended = _terminal(game, position)
        if ended is not None:
            value, optimal, line = ended, [], []
        else:
            valued = _move_values(game, position, result)
            value = max(v for _, v in valued)
            optimal = [move for move, v in valued if v == value]
            line = _line(game, position, result, request.pv_limit)
        stats = Stats(nodes=len(result), elapsed_s=budget.elapsed())
        return Solution.of(game, position, NAME, _shown(value, request.outcome_only), optimal, line,
                           stats, score_game=False, outcome_only=request.outcome_only)
    return solve


def _analyze_with(engine: str) -> Any:
    def analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
        if _terminal(game, position) is not None:
            return []
        result = result_for(game, position, request, engine)
        moves = [MoveValue(move, game.format_move(position, move), _shown(value, request.outcome_only),
                           False, True) for move, value in _move_values(game, position, result)]
        return sorted(moves, key=lambda move: -move.value)
    return analyze


def _compiled_applies(game: Game[Any, Any], request: Request) -> str | None:
    from perfectplay.compiled import numba_available
    if not numba_available():
        return "numba is not installed (pip install 'perfectplay[fast]')"
    if request.algorithm not in ("auto", NAME):
        return f"{game.name} is loopy: the compiled engine runs --algorithm retro, not {request.algorithm!r}"
    return _applies(game, request)


def _loopy_with_states(game: Game[Any, Any]) -> bool:
    return game.properties.loopy and has_compiled_spec(game)


register(Method(NAME, "retrograde analysis from the ended positions back: every reachable "
                "position; loopy games (draws when neither side can force a win)",
                _solve_with("python"), _analyze_with("python"), applies=_applies,
                preferred=_preferred, priority=PRIORITY))
register(Method("retro-kernel", "retrograde analysis compiled by numba, for loopy games with "
                "integer states", _solve_with("compiled"), _analyze_with("compiled"),
                engine="compiled", answers=("auto", NAME), handles=_loopy_with_states,
                applies=_compiled_applies, priority=PRIORITY))

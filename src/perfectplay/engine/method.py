"""The engine as a solving method: ``--algorithm engine`` with ``--depth``, ``--nodes`` or
``--time``. Its answers are estimates unless the search met no depth limit anywhere (then
``exact`` is True and the value is proven), and a Solution says which.

Light imports only at the top: the engine itself (numpy, multiprocessing) loads when the
method runs.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from perfectplay import value as V
from perfectplay.game import Game, Outcome
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.transposition import parse_table_size


@dataclass(frozen=True)
class DepthReport:
    """Progress per completed iteration, in the fields the CLI's progress printer reads."""

    depth: int
    value: int
    nodes: int
    exact: bool


def _objection(game: Game[Any, Any], request: Request) -> str | None:
    if not request.bounded:
        # A loopy game has one exact method: tt would refuse it.
        exact = "retro (retrograde analysis)" if game.properties.loopy else "tt"
        return ("the engine searches to a limit: give --depth, --nodes or --time "
                f"(without one, an exact method such as {exact} solves the position)")
    if request.outcome_only:
        return "the engine's values carry distances and estimates; drop --outcome-only"
    return None


def _limits(request: Request, share: int = 1) -> Any:
    from perfectplay.engine.api import SearchLimits
    limits = request.limits
    seconds = None if limits.time is None else limits.time / share
    nodes = None if limits.nodes is None else max(1, limits.nodes // share)
    return SearchLimits(depth=limits.depth, nodes=nodes, time=seconds)


def _settings(request: Request) -> Any:
    """The default settings with ``--tt-size`` (entries, or bytes at 16 per entry)."""
    from perfectplay.engine.api import Settings
    from perfectplay.engine.transposition import BYTES_PER_ENTRY
    if request.table_size is None:
        return Settings()
    return Settings(tt_size=parse_table_size(request.table_size, BYTES_PER_ENTRY))


def _finished_value(game: Game[Any, Any], position: Any) -> int | None:
    """The value of a finished game for the side to move, or None while it goes on."""
    result = game.outcome(position)
    if result is None and game.moves(position):
        return None
    if result is None:
        if game.properties.is_score:
            return 0
        result = Outcome.WIN if game.properties.misere else Outcome.LOSS
    return {Outcome.WIN: V.WIN, Outcome.DRAW: 0, Outcome.LOSS: -V.WIN}[result]


def solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    from perfectplay.engine.core import Engine
    started = time.perf_counter()
    score_game = game.properties.is_score
    finished = _finished_value(game, position)
    if finished is not None:
        return Solution.of(game, position, "engine", finished, [], [],
                           Stats(nodes=1, elapsed_s=time.perf_counter() - started, depth=0),
                           score_game=score_game)
    on_depth = request.on_depth
    stop = request.budget.stop if request.budget is not None else None
    with Engine(game, _settings(request)) as engine:
        result = engine.search(position, _limits(request), stop=stop, on_info=None if on_depth is None else (
            lambda info: on_depth(DepthReport(info.depth, info.score, info.nodes, False))))
    pv = result.pv[:request.pv_limit]
    stats = Stats(nodes=result.nodes, table_hits=result.table_hits, cutoffs=result.cutoffs,
                  max_ply=result.seldepth, elapsed_s=time.perf_counter() - started, depth=result.depth)
    return Solution.of(game, position, "engine", result.score, [result.best_move], pv, stats,
                       exact=result.exact, score_game=score_game)


def analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    """Every move's value: each child searched in turn with a share of the budget, one table
    shared by all, so later children reuse what earlier ones found."""
    from perfectplay.engine.core import Engine
    if _finished_value(game, position) is not None:
        return []
    moves = list(game.moves(position))
    score_game = game.properties.is_score
    limits = _limits(request, share=len(moves))
    if limits.depth is not None:
        limits = _shallower(limits)
    stop = request.budget.stop if request.budget is not None else None
    valued = []
    reached: list[int] = []
    nodes = 0
    with Engine(game, _settings(request)) as engine:
        for move in moves:
            gain = game.gain(position, move) if score_game else 0
            child = game.play(position, move)
            # The child's values are the opponent's, negated, unless the mover moves again.
            sign = 1 if game.properties.extra_turns and game.keeps_turn(position, move) else -1
            finished = _finished_value(game, child)
            if finished is not None:
                valued.append(MoveValue(move, game.format_move(position, move),
                                        gain + _one_ply_up(sign * finished), score_game, True))
                continue
            if limits is None:  # a depth of 1: the child's own evaluation
                valued.append(MoveValue(move, game.format_move(position, move),
                                        gain + sign * game.evaluate(child), score_game, False))
                continue
            result = engine.search(child, limits, stop=stop)
            valued.append(MoveValue(move, game.format_move(position, move),
                                    gain + _one_ply_up(sign * result.score), score_game,
                                    result.exact))
            reached.append(result.depth + 1)  # plies from this position
            nodes += result.nodes
    best = sorted(valued, key=lambda move_value: -move_value.value)
    if request.on_depth is not None and reached and best:
        # One report: every move was searched at least this deep (what play tells a person).
        request.on_depth(DepthReport(min(reached), best[0].value, nodes, False))
    return best


def _shallower(limits: Any) -> Any:
    """The same limits one ply shorter (the child is searched), or None for depth 1."""
    from perfectplay.engine.api import SearchLimits
    if limits.depth == 1:
        return None
    return SearchLimits(depth=limits.depth - 1, nodes=limits.nodes, time=limits.time)


def _one_ply_up(value: int) -> int:
    """A child value (negated by the caller) read one ply further from the end: a win or loss in p plies
    from the child is one in p + 1 from the parent."""
    if V.is_win(value):
        return value - 1
    if V.is_loss(value):
        return value + 1
    return value


register(Method("engine", "depth-limited engine (PVS, aspiration, killers, history, quiescence, "
                "null move): estimates unless proven", solve, analyze, applies=_objection))

"""The endgame tables as a solving method: chess positions with two kings and one queen, rook
or pawn are answered from the tables, exactly, with the mating line.

It leads (perfectplay.methods.Method.leads) for chess under ``--algorithm auto`` and answers
a position the tables hold at once; any other position is handed to the method the request
would choose without the tables. ``--algorithm tablebase`` asks for the tables only, and a
position they do not hold is then refused with the reason. Values are distances to mate
without the fifty-move rule.

Only light imports here: python-chess, numpy and the files load on first use.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from perfectplay import methods
from perfectplay import value as V
from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution, Stats, line_notation

NAME = "tablebase"
FROM_TABLE = "from the endgame table"


def _is_chess(game: Game[Any, Any]) -> bool:
    # By the class's module, not isinstance: that would import python-chess for any game.
    return type(game).__module__ == "perfectplay.games.chess.rules"


def _leads(game: Game[Any, Any], request: Request) -> bool:
    return request.endgame_tables and request.algorithm in ("auto", NAME) and _is_chess(game)


def _objection(game: Game[Any, Any], request: Request) -> str | None:
    if not _is_chess(game):
        return f"the endgame tables are for chess (KQK, KRK, KPK), not {game.name}"
    return None


def _hand_on(game: Game[Any, Any], position: Any, request: Request) -> Request:
    """The request without the tables, or UnsupportedSearch when only the tables were asked."""
    if request.algorithm == NAME:
        from perfectplay.games.chess.tablebase.probe import why_not
        raise UnsupportedSearch(f"--algorithm {NAME}: {why_not(position.board)}")
    return dataclasses.replace(request, endgame_tables=False)


def table_verdict(value: int) -> str:
    """'mate in 10 (19 plies)', 'mated in 10 (20 plies)' or 'draw' for a value read at the
    root; mates count the winner's moves, the mating move included."""
    if not V.is_decisive(value):
        return "draw" if value == 0 else ("win" if value > 0 else "loss")
    plies = V.remoteness(value)
    if plies == 0:
        return "checkmated"
    moves = (plies + 1) // 2
    return f"mate in {moves} ({plies} plies)" if value > 0 else f"mated in {moves} ({plies} plies)"


def _shown(value: int, outcome_only: bool) -> int:
    return ((value > 0) - (value < 0)) * V.WIN_ONLY if outcome_only else value


def _solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    from perfectplay.games.chess.tablebase import probe
    started = time.perf_counter()
    found = probe.material(position.board)
    if found is None:
        rest = _hand_on(game, position, request)
        return methods.choose(game, rest).solve(game, position, rest)
    if game.outcome(position) is not None:
        # Already drawn by a rule the tables leave out (the fifty-move rule, a repetition).
        return Solution(game=game.name, position=game.format_position(position), algorithm=NAME,
                        value=0, score_game=False, exact=True, best_moves=[], pv=[],
                        stats=Stats(nodes=1, elapsed_s=time.perf_counter() - started),
                        outcome_only=request.outcome_only)
    board = position.board
    value = probe.value(board)
    assert value is not None  # material() found the table
    valued = probe.move_values(board)
    best = [move for move, move_value in valued if move_value == max(v for _, v in valued)]
    line = probe.best_line(board, request.pv_limit)
    nodes = 1 + len(valued)
    return Solution(game=game.name, position=game.format_position(position),
                    algorithm=f"{FROM_TABLE} {found[0]}", value=_shown(value, request.outcome_only),
                    score_game=False, exact=True, best_moves=[move.uci() for move in best],
                    pv=line_notation(game, position, line),
                    stats=Stats(nodes=nodes, elapsed_s=time.perf_counter() - started),
                    outcome_only=request.outcome_only)


def _analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.games.chess.tablebase import probe
    if probe.material(position.board) is None:
        rest = _hand_on(game, position, request)
        return methods.choose(game, rest).analyze(game, position, rest)
    if game.outcome(position) is not None:
        return []  # the game is over (the fifty-move rule, a repetition): no move to value
    moves = [MoveValue(move, move.uci(), _shown(value, request.outcome_only), False, True)
             for move, value in probe.move_values(position.board)]
    return sorted(moves, key=lambda move: -move.value)


register(Method(NAME, "chess endgame tables KQK, KRK, KPK (retrograde analysis; exact distance to "
                "mate, no fifty-move rule)", _solve, _analyze, handles=_is_chess,
                applies=_objection, leads=_leads))

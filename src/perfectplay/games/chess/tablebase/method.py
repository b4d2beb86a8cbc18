"""The endgame tables as a solving method: chess positions with two kings and one queen, rook
or pawn are answered from the tables, exactly, with the mating line; a game the rules have
already ended (insufficient material, the fifty-move rule, a threefold repetition, stalemate,
checkmate) is answered from the rules, exactly, whatever the material.

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
from perfectplay.game import Game, Outcome
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution, Stats

NAME = "tablebase"
FROM_TABLE = "from the endgame table"
BY_THE_RULES = "by the rules"


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


def ended_by_rule(game: Game[Any, Any], position: Any) -> tuple[int, str] | None:
    """(value for the side to move, the rule in words) when the game is already over, else
    None. Insufficient material is python-chess's test: no sequence of legal moves can mate
    (two kings, a lone minor piece, bishops all on one colour), so the draw is exact."""
    board = position.board
    if game.outcome(position) is Outcome.DRAW:
        if position.repetitions() >= 2:
            return V.DRAW, "threefold repetition"
        if board.is_insufficient_material():
            return V.DRAW, "insufficient material, no mate is possible"
        if not position.has_legal_move():
            return V.DRAW, "stalemate"
        return V.DRAW, "the fifty-move rule"
    if not position.has_legal_move():  # no draw and no move: checkmate
        return V.loss_in(0), "checkmate"
    return None


def _by_rule(game: Game[Any, Any], position: Any, request: Request, ended: tuple[int, str],
             started: float) -> Solution:
    value, rule = ended
    return Solution.of(game, position, f"{BY_THE_RULES} ({rule})", _shown(value, request.outcome_only),
                       [], [], Stats(nodes=1, elapsed_s=time.perf_counter() - started),
                       score_game=False, outcome_only=request.outcome_only)


def _solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    from perfectplay.games.chess.tablebase import probe
    started = time.perf_counter()
    found = probe.material(position.board)
    ended = ended_by_rule(game, position)
    if ended is not None and (found is None or ended[0] == V.DRAW):
        # A game the rules have ended (the tables leave out the fifty-move rule and
        # repetitions, and hold no dead draws); a mate in a table is read from the table.
        return _by_rule(game, position, request, ended, started)
    if found is None:
        rest = _hand_on(game, position, request)
        return methods.choose(game, rest).solve(game, position, rest)
    board = position.board
    value = probe.value(board)
    assert value is not None  # material() found the table
    valued = probe.move_values(board)
    best = [move for move, move_value in valued if move_value == max(v for _, v in valued)]
    line = probe.best_line(board, request.pv_limit)
    nodes = 1 + len(valued)
    return Solution.of(game, position, f"{FROM_TABLE} {found[0]}", _shown(value, request.outcome_only),
                       best, line, Stats(nodes=nodes, elapsed_s=time.perf_counter() - started),
                       score_game=False, outcome_only=request.outcome_only)


def _analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.games.chess.tablebase import probe
    if ended_by_rule(game, position) is not None:
        return []  # the game is over (dead draw, the fifty-move rule, ...): no move to value
    if probe.material(position.board) is None:
        rest = _hand_on(game, position, request)
        return methods.choose(game, rest).analyze(game, position, rest)
    moves = [MoveValue(move, move.uci(), _shown(value, request.outcome_only), False, True)
             for move, value in probe.move_values(position.board)]
    return sorted(moves, key=lambda move: -move.value)


register(Method(NAME, "chess endgame tables KQK, KRK, KPK (retrograde analysis; exact distance to "
                "mate, no fifty-move rule), and games the rules have ended (dead draws)", _solve,
                _analyze, handles=_is_chess, applies=_objection, leads=_leads))

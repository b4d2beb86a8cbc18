"""UCI_LimitStrength and UCI_Elo: every setting is its own level, stronger upwards, and the
last ``info`` before ``bestmove`` is the line actually played (through python-chess)."""

from __future__ import annotations

import random

import chess
import chess.engine
from test_chess_uci import COMMAND, MATE_IN_ONE, MIDDLEGAME, Session, bestmoves

from perfectplay.uci import strength

HANGING_QUEEN = "rnb1kbnr/pppp1ppp/8/4p3/3qP3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"  # Nxd4 wins it


def test_every_elo_setting_is_a_level_of_its_own_and_higher_is_stronger() -> None:
    levels = [strength.level_for(elo) for elo in range(strength.LOWEST_ELO, strength.FULL_STRENGTH_ELO + 1)]
    errors = [level.error_cp for level in levels]
    nodes = [level.nodes for level in levels[:-1]]
    # every setting distinct
    assert all(lower > higher for lower, higher in zip(errors, errors[1:], strict=False))
    assert all(lower is not None and higher is not None and lower <= higher
               for lower, higher in zip(nodes, nodes[1:], strict=False))
    assert nodes[0] == strength.NODES_AT_LOWEST and nodes[-1] is not None and nodes[-1] > 50 * nodes[0]
    assert levels[-1].full and levels[-1].error_cp == 0 and not levels[-2].full


def times_played(elo: int, fen: str, move: str, tries: int) -> int:
    session = Session()
    session.uci.rng = random.Random(7)
    session.run("setoption name UCI_LimitStrength value true", f"setoption name UCI_Elo value {elo}")
    played = bestmoves(session.run(*[f"position fen {fen}", "go depth 2"] * tries))
    return played.count(move)


def test_1300_never_misses_a_mate_in_one_and_the_lowest_setting_errs_most() -> None:
    assert times_played(1300, MATE_IN_ONE, "h5f7", 8) == 8
    found = [times_played(elo, HANGING_QUEEN, "f3d4", 16) for elo in (500, 1300, 2000)]
    assert found[0] < found[1] == found[2] == 16, found


def test_the_last_info_is_the_line_played() -> None:
    board = chess.Board(MIDDLEGAME)
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 600})
        for _ in range(6):
            result = engine.play(board, chess.engine.Limit(depth=2), info=chess.engine.INFO_ALL)
            assert result.move in board.legal_moves
            assert result.info["pv"][0] == result.move and "score" in result.info
            board.push(result.move)

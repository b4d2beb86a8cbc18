"""The pawn-structure and file terms of the chess evaluation, each on a position built to
show it alone (from White's side: (middlegame, endgame) centipawns)."""

from __future__ import annotations

import chess

from perfectplay.games.chess import evaluation as chess_eval


def structure(fen: str) -> tuple[int, int]:
    return chess_eval.structure(chess.Board(fen))


def test_a_passed_pawn_is_worth_more_the_further_it_has_gone_and_most_in_the_endgame() -> None:
    # White's b-pawn faces no black pawn on the a, b or c files; Black's h-pawn is blocked
    # by White's h-pawn, so both h-pawns are unpassed and isolated alike.
    on_second = structure("4k3/7p/8/8/8/8/1P5P/4K3 w - - 0 1")
    on_sixth = structure("4k3/7p/1P6/8/8/8/7P/4K3 w - - 0 1")
    assert on_second == (chess_eval.PASSED[0][0] - chess_eval.ISOLATED[0],
                         chess_eval.PASSED[0][1] - chess_eval.ISOLATED[1])
    assert on_sixth[0] > on_second[0] and on_sixth[1] - on_second[1] >= 60
    assert on_sixth[1] > on_sixth[0]  # the endgame values it more


def test_an_enemy_pawn_on_a_neighbouring_file_ahead_stops_a_pawn_being_passed() -> None:
    # White's d4 and Black's e5: neither is passed (each has the other ahead on a
    # neighbouring file), both isolated: the structure is level.
    assert structure("4k3/8/8/4p3/3P4/8/8/4K3 w - - 0 1") == (0, 0)
    # Black's pawn behind White's (e3, itself blocked by e2) no longer stops it: White's d4 is
    # passed (two steps from its start) and Black's e3 is the only isolated pawn (the kings
    # stand away from every pawn, so no shelter counts).
    assert structure("7k/8/8/8/3P4/4p3/4P3/7K w - - 0 1") == (
        chess_eval.PASSED[2][0] + chess_eval.ISOLATED[0], chess_eval.PASSED[2][1] + chess_eval.ISOLATED[1])


def test_doubled_and_isolated_pawns_cost() -> None:
    healthy = structure("4k3/ppp5/8/8/8/8/PPP5/4K3 w - - 0 1")
    doubled = structure("4k3/ppp5/8/8/8/1P6/PP6/4K3 w - - 0 1")  # c-pawn now on b3
    assert healthy == (0, 0)
    assert doubled[0] <= -chess_eval.DOUBLED[0] and doubled[1] <= -chess_eval.DOUBLED[1]
    isolated = structure("4k3/ppp5/8/8/8/8/P1P5/4K3 w - - 0 1")  # b-pawn gone: a and c isolated
    assert isolated[1] < 0


def test_a_rook_likes_an_open_file_and_a_king_its_pawn_shield() -> None:
    # Both sides: pawns a, b, g, h and a rook; White's rook on the open d-file, Black's on
    # the closed a-file.
    open_file = structure("r5k1/pp4pp/8/8/8/8/PP4PP/3R2K1 w - - 0 1")
    assert open_file == (chess_eval.ROOK_OPEN[0], chess_eval.ROOK_OPEN[1])
    # Black's king walked away from its shield (to e8): White gains two shield pawns.
    shield = structure("4k3/6pp/8/8/8/8/6PP/6K1 w - - 0 1")
    assert shield[0] == 2 * chess_eval.SHIELD_PAWN and shield[1] == 0

"""Time as a GUI gives it: the share planned from the clock, the increment and the moves to
go, and kept to, through python-chess's engine API with clocks (the full self-play at 10+0.1
and 2+0.05 is benchmarks/uci_time.py --selfplay)."""

from __future__ import annotations

import time

import chess
import chess.engine
import pytest
from test_chess_uci import COMMAND, MIDDLEGAME

from perfectplay.engine.clock import CLOCK_RESERVE_S, clock_share

MOVE_OVERHEAD_S = 0.01  # the Move Overhead option's default
# What python-chess, the pipes and a busy shared machine add to a move, as a GUI times it.
SLACK_S = 0.1

CLOCKS = [  # (seconds left, increment, moves to go)
    (10.0, 0.1, None), (2.0, 0.05, None), (10.0, 0.1, 20), (300.0, 0.0, None), (60.0, 2.0, 40),
    (1.0, 0.0, 1), (0.3, 0.05, None), (0.05, 0.0, None),
]


@pytest.mark.parametrize("left, increment, to_go", CLOCKS)
def test_no_move_is_planned_over_twice_its_share_nor_below_the_increment(
        left: float, increment: float, to_go: int | None) -> None:
    share, most = clock_share(left, increment, to_go)
    assert 0 < share <= most <= 2 * share + 1e-9
    assert most < left  # the reserve and the rest of the game keep the flag up
    if left >= 20 * increment:  # time in hand: the increment is always spent
        assert share >= increment
    if to_go == 1:  # the last move before the control spends most of the clock
        assert most >= 0.75 * (left - CLOCK_RESERVE_S)


def test_a_clock_with_moves_to_go_splits_it_evenly() -> None:
    share, most = clock_share(10.0, 0.1, 20)
    assert share == pytest.approx(9.98 / 20 + 0.1) and most == pytest.approx(2 * share - 0.03)


@pytest.mark.parametrize("left, increment, to_go", [(10.0, 0.1, None), (2.0, 0.05, None), (10.0, 0.1, 20)])
def test_python_chess_clocks_keep_every_move_within_twice_its_share(
        left: float, increment: float, to_go: int | None) -> None:
    share, _ = clock_share(left - MOVE_OVERHEAD_S, increment, to_go)
    board = chess.Board(MIDDLEGAME)
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        engine.ping()
        took = []
        for _ in range(3):
            started = time.perf_counter()
            result = engine.play(board, chess.engine.Limit(
                white_clock=left, black_clock=left, white_inc=increment, black_inc=increment,
                remaining_moves=to_go), game=board)
            took.append(time.perf_counter() - started)
            board.push(result.move)
    assert max(took) <= 2 * share + SLACK_S, took


def test_the_last_move_before_the_time_control_uses_its_time() -> None:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        engine.ping()
        started = time.perf_counter()
        engine.play(chess.Board(MIDDLEGAME), chess.engine.Limit(white_clock=1.0, black_clock=1.0,
                                                                remaining_moves=1))
        took = time.perf_counter() - started
    assert 0.6 <= took <= 0.95

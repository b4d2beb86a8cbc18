"""`perfectplay uci chess` driven by python-chess's own UCI client, and by hand with bad input."""

from __future__ import annotations

import subprocess
import sys
import time

import chess
import chess.engine
import pytest

COMMAND = [sys.executable, "-m", "perfectplay", "uci", "chess"]
MATE_IN_ONE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


@pytest.fixture(scope="module")
def engine() -> chess.engine.SimpleEngine:
    uci = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60)
    yield uci
    uci.quit()


def talk(lines: list[str], timeout: float = 60) -> list[str]:
    run = subprocess.run(COMMAND, input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=timeout)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run.stdout.splitlines()


def test_python_chess_identifies_the_engine(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "perfectplay"
    assert {"Hash", "Threads"} <= set(engine.options)


def test_the_engine_plays_legal_moves_for_python_chess(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    for _ in range(6):
        played = engine.play(board, chess.engine.Limit(depth=2))
        assert played.move in board.legal_moves
        board.push(played.move)


def test_analysis_reports_depth_score_nodes_and_a_legal_pv(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    info = engine.analyse(board, chess.engine.Limit(depth=3))
    assert info["depth"] == 3 and info["nodes"] > 0 and "nps" in info
    assert info["score"].relative.score() is not None
    line = board.copy()
    for move in info["pv"]:
        assert move in line.legal_moves
        line.push(move)


def test_a_mate_in_one_is_reported_as_mate_1(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board(MATE_IN_ONE)
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("h5f7")


def test_the_engine_takes_the_repetition_history_from_the_moves(engine: chess.engine.SimpleEngine) -> None:
    # Black is a queen down; both sides have shuffled knights, so the first position occurred
    # twice. Black's f6g8 brings it back a third time, a draw by repetition, which the engine
    # knows only from the moves of the position command: it takes the draw (score 0).
    board = chess.Board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    for move in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        board.push_uci(move)
    info = engine.analyse(board, chess.engine.Limit(depth=2))
    assert info["pv"][0] == chess.Move.from_uci("f6g8")
    assert info["score"].relative == chess.engine.Cp(0)


def test_stop_ends_an_infinite_search_with_a_best_move(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    started = time.monotonic()
    with engine.analysis(board) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 2:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves
    assert time.monotonic() - started < 60  # a guard against a hang, not a speed claim


def test_time_controls_are_obeyed_loosely(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    played = engine.play(board, chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.0))
    assert played.move in board.legal_moves
    played = engine.play(board, chess.engine.Limit(time=0.2))
    assert played.move in board.legal_moves


def test_bad_commands_get_an_info_string_and_the_engine_keeps_running() -> None:
    out = talk(["uci", "position startpos moves e2e5", "go depht 3", "go depth x", "frobnicate",
                "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position sideways",
                "setoption name Threads value 0", "position fen moves e2e4",
                "setoption name Hash value 99999", "isready", "quit"])
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 9, out
    assert "'e2e5' is not a legal move" in errors[0]
    assert "'depht'" in errors[1] and "'x'" in errors[2] and "'frobnicate'" in errors[3]
    assert "no white king" in errors[4]
    assert out[-1] == "readyok"


def test_bytes_that_are_not_text_are_a_malformed_command() -> None:
    run = subprocess.run(COMMAND, input=b"\xff\xfe go\nisready\nquit\n", capture_output=True, timeout=60)
    lines = run.stdout.decode().splitlines()
    assert run.returncode == 0 and lines[0].startswith("info string error: unknown command")
    assert lines[-1] == "readyok"


def test_go_before_position_searches_the_start_position() -> None:
    out = talk(["go depth 1", "isready", "quit"])
    best = next(line for line in out if line.startswith("bestmove"))
    assert chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves


def test_an_illegal_move_leaves_the_previous_position() -> None:
    out = talk(["position startpos moves e2e4", "position startpos moves e2e4 e7e4", "go depth 1", "quit"])
    best = next(line for line in out if line.startswith("bestmove"))
    board = chess.Board()
    board.push_uci("e2e4")
    assert chess.Move.from_uci(best.split()[1]) in board.legal_moves  # Black's move


def test_a_new_position_during_an_infinite_search_ends_it_instead_of_waiting_forever() -> None:
    out = talk(["go infinite", "position startpos moves e2e4", "go depth 1", "isready", "quit"])
    bests = [line.split()[1] for line in out if line.startswith("bestmove")]
    assert len(bests) == 2 and "readyok" in out
    board = chess.Board()
    assert chess.Move.from_uci(bests[0]) in board.legal_moves
    board.push_uci("e2e4")
    assert chess.Move.from_uci(bests[1]) in board.legal_moves


def test_a_finished_game_has_no_best_move() -> None:
    out = talk(["position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 2", "quit"])
    assert "bestmove (none)" in out
    assert any("the game is over" in line for line in out)

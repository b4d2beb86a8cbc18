"""The UCI loop always answers, timed through raw exchanges with `perfectplay uci chess` as a
GUI holds them, and through python-chess's engine API: the reader never waits for a
search, a new command ends the search before it (which answers first), every go with a
legal move left names one, and bad moves in ``position`` never leave a stale board."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import chess
import chess.engine
import pytest
from test_chess_uci import COMMAND, MATE_IN_TWO, MIDDLEGAME, Pipe

# A GUI expects readyok at once; a stopped search answers within a few polls.
PROMPT_S = 0.5


@pytest.fixture
def pipe() -> Any:
    opened = Pipe()
    opened.send("uci")
    opened.until("uciok")
    opened.send("isready")
    opened.until("readyok")
    yield opened
    opened.close()


def legal_after(moves: str, fen: str = chess.STARTING_FEN) -> chess.Board:
    board = chess.Board(fen)
    for move in moves.split():
        board.push_uci(move)
    return board


def test_isready_is_answered_at_once_while_go_infinite_runs(pipe: Pipe) -> None:
    pipe.send("position startpos", "go infinite")
    time.sleep(0.3)
    pipe.send("isready")
    _, waited, _ = pipe.until("readyok")
    assert waited < PROMPT_S
    pipe.send("stop")
    best, waited, _ = pipe.until("bestmove")
    assert waited < PROMPT_S and chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves


def test_a_new_position_during_a_deep_search_stops_it_and_it_answers_first(pipe: Pipe) -> None:
    pipe.send("position startpos", "go depth 30")
    time.sleep(0.3)
    pipe.send("position startpos moves e2e4", "isready")
    best, waited, _ = pipe.until("bestmove")
    assert waited < PROMPT_S and chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves
    _, waited, _ = pipe.until("readyok")
    assert waited < PROMPT_S
    pipe.send("go depth 1")
    best, _, _ = pipe.until("bestmove")
    assert chess.Move.from_uci(best.split()[1]) in legal_after("e2e4").legal_moves


@pytest.mark.parametrize("command", ["go", "go btime 5000", "go searchmoves e2e4 d2d4"])
def test_a_go_without_a_limit_for_the_mover_searches_until_stop(pipe: Pipe, command: str) -> None:
    pipe.send("position startpos", command)
    assert pipe.silent_for("bestmove", 1.0)
    pipe.send("stop")
    best, waited, _ = pipe.until("bestmove")
    assert waited < PROMPT_S and chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves


def test_a_bare_go_then_another_go_stop_and_quit_ends_the_process() -> None:
    process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    started = time.perf_counter()
    out, _ = process.communicate("uci\nisready\ngo\ngo depth 1\nstop\nquit\n", timeout=30)
    assert process.returncode == 0
    assert len([line for line in out.splitlines() if line.startswith("bestmove")]) == 2
    assert time.perf_counter() - started < 15  # start-up and two stopped searches, not for ever


def test_setoption_threads_without_isready_keeps_moves_on_time(pipe: Pipe) -> None:
    """python-chess's configure() sends no isready: the helper process must not hang."""
    pipe.send("setoption name Threads value 2")
    for moves in ("", "e2e4"):
        pipe.send(f"position startpos moves {moves}", "go movetime 300")
        best, waited, _ = pipe.until("bestmove")
        assert waited < 1.5 and chess.Move.from_uci(best.split()[1]) in legal_after(moves).legal_moves


@pytest.mark.parametrize("fen, moves", [
    (chess.STARTING_FEN, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"),  # a claimable threefold
    ("8/8/4k3/8/8/3RK3/8/8 w - - 100 90", ""),  # the fifty-move clock at 100
    ("8/8/4k3/8/8/4K3/8/8 w - - 0 1", ""),  # bare kings
    ("8/8/4k3/8/8/3BK3/8/8 w - - 0 1", ""),  # king and bishop against king
    ("8/8/4k3/8/8/3NK3/8/8 b - - 0 1", ""),  # king and knight against king
])
def test_a_move_is_played_where_the_rules_draw_but_moves_remain(fen: str, moves: str) -> None:
    board = legal_after(moves, fen)
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves


def test_the_null_move_in_position_is_refused_and_the_moves_before_it_are_used(pipe: Pipe) -> None:
    pipe.send("position startpos moves e2e4 0000 d2d4", "go depth 2")
    best, _, before = pipe.until("bestmove")
    assert any(line.startswith("info string error") and "'0000'" in line for line in before)
    assert chess.Move.from_uci(best.split()[1]) in legal_after("e2e4").legal_moves  # Black to move


def test_solve_refuses_the_null_move_in_one_line() -> None:
    run = subprocess.run([*COMMAND[:-2], "solve", "chess", "startpos moves e2e4 0000"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "'0000' is not a legal move" in run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_an_illegal_move_gives_the_position_before_it_not_the_last_game(pipe: Pipe) -> None:
    pipe.send("position startpos moves e2e4", "position startpos moves d2d4 d7d5 e1e5", "go depth 2")
    best, _, before = pipe.until("bestmove")
    assert any("'e1e5' is illegal" in line and "2 moves before it" in line for line in before)
    assert chess.Move.from_uci(best.split()[1]) in legal_after("d2d4 d7d5").legal_moves  # White


def test_a_negative_depth_is_an_error_and_still_answers(pipe: Pipe) -> None:
    pipe.send("position startpos", "go depth -3")
    best, _, before = pipe.until("bestmove")
    assert any("go depth -3: a depth cannot be negative" in line for line in before)
    assert chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves


def test_python_chess_empty_root_moves_search_every_move() -> None:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        result = engine.play(chess.Board(), chess.engine.Limit(depth=2), root_moves=[])
    assert result.move in chess.Board().legal_moves


def test_a_mate_score_comes_with_its_line_to_the_mate() -> None:
    """At depth 4 the table's PV stopped after the first move: 'score mate 2 ... pv d5f6'."""
    board = chess.Board(MATE_IN_TWO)
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert info["score"].relative == chess.engine.Mate(2)
    for move in info["pv"]:
        board.push(move)
    assert len(info["pv"]) == 3 and board.is_checkmate()


def test_a_root_the_syzygy_tables_settle_reports_the_depth_searched(pipe: Pipe) -> None:
    """Every kept move a pawn move, each child in the tables: iterations cost nothing and
    once ran to 'info depth 100 seldepth 1'."""
    tables = Path(__file__).parent / "data" / "syzygy"
    pipe.send(f"setoption name SyzygyPath value {tables}", "position fen 8/8/8/4k3/8/8/2PP4/4K3 w - - 0 1",
              "go movetime 2000")
    best, _, before = pipe.until("bestmove")
    depths = [int(line.split()[2]) for line in before if line.startswith("info depth")]
    assert depths and max(depths) <= 2 and best.split()[1] in ("c2c3", "c2c4", "d2d3", "d2d4")


@pytest.mark.parametrize("fen", [chess.STARTING_FEN, MIDDLEGAME])
def test_multipv_lines_cut_by_the_limit_hold_each_move_once_deepest_first(fen: str) -> None:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        for nodes in (400, 900, 1500, 2500, 4000, 6000):
            infos = engine.analyse(chess.Board(fen), chess.engine.Limit(nodes=nodes), multipv=3)
            moves = [info["pv"][0] for info in infos]
            depths = [info["depth"] for info in infos]
            scores = [info["score"].relative.score(mate_score=100_000) for info in infos]
            assert len(set(moves)) == 3, (nodes, infos)
            assert depths == sorted(depths, reverse=True), (nodes, infos)
            same_depth = [k for k in range(2) if depths[k] == depths[k + 1]]
            assert all(scores[k] >= scores[k + 1] for k in same_depth), (nodes, infos)


def test_a_refused_fen_leaves_no_position_to_search_not_the_last_game(pipe: Pipe) -> None:
    pipe.send("position startpos moves e2e4", "position fen nonsense w - - 0 1", "go depth 1")
    best, _, before = pipe.until("bestmove")
    assert best == "bestmove (none)"
    assert any("the last position command was refused" in line for line in before)
    pipe.send("position startpos", "go depth 1")
    best, _, _ = pipe.until("bestmove")
    assert chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves

"""Real Syzygy files (tests/data/syzygy: KQvK, KRvK, KPvK, KPPvK, KQPvK, KQQvK, KQRvK) read
as a user's SyzygyPath reads them: the engine's own endgame tables agree with them, the UCI
engine converts a won ending it could not search to the end, and a damaged file is said once
and searched around."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import chess.syzygy
import pytest

from perfectplay import value as V
from perfectplay.games.chess.tablebase import probe as own_tables

TABLES = Path(__file__).parent / "data" / "syzygy"
COMMAND = [sys.executable, "-m", "perfectplay", "uci", "chess"]
# White wins with two pawns against the bare king; far from the end for a depth-limited search.
KPPK_WON = "8/8/8/8/8/1k6/3PP3/4K3 w - - 0 1"


@pytest.fixture(scope="module")
def tablebase() -> chess.syzygy.Tablebase:
    tables = chess.syzygy.open_tablebase(str(TABLES))
    yield tables
    tables.close()


def random_positions(attackers: list[chess.PieceType], count: int, seed: int) -> list[chess.Board]:
    """``count`` legal positions: both kings, White's ``attackers``, either side to move."""
    rng = random.Random(seed)
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(attackers))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square, piece in zip(squares[2:], attackers, strict=False):
            board.set_piece_at(square, chess.Piece(piece, chess.WHITE))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid():
            boards.append(board)
    return boards


@pytest.mark.parametrize("ending, attackers", [("KQK", [chess.QUEEN]), ("KRK", [chess.ROOK]),
                                                ("KPK", [chess.PAWN])])
def test_own_tables_agree_with_the_syzygy_files(tablebase: chess.syzygy.Tablebase, ending: str,
                                                attackers: list[chess.PieceType]) -> None:
    # Two independent retrograde analyses: ours (mate distances) and de Man's (WDL and DTZ).
    wins = 0
    for board in random_positions(attackers, 300, seed=len(ending) + attackers[0]):
        value = own_tables.value(board)
        assert value is not None, board.fen()
        wdl = tablebase.probe_wdl(board)
        assert (value > 0) - (value < 0) == (wdl > 0) - (wdl < 0), board.fen()
        wins += value != 0
        if value and not board.pawns:
            # Without pawns the winner's only zeroing move is the mate, so DTZ is the mate
            # distance; a side already mated has DTZ -1 in python-chess, distance 0 here.
            dtz = tablebase.probe_dtz(board)
            assert abs(dtz) == (V.remoteness(value) or 1) and (dtz > 0) == (value > 0), board.fen()
    assert wins > 100  # the sample is not all draws


def test_the_engine_converts_a_won_ending_with_tables_found_by_a_relative_path(
        tablebase: chess.syzygy.Tablebase) -> None:
    # The engine starts in tests/data and is told "syzygy": a path relative to where it runs.
    board = chess.Board(KPPK_WON)
    mate_by: int | None = None  # the ply by which a mate the engine announced must be given
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60, cwd=str(TABLES.parent)) as engine:
        engine.configure({"SyzygyPath": "syzygy"})
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["tbhits"] > 0 and info["score"].relative.score() is not None
        assert info["score"].relative.score() >= 20_000  # the tables' win, beyond any evaluation
        while not board.is_game_over() and board.ply() < 200:
            if board.turn == chess.WHITE:
                played = engine.play(board, chess.engine.Limit(time=0.05), info=chess.engine.INFO_SCORE)
                move = played.move
                assert move is not None
                child = board.copy()
                child.push(move)
                # Every promotion wins here; the engine takes the queen unless a lesser piece
                # mates as soon (d7-d8=R mate in 2 once led it into KQRvK).
                if move.promotion not in (None, chess.QUEEN):
                    score = played.info["score"].relative
                    assert score.is_mate() and score.mate() > 0, f"{board.fen()}: {move} underpromotes"
                    mate_by = min(mate_by or 10**6, board.ply() + 2 * score.mate() - 1)
                if child.is_checkmate() or mate_by is not None:
                    pass  # a mate needs no probe; an announced one is checked below
                else:
                    assert tablebase.probe_wdl(child) == -2, f"{board.fen()}: {move} lets the win go"
            else:  # the longest resistance the tables know
                def resistance(move: chess.Move) -> int:
                    child = board.copy()
                    child.push(move)
                    if child.is_checkmate():
                        return 1000
                    try:
                        return tablebase.probe_dtz(child)
                    except chess.syzygy.MissingTableError:  # past an underpromotion
                        return 0
                move = max(board.legal_moves, key=resistance)
            board.push(move)
            assert board.halfmove_clock < 100, "the fifty-move rule would draw it"
            assert mate_by is None or board.ply() <= mate_by or board.is_checkmate(), board.fen()
    assert board.is_checkmate() and board.turn == chess.BLACK, board.fen()


def test_a_damaged_real_file_is_said_once_and_the_engine_still_moves(tmp_path: Path) -> None:
    for table in TABLES.glob("*.rtb?"):
        (tmp_path / table.name).write_bytes(table.read_bytes())
    damaged = tmp_path / "KPPvK.rtbw"
    data = bytearray(damaged.read_bytes())
    for offset in range(2000, len(data), 7):  # the compressed data, past the header
        data[offset] ^= 0x5A
    damaged.write_bytes(bytes(data))
    position = f"position fen {KPPK_WON}"
    run = subprocess.run(COMMAND, input="\n".join([f"setoption name SyzygyPath value {tmp_path}",
                                                   position, "go depth 3", position, "go depth 3",
                                                   "quit"]) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    lines = run.stdout.splitlines()
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "a Syzygy table could not be read (IndexError" in errors[0], errors
    played = [line.split()[1] for line in lines if line.startswith("bestmove")]
    board = chess.Board(KPPK_WON)
    assert len(played) == 2 and all(chess.Move.from_uci(move) in board.legal_moves for move in played)

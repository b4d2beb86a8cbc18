"""`perfectplay uci chess` driven by python-chess's own UCI client (every command and option
of the protocol), by hand through a pipe (timing: infinite, ponder, stop) and in process
(what the session does with options and tables), with bad input throughout."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import chess
import chess.engine
import pytest

from perfectplay import value as V
from perfectplay.engine import SearchLimits
from perfectplay.games.chess.rules import Chess, position_from_board
from perfectplay.games.chess.syzygy import TB_WIN, SyzygyTables
from perfectplay.games.chess.tablebase import probe as own_tables
from perfectplay.uci import protocol
from perfectplay.uci.go import UciError, parse_go
from perfectplay.uci.protocol import UciSession

COMMAND = [sys.executable, "-m", "perfectplay", "uci", "chess"]
MATE_IN_ONE = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
MATE_IN_TWO = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
KQK = "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"
DRAWN_KPK = "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1"
MIDDLEGAME = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


@pytest.fixture(scope="module")
def engine() -> chess.engine.SimpleEngine:
    uci = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60)
    yield uci
    uci.quit()


def talk(lines: list[str], timeout: float = 60) -> list[str]:
    """Send the lines as a GUI does, waiting for a bounded go's bestmove before the next line
    (a command during a search stops it); the whole output once the process has ended."""
    process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, bufsize=1)
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    heard: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [heard.put(line.rstrip("\n")) for line in process.stdout],
                              daemon=True)
    reader.start()
    out: list[str] = []
    searches = answered = 0
    for line in lines:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        words = line.split()
        if words[:1] != ["go"]:
            continue
        searches += 1
        while "infinite" not in words and "ponder" not in words and answered < searches:
            out.append(heard.get(timeout=timeout))
            answered += out[-1].startswith("bestmove")
    process.stdin.close()
    assert process.wait(timeout=timeout) == 0, process.stderr.read()
    reader.join(timeout)
    while not heard.empty():
        out.append(heard.get())
    assert "Traceback" not in process.stderr.read()
    return out


class Pipe:
    """``perfectplay uci chess`` on a pipe, its lines read by a thread as they come."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix: str, seconds: float = 30) -> tuple[str, float, list[str]]:
        """The first line starting with ``prefix``, the seconds it took, and the lines before."""
        started, seen = time.perf_counter(), []
        while True:
            line = self.lines.get(timeout=max(seconds - (time.perf_counter() - started), 0.001))
            if line.startswith(prefix):
                return line, time.perf_counter() - started, seen
            seen.append(line)

    def silent_for(self, prefix: str, seconds: float) -> bool:
        """Whether no line starting with ``prefix`` comes within ``seconds``."""
        try:
            self.until(prefix, seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        if self.process.poll() is None:  # still running (a test may have ended it)
            self.send("quit")
            assert self.process.wait(timeout=30) == 0
        assert self.process.stderr is not None and "Traceback" not in self.process.stderr.read()


@pytest.fixture
def pipe() -> Any:
    opened = Pipe()
    opened.send("uci")
    opened.until("uciok")
    yield opened
    opened.close()


class Session:
    """A UciSession in this process, its lines collected."""

    def __init__(self, game: Any = None) -> None:
        self.lines: list[str] = []
        self.uci = UciSession(game or Chess(), self.lines.append)

    def run(self, *commands: str) -> list[str]:
        """Send the commands, wait for any search to answer, and return the new lines."""
        start = len(self.lines)
        for command in commands:
            self.uci.handle(command)
            if command.startswith("go") and "infinite" not in command and "ponder" not in command:
                self.uci.finish_search(stop=False)  # a bounded go answers before the next command
        self.uci.finish_search(stop=False)
        return self.lines[start:]


def bestmoves(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if line.startswith("bestmove")]


def test_python_chess_identifies_the_engine(engine: chess.engine.SimpleEngine) -> None:
    assert engine.id["name"] == "perfectplay"
    kinds = {name: option.type for name, option in engine.options.items()}
    assert kinds == {"Hash": "spin", "Threads": "spin", "MultiPV": "spin", "Clear Hash": "button",
                     "Move Overhead": "spin", "Ponder": "check", "UCI_Chess960": "check",
                     "SyzygyPath": "string", "UCI_LimitStrength": "check", "UCI_Elo": "spin"}
    assert engine.options["SyzygyPath"].default == "<empty>" and engine.options["MultiPV"].max == 256


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
    # A malformed go still ends in a bestmove (a depth-1 search), so no GUI waits for ever.
    assert "searching depth 1 instead" in errors[1] and len(bestmoves(out)) == 2


def test_bytes_that_are_not_text_are_a_malformed_command() -> None:
    run = subprocess.run(COMMAND, input=b"\xff\xfe go\nisready\nquit\n", capture_output=True, timeout=60)
    lines = run.stdout.decode().splitlines()
    assert run.returncode == 0 and lines[0].startswith("info string error: unknown command")
    assert lines[-1] == "readyok"


def test_go_before_position_searches_the_start_position() -> None:
    out = talk(["go depth 1", "isready", "quit"])
    best = next(line for line in out if line.startswith("bestmove"))
    assert chess.Move.from_uci(best.split()[1]) in chess.Board().legal_moves


def test_an_illegal_move_keeps_the_moves_before_it() -> None:
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


# -- go in every form: each ends in exactly one bestmove -------------------------------------
def test_go_mate_plays_the_proved_mate(engine: chess.engine.SimpleEngine) -> None:
    # It used to be refused with an info string and no bestmove: python-chess waited for ever.
    board = chess.Board(MATE_IN_TWO)
    started = time.perf_counter()
    played = engine.play(board, chess.engine.Limit(mate=2, time=5), info=chess.engine.INFO_ALL)
    assert played.move == chess.Move.from_uci("d5f6")
    assert played.info["score"].relative == chess.engine.Mate(2)
    assert time.perf_counter() - started < 5  # proved, not timed out


def test_go_mate_without_a_mate_says_so_and_still_moves() -> None:
    out = talk(["position startpos", "go mate 1 movetime 200", "position startpos", "go mate 1", "quit"])
    assert out.count("info string no mate within 1 moves (proved)") == 2
    assert len(bestmoves(out)) == 2
    assert all(chess.Move.from_uci(move) in chess.Board().legal_moves for move in bestmoves(out))


def test_go_depth_0_and_go_searchmoves_answer(engine: chess.engine.SimpleEngine) -> None:
    board = chess.Board()
    assert engine.play(board, chess.engine.Limit(depth=0)).move in board.legal_moves
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h3")]
    played = engine.play(board, chess.engine.Limit(depth=2), root_moves=allowed)
    assert played.move in allowed
    info = engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=2),
                          root_moves=[chess.Move.from_uci("a2a3")])
    assert info["pv"][0] == chess.Move.from_uci("a2a3")  # the mate is not among them


def test_every_go_form_ends_in_exactly_one_bestmove() -> None:
    forms = ["go wtime 2000 btime 2000 winc 20 binc 20 movestogo 10", "go wtime 500 btime 500",
             "go wtime -50 btime 1000", "go btime 1000 wtime 1000 binc 0 winc 0", "go nodes 300",
             "go depth 2", "go depth 0", "go movetime 50", "go movetime 0", "go mate 1 movetime 100",
             "go searchmoves e2e4 d2d4 depth 2", "go depth 1 searchmoves g1f3", "go searchmoves e2e5",
             "go movestogo 0 wtime 300 btime 300", "go nodes 0"]
    out = talk(["position startpos", *forms, "isready", "quit"])
    assert len(bestmoves(out)) == len(forms), out
    assert all(chess.Move.from_uci(move) in chess.Board().legal_moves for move in bestmoves(out))
    assert bestmoves(out)[10] in ("e2e4", "d2d4") and bestmoves(out)[11] == "g1f3"
    assert any("'e2e5' is not a legal move" in line for line in out)


@pytest.mark.parametrize("fen", [KQK, MATE_IN_ONE, DRAWN_KPK])
def test_go_infinite_waits_for_stop_even_when_the_answer_is_known(pipe: Pipe, fen: str) -> None:
    # A table position, a mate in one and a dead-drawn KPK used to end by themselves.
    pipe.send(f"position fen {fen}", "go infinite")
    assert pipe.silent_for("bestmove", 0.8)
    pipe.send("stop")
    line, seconds, _ = pipe.until("bestmove", 5)
    assert chess.Move.from_uci(line.split()[1]) in chess.Board(fen).legal_moves
    assert seconds < 2.0  # prompt; generous for a loaded machine


def test_stop_answers_a_long_search_promptly(pipe: Pipe) -> None:
    pipe.send("position startpos", "go movetime 60000")
    time.sleep(0.5)
    pipe.send("stop")
    line, seconds, before = pipe.until("bestmove", 10)
    assert seconds < 1.0 and chess.Move.from_uci(line.split()[1]) in chess.Board().legal_moves
    assert any(" pv " in info for info in before)


def test_movetime_is_used_in_full(engine: chess.engine.SimpleEngine) -> None:
    # A 1 s analysis used to return after about 0.5 s; play and analyse alike.
    board = chess.Board(MIDDLEGAME)
    for limit in (0.15, 0.4):
        started = time.perf_counter()
        engine.play(board, chess.engine.Limit(time=limit), game=object())
        assert time.perf_counter() - started >= 0.9 * limit
    started = time.perf_counter()
    engine.analyse(board, chess.engine.Limit(time=0.3))
    assert time.perf_counter() - started >= 0.27


def test_ponder_waits_for_ponderhit_then_uses_its_time(pipe: Pipe) -> None:
    pipe.send("setoption name Ponder value true", "position startpos moves e2e4 e7e5",
              "go ponder movetime 300")
    assert pipe.silent_for("bestmove", 0.8)  # pondering: no time limit yet
    pipe.send("ponderhit")
    line, seconds, _ = pipe.until("bestmove", 10)
    assert 0.25 <= seconds < 2.0  # the 300 ms count from ponderhit
    board = chess.Board()
    board.push_uci("e2e4")
    board.push_uci("e7e5")
    assert chess.Move.from_uci(line.split()[1]) in board.legal_moves
    pipe.send("position startpos moves e2e4", "go ponder depth 1")  # ends early, still waits
    assert pipe.silent_for("bestmove", 0.5)
    pipe.send("stop")
    assert pipe.until("bestmove", 5)[1] < 1.0


def test_python_chess_ponders_and_hits(engine: chess.engine.SimpleEngine) -> None:
    board, game = chess.Board(), object()
    for _ in range(3):
        played = engine.play(board, chess.engine.Limit(time=0.1), ponder=True, game=game)
        assert played.move in board.legal_moves
        board.push(played.move)
        if played.ponder is None:
            break
        assert played.ponder in board.legal_moves
        board.push(played.ponder)  # the expected reply: python-chess sends ponderhit
    engine.play(board, chess.engine.Limit(time=0.05), game=game)  # stops the last ponder


# -- options --------------------------------------------------------------------------------
def test_multipv_lines_come_best_first(engine: chess.engine.SimpleEngine) -> None:
    infos = engine.analyse(chess.Board(MIDDLEGAME), chess.engine.Limit(depth=3), multipv=3)
    assert [info["multipv"] for info in infos] == [1, 2, 3]
    assert len({info["pv"][0] for info in infos}) == 3
    scores = [info["score"].relative.score(mate_score=100_000) for info in infos]
    assert scores == sorted(scores, reverse=True)
    mate = engine.analyse(chess.Board(MATE_IN_ONE), chess.engine.Limit(depth=2), multipv=2)
    assert mate[0]["score"].relative == chess.engine.Mate(1) and mate[1]["multipv"] == 2


def test_info_lines_carry_every_field(engine: chess.engine.SimpleEngine) -> None:
    info = engine.analyse(chess.Board(MIDDLEGAME), chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    for field in ("depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "tbhits", "time",
                  "pv"):
        assert field in info, field
    assert 0 <= info["hashfull"] <= 1000 and info["tbhits"] == 0
    table = engine.analyse(chess.Board(KQK), chess.engine.Limit(depth=2))
    assert table["tbhits"] > 0 and table["score"].relative.is_mate()


def test_currmove_is_reported_during_long_searches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "CURRMOVE_AFTER_S", 0.0)
    out = Session().run("position startpos", "go depth 2")
    moves = [line.split() for line in out if " currmove " in line]
    assert moves and all(words[5] == "currmovenumber" for words in moves)
    assert {int(words[6]) for words in moves} == set(range(1, 21))  # every root move, numbered
    monkeypatch.undo()
    quiet = Session().run("position startpos", "go depth 2")
    assert not any(" currmove " in line for line in quiet)  # a short search says nothing of it


def test_a_lower_bound_is_marked_lowerbound() -> None:
    session = Session()
    session.uci.current = protocol.Search(parse_go(["depth", "1"]), session.uci.position, None, 0.0)
    session.uci._info(session.uci.current, protocol.Info(3, 5, 42, 100, 1000, 0.1, bound="lower"))
    session.uci._info(session.uci.current, protocol.Info(3, 5, -7, 100, 1000, 0.1, bound="upper"))
    assert " score cp 42 lowerbound " in session.lines[0] and " score cp -7 upperbound " in session.lines[1]


def test_clear_hash_empties_the_table() -> None:
    session = Session()
    session.run("setoption name Hash value 1", "position fen " + MIDDLEGAME, "go depth 4")
    assert session.uci.engine.table.array.any()
    assert session.lines[-2].split(" hashfull ")[1].split()[0] != "0"  # 1 MB: filled enough to show
    session.run("setoption name Clear Hash")
    assert not session.uci.engine.table.array.any() and session.uci.options["Hash"] == 1


def test_move_overhead_is_taken_from_the_clocks_only() -> None:
    go = parse_go(["wtime", "1000", "btime", "2000", "winc", "100", "movetime", "500"], overhead_s=0.05)
    assert (go.limits.wtime, go.limits.btime, go.limits.winc, go.limits.time) == (0.95, 1.95, 0.1, 0.5)
    assert parse_go(["wtime", "30"], overhead_s=0.05).limits.wtime == 0.0
    session = Session()
    session.run("setoption name Move Overhead value 250")
    assert session.uci.options["Move Overhead"] == 250
    out = session.run("setoption name Move Overhead value -1")
    assert "must be 0 to 5000" in out[0] and session.uci.options["Move Overhead"] == 250


def test_every_go_word_is_read() -> None:
    go = parse_go(["searchmoves", "e2e4", "d2d4", "ponder", "wtime", "1", "btime", "2", "winc", "3",
                   "binc", "4", "movestogo", "5", "depth", "6", "nodes", "7", "mate", "8", "movetime",
                   "9", "infinite"])
    assert go.searchmoves == ("e2e4", "d2d4") and go.ponder and go.infinite and go.mate == 8
    assert go.limits == SearchLimits(depth=6, nodes=7, time=0.009, wtime=0.001, btime=0.002, winc=0.003,
                                     binc=0.004, movestogo=5, infinite=True, mate=8)
    for bad, says in (("mate 0", "mate 0"), ("searchmoves", "at least one move"), ("depth", "must follow"),
                      ("movetime 1.5", "'1.5'"), ("sideways", "'sideways'")):
        with pytest.raises(UciError, match=says):
            parse_go(bad.split())


def test_a_go_builds_the_one_limits_the_engine_clock_reads() -> None:
    from perfectplay.engine.clock import budget
    from perfectplay.search.limits import Limits
    go = parse_go(["wtime", "60000", "btime", "1000", "movestogo", "10"])
    assert isinstance(go.limits, Limits) and go.limits.mate is None
    # The share is the clock (less a 20 ms reserve) over the moves to go; at most twice that
    # less 30 ms for the reply.
    assert budget(go.limits, 0) == pytest.approx((5.998, 11.966))
    assert budget(go.limits, 1) == pytest.approx((0.098, 0.166))
    with pytest.raises(UciError, match=r"go mate -2: mate must be at least 1 \(got -2\)"):
        parse_go(["mate", "-2"])


def test_chess960_castling_is_king_takes_rook(engine: chess.engine.SimpleEngine) -> None:
    castles = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"
    standard = talk([castles, "go depth 1 searchmoves e1g1", "quit"])
    assert bestmoves(standard) == ["e1g1"]
    out = talk(["setoption name UCI_Chess960 value true", castles, "go depth 1 searchmoves e1h1",
                f"{castles} e1h1", "go depth 1", castles, "go depth 1 searchmoves e1g1", "quit"])
    assert len(bestmoves(out)) == 3 and bestmoves(out)[0] == "e1h1"
    errors = [line for line in out if "error" in line]
    assert len(errors) == 1 and "'e1g1' is not a legal move" in errors[0]  # in Chess960, e1g1 is a king step
    board = chess.Board.from_chess960_pos(100)  # qbbnrnkr: the king and rooks off their squares
    for _ in range(16):
        played = engine.play(board, chess.engine.Limit(depth=1), game="960")
        assert played.move in board.legal_moves
        board.push(played.move)
    assert board.chess960


def test_chess960_keys_and_evaluation_follow_castling_either_way() -> None:
    # The incremental Polyglot key and evaluation sums once assumed e1g1-style castling: on a
    # Chess960 board (king onto its rook) both went wrong, and so would repetitions.
    from perfectplay.games.chess import evaluation as chess_eval
    game, rng, castled = Chess(), random.Random(5), 0
    for number in range(0, 960, 80):
        board = chess.Board.from_chess960_pos(number)
        board.chess960 = True
        position = position_from_board(board)
        position.sums = chess_eval.tapered_sums(position.board)
        for _ in range(80):
            moves = game.moves(position)
            if not moves or game.outcome(position) is not None:
                break
            castling = [move for move in moves if position.board.is_castling(move)]
            move = rng.choice(castling or moves)
            castled += bool(castling)
            position = game.play(position, move)
            assert position.key == chess.polyglot.zobrist_hash(position.board), position.board.fen()
            assert position.sums == chess_eval.tapered_sums(position.board), position.board.fen()
    assert castled >= 4


def test_a_bad_chess960_fen_is_one_line() -> None:
    out = talk(["setoption name UCI_Chess960 value true", "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                "position fen nonsense", "isready", "quit"])
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 2 and "illegal Chess960 FEN" in errors[0] and "no white king" in errors[0]


def test_limit_strength_blunders_at_the_lowest_elo_only() -> None:
    hanging_queen = "rnb1kbnr/pppp1ppp/8/4p3/3qP3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 1"  # Nxd4 wins it
    board = chess.Board(hanging_queen)
    capture = next(move for move in board.legal_moves if board.piece_at(move.to_square) == chess.Piece(
        chess.QUEEN, chess.BLACK))
    session = Session()
    session.uci.rng = random.Random(3)
    full = bestmoves(session.run(*[f"position fen {hanging_queen}", "go depth 1"] * 8))
    session.run("setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 500")
    weak = bestmoves(session.run(*[f"position fen {hanging_queen}", "go depth 1"] * 12))
    assert set(full) == {capture.uci()}
    assert sum(move != capture.uci() for move in weak) >= 2  # an error of 400 cp: queens go
    assert all(chess.Move.from_uci(move) in board.legal_moves for move in weak)


# -- Syzygy tables ---------------------------------------------------------------------------
class OwnTablesAsSyzygy:
    """A stand-in for ``chess.syzygy.Tablebase`` over perfectplay's own KQK and KRK tables
    (real Syzygy files are not on the test machine): WDL from the value's sign, and DTZ as
    plies to mate, which it is there (no pawns; the winner's only zeroing move is the mate,
    and a capture by the defender ends the table in a draw)."""

    def __init__(self) -> None:
        self.probes = 0

    def _value(self, board: chess.Board) -> int:
        self.probes += 1
        found = own_tables.value(board) if not board.pawns else None
        if found is None:
            raise KeyError(board.fen())  # what python-chess raises for a missing table
        return found

    def probe_wdl(self, board: chess.Board) -> int:
        found = self._value(board)
        return 0 if found == 0 else 2 if found > 0 else -2

    def probe_dtz(self, board: chess.Board) -> int:
        found = self._value(board)
        return 0 if found == 0 else V.remoteness(found) * (1 if found > 0 else -1)

    def close(self) -> None:
        pass


class ChessWithoutOwnTables(Chess):
    """Chess whose own tables are switched off, so that only the Syzygy stand-in knows."""

    def known_value(self, position: Any) -> int | None:
        return None


def test_syzygy_root_keeps_the_moves_nearest_the_zeroing_move() -> None:
    tables = SyzygyTables(OwnTablesAsSyzygy(), 2, 3)
    for fen in (KQK, "8/8/8/4k3/8/8/3qK3/8 w - - 0 1", "8/8/3k4/8/8/8/2R5/3K4 b - - 0 1"):
        board = chess.Board(fen)
        moves = list(board.legal_moves)
        advice = tables.root(board, moves)
        assert advice is not None
        # The same answer from the values of the children: the quickest win, the longest loss.
        children = {}
        for move in moves:
            child = board.copy()
            child.push(move)
            value = own_tables.value(child)
            drawn = value is None or child.is_insufficient_material()
            children[move] = 0 if drawn else -V.from_table(value, 1)
        best = max(children.values())
        assert set(advice.moves) == {move for move, value in children.items() if value == best}, fen
        assert advice.result == (2 if best > 0 else -2 if best < 0 else 0)


def test_syzygy_values_apply_only_after_a_zeroing_move_without_castling() -> None:
    tables = SyzygyTables(OwnTablesAsSyzygy(), 2, 3)
    game = Chess()
    # A win's value carries the winner's material margin, a queen's 9 points: 90.
    assert tables.value(game.parse_position(KQK)) == TB_WIN + 90
    assert tables.value(game.parse_position("8/8/8/4k3/8/8/3QK3/8 b - - 0 1")) == -TB_WIN - 90
    assert tables.value(game.parse_position("8/8/8/4k3/8/8/3QK3/8 w - - 3 9")) is None  # clock running
    assert tables.value(game.parse_position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")) is None  # castling
    assert tables.value(game.parse_position(MIDDLEGAME)) is None  # too many pieces
    assert tables.value(game.parse_position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")) is None  # missing table


def test_syzygy_tables_guide_the_search_and_count_as_tbhits() -> None:
    session = Session(ChessWithoutOwnTables())
    session.uci.extras.syzygy = SyzygyTables(OwnTablesAsSyzygy(), 2, 3)
    session.uci._replace_engine()
    # Four pieces: not in the tables, but Qxd5 leads into KQK, which they call a win.
    out = session.run("position fen 4k3/8/8/3n4/8/8/3Q4/4K3 w - - 0 1", "go depth 3")
    assert bestmoves(out) == ["d2d5"]
    last = [line for line in out if line.startswith("info depth")][-1]
    assert f" score cp {TB_WIN + 90} " in last and int(last.split(" tbhits ")[1].split()[0]) > 0
    # At a root in the tables, only the moves that keep the result soonest are searched.
    out = session.run(f"position fen {KQK}", "go depth 2")
    said = [line for line in out if line.startswith("info string syzygy")]
    assert said and said[0].startswith("info string syzygy: win;")
    board = chess.Board(KQK)
    advice = SyzygyTables(OwnTablesAsSyzygy(), 2, 3).root(board, list(board.legal_moves))
    assert advice is not None and chess.Move.from_uci(bestmoves(out)[0]) in advice.moves


def test_syzygy_path_errors_are_one_line_and_keep_the_old_value(tmp_path: Path) -> None:
    a_file = tmp_path / "file.rtbw"
    a_file.write_text("not a table")
    missing = tmp_path / "missing"
    out = talk([f"setoption name SyzygyPath value {missing}", f"setoption name SyzygyPath value {a_file}",
                f"setoption name SyzygyPath value {tmp_path}", "setoption name SyzygyPath value <empty>",
                f"position fen {KQK}", "go depth 1", "quit"])
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 2 and f"'{missing}' is not a directory" in errors[0] and "file.rtbw" in errors[1]
    assert f"info string SyzygyPath '{tmp_path}': 0 table files, up to 0 pieces" in out
    assert len(bestmoves(out)) == 1
    session = Session()
    session.run(f"setoption name SyzygyPath value {tmp_path}")
    session.run(f"setoption name SyzygyPath value {missing}")
    assert session.uci.options["SyzygyPath"] == str(tmp_path) and session.uci.extras.syzygy is not None


def test_a_failed_search_still_answers_with_a_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    # "bestmove (none)" means "no legal move" to a GUI, which would end the game.
    session = Session()

    def fails(*_: Any) -> None:
        raise RuntimeError("a fault in the search")

    monkeypatch.setattr(session.uci, "_think", fails)
    out = session.run(f"position fen {MIDDLEGAME}", "go depth 3")
    assert "info string error: the search failed: RuntimeError: a fault in the search" in out
    assert chess.Move.from_uci(bestmoves(out)[0]) in chess.Board(MIDDLEGAME).legal_moves
    out = session.run(f"position fen {MIDDLEGAME}", "go depth 3 searchmoves a2a3 h2h3")
    assert bestmoves(out) == ["a2a3"]
    out = session.run("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3")  # mated
    assert bestmoves(out) == ["(none)"]


def test_isready_loads_the_endgame_tables_before_the_first_move() -> None:
    own_tables.forget_loaded()
    session = Session()
    session.run("isready")
    assert len(own_tables._LOADED) == 3  # KQK, KRK, KPK: read now, not during a search
    assert session.lines[-1] == "readyok"


def test_damaged_syzygy_files_are_said_once_and_searched_around(tmp_path: Path) -> None:
    for name in ("KQvK", "KRvK", "KQvKR"):
        (tmp_path / f"{name}.rtbw").write_text("not a table")
        (tmp_path / f"{name}.rtbz").write_text("not a table")
    kqkr = "position fen 4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1"
    out = talk([f"setoption name SyzygyPath value {tmp_path}", kqkr, "go depth 2", kqkr, "go depth 2",
                "quit"])
    assert f"info string SyzygyPath '{tmp_path}': 6 table files, up to 4 pieces" in out
    errors = [line for line in out if line.startswith("info string error")]
    assert len(errors) == 1 and "a Syzygy table could not be read (OSError" in errors[0]
    assert bestmoves(out) == ["d2d5", "d2d5"]  # the rook, read by the search alone


def test_ctrl_c_during_a_search_exits_at_once_with_130(pipe: Pipe) -> None:
    import signal
    pipe.send("position startpos", "go infinite")
    pipe.until("info depth")
    started = time.perf_counter()
    pipe.process.send_signal(signal.SIGINT)
    assert pipe.process.wait(timeout=10) == 130 and time.perf_counter() - started < 2.0
    assert pipe.process.stderr is not None and "interrupted" in pipe.process.stderr.read()


def test_threads_and_hash_through_python_chess() -> None:
    with chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=60) as engine:
        engine.configure({"Threads": 2, "Hash": 4})
        board = chess.Board(MIDDLEGAME)
        info = engine.analyse(board, chess.engine.Limit(depth=3))
        assert info["pv"][0] in board.legal_moves and info["depth"] == 3
        engine.configure({"Threads": 1})
        assert engine.play(board, chess.engine.Limit(depth=2)).move in board.legal_moves


def test_go_on_a_table_position_answers_from_the_tables_through_the_decider(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # go always ran the engine, which looked the root up itself: the decider now says how a
    # go is answered (known values, the mate search, the engine), and a table position is
    # answered from the tables with no search at all.
    from perfectplay import deciding
    session = Session()
    routes: list[str] = []
    chosen = deciding.route

    def route(*args: Any, **options: Any) -> deciding.Route:
        found = chosen(*args, **options)
        routes.append(found.how)
        return found

    def search(*args: Any, **options: Any) -> None:
        raise AssertionError("the engine searched a position the endgame tables hold")
    monkeypatch.setattr(deciding, "route", route)
    monkeypatch.setattr(session.uci.engine, "search", search)
    out = session.run(f"position fen {KQK}", "go wtime 1000 btime 1000", "go mate 3")
    assert routes == [deciding.THEORY, deciding.THEORY]
    board = chess.Board(KQK)
    valued = own_tables.move_values(board)
    fastest = {move.uci() for move, value in valued if value == max(value for _, value in valued)}
    assert len(bestmoves(out)) == 2 and set(bestmoves(out)) <= fastest
    value = own_tables.value(board)
    assert value is not None
    mate = (V.remoteness(value) + 1) // 2
    reports = [line for line in out if line.startswith("info depth")]
    assert len(reports) == 2 and all(f" score mate {mate} " in line for line in reports)
    assert all(int(line.split(" tbhits ")[1].split()[0]) == 1 + len(valued) for line in reports)


def test_a_mate_line_search_whose_thread_never_ran_in_time_leaves_the_pv_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # On a loaded machine the 50 ms search that completes a mate's PV can be left behind
    # before its thread has run (LimitReached, 0 nodes): the line stays as the engine had it,
    # and no "the search failed" error reaches the GUI.
    import perfectplay.search.mate as mate
    from perfectplay.errors import LimitReached

    def left_behind(*args: Any, **kwargs: Any) -> Any:
        raise LimitReached("by the time limit (0.05 s) without an answer, after 0 nodes")

    monkeypatch.setattr(mate, "find_mate", left_behind)
    session = Session()
    position = session.uci.game.parse_position(KQK)
    assert session.uci._mate_rest(position, [], 3) == []  # the winner to move
    assert session.uci._mate_rest(position, [], 2) == []  # the loser to move

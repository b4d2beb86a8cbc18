"""Chess as a built-in game: published perft counts, Polyglot keys, the draw rules, notation,
bad input, and the exact mate search checked against a brute force over python-chess."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from pathlib import Path

import chess
import chess.polyglot
import pytest
from conftest import run_main

from perfectplay import registry
from perfectplay.errors import BadPosition, IllegalMove
from perfectplay.game import Outcome
from perfectplay.games.chess.rules import Chess, ChessPosition
from perfectplay.search.mate import find_mate
from perfectplay.search.perft import divide, perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
# The first 24 Win at Chess positions (the public EPD suite; the full file is in shared data).
WAC = Path(__file__).parents[2] / "fixtures" / "wac_head.epd"

GAME = Chess()


def position(text: str) -> ChessPosition:
    return GAME.parse_position(text)


# Published counts (Chess Programming Wiki, "Perft Results"); the deeper ones are benchmarks.
@pytest.mark.parametrize("fen, depth, count", [
    ("startpos", 3, 8_902),
    (KIWIPETE, 2, 2_039),
    (POSITION_3, 3, 2_812),
    (POSITION_4, 2, 264),
    (POSITION_5, 2, 1_486),
])
def test_perft_matches_the_published_counts(fen: str, depth: int, count: int) -> None:
    assert perft(GAME, position(fen), depth).count == count


def test_perft_counts_a_checkmate_as_a_finished_game() -> None:
    start = position("startpos moves f3 e5 g4")
    assert perft(GAME, start, 1, finished=True).finished_games == 1  # Qh4#, the fool's mate
    assert perft(GAME, start, 1).finished_games is None  # the last ply counted in bulk


class _Counting(Chess):
    """Chess that counts the moves it makes."""

    made = 0

    def play(self, position: ChessPosition, move: chess.Move) -> ChessPosition:
        _Counting.made += 1
        return super().play(position, move)


def test_perft_counts_the_last_ply_without_making_its_moves() -> None:
    game = _Counting()
    _Counting.made = 0
    assert perft(game, game.start(), 3).count == 8_902
    assert _Counting.made == 20 + 400  # the 8,902 last moves are counted, not made
    _Counting.made = 0
    assert perft(game, game.start(), 3, finished=True).count == 8_902
    assert _Counting.made == 20 + 400 + 8_902


# perft divide 3 from the start (the same in every engine's divide; Chess Programming Wiki).
START_DIVIDE_3 = {"a2a3": 380, "b2b3": 420, "c2c3": 420, "d2d3": 539, "e2e3": 599, "f2f3": 380,
                  "g2g3": 420, "h2h3": 380, "a2a4": 420, "b2b4": 421, "c2c4": 441, "d2d4": 560,
                  "e2e4": 600, "f2f4": 401, "g2g4": 421, "h2h4": 420, "b1a3": 400, "b1c3": 440,
                  "g1f3": 440, "g1h3": 400}


def test_perft_divide_gives_the_count_under_each_first_move() -> None:
    split = {move.uci(): count for move, count in divide(GAME, position("startpos"), 3)}
    assert split == START_DIVIDE_3 and sum(split.values()) == 8_902


def test_the_perft_command_divides_and_counts_finished_games() -> None:
    ran = run_main("perft", "chess", "startpos", "--depth", "3", "--divide")
    assert ran.code == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert "e2e4: 600" in lines and "d2d3: 539" in lines and lines[-1] == "perft 3: 8,902 move sequences"
    ran = run_main("perft", "chess", "startpos", "--depth", "2", "--divide", "--json")
    assert json.loads(ran.stdout)["divide"]["e2e4"] == 20 and json.loads(ran.stdout)["count"] == 400
    ran = run_main("perft", "chess", "startpos", "moves", "f3", "e5", "g4", "--depth", "1", "--finished")
    assert ran.stdout.strip() == "perft 1: 30 move sequences (1 games ended within 1 moves)"
    ran = run_main("perft", "chess", "startpos", "--depth", "0", "--divide")
    assert ran.code == 2 and ran.stderr.count("\n") == 1 and "--depth 1 or more" in ran.stderr


def test_polyglot_keys_match_the_published_examples() -> None:
    # Key values from the Polyglot book format's specification.
    assert GAME.key(position("startpos")) == 0x463B96181691FC9C
    assert GAME.key(position("startpos moves e2e4")) == 0x823C9B50FD114196
    assert GAME.key(position("startpos moves e2e4 d7d5 e4e5 f7f5")) == 0x22A48B5A8E47FF78


def test_incremental_keys_and_evaluation_agree_with_full_recomputation_on_random_games() -> None:
    from perfectplay.games.chess import evaluation as chess_eval

    rng = random.Random(11)
    starts = ["startpos", KIWIPETE, POSITION_3, POSITION_4, POSITION_5]
    played = 0
    for _ in range(60):
        node = position(rng.choice(starts))
        GAME.evaluate(node)  # from here on the sums are carried move by move
        for _ in range(60):
            moves = GAME.moves(node)
            if not moves or GAME.outcome(node) is not None:
                break
            move = rng.choice(moves)
            child = GAME.play(node, move)
            assert GAME.key(child) == chess.polyglot.zobrist_hash(child.board), child.board.fen()
            assert GAME.key_after(node, move, GAME.key(node)) == GAME.key(child)
            # 477 captures, 48 promotions and 3 castlings occur in these games (en passant
            # is checked below).
            assert child.sums == chess_eval.tapered_sums(child.board), child.board.fen()
            assert GAME.evaluate(child) == chess_eval.evaluate(child.board)
            passed = GAME.null_move(child)
            if passed is not None:
                assert GAME.evaluate(passed) == chess_eval.evaluate(passed.board)
            node = child
            played += 1
    assert played > 2_000
    before = position("startpos moves e4 a6 e5 d5")
    GAME.evaluate(before)
    after = GAME.play(before, GAME.parse_move(before, "exd6"))
    assert after.sums == chess_eval.tapered_sums(after.board) and after.board.pawns.bit_count() == 15


def _board_state(board: chess.Board) -> tuple[object, ...]:
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            list(board.occupied_co), board.occupied, board.promoted, board.clean_castling_rights(),
            board.ep_square, board.turn, board.halfmove_clock, board.fullmove_number, board.fen())


def test_moves_made_from_bitboards_equal_python_chess_push_on_random_games() -> None:
    from perfectplay.games.chess.rules import board_after

    rng = random.Random(17)
    kinds = {"capture": 0, "en passant": 0, "promotion": 0, "castling": 0, "double push": 0}
    for start in ["startpos", KIWIPETE, POSITION_3, POSITION_4, POSITION_5] * 3:
        board = chess.Board() if start == "startpos" else chess.Board(start)
        for _ in range(80):
            moves = list(board.legal_moves)
            if not moves:
                break
            for move in moves:  # every legal move of every position on the way
                pushed = board.copy(stack=False)
                pushed.push(move)
                made = board_after(board, move, board.piece_type_at(move.from_square))  # type: ignore[arg-type]
                assert _board_state(made) == _board_state(pushed), (board.fen(), move.uci())
                kinds["capture"] += board.is_capture(move)
                kinds["en passant"] += board.is_en_passant(move)
                kinds["promotion"] += move.promotion is not None
                kinds["castling"] += board.is_castling(move)
                kinds["double push"] += made.ep_square is not None
            board.push(rng.choice(moves))
    assert min(kinds.values()) >= 10, kinds


def test_moves_are_made_from_bitboards_with_this_python_chess_and_by_push_with_another(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from perfectplay.games.chess import rules

    # The installed python-chess is one whose boards board_after builds in full: a version
    # whose boards carry another field falls back to push, correct but a quarter slower.
    assert rules._BUILT_FROM_BITBOARDS, sorted(vars(chess.Board()))
    monkeypatch.setattr(rules, "_BUILT_FROM_BITBOARDS", False)
    board = chess.Board(KIWIPETE)
    for move in board.legal_moves:
        pushed = board.copy(stack=False)
        pushed.push(move)
        made = rules.board_after(board, move, board.piece_type_at(move.from_square))  # type: ignore[arg-type]
        assert _board_state(made) == _board_state(pushed), move.uci()


def test_the_quick_test_for_a_legal_move_never_claims_one_in_a_stalemate() -> None:
    from perfectplay.games.chess.rules import _free_piece_can_move

    for fen in ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "k7/P7/K7/8/8/8/8/8 b - - 0 1",
                "8/8/8/8/8/6k1/5q2/7K w - - 0 1", "k7/8/1QK5/8/8/8/8/8 b - - 0 1"):
        board = chess.Board(fen)
        assert board.is_stalemate() and not _free_piece_can_move(board)
        assert GAME.outcome(position(fen)) is Outcome.DRAW
    # A pinned bishop cannot move, the king can; a pinned pawn may still capture its pinner.
    assert _free_piece_can_move(chess.Board("4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1"))
    assert position("7k/8/8/8/8/2b5/1P6/K7 w - - 0 1").has_legal_move()
    rng = random.Random(23)
    quick = 0
    for _ in range(40):
        board = chess.Board()
        for _ in range(150):
            moves = list(board.legal_moves)
            if not moves:
                break
            if not board.is_check() and _free_piece_can_move(board):
                quick += 1
            assert position(board.fen()).has_legal_move() == bool(moves), board.fen()
            captures = [move for move in moves if board.is_capture(move)]
            board.push(rng.choice(captures if captures and rng.random() < 0.6 else moves))
    assert quick > 1_000


def test_positions_are_immutable_values() -> None:
    start = position("startpos")
    after = GAME.play(start, GAME.parse_move(start, "e4"))
    assert start.board.fen() == chess.STARTING_FEN
    assert after == position("startpos moves e2e4")
    assert hash(after) == hash(position("startpos moves e2e4"))
    assert after != start
    copied = pickle.loads(pickle.dumps(after))
    assert copied == after and GAME.key(copied) == GAME.key(after) and copied.history == after.history
    # The move number does not matter; the halfmove clock does (the fifty-move rule).
    assert position("8/8/8/4k3/8/8/8/R3K3 w - - 3 40") == position("8/8/8/4k3/8/8/8/R3K3 w - - 3 1")
    assert position("8/8/8/4k3/8/8/8/R3K3 w - - 3 40") != position("8/8/8/4k3/8/8/8/R3K3 w - - 4 40")


def test_moves_are_read_in_uci_and_san_and_written_in_uci() -> None:
    start = position("startpos")
    assert GAME.parse_move(start, "g1f3") == GAME.parse_move(start, "Nf3") == chess.Move.from_uci("g1f3")
    castle = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert GAME.format_move(castle, GAME.parse_move(castle, "O-O-O")) == "e1c1"
    promote = position("8/4P3/8/8/8/k7/8/K7 w - - 0 1")
    assert GAME.format_move(promote, GAME.parse_move(promote, "e8=N")) == "e7e8n"
    with pytest.raises(IllegalMove, match="'e5' is not a legal move"):
        GAME.parse_move(start, "e5")


def test_captures_and_promotions_come_first_most_valuable_victim_first() -> None:
    node = position("4k3/1P6/8/3q4/2P1r3/8/3N4/K7 w - - 0 1")
    noisy = [GAME.format_move(node, move) for move in GAME.captures(node)]
    assert set(noisy[:2]) == {"c4d5", "b7b8q"}  # pawn takes queen; pawn becomes queen
    assert noisy[2:4] == ["b7b8r", "d2e4"]  # a rook gained by promotion, then knight takes rook
    assert set(noisy[4:]) == {"b7b8b", "b7b8n"}
    assert GAME.moves(node)[:len(noisy)] == GAME.captures(node) == GAME.noisy_moves(node)
    assert len(GAME.moves(node)) == len(list(node.board.legal_moves))


def test_captures_are_exactly_python_chess_captures_and_promotions() -> None:
    rng = random.Random(5)
    checked = 0
    for start in ("startpos", KIWIPETE, POSITION_4, POSITION_5):
        node = position(start)
        for _ in range(40):
            if GAME.outcome(node) is not None or not GAME.moves(node):
                break
            fresh = GAME.parse_position(node.board.fen())  # no move list kept yet
            board = node.board
            wanted = {move for move in board.legal_moves if board.is_capture(move) or move.promotion}
            assert set(GAME.captures(fresh)) == wanted == set(GAME.captures(node)), board.fen()
            checked += len(wanted)
            node = GAME.play(node, rng.choice(GAME.moves(node)))
    assert checked > 100


def test_quiescence_skips_only_captures_that_lose_material_at_once() -> None:
    # The queen taking a defended pawn (d6, e7) loses herself; the pawn or queen taking the
    # queen, the queen taking the undefended rook and the promotions stay.
    node = position("4k3/1P2p3/3p4/2q1Q3/1P6/8/7r/K7 w - - 0 1")
    assert {GAME.format_move(node, move) for move in GAME.captures(node)} == {
        "b4c5", "e5c5", "e5d6", "e5e7", "e5h2", "b7b8q", "b7b8r", "b7b8b", "b7b8n"}
    assert {GAME.format_move(node, move) for move in GAME.noisy_moves(node)} == {
        "b4c5", "e5c5", "e5h2", "b7b8q", "b7b8r", "b7b8b", "b7b8n"}
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
    rng = random.Random(9)
    skipped = 0
    for _ in range(30):
        node = position("startpos")
        for _ in range(60):
            if GAME.outcome(node) is not None or not GAME.moves(node):
                break
            board = node.board
            kept = []
            for move in GAME.captures(node):
                victim = chess.PAWN if board.is_en_passant(move) else board.piece_type_at(move.to_square)
                attacker = board.piece_type_at(move.from_square)
                cheaper = victim is not None and attacker is not None and values[victim] < values[attacker]
                if move.promotion or not cheaper or not board.attackers(not board.turn, move.to_square):
                    kept.append(move)
            assert GAME.noisy_moves(node) == kept, board.fen()
            skipped += len(GAME.captures(node)) - len(kept)
            node = GAME.play(node, rng.choice(GAME.moves(node)))
    assert skipped > 50


def test_threefold_repetition_and_the_fifty_move_rule_draw() -> None:
    shuffle = "startpos moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1"
    assert GAME.outcome(position(shuffle)) is None  # the start position has occurred twice
    assert GAME.outcome(position(shuffle + " Ng8")) is Outcome.DRAW  # and now a third time
    assert GAME.outcome(position("8/8/8/4k3/8/8/8/R3K3 w - - 99 80")) is None
    assert GAME.outcome(position("8/8/8/4k3/8/8/8/R3K3 w - - 100 80")) is Outcome.DRAW
    # Mate on the hundredth ply still wins: the clock ends nothing when the game is over.
    mated = position("R3k3/8/4K3/8/8/8/8/8 b - - 100 80")
    assert GAME.outcome(mated) is None and GAME.moves(mated) == []


def test_stalemate_and_dead_positions_are_draws_and_checkmate_has_no_moves() -> None:
    assert GAME.outcome(position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")) is Outcome.DRAW
    assert GAME.outcome(position("8/8/4k3/8/8/3NK3/8/8 w - - 0 1")) is Outcome.DRAW
    fools_mate = position("startpos moves f3 e5 g4 Qh4")
    assert GAME.outcome(fools_mate) is None and GAME.moves(fools_mate) == []


def test_null_move_is_refused_in_check_and_with_only_king_and_pawns() -> None:
    assert GAME.null_move(position("startpos moves f3 e5 g4 Qh4")) is None
    assert GAME.null_move(position("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1")) is None
    passed = GAME.null_move(position("startpos moves e4"))
    assert passed is not None and passed.board.turn == chess.WHITE
    assert GAME.key(passed) == chess.polyglot.zobrist_hash(passed.board)


def test_the_evaluation_is_symmetric_and_counts_material() -> None:
    start = position("startpos")
    assert GAME.evaluate(start) == GAME.evaluate(position("startpos moves Nf3 Nf6 Ng1 Ng8"))
    up_a_queen = position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert GAME.evaluate(up_a_queen) > 800
    mirrored = position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1")
    assert GAME.evaluate(mirrored) == GAME.evaluate(up_a_queen)
    # The endgame king wants the centre; the middlegame king wants its corner.
    centre, corner = position("8/8/8/3k4/8/8/8/4K2R b - - 0 1"), position("k7/8/8/8/8/8/8/4K2R b - - 0 1")
    assert GAME.evaluate(centre) > GAME.evaluate(corner)


@pytest.mark.parametrize("fen, reason", [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "expected 8 columns"),
    ("8/8/8/8/8/8/8/8 w - - 0 1", "no white king"),
    ("k7/8/8/8/8/8/8/K6Q w - - 0 1", "opposite check"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "expected 'w' or 'b'"),
])
def test_an_illegal_fen_gives_python_chess_reason(fen: str, reason: str) -> None:
    with pytest.raises(BadPosition, match=reason):
        position(fen)


def test_the_cli_reports_an_illegal_fen_in_one_line_with_exit_2() -> None:
    run = subprocess.run([sys.executable, "-m", "perfectplay", "perft", "chess", "8/8/8/8/8/8/8/8", "w",
                          "-", "-", "0", "1", "--depth", "1"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: illegal FEN '8/8/8/8/8/8/8/8 w - - 0 1': no white king, no black king, empty"]


@pytest.mark.parametrize("command", [["perft", "chess", "--depth", "1"], ["uci", "chess"],
                                     ["solve", "chess", "startpos", "--mate", "1"]])
def test_without_python_chess_the_cli_says_how_to_install_it(command: list[str]) -> None:
    # sys.modules['chess'] = None makes Python treat the package as absent.
    hide = "import sys; sys.modules['chess'] = None; from perfectplay.cli import main; main()"
    run = subprocess.run([sys.executable, "-c", hide, *command], capture_output=True, text=True,
                         timeout=60, input="quit\n")
    assert run.returncode == 2
    assert run.stderr.strip() == "error: chess needs python-chess: pip install 'perfectplay[chess]'"


def test_chess_is_found_in_the_registry() -> None:
    game, start = registry.load("chess")
    assert isinstance(game, Chess) and start == position("startpos")


# -- the mate search against a brute force written directly on python-chess ----------------
def brute_mates_within(board: chess.Board, n: int) -> bool:
    """Whether the side to move can force checkmate within ``n`` moves (no tables, no order)."""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate():
                return True
            if n > 1 and not board.is_stalemate() and not board.is_insufficient_material() and all(
                    _reply_still_mated(board, reply, n - 1) for reply in list(board.legal_moves)):
                return True
        finally:
            board.pop()
    return False


def _reply_still_mated(board: chess.Board, reply: chess.Move, n: int) -> bool:
    board.push(reply)
    try:
        return brute_mates_within(board, n)
    finally:
        board.pop()


def brute_shortest_mate(fen: str, limit: int) -> int | None:
    board = chess.Board(fen)
    return next((n for n in range(1, limit + 1) if brute_mates_within(board, n)), None)


@pytest.mark.parametrize("fen, moves, first", [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "h5f7"),
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6"),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, "f8c5"),
])
def test_mate_search_proves_known_mates_and_nothing_shorter(fen: str, moves: int, first: str) -> None:
    assert brute_shortest_mate(fen, moves) == moves
    node = position(fen)
    found = find_mate(GAME, node, moves + 1)
    assert found.moves == moves
    assert GAME.format_move(node, found.line[0]) == first
    assert len(found.line) == 2 * moves - 1
    board = node.board.copy()
    for move in found.line:
        board.push(move)
    assert board.is_checkmate()
    assert find_mate(GAME, node, moves - 1).moves is None if moves > 1 else True


def test_mate_search_agrees_with_brute_force_on_win_at_chess_positions() -> None:
    fens = [" ".join(line.split()[:4]) + " 0 1" for line in WAC.read_text().splitlines()]
    answers = [(find_mate(GAME, position(fen), 2).moves, brute_shortest_mate(fen, 2)) for fen in fens]
    assert all(ours == theirs for ours, theirs in answers), answers
    assert {ours for ours, _ in answers} >= {None, 2}


def test_solve_mate_from_the_cli_prints_the_line_and_reports_a_finished_game() -> None:
    def solve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "perfectplay", "solve", "chess", *args],
                              capture_output=True, text=True, timeout=120)
    found = solve("startpos moves f3 e5 g4", "--mate", "2")
    assert found.returncode == 0
    assert "mate in 1 for the side to move (proved)" in found.stdout and "2...Qh4#" in found.stdout
    over = solve("startpos moves f3 e5 g4 Qh4", "--mate", "2", "--json")
    assert json.loads(over.stdout)["game_over"] is True
    stopped = solve("startpos", "--mate", "9", "--nodes", "2000")
    assert stopped.returncode == 1 and stopped.stderr.startswith("stopped: mate search stopped")


def test_a_stalemating_move_is_no_mate() -> None:
    # Qg6 would stalemate; the only mates in one are elsewhere or none: brute force decides.
    fen = "7k/8/6K1/8/8/8/8/6Q1 w - - 0 1"
    assert find_mate(GAME, position(fen), 2).moves == brute_shortest_mate(fen, 2)

"""The chess endgame tables KQK, KRK, KPK: built here from scratch (a few seconds), checked
against the shipped files, the published longest mates, python-chess's rules and the exact
mate search, then probed through solve and the engine."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import chess
import numpy as np
import pytest
from conftest import run_main

from perfectplay import analyze, solve
from perfectplay import value as V
from perfectplay.engine import Engine, SearchLimits
from perfectplay.games.chess.rules import Chess, position_from_board
from perfectplay.games.chess.tablebase import build_tables, files, probe
from perfectplay.games.chess.tablebase.build import is_legal, moves_of
from perfectplay.games.chess.tablebase.index import (
    ILLEGAL,
    SIZE,
    TABLES,
    index_of,
    node_value,
    split,
    summary,
    symmetry_classes,
)
from perfectplay.games.chess.tablebase.method import ended_by_rule
from perfectplay.search.mate import find_mate

PIECE = {"KQK": chess.QUEEN, "KRK": chess.ROOK, "KPK": chess.PAWN}
PROMOTION = {0: None, 1: chess.QUEEN, 2: chess.ROOK, 3: chess.BISHOP, 4: chess.KNIGHT}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    directory = tmp_path_factory.mktemp("tables")
    return {table.name: table.values for table in build_tables(list(TABLES), directory)}


def board_of(name: str, index: int) -> chess.Board:
    """The board of a table index, White being the strong side."""
    mover, strong_king, weak_king, piece = split(index)
    board = chess.Board(None)
    board.set_piece_at(strong_king, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(weak_king, chess.Piece(chess.KING, chess.BLACK))
    board.set_piece_at(piece, chess.Piece(PIECE[name], chess.WHITE))
    board.turn = chess.WHITE if mover == 0 else chess.BLACK
    return board


def legal_indexes(name: str, count: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    found: list[int] = []
    while len(found) < count:
        index = rng.randrange(SIZE)
        if is_legal(name, index):
            found.append(index)
    return found


def test_a_fresh_build_equals_the_shipped_tables(built: dict[str, np.ndarray]) -> None:
    for name in TABLES:
        assert np.array_equal(built[name], files.load(name, files.SHIPPED)), name


@pytest.mark.parametrize("name, moves", [("KQK", 10), ("KRK", 16), ("KPK", 28)])
def test_the_longest_mates_are_the_published_ones(built: dict[str, np.ndarray], name: str,
                                                  moves: int) -> None:
    # Mate in N counts the winner's moves: 2N - 1 plies with the winner to move, 2N plies
    # with the loser to move.
    counts = summary(built[name])
    assert counts["strong"]["longest_win"] == 2 * moves - 1
    assert counts["weak"]["longest_loss"] == 2 * moves


def test_counts_by_value_add_up_to_the_legal_positions(built: dict[str, np.ndarray]) -> None:
    for name in TABLES:
        for side in summary(built[name]).values():
            assert side["wins"] + side["draws"] + side["losses"] == side["positions"]
    kqk = summary(built["KQK"])
    assert kqk["strong"]["draws"] == kqk["strong"]["losses"] == 0  # the queen always wins on move
    assert summary(built["KPK"])["strong"]["draws"] > 0


@pytest.mark.parametrize("name, side, positions", [
    ("KQK", "strong", 1), ("KRK", "strong", 121), ("KPK", "strong", 3),
    ("KQK", "weak", 8), ("KRK", "weak", 390), ("KPK", "weak", 2)])
def test_the_longest_mates_occur_as_often_as_published(built: dict[str, np.ndarray], name: str,
                                                        side: str, positions: int) -> None:
    # Peter Karrer's statistics as quoted on Kirill Kryukov's board ("Longest Mate in kqk"),
    # counted up to the board's symmetries.
    values = built[name].astype(np.int64)
    half = SIZE // 2
    part = values[:half] if side == "strong" else values[half:]
    extreme = part.max() if side == "strong" else part[part != ILLEGAL].min()
    assert symmetry_classes(name, np.flatnonzero(part == extreme)) == positions


@pytest.mark.parametrize("fen, verdict", [
    ("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", V.win_in(19)),      # Ka1 Qb2 kf5: mate in 10
    ("8/8/8/8/8/2k5/1R6/K7 w - - 0 1", V.win_in(31)),      # Ka1 Rb2 kc3: mate in 16
    ("8/8/8/1k6/8/8/K5P1/8 w - - 0 1", V.win_in(55)),      # Ka2 Pg2 kb5: mate in 28
    ("8/8/8/8/4k3/8/1Q6/K7 b - - 0 1", V.loss_in(20)),     # Ka1 Qb2 ke4: mated in 10
    ("8/8/8/8/8/8/1Rk5/K7 b - - 0 1", V.loss_in(32)),      # Ka1 Rb2 kc2: mated in 16
    ("8/8/8/k7/8/K7/6P1/8 b - - 0 1", V.loss_in(56)),      # Ka3 Pg2 ka5: mated in 28
])
def test_published_longest_positions_have_their_distance(fen: str, verdict: int) -> None:
    assert probe.value(chess.Board(fen)) == verdict


@pytest.mark.parametrize("name", TABLES)
def test_the_move_generator_agrees_with_python_chess(name: str) -> None:
    for index in legal_indexes(name, 1500, seed=len(name) * 7 + ord(name[1])):
        board = board_of(name, index)
        assert board.is_valid(), board.fen()
        ours = sorted(moves_of(name, index))
        theirs = sorted((move.from_square, move.to_square,
                         next(k for k, v in PROMOTION.items() if v == move.promotion))
                        for move in board.legal_moves)
        assert ours == theirs, board.fen()


@pytest.mark.parametrize("name", TABLES)
def test_illegal_slots_are_exactly_python_chess_invalid_boards(name: str,
                                                               built: dict[str, np.ndarray]) -> None:
    rng = random.Random(5)
    for index in (rng.randrange(SIZE) for _ in range(3000)):
        mover, strong_king, weak_king, piece = split(index)
        if len({strong_king, weak_king, piece}) < 3:
            assert built[name][index] == ILLEGAL
            continue
        assert (built[name][index] != ILLEGAL) == board_of(name, index).is_valid()


@pytest.mark.parametrize("name", TABLES)
def test_ended_positions_agree_with_python_chess(name: str, built: dict[str, np.ndarray]) -> None:
    values = built[name]
    mates = np.flatnonzero(values == -1)
    assert (len(mates) > 0) == (name != "KPK")  # king and pawn alone never mate: promotion first
    for index in mates[:: max(1, len(mates) // 200)]:
        assert board_of(name, int(index)).is_checkmate()
    for index in legal_indexes(name, 1500, seed=11):
        board = board_of(name, index)
        assert board.is_checkmate() == (values[index] == -1), board.fen()
        if board.is_stalemate():
            assert values[index] == 0, board.fen()


@pytest.mark.parametrize("name", TABLES)
def test_short_mates_agree_with_the_exact_mate_search(name: str, built: dict[str, np.ndarray]) -> None:
    game = Chess()
    values = built[name]
    rng = random.Random(3)
    strong_to_move = np.flatnonzero((values[:SIZE // 2] > 0) & (values[:SIZE // 2] <= 3))
    for index in rng.sample(list(strong_to_move), 10):
        board = board_of(name, int(index))
        moves = (int(values[index]) + 1) // 2
        result = find_mate(game, position_from_board(board), 2)
        assert result.moves == moves, board.fen()
    deeper = np.flatnonzero(values[:SIZE // 2] >= 5)
    for index in rng.sample(list(deeper), 4):
        board = board_of(name, int(index))
        assert find_mate(game, position_from_board(board), 2).moves is None, board.fen()


@pytest.mark.parametrize("name", TABLES)
def test_colours_swapped_and_mirrored_read_the_same_value(name: str) -> None:
    for index in legal_indexes(name, 300, seed=17):
        board = board_of(name, index)
        assert probe.value(board.mirror()) == probe.value(board) == node_value(
            int(probe.table_values(name)[index]))


def test_a_castling_right_is_valued_from_the_moves() -> None:
    with_right = chess.Board("8/8/8/4k3/8/8/8/4K2R w K - 0 1")
    without = chess.Board("8/8/8/4k3/8/8/8/4K2R w - - 0 1")
    assert probe.value(with_right) == probe.value(without) == V.win_in(27)


def test_solve_answers_from_the_table_with_a_mating_line() -> None:
    game = Chess()
    solution = solve(game, game.parse_position("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1"))
    assert solution.algorithm == "from the endgame table KQK"
    assert solution.value == V.win_in(19) and solution.exact
    board = chess.Board("8/8/8/5k2/8/8/1Q6/K7 w - - 0 1")
    for move in solution.pv:
        board.push_uci(move)
    assert len(solution.pv) == 19 and board.is_checkmate()


def test_a_position_outside_the_tables_is_handed_on_or_refused() -> None:
    ran = run_main("solve", "chess", "8/8/8/4k3/8/8/8/3BK2N w - - 0 1", "--algorithm", "tablebase")
    assert ran.code == 2 and "not one of them" in ran.stderr and len(ran.stderr.strip().splitlines()) == 1
    ran = run_main("solve", "chess", "8/8/3r4/5k2/8/8/1Q6/K7 w - - 0 1", "--algorithm", "engine",
                   "--depth", "2")
    assert ran.code == 0 and "engine:" in ran.stdout


def test_the_cli_says_mate_in_n_from_the_table() -> None:
    ran = run_main("solve", "chess", "8/8/8/k7/8/K7/6P1/8 b - - 0 1")
    assert ran.code == 0
    assert "from the endgame table KPK: mated in 28 (56 plies), without the fifty-move rule" in ran.stdout


def test_a_checkmate_in_a_table_is_said_so() -> None:
    ran = run_main("solve", "chess", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert ran.code == 0 and "from the endgame table KQK: checkmated" in ran.stdout


def test_the_engine_answers_a_table_root_exactly() -> None:
    game = Chess()
    position = game.parse_position("8/8/8/8/8/2k5/1R6/K7 w - - 0 1")
    with Engine(game) as engine:
        result = engine.search(position, SearchLimits(depth=2))
    assert result.exact and result.score == V.win_in(31) and len(result.pv) == 31


def test_the_engine_scores_a_capture_into_the_table_as_a_mate() -> None:
    # Qxd4 wins the rook (KQK after it): at depth 1 its score is the table's mate distance.
    game = Chess()
    fen = "7k/8/8/8/3r4/8/1Q6/K7 w - - 0 1"
    after = chess.Board(fen)
    after.push_uci("b2d4")
    child = probe.value(after)
    assert child is not None and V.is_loss(child)
    with Engine(game) as engine:
        result = engine.search(game.parse_position(fen), SearchLimits(depth=1))
    assert result.best_move.uci() == "b2d4"
    assert result.score == V.win_in(V.remoteness(child) + 1)


def test_a_damaged_file_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "KQK.npz").write_bytes(b"not a table at all")
    with pytest.raises(files.BadTable, match="KQK.npz: not a readable table file"):
        files.load("KQK", tmp_path)
    ran = run_main("tablebase", "info", "KQK", "--dir", str(tmp_path))
    assert ran.code == 2 and "KQK.npz" in ran.stderr and len(ran.stderr.strip().splitlines()) == 1


def test_a_file_of_another_table_is_refused(tmp_path: Path) -> None:
    shutil.copy(files.SHIPPED / "KRK.npz", tmp_path / "KQK.npz")
    with pytest.raises(files.BadTable, match="holds table 'KRK', not 'KQK'"):
        files.load("KQK", tmp_path)
    with pytest.raises(files.BadTable, match="no such table file"):
        files.load("KPK", tmp_path)


def test_a_truncated_file_is_refused(tmp_path: Path) -> None:
    data = (files.SHIPPED / "KPK.npz").read_bytes()
    (tmp_path / "KPK.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(files.BadTable, match="KPK.npz"):
        files.load("KPK", tmp_path)


def test_build_and_info_from_the_command_line(tmp_path: Path) -> None:
    ran = run_main("tablebase", "build", "KPK", "--dir", str(tmp_path))
    assert ran.code == 0, ran.stderr
    assert sorted(path.name for path in tmp_path.glob("*.npz")) == ["KPK.npz", "KQK.npz", "KRK.npz"]
    ran = run_main("tablebase", "info", "--dir", str(tmp_path), "--json")
    assert ran.code == 0 and '"longest_win": 55' in ran.stdout
    ran = run_main("tablebase", "build", "KBNK", "--dir", str(tmp_path))
    assert ran.code == 2 and "unknown table 'KBNK'" in ran.stderr


def test_index_round_trip() -> None:
    assert split(index_of(1, 12, 34, 56)) == (1, 12, 34, 56)


def test_a_game_already_drawn_by_the_fifty_move_rule_is_not_read_from_the_table() -> None:
    game = Chess()
    solution = solve(game, game.parse_position("8/8/8/5k2/8/8/1Q6/K7 w - - 100 80"))
    assert solution.value == 0 and solution.best_moves == [] and solution.exact
    assert solution.algorithm == "by the rules (the fifty-move rule)"


# These once said "too big to solve"; the rules decide them at once.
RULE_ENDED = [
    ("8/8/8/8/8/8/8/K1k5 w - - 0 1", 0, "insufficient material"),  # KK
    ("8/8/8/4k3/8/8/8/3BK3 b - - 0 1", 0, "insufficient material"),  # KBK
    ("8/8/8/4k3/8/8/8/4K2N w - - 0 1", 0, "insufficient material"),  # KNK
    ("4k3/8/8/2b5/8/8/3B4/4K3 w - - 0 1", 0, "insufficient material"),  # bishops on one colour
    ("r3k3/8/8/8/8/8/8/4K2R w - - 100 80", 0, "the fifty-move rule"),
    ("startpos moves Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8", 0, "threefold repetition"),
    ("k7/8/1QK5/8/8/8/8/7R b - - 0 1", 0, "stalemate"),
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", V.loss_in(0), "checkmate"),
]


@pytest.mark.parametrize(("text", "value", "rule"), RULE_ENDED)
def test_a_game_the_rules_have_ended_is_solved_exactly(text: str, value: int, rule: str) -> None:
    game = Chess()
    solution = solve(game, game.parse_position(text))
    assert (solution.value, solution.exact, solution.best_moves) == (value, True, [])
    assert solution.algorithm.startswith(f"by the rules ({rule}")
    assert solve(game, game.parse_position(text), algorithm="tablebase").value == value
    assert analyze(game, game.parse_position(text)) == []


def test_the_cli_solves_a_dead_draw_instead_of_calling_it_too_big() -> None:
    for fen in ("8/8/8/8/8/8/8/K1k5 w - - 0 1", "8/8/8/8/8/8/8/KBk5 w - - 0 1",
                "8/8/8/8/8/8/8/KNk5 b - - 0 1"):
        ran = run_main("solve", "chess", fen)
        assert ran.code == 0, ran.stderr
        assert "value: draw" in ran.stdout and "insufficient material" in ran.stdout


def test_a_position_that_can_still_be_won_is_not_called_a_dead_draw() -> None:
    game = Chess()  # KBNK and KNKN: a mate is still possible, so no rule ends them
    for text in ("8/8/8/4k3/8/8/8/3BK2N w - - 0 1", "k7/8/8/8/8/8/8/KN5n w - - 99 80"):
        assert ended_by_rule(game, game.parse_position(text)) is None

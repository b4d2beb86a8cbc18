"""The exact mate search as a registered method (``mate``), reached through solve/analyze
like every other; and games too big to solve refusing an unlimited exact search in one line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from perfectplay import methods, solving
from perfectplay import value as V
from perfectplay.errors import BadOption, UnsupportedSearch
from perfectplay.games.chess.rules import Chess
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.methods import Request
from perfectplay.play.analyst import Analyst
from perfectplay.solving import analyze, solve

CHESS = Chess()
TTT = TicTacToe()
MATE_IN_2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
SCHOLARS = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def test_mate_is_chosen_through_the_registry() -> None:
    # Through the front door, which imports the method's module when a request needs it.
    assert solving.choose(CHESS, Request(algorithm="mate", limits=methods.Limits(mate=2))).name == "mate"
    assert "mate" in methods.algorithm_names() and "mate" in solving.algorithm_names()


def test_solve_with_mate_proves_a_mate_in_two_and_none_shorter() -> None:
    start = CHESS.parse_position(MATE_IN_2)
    found = solve(CHESS, start, mate=3)
    assert found.algorithm == "mate" and found.exact
    assert found.mate is not None and found.mate.moves == 2
    assert found.value == V.win_in(3) and found.best_moves == ["d5f6"]
    board = chess.Board(MATE_IN_2)
    for move in found.pv:
        board.push_uci(move)
    assert board.is_checkmate() and len(found.pv) == 3
    shorter = solve(CHESS, start, mate=1)
    assert shorter.mate is not None and shorter.mate.moves is None and not shorter.exact
    assert shorter.describe() == "no mate within 1 move (proved)"


def test_the_mate_limit_is_one_field_of_limits_whether_given_as_a_keyword_or_in_limits() -> None:
    start = CHESS.parse_position(MATE_IN_2)
    given = solve(CHESS, start, limits=methods.Limits(mate=3))
    assert given.algorithm == "mate" and given.mate is not None and given.mate.moves == 2
    assert not hasattr(Request(), "mate")  # the request carries it in its limits only
    with pytest.raises(BadOption, match=r"^mate must be at least 1 \(got 0\)$"):
        solve(CHESS, start, mate=0)


def test_analyze_with_mate_marks_exactly_the_mating_moves() -> None:
    # Brute force on python-chess: the moves after which the opponent is checkmated at once.
    board = chess.Board(SCHOLARS)
    mating = set()
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            mating.add(move.uci())
        board.pop()
    moves = analyze(CHESS, CHESS.parse_position(SCHOLARS), mate=1)
    assert {m.notation for m in moves if m.exact} == mating == {"h5f7"}
    assert moves[0].describe() == "mate in 1" and len(moves) == board.legal_moves.count()
    assert {m.describe() for m in moves[1:]} == {"no mate within 1"}


def test_mate_in_tic_tac_toe_agrees_with_the_exact_solver() -> None:
    """Another game, another method: a win in p plies found by tt is a mate in (p + 1) / 2
    moves, and no win means no mate within any limit."""
    rng = random.Random(7)
    checked = 0
    while checked < 60:
        position = TTT.random_position(rng)
        if TTT.outcome(position) is not None or not TTT.moves(position):
            continue
        exact = solve(TTT, position, algorithm="tt")
        found = solve(TTT, position, mate=5)
        assert found.mate is not None
        plies = exact.remoteness
        expected = (plies + 1) // 2 if exact.outcome == "win" and plies is not None else None
        assert found.mate.moves == expected, TTT.format_position(position)
        checked += 1


def test_contradictory_mate_requests_are_refused() -> None:
    with pytest.raises(BadOption, match="drop --algorithm tt"):
        solve(CHESS, mate=2, algorithm="tt")
    with pytest.raises(UnsupportedSearch, match="needs --mate N"):
        solve(CHESS, algorithm="mate")
    with pytest.raises(UnsupportedSearch, match="not --depth"):
        solve(CHESS, mate=2, limits=methods.Limits(depth=3))


def test_the_cli_mate_options_and_their_bad_input() -> None:
    found = run("analyze", "chess", SCHOLARS, "--mate", "1", "--json")
    assert found.returncode == 0
    rows = json.loads(found.stdout)["moves"]
    assert rows[0] == {"move": "h5f7", "value": "win", "remoteness": 1, "note": "mate in 1",
                       "exact": True}
    wrong = run("solve", "chess", "startpos", "--mate", "2", "--algorithm", "tt")
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == "error: --mate runs the exact mate search; drop --algorithm tt"
    score = run("solve", "crates", "1,2,3", "--mate", "2")
    assert score.returncode == 2 and "crates is a score game" in score.stderr


# -- too big to solve ----------------------------------------------------------------------
TOO_BIG_LINE = ("error: chess is too big to solve exactly: use --algorithm engine --time T (seconds) "
                "for an estimate, or --mate N to prove a forced win within N moves")


@pytest.mark.parametrize("command", [["solve", "chess"], ["solve", "chess", "startpos", "--algorithm", "tt"],
                                     ["analyze", "chess", "startpos"]])
def test_chess_without_a_limit_is_refused_in_one_line(command: list[str]) -> None:
    refused = run(*command)
    assert refused.returncode == 2
    assert refused.stderr.strip() == TOO_BIG_LINE and refused.stdout == ""


def test_chess_with_a_limit_is_searched() -> None:
    with pytest.raises(UnsupportedSearch, match="too big to solve exactly"):
        solve(CHESS)
    estimate = solve(CHESS, algorithm="engine", limits=methods.Limits(depth=2))
    assert not estimate.exact and estimate.describe().startswith("estimate")


GRID_GAME = '''
from perfectplay.game import Game, Properties


class Grid(Game):
    """Fill a row of N cells one at a time; whoever fills the last wins. N = 10^6: the
    game itself knows that is too deep to search, and says so."""

    name = "grid"
    properties = Properties(too_big_to_solve=True)

    def start(self):
        return 10 ** 6

    def moves(self, left):
        return [1, 2] if left >= 2 else [1] if left else []

    def play(self, left, take):
        return left - take

    def format_position(self, left):
        return str(left)

    def parse_position(self, text):
        return int(text)
'''


def test_a_users_game_that_declares_itself_too_big_is_refused_and_played_by_estimate(tmp_path: Path) -> None:
    (tmp_path / "grid.py").write_text(GRID_GAME)
    refused = run("solve", "grid.py:Grid", cwd=tmp_path)
    assert refused.returncode == 2
    # No evaluation function: Monte Carlo estimates it, not the engine searching blind.
    assert refused.stderr.strip() == ("error: grid is too big to solve exactly: use --algorithm mcts "
                                      "--time T (seconds) for an estimate, or --mate N to prove a "
                                      "forced win within N moves")
    # The flag is the game's: a small position is tried exactly once a limit bounds the try.
    limited = run("solve", "grid.py:Grid", "5", "--nodes", "100000", cwd=tmp_path)
    assert limited.returncode == 0 and "value: win" in limited.stdout
    sys.path.insert(0, str(tmp_path))
    try:
        from grid import Grid  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(tmp_path))
    analyst = Analyst(Grid(), think_time=0.2)
    began = time.perf_counter()
    found = analyst.analyze(10 ** 6)
    assert analyst.big and not found.exact
    # A random playout here is a million moves (0.4 s): the clock is read inside it. Before,
    # the first 16 playouts ran whole and this 0.2 s think took 6 s (24 s on a busy machine).
    assert time.perf_counter() - began < 2.0


# -- the tables' size (--mate once stopped at a fixed 512 MB, whatever --tt-size said) ------
def test_tt_size_sets_the_mate_tables_and_the_memory_they_may_take() -> None:
    from perfectplay.search.limits import MEMORY_HEADROOM, Budget
    from perfectplay.search.mate import BYTES_PER_ENTRY, table_entries
    start = CHESS.parse_position(MATE_IN_2)
    budget = Budget()
    assert solve(CHESS, start, mate=2, table_size="3GB", budget=budget).mate.moves == 2
    entries = table_entries("3GB")
    assert entries == 1 << 22  # 3 GB at 512 bytes an entry, rounded down to a power of two
    assert budget.memory_allowed == MEMORY_HEADROOM + entries * BYTES_PER_ENTRY > 2 << 30
    budget = Budget()
    solve(CHESS, start, mate=2, budget=budget)  # the default table, and room for it
    assert budget.memory_allowed == MEMORY_HEADROOM + table_entries(None) * BYTES_PER_ENTRY
    refused = run("solve", "chess", MATE_IN_2, "--mate", "2", "--tt-size", "lots")
    assert refused.returncode == 2 and refused.stderr.strip().startswith("error: table size 'lots'")


def test_full_mate_tables_stop_storing_and_the_answer_stays_exact() -> None:
    from perfectplay.search.limits import Budget
    from perfectplay.search.mate import MateSearch
    mate_in_3 = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1"
    search = MateSearch(CHESS, Budget(), table_entries=64)
    assert search.shortest_win(CHESS.parse_position(mate_in_3), 3) == 3
    assert search.stored() == 64 and search.nodes > 64


def test_the_mate_tables_keep_compact_keys_not_positions_with_their_move_lists() -> None:
    from perfectplay.games.chess.rules import ChessPosition
    from perfectplay.search.limits import Budget
    from perfectplay.search.mate import MateSearch
    search = MateSearch(CHESS, Budget())
    assert search.shortest_win(CHESS.parse_position(MATE_IN_2), 3) == 2
    keys = [*search.wins, *search.no_win, *search.lost, *search.not_lost]
    assert keys and not any(isinstance(key, ChessPosition) for key in keys)
    # Exact: equal positions share a key, and one repetition apart is another position.
    twice = "startpos moves Nf3 Nf6 Ng1 Ng8"
    assert CHESS.exact_key(CHESS.parse_position(twice)) == CHESS.exact_key(CHESS.parse_position(twice))
    assert CHESS.exact_key(CHESS.parse_position(twice)) != CHESS.exact_key(CHESS.start())


def test_the_last_move_of_a_mate_is_looked_for_among_the_checks_only() -> None:
    # Only a check can mate: every mating move is among Chess.deciding_moves, which are the
    # checks, and the search then tries no other last move (7,084 nodes before).
    board = chess.Board(SCHOLARS)
    mating = {move for move in board.legal_moves if board.gives_check(move) and _mates(board, move)}
    checks = {move for move in board.legal_moves if board.gives_check(move)}
    assert mating and set(CHESS.deciding_moves(CHESS.parse_position(SCHOLARS))) == checks >= mating
    from perfectplay.search.mate import find_mate
    refuted = find_mate(CHESS, CHESS.start(), 3)
    assert refuted.moves is None and refuted.nodes < 1_000


def _mates(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()

"""Independent algorithms must agree: alpha-beta and tables change the cost, never the value."""

from __future__ import annotations

import random

import pytest

from perfectplay import analyze, registry, solve
from perfectplay import value as V
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.search.limits import UNLIMITED_DEPTH, Budget
from perfectplay.search.perft import reachable_positions
from perfectplay.search.rules import Rules
from perfectplay.search.solver import make_searcher
from perfectplay.verify import verify

GAMES = ["takeaway", "nim", "matchgame", "crates", "claim", "tictactoe"]


@pytest.mark.parametrize("game", GAMES)
def test_every_algorithm_agrees_with_minimax_on_random_small_positions(game: str) -> None:
    report = verify(registry.resolve(game), cases=25, seed=7)
    assert report.cases == 25
    assert report.checks >= 25 * 6
    assert report.mismatches == []


def test_verify_checks_connect4s_own_python_method_too() -> None:
    # null-window (perfectplay.games.connect4) answers Connect Four only: verify adds it there.
    small = registry.resolve("connect4", {"width": 4, "height": 4})
    with_it = verify(small, cases=10, seed=4)
    assert with_it.mismatches == []
    tictactoe = verify(registry.resolve("tictactoe"), cases=10, seed=4)
    # One more value check per case than a game without a game-specific method.
    assert with_it.checks - tictactoe.checks == 10


def test_misere_nim_algorithms_agree_with_minimax() -> None:
    report = verify(registry.resolve("nim", {"misere": True}), cases=25, seed=3)
    assert report.mismatches == []


def test_right_blocking_claim_line_algorithms_agree_with_minimax() -> None:
    report = verify(registry.resolve("claim", {"block": "right"}), cases=25, seed=5)
    assert report.mismatches == []


def _reachable_tictactoe() -> list[int]:
    return sorted(reachable_positions(TicTacToe(), 0))


def test_tt_and_memo_agree_on_every_reachable_tictactoe_position() -> None:
    game = TicTacToe()
    rules = Rules(game)
    reference = make_searcher("memo", rules, Budget(), None)
    for position in _reachable_tictactoe():
        fast = make_searcher("tt", rules, Budget(), 4096)  # a fresh table for each position
        exact = reference.search(position, -V.INFINITY, V.INFINITY, 0, UNLIMITED_DEPTH)
        assert fast.search(position, -V.INFINITY, V.INFINITY, 0, UNLIMITED_DEPTH) == exact, \
            game.format_position(position)


def test_tt_finds_the_same_optimal_moves_as_memo_on_sampled_tictactoe_positions() -> None:
    game = TicTacToe()
    for position in random.Random(5).sample(_reachable_tictactoe(), 300):
        exact = solve(game, position, algorithm="memo", pv_limit=0)
        fast = solve(game, position, algorithm="tt", pv_limit=0)
        assert (fast.value, sorted(fast.best_moves)) == (exact.value, sorted(exact.best_moves))


def test_alphabeta_agrees_with_minimax_on_sampled_tictactoe_positions() -> None:
    game = TicTacToe()
    positions = _reachable_tictactoe()
    for position in random.Random(11).sample(positions, 150):
        reference = solve(game, position, algorithm="minimax", pv_limit=0)
        pruned = solve(game, position, algorithm="alphabeta", pv_limit=0)
        assert (pruned.value, sorted(pruned.best_moves)) == (reference.value, sorted(reference.best_moves))


def test_alphabeta_prefers_the_fastest_win() -> None:
    # X to move can win at once on square 3, or later; the engine must take the immediate win.
    result = solve(TicTacToe(), TicTacToe().parse_position("XX./OO./..."), algorithm="alphabeta")
    assert result.remoteness == 1
    assert result.best_moves == ["3"]


def test_the_loser_delays_the_loss_as_long_as_possible() -> None:
    # O to move must block square 1; every other move loses at once, blocking loses later.
    game = TicTacToe()
    position = game.parse_position(".XX/.../..O")
    values = {move.notation: move.describe() for move in analyze(game, position, algorithm="tt")}
    assert values["1"] == "loss in 4"
    assert {values[square] for square in "45678"} == {"loss in 2"}
    result = solve(game, position, algorithm="alphabeta")
    assert (result.remoteness, result.best_moves) == (4, ["1"])


def test_outcome_only_drops_remoteness_and_visits_fewer_nodes() -> None:
    for algorithm, piles, outcome in (("tt", "7 5 3 1", "loss"), ("alphabeta", "4 3 2", "win")):
        game, start = registry.load("nim", {}, piles)
        full = solve(game, start, algorithm=algorithm, pv_limit=0)
        quick = solve(game, start, algorithm=algorithm, outcome_only=True, pv_limit=0)
        assert full.outcome == quick.outcome == outcome
        assert quick.remoteness is None and full.remoteness is not None
        assert quick.stats.nodes < full.stats.nodes


def test_table_on_and_off_give_the_same_analysis() -> None:
    game, start = registry.load("tictactoe", {}, "X.O/.X./...")
    with_table = [(m.notation, m.value) for m in analyze(game, start, algorithm="tt")]
    without = [(m.notation, m.value) for m in analyze(game, start, algorithm="alphabeta")]
    assert sorted(with_table) == sorted(without)


def test_a_tiny_table_still_gives_exact_answers() -> None:
    game, start = registry.load("nim", {}, "4 3 2 1")
    small = solve(game, start, algorithm="tt", table_size=16)
    reference = solve(game, start, algorithm="memo")
    assert (small.value, sorted(small.best_moves)) == (reference.value, sorted(reference.best_moves))

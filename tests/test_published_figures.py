"""Published figures, reproduced exactly: the take-away game's outcomes and call counts
(plain recursion 266,079 calls at 20 sticks, a memo table 58; multiples of four lose, as in
Berlekamp, Conway and Guy, *Winning Ways*), tic-tac-toe's game tree (549,946 minimax nodes,
5,478 positions, 255,168 games), the crate-line and claim-line contest samples, and Nim by
Bouton's XOR rule (1902)."""

from __future__ import annotations

import pytest
from conftest import solved

from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.search.perft import perft, reachable_positions


def test_takeaway_outcomes_one_to_eight_are_three_wins_then_a_loss() -> None:
    words = [solved("takeaway", str(n)).outcome for n in range(1, 9)]
    assert words == ["win", "win", "win", "loss", "win", "win", "win", "loss"]


def test_takeaway_twenty_plain_recursion_makes_266079_calls() -> None:
    result = solved("takeaway", "20", algorithm="minimax", pv_limit=0)
    assert result.outcome == "loss"
    assert result.stats.nodes == 266_079


def test_takeaway_twenty_memoized_makes_58_calls_with_the_same_answer() -> None:
    plain = solved("takeaway", "20", algorithm="minimax", pv_limit=0)
    cached = solved("takeaway", "20", algorithm="memo", pv_limit=0)
    assert cached.stats.nodes == 58
    assert cached.value == plain.value


@pytest.mark.parametrize("n", range(0, 41))
def test_takeaway_multiples_of_four_lose(n: int) -> None:
    assert (solved("takeaway", str(n)).outcome == "loss") == (n % 4 == 0)


def test_tictactoe_is_a_draw_with_549946_minimax_nodes() -> None:
    result = solved("tictactoe", algorithm="minimax", pv_limit=0)
    assert result.outcome == "draw"
    assert result.stats.nodes == 549_946


def test_alphabeta_needs_far_fewer_nodes_than_minimax_on_tictactoe() -> None:
    pruned = solved("tictactoe", algorithm="alphabeta", pv_limit=0)
    with_table = solved("tictactoe", algorithm="tt", pv_limit=0)
    assert pruned.outcome == with_table.outcome == "draw"
    assert pruned.stats.nodes < 549_946 // 20
    assert with_table.stats.nodes < pruned.stats.nodes // 5


def test_tictactoe_has_5478_reachable_positions() -> None:
    game = TicTacToe()
    seen = reachable_positions(game, game.start())
    assert len(seen) == 5478
    assert len({game.key(position) for position in seen}) == 765


@pytest.mark.parametrize("depth,count", [(1, 9), (2, 72), (3, 504), (4, 3024), (5, 15120),
                                         (6, 54720), (7, 148176), (8, 200448), (9, 127872)])
def test_tictactoe_perft_matches_the_published_counts(depth: int, count: int) -> None:
    game = TicTacToe()
    assert perft(game, game.start(), depth).count == count


def test_tictactoe_has_255168_complete_games() -> None:
    game = TicTacToe()
    assert perft(game, game.start(), 9, finished=True).finished_games == 255_168


@pytest.mark.parametrize("row,diff,mover,other", [("3 9 1", 11, 12, 1), ("4 1 7 2 9", 9, 16, 7),
                                                  ("5 1", 6, 6, 0), ("2 2 2", 2, 4, 2)])
@pytest.mark.parametrize("algorithm", ["minimax", "memo", "alphabeta", "tt"])
def test_crate_line_contest_samples(row: str, diff: int, mover: int, other: int, algorithm: str) -> None:
    result = solved("crates", row, algorithm=algorithm)
    assert result.value == diff
    assert result.totals == (mover, other)


def test_crate_line_three_nine_one_is_won_by_taking_the_two_leftmost() -> None:
    result = solved("crates", "3 9 1")
    assert result.best_moves == ["LL"]
    assert result.pv == ["LL", "L"] or result.pv == ["LL", "R"]


def test_claim_line_outcomes_one_to_twelve_lose_only_at_four_and_eight() -> None:
    letters = ["W" if solved("claim", str(n)).outcome == "win" else "L" for n in range(1, 13)]
    assert " ".join(letters) == "W W W L W W W L W W W W"


def test_claim_line_twenty_loses() -> None:
    assert solved("claim", "20", pv_limit=0).outcome == "loss"


def test_claim_line_five_is_won_only_by_the_middle_item() -> None:
    assert solved("claim", "5").best_moves == ["2"]


def test_claim_line_contest_samples() -> None:
    expected = {1: "win", 4: "loss", 8: "loss", 12: "win", 16: "win"}
    for n, outcome in expected.items():
        assert solved("claim", str(n), pv_limit=0).outcome == outcome


@pytest.mark.parametrize("piles,outcome", [("3 4 5", "win"), ("1 2 3", "loss"), ("7 5 3 1", "loss")])
def test_nim_outcomes_follow_the_xor_of_the_piles(piles: str, outcome: str) -> None:
    assert solved("nim", piles).outcome == outcome


def test_nim_seven_five_three_one_loses_under_misere_play_too() -> None:
    assert solved("nim", "7 5 3 1", {"misere": True}).outcome == "loss"


def test_matchgame_loses_for_the_player_to_move() -> None:
    assert solved("matchgame").outcome == "loss"

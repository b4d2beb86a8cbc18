"""The coin row: a second score game on the same table machinery, with its own brute force."""

from __future__ import annotations

import random

import pytest

from perfectplay import analyze, registry, solve
from perfectplay.games.coins import CoinRow, brute_force_first_total
from perfectplay.verify import verify

# Classic examples of "Optimal Strategy for a Game": the first player's best total.
KNOWN = [([8, 15, 3, 7], 22), ([2, 2, 2, 2], 4), ([20, 30, 2, 2, 2, 10], 42), ([5], 5), ([], 0)]


@pytest.mark.parametrize("coins, first_total", KNOWN)
def test_known_rows_give_the_published_first_player_totals(coins, first_total):
    found = solve(CoinRow(coins))
    assert found.algorithm == "table"
    assert found.totals == (first_total, sum(coins) - first_total)
    assert brute_force_first_total(coins) == first_total


def test_table_memo_tt_and_brute_force_agree_on_random_rows():
    rng = random.Random(6)
    for _ in range(120):
        coins = [rng.randint(0, 20) for _ in range(rng.randint(1, 12))]
        game = CoinRow(coins)
        expected = 2 * brute_force_first_total(coins) - sum(coins)
        for algorithm in ("table", "memo", "tt"):
            assert solve(game, algorithm=algorithm, pv_limit=0).value == expected


def test_with_an_even_number_of_coins_the_first_player_never_loses():
    rng = random.Random(7)
    for _ in range(100):
        coins = [rng.randint(0, 100) for _ in range(2 * rng.randint(1, 30))]
        assert solve(CoinRow(coins), pv_limit=0).value >= 0


def test_analyze_values_both_ends():
    moves = {m.notation: m.value for m in analyze(CoinRow([8, 15, 3, 7]), algorithm="table")}
    # After L (8), the opponent takes 15 and leads by 15 - (7 - 3) = 11 on 15 3 7.
    assert moves == {"R": 11, "L": 8 - 11}


def test_verify_coins_reports_no_mismatch():
    report = verify(registry.resolve("coins"), 40, seed=3)
    assert report.cases == 40 and report.checks > 0 and report.mismatches == []


def test_the_registry_finds_coins_by_alias_and_reads_contest_input():
    entry = registry.find("coin-row")
    game, start = entry.read_input("4\n8 15 3 7\n", "<test>")
    assert entry.name == "coins" and game.format_position(start) == "8 15 3 7"


def test_verify_crates_reports_no_mismatch_on_the_contest_test_family():
    report = verify(registry.resolve("crates"), 60, seed=1)
    assert report.cases == 60 and report.mismatches == []
    # Per row: memo, alphabeta, tt, id and table (value and best moves), tt and table
    # analysis of every move, df-pn (value and best moves) and the brute force.
    assert report.checks == 60 * 9

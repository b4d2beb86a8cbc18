"""--algorithm table: same values as search and brute force, no recursion, exact big values."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from perfectplay import Limits, analyze, solve
from perfectplay import value as V
from perfectplay.errors import UnsupportedSearch
from perfectplay.games.coins import CoinRow
from perfectplay.games.crates import CrateLine, brute_force_difference, random_row
from perfectplay.games.takeaway import TakeAway
from perfectplay.scoring.kernel import pick_dtype, solve_row
from perfectplay.search import tabulation
from perfectplay.search.limits import Budget
from perfectplay.search.rules import Rules

CRATE_TAKES = CrateLine.takes


def replay(game, line):
    """The lead the first player gets by following ``line`` from the start."""
    position, lead, sign = game.start(), 0, 1
    for move in line:
        lead += sign * game.gain(position, move)
        position, sign = game.play(position, move), -sign
    return lead, position


def test_auto_solves_the_crate_line_with_table():
    assert solve(CrateLine([3, 9, 1])).algorithm == "table"


def test_table_matches_memo_and_brute_force_on_the_contest_test_family():
    rng = random.Random(2)
    for _ in range(150):
        game = CrateLine(random_row(rng))
        tabulated = solve(game, algorithm="table")
        searched = solve(game, algorithm="memo")
        assert tabulated.value == searched.value == brute_force_difference(list(game.values))
        assert sorted(tabulated.best_moves) == sorted(searched.best_moves)
        assert tabulated.pv == searched.pv          # both keep the first move that holds the value
        assert tabulated.totals == searched.totals


def test_the_line_replays_to_the_value_and_ends_the_game():
    rng = random.Random(3)
    for game_class in (CrateLine, CoinRow):
        for _ in range(40):
            game = game_class([rng.randint(0, 50) for _ in range(rng.randint(0, 30))])
            found = solve(game, algorithm="table", pv_limit=10_000)
            lead, end = replay(game, found.pv)
            assert lead == found.value and end[0] == end[1]


def test_the_kernel_agrees_with_the_dict_tabulation():
    rng = random.Random(4)
    for game_class in (CrateLine, CoinRow):
        for _ in range(30):
            game = game_class([rng.randint(0, 1000) for _ in range(rng.randint(0, 40))])
            rules = Rules(game)
            searcher = tabulation.build(game, rules, Budget(), game.start())
            from_dict = searcher.search(game.start(), 0, 0, 0, 0)
            assert from_dict == solve_row(game.values, game.takes).value


def test_nodes_count_every_range_tabulated():
    n = 25
    found = solve(CrateLine(list(range(n))), algorithm="table", pv_limit=0)
    assert found.stats.nodes == (n + 1) * (n + 2) // 2
    rules = Rules(CrateLine(list(range(n))))
    generic = tabulation.build(rules.game, rules, Budget(), rules.game.start())
    assert generic.counters().nodes == found.stats.nodes


def test_analyze_with_table_values_every_move_like_memo():
    rng = random.Random(5)
    for _ in range(30):
        game = CrateLine(random_row(rng))
        by_table = [(m.notation, m.value) for m in analyze(game, algorithm="table")]
        by_memo = [(m.notation, m.value) for m in analyze(game, algorithm="memo")]
        assert sorted(by_table) == sorted(by_memo)


@pytest.mark.parametrize("misere", [False, True])
def test_takeaway_piles_by_size_match_memo_with_distance(misere):
    game = TakeAway((1, 3, 4), misere=misere)
    for pile in range(40):
        tabulated = solve(game, pile, algorithm="table")
        searched = solve(game, pile, algorithm="memo")
        assert (tabulated.value, sorted(tabulated.best_moves)) == \
               (searched.value, sorted(searched.best_moves))
        assert tabulated.stats.nodes == pile + 1
        quick = solve(game, pile, algorithm="table", outcome_only=True)
        assert quick.value == (searched.value > 0) - (searched.value < 0)


def test_table_never_recurses():
    # Called directly, outside the deep-stack thread, under a tiny frame limit.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(150)
    try:
        crates = CrateLine([7] * 3001)
        found = tabulation.solve(crates, Rules(crates), crates.start(), Budget(), 0)
        sticks = TakeAway()
        deep = tabulation.solve(sticks, Rules(sticks), 20_000, Budget(), 0)
    finally:
        sys.setrecursionlimit(limit)
    assert found.value == 7        # equal crates: n % 4 = 0, 1, 2, 3 is worth 0, c, 2c, c
    assert deep.value == V.loss_in(10_000) and deep.optimal == [1, 2, 3]


def test_equal_crates_follow_their_period_of_four():
    for n in range(14):
        expected = (0, 5, 10, 5)[n % 4]
        assert solve(CrateLine([5] * n), algorithm="table").value == expected
        assert solve(CrateLine([5] * n), algorithm="memo").value == expected


def test_table_refuses_a_depth_and_games_without_an_order():
    with pytest.raises(UnsupportedSearch):
        solve(CrateLine([1, 2]), algorithm="table", limits=Limits(depth=2))
    from perfectplay.games.nim import Nim
    with pytest.raises(UnsupportedSearch, match="declares an order"):
        solve(Nim(), (3, 4, 5), algorithm="table")


# -- exact arithmetic ---------------------------------------------------------------------
def test_the_dtype_is_chosen_from_the_row_sum_up_front():
    assert pick_dtype([2**31 - 1]) is np.int32
    assert pick_dtype([2**31 - 2, 1]) is np.int32
    assert pick_dtype([2**30, 2**30]) is np.int64
    assert pick_dtype([2**62, 2**62 - 1]) is np.int64
    assert pick_dtype([2**62, 2**62]) is object
    assert pick_dtype([10**18] * 10) is object


@pytest.mark.parametrize("scale", [2**31 // 12, 2**63 // 12, 10**18, 2**70])
def test_values_near_and_beyond_each_integer_width_are_exact(scale):
    rng = random.Random(scale % 1000)
    for _ in range(25):
        row = [scale - rng.randint(0, 3) for _ in range(rng.randint(1, 11))]
        assert solve_row(row, CRATE_TAKES).value == brute_force_difference(row)
        assert solve(CrateLine(row), algorithm="memo").value == brute_force_difference(row)


def test_totals_beyond_2_to_the_63_are_exact():
    row = [10**18 + 7 * i for i in range(300)]
    found = solve(CrateLine(row), algorithm="table", pv_limit=0)
    mover, other = found.totals
    assert mover + other == sum(row) > 2**63
    assert mover - other == found.value
    # The optimal line, replayed in Python ints, gives the same lead; and memo (exact
    # Python ints throughout) agrees on a shorter row of the same size of values.
    with_line = solve(CrateLine(row), algorithm="table", pv_limit=10_000)
    assert replay(CrateLine(row), with_line.pv)[0] == with_line.value == found.value
    shorter = CrateLine(row[:120])
    assert solve(shorter, algorithm="table").value == solve(shorter, algorithm="memo").value


def test_int32_rows_at_the_limit_do_not_wrap():
    # Sum exactly 2^31 - 1: int32 is used; every quantity stays within the sum.
    row = [2**31 - 1 - 3 * (2**28)] + [2**28] * 3
    assert pick_dtype(row) is np.int32
    assert solve_row(row, CRATE_TAKES).value == brute_force_difference(row)


def test_table_solves_positions_in_the_middle_of_a_game_like_memo():
    rng = random.Random(8)
    for game_class in (CrateLine, CoinRow):
        game = game_class([rng.randint(0, 30) for _ in range(14)])
        for left in range(0, 14, 3):
            for right in range(left, 15, 4):
                tabulated = solve(game, (left, right), algorithm="table")
                searched = solve(game, (left, right), algorithm="memo")
                assert (tabulated.value, tabulated.best_moves, tabulated.pv, tabulated.totals) == \
                       (searched.value, searched.best_moves, searched.pv, searched.totals)

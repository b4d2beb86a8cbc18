"""Sprague-Grundy theory against plain search: Nim, misère Nim, subtraction games, the claim
line, octal games; declared components checked by brute force."""

from __future__ import annotations

import random
import time

import pytest

from perfectplay import analyze, solve
from perfectplay import value as V
from perfectplay.errors import ComponentMismatch, NotImpartial, UnsupportedSearch
from perfectplay.games.claim import ClaimLine
from perfectplay.games.nim import Nim
from perfectplay.games.octal import OctalGame
from perfectplay.games.takeaway import TakeAway
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.impartial.grundy import GrundyValues, check_components, grundy_value
from perfectplay.impartial.octal import analyse, parse_code, subtraction_code
from perfectplay.solving import resolve_algorithm


def winning_moves_by_search(game, position, reference):
    """The moves a search values as wins for their player, and the root outcome. Plain
    minimax where the tree is small; tt (checked against minimax by `perfectplay verify`)
    where it is not."""
    moves = analyze(game, position, algorithm=reference)
    root = solve(game, position, algorithm=reference, pv_limit=0)
    return {m.notation for m in moves if m.value > 0}, root.outcome


def assert_theory_matches_search(game, position, reference="tt"):
    theory = solve(game, position, algorithm="grundy")
    wins, outcome = winning_moves_by_search(game, position, reference)
    assert theory.outcome == outcome, game.format_position(position)
    if outcome == "win":
        assert set(theory.best_moves) == wins, game.format_position(position)
    theory_moves = {m.notation: m.value > 0 for m in analyze(game, position, algorithm="grundy")}
    assert {name for name, won in theory_moves.items() if won} == wins


def test_nim_xor_rule_agrees_with_search_on_random_positions():
    rng = random.Random(4)
    game = Nim()
    for _ in range(60):
        piles = tuple(rng.randrange(0, 5) for _ in range(rng.randrange(1, 4)))
        assert_theory_matches_search(game, piles, "minimax")


def test_misere_nim_rule_agrees_with_search_on_random_positions():
    rng = random.Random(7)
    game = Nim(misere=True)
    for _ in range(60):
        piles = tuple(rng.randrange(0, 5) for _ in range(rng.randrange(1, 4)))
        assert_theory_matches_search(game, piles, "minimax")


def test_subtraction_games_agree_with_search():
    rng = random.Random(11)
    for _ in range(12):
        takes = tuple(sorted(rng.sample(range(1, 8), rng.randrange(1, 4))))
        game = TakeAway(takes)
        for pile in rng.sample(range(40), 5):
            assert_theory_matches_search(game, pile, "minimax" if pile < 20 else "tt")


def test_subtraction_periods_match_memoised_grundy_search():
    rng = random.Random(3)
    for _ in range(10):
        takes = tuple(sorted(rng.sample(range(1, 12), rng.randrange(1, 5))))
        analysis = analyse(subtraction_code(takes))
        assert analysis.periodicity is not None and analysis.periodicity.certified
        values = GrundyValues(TakeAway(takes))
        assert [analysis.grundy(n) for n in range(400)] == [values.of(n) for n in range(400)]


@pytest.mark.parametrize("block", ["both", "right"])
def test_claim_positions_agree_with_search(block):
    rng = random.Random(5)
    for _ in range(40):
        game = ClaimLine(12, block=block)
        position = game.random_position(rng)
        assert_theory_matches_search(ClaimLine(position[0], block=block), position)


def test_octal_heaps_agree_with_search():
    rng = random.Random(9)
    for code in ("0.77", "0.137", "4.07", "0.16"):
        game = OctalGame(code)
        for _ in range(8):
            assert_theory_matches_search(game, game.random_position(rng))


@pytest.mark.parametrize("block,code", [("both", "0.137"), ("right", "0.37")])
def test_the_claim_line_is_an_octal_game(block, code):
    """Plain mex over whole rows (no components used) against the octal game's sequence."""
    octal = analyse(parse_code(code), 256)
    for n in range(15):
        whole = GrundyValues(ClaimLine(n, block=block), use_components=False).of((n, 0))
        assert whole == octal.grundy(n), n


def test_claim_outcomes_for_one_to_twelve():
    words = ["W" if solve(ClaimLine(n), (n, 0)).outcome == "win" else "L" for n in range(1, 13)]
    assert " ".join(words) == "W W W L W W W L W W W W"


def test_five_item_claim_has_one_winning_move_the_middle():
    assert solve(ClaimLine(5), (5, 0)).best_moves == ["2"]


def test_claim_of_a_huge_row_is_answered_by_the_certified_period():
    started = time.perf_counter()
    result = solve(ClaimLine(), (10**18, 0), pv_limit=10)
    assert time.perf_counter() - started < 10.0  # a guard against enumerating, not a benchmark
    assert result.outcome == ("win" if analyse(parse_code("0.137")).grundy(10**18) else "loss")
    odd = solve(ClaimLine(), (10**18 + 1, 0), pv_limit=0)
    assert odd.outcome == "win"  # the middle item splits the row into two equal runs


def test_mid_game_claim_positions_are_sums_of_runs():
    game = ClaimLine(30)
    position = game.parse_position("..x.....x.........x..........")
    runs = game.runs(position)
    assert [length for _, length in runs] == [1, 3, 7, 9]
    expected = 0
    for length in (1, 3, 7, 9):
        expected ^= analyse(parse_code("0.137")).grundy(length)
    assert solve(game, position).grundy == expected


@pytest.mark.parametrize("game", [Nim(), ClaimLine(12), ClaimLine(12, block="right"),
                                  OctalGame("0.77"), OctalGame("4.07"), TakeAway((1, 3, 4))])
def test_declared_components_match_brute_force(game):
    rng = random.Random(2)
    positions = [game.random_position(rng) for _ in range(30)]
    if isinstance(game, ClaimLine):
        games = [(ClaimLine(p[0], block=game.block), p) for p in positions]
        assert sum(check_components(g, [p]) for g, p in games) == 30
    else:
        assert check_components(game, positions) == len(positions)


class WrongSplitNim(Nim):
    """Declares the first pile alone as its components: a broken sum."""

    def components(self, piles):
        return [piles[:1]]


def test_a_wrong_component_declaration_is_caught():
    with pytest.raises(ComponentMismatch, match="XOR"):
        check_components(WrongSplitNim(), [(1, 2), (3, 0)])


def test_nim_with_a_hundred_huge_piles_is_solved_without_listing_moves():
    rng = random.Random(1)
    piles = tuple(rng.randrange(1, 10**9) for _ in range(100))
    never_listed = Nim()
    never_listed.moves = None  # type: ignore[assignment]  # listing 10^11 moves would fail here
    result = solve(never_listed, piles)
    total = 0
    for pile in piles:
        total ^= pile
    assert result.outcome == ("win" if total else "loss") and result.remoteness is None
    row, take = Nim().parse_move(piles, result.best_moves[0])
    after = Nim().play(piles, (row, take))
    check = 0
    for pile in after:
        check ^= pile
    assert check == 0


def test_auto_uses_theory_for_impartial_sums_and_search_elsewhere():
    assert resolve_algorithm(Nim(), "auto") == "grundy"
    assert resolve_algorithm(Nim(misere=True), "auto") == "grundy"
    assert resolve_algorithm(ClaimLine(), "auto") == "grundy"
    assert resolve_algorithm(TakeAway(misere=True), "auto") == "memo"
    assert resolve_algorithm(TicTacToe(), "auto") == "tt"


def test_auto_with_a_search_budget_searches():
    from perfectplay import Limits
    budgeted = solve(Nim(), (3, 4, 5), limits=Limits(nodes=100_000))
    assert budgeted.algorithm != "grundy" and budgeted.remoteness == 11
    moves = analyze(Nim(), (3, 4, 5), limits=Limits(time=5.0))
    assert min(m.remoteness for m in moves if m.value > 0) == 11


def test_theory_answers_say_remoteness_needs_search():
    result = solve(Nim(), (3, 4, 5))
    assert result.value == V.WIN_ONLY and result.remoteness is None
    assert "--algorithm tt" in result.describe()
    assert result.as_dict()["grundy"] == 2


def test_other_misere_games_are_not_treated_as_normal_play():
    with pytest.raises(UnsupportedSearch, match="misère"):
        solve(TakeAway(misere=True), 10, algorithm="grundy")
    assert solve(TakeAway(misere=True), 5).outcome == solve(TakeAway(misere=True), 5, algorithm="tt").outcome


def test_grundy_values_need_an_impartial_game():
    with pytest.raises(NotImpartial, match="not an impartial game"):
        grundy_value(TicTacToe())


def test_grundy_search_needs_no_recursion_limit():
    assert grundy_value(TakeAway((1, 2, 3)), 200_000) == 0
    assert grundy_value(TakeAway((1, 2, 3)), 200_001) == 1


class EndlessPile(TakeAway):
    """Take one, or put one back: play can cycle."""

    def moves(self, pile):
        return [1, -1] if pile else []


def test_a_game_that_can_cycle_is_refused_not_looped():
    with pytest.raises(UnsupportedSearch, match="always end"):
        grundy_value(EndlessPile(), 3)

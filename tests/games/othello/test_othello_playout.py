"""Othello's compiled playouts (games/othello/playout.py) against the Python rules: every move
a playout makes is legal there and its result is the rules' score; on 4x4 the results are
distributed as the exact distribution of uniformly random play, computed from the rules; and
Monte Carlo tree search, which plays its playouts with them, still finds the winning move."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from functools import cache

import pytest

from perfectplay.game import has_compiled_playouts
from perfectplay.games.othello.rules import PASS, Othello, Position
from perfectplay.mcts.tree import Search, compiled_playouts
from perfectplay.search.limits import Budget, Limits

pytest.importorskip("numba")

from perfectplay.games.othello.playout import RandomPlayouts  # noqa: E402 - needs numba

# The 0.1% point of the chi-squared distribution with 16 degrees of freedom (4x4 has 17
# results of uniformly random play, -16 to +16 in steps of 2).
CHI_SQUARED_16_AT_0_1_PERCENT = 39.25


def random_position(game: Othello, rng: random.Random) -> Position:
    position = game.start()
    for _ in range(rng.randrange(0, game.size * game.size)):
        moves = game.moves(position)
        if not moves:
            break
        position = game.play(position, rng.choice(moves))
    return position


def replayed_margin(game: Othello, position: Position, line: list[int]) -> int:
    """The margin the rules give the mover at ``position`` for playing ``line`` (each move
    checked legal there) and then the passes that end a blocked game."""
    margin, sign = 0, 1
    for move in line:
        assert move in game.moves(position), (game.format_position(position), move)
        margin += sign * game.gain(position, move)
        position, sign = game.play(position, move), -sign
    while game.moves(position) == [PASS]:
        margin += sign * game.gain(position, PASS)
        position, sign = game.play(position, PASS), -sign
    assert not game.moves(position)
    return margin


@pytest.mark.parametrize("size", [4, 6, 8])
def test_a_playouts_moves_replayed_through_the_rules_end_in_its_result(size: int) -> None:
    game = Othello(size)
    playouts = RandomPlayouts(game)
    rng = random.Random(size)
    passes = 0
    for seed in range(60):
        position = random_position(game, rng)
        margin, line = playouts.line(position, seed)
        assert replayed_margin(game, position, line) == margin
        assert playouts(position, 1, seed) == [margin]  # the call's first playout is this one
        passes += line.count(PASS)
    assert passes > 0  # the seeds reach passes in mid-game, where the rules pass too


def test_the_passes_that_end_a_blocked_game_give_the_empty_cells_and_then_nothing() -> None:
    game = Othello(4)
    playouts = game.compiled_playouts()
    assert playouts is not None
    blocked = game.play(game.parse_position(".BWW/.BWW/.WWW/WWWW W passes 1"), 0)  # a1 takes all
    # Black, with no disc left, loses the two empty cells (a2, a3) to White by the passes
    assert playouts(blocked, 2, 1) == [replayed_margin(game, blocked, [])] * 2 == [-2, -2]
    ended = game.play(game.play(blocked, PASS), PASS)
    assert not game.moves(ended) and playouts(ended, 3, 1) == [0, 0, 0]


FOUR = Othello(4)


@cache
def exact_distribution(position: Position) -> dict[int, float]:
    """The probability of each margin uniformly random play gains for the mover on 4x4."""
    game = FOUR
    moves = game.moves(position)
    if not moves:
        return {0: 1.0}
    found: defaultdict[int, float] = defaultdict(float)
    for move in moves:
        gain = game.gain(position, move)
        for rest, chance in exact_distribution(game.play(position, move)).items():
            found[gain - rest] += chance / len(moves)
    return dict(found)



def chi_squared(results: list[int], expected: dict[int, float]) -> float:
    counts = Counter(results)
    assert set(counts) <= set(expected)
    return sum((counts[value] - len(results) * chance) ** 2 / (len(results) * chance)
               for value, chance in expected.items())


def test_compiled_and_python_playouts_follow_the_exact_distribution_of_random_play() -> None:
    start = FOUR.start()
    expected = exact_distribution(start)
    assert len(expected) == 17 and abs(sum(expected.values()) - 1) < 1e-9
    playouts = FOUR.compiled_playouts()
    assert playouts is not None
    assert chi_squared(list(playouts(start, 100_000, 1)), expected) < CHI_SQUARED_16_AT_0_1_PERCENT
    python = Search(FOUR, start, Budget(Limits(nodes=1)), seed=1, compiled=False)
    assert python.compiled is None
    sampled = [python.playout(start)[1] for _ in range(3_000)]  # type: ignore[index]
    assert chi_squared(sampled, expected) < CHI_SQUARED_16_AT_0_1_PERCENT


def test_a_seed_gives_the_same_playouts_and_another_seed_others() -> None:
    playouts = Othello(8).compiled_playouts()
    assert playouts is not None
    start = Othello(8).start()
    assert playouts(start, 50, 7) == playouts(start, 50, 7) != playouts(start, 50, 8)


def test_the_capability_is_declared_by_the_class_and_10x10_plays_out_in_python() -> None:
    assert has_compiled_playouts(Othello(10)) and compiled_playouts(Othello(10)) is None
    assert compiled_playouts(Othello(6)) is not None


@pytest.mark.parametrize("size, text, winning", [
    (4, ".BWW/.BWW/.WWW/WWWW W passes 1", "a1"),
    (6, "....../.W..../.WBBBB/BWBBB./.WB.../.B.... B", "b1"),
    (8, "......../......../..B..B../..BWBB../..BBWB../....BW../.....BW./........ B", "h8"),
])
def test_mcts_with_compiled_playouts_finds_the_move_that_takes_every_disc(
        size: int, text: str, winning: str) -> None:
    game = Othello(size)
    position = game.parse_position(text)
    search = Search(game, position, Budget(Limits(nodes=2_000)), seed=1)
    assert search.compiled is not None
    search.run()
    assert search.counters.simulations == 2_000
    assert game.format_move(position, search.ranked()[0].move) == winning

"""Dots and Boxes past the table: the chain-rule kernel (games/dots/chains.py) against the
numba table and a search without its rules, the board's symmetries, the book of solved
openings, and which positions a user's command solves exactly."""

from __future__ import annotations

import random

import pytest
from conftest import run_cli

from perfectplay import analyze, solve
from perfectplay.compiled import numba_available
from perfectplay.games.dots.book import opening
from perfectplay.games.dots.rules import DotsAndBoxes
from perfectplay.games.dots.symmetry import distinct_lines, image, symmetries

pytestmark = pytest.mark.skipif(not numba_available(), reason="numba is not installed")
# Each chain rule alone (games/dots/chains.py), then all of them.
RULES = (1, 2, 4, 8, 16, 32, 63)


def random_drawn(game: DotsAndBoxes, rng: random.Random, most_left: int) -> int:
    """A random set of lines with at most ``most_left`` lines left undrawn."""
    drawn = 0
    for line in rng.sample(range(game.edges), rng.randrange(max(0, game.edges - most_left), game.edges + 1)):
        drawn |= 1 << line
    return drawn


@pytest.mark.parametrize(("width", "height"), [(2, 2), (3, 2), (3, 3)])
def test_each_chain_rule_keeps_the_value_of_random_positions(width: int, height: int) -> None:
    from perfectplay.games.dots.chains import Searcher
    from perfectplay.games.dots.kernel import table
    game = DotsAndBoxes(width, height)
    exact, _ = table(game)
    plain = Searcher(game, rules=0, table_bits=16, use_symmetry=False)
    ruled = {rules: Searcher(game, rules=rules, table_bits=16) for rules in RULES}
    rng = random.Random(width * 10 + height)
    for _ in range(40):
        drawn = random_drawn(game, rng, 15)
        expected = int(exact[drawn])
        assert plain.value(drawn) == expected
        found = {rules: searcher.value(drawn) for rules, searcher in ruled.items()}
        assert found == dict.fromkeys(RULES, expected)


def test_3x3_is_minus_three_after_every_first_line_by_the_chain_search() -> None:
    from perfectplay.games.dots.chains import Searcher
    game = DotsAndBoxes(3, 3)
    searcher = Searcher(game, table_bits=18)
    assert searcher.value(0) == -3
    assert set(searcher.move_values(0).values()) == {-3}


def test_a_position_and_its_images_under_the_board_symmetries_have_one_value() -> None:
    from perfectplay.games.dots.chains import Searcher
    rng = random.Random(8)
    for width, height, count in ((4, 4, 8), (4, 3, 4)):
        game = DotsAndBoxes(width, height)
        assert len(symmetries(game)) == count
        keyed, unkeyed = Searcher(game, table_bits=18), Searcher(game, table_bits=18, use_symmetry=False)
        for _ in range(4):
            drawn = random_drawn(game, rng, 18)
            values = {unkeyed.value(image(drawn, lines)) for lines in symmetries(game)}
            assert values == {keyed.value(drawn)}


def test_the_first_lines_of_a_square_fall_into_classes_of_eight_or_four() -> None:
    game = DotsAndBoxes(4, 4)
    groups = distinct_lines(game, 0)
    assert sorted(len(group) for group in groups) == [4, 4, 8, 8, 8, 8]
    assert sum(len(group) for group in groups) == game.edges


def test_the_kernel_agrees_with_the_python_search_on_random_4x4_positions() -> None:
    game = DotsAndBoxes(4, 4)
    rng = random.Random(44)
    for _ in range(5):
        position = game.start()
        while game.edges - position[0].bit_count() > 8:
            position = game.play(position, rng.choice(game.legal_moves(position)))
        fast = solve(game, position, engine="compiled", pv_limit=0)
        slow = solve(game, position, algorithm="tt", engine="python", pv_limit=0)
        assert fast.algorithm == "dots-chains"
        assert (fast.value, sorted(fast.best_moves)) == (slow.value, sorted(slow.best_moves))


def test_a_user_solves_4x4_exactly_from_30_lines_left_and_estimates_before() -> None:
    game = DotsAndBoxes(4, 4)
    rng = random.Random(3)
    position = game.start()
    while game.edges - position[0].bit_count() > 31:
        position = game.play(position, rng.choice(game.legal_moves(position)))
    assert not game.solvable(position)
    position = game.play(position, game.legal_moves(position)[0])
    assert game.solvable(position)


def test_the_book_reads_a_board_and_refuses_a_damaged_entry() -> None:
    game = DotsAndBoxes(3, 3)
    start = game.start()
    lines = {game.format_move(start, group[0]): -3 for group in distinct_lines(game, 0)}
    found = opening(game, {"3x3": {"value": -3, "first_lines": lines, "source": "test"}})
    assert found is not None and found.value == -3 and set(found.lines) == set(range(24))
    with pytest.raises(ValueError, match="3x3 entry is damaged"):
        opening(game, {"3x3": {"value": -1, "first_lines": lines, "source": "test"}})


def test_a_book_entry_answers_its_board_turned_a_quarter() -> None:
    from perfectplay.games.dots.chains import Searcher
    wide, tall = DotsAndBoxes(3, 2), DotsAndBoxes(2, 3)
    start = wide.start()
    by_search = Searcher(wide, table_bits=16).move_values(0)
    lines = {wide.format_move(start, group[0]): by_search[group[0]] for group in distinct_lines(wide, 0)}
    entry = {"3x2": {"value": max(lines.values()), "first_lines": lines, "source": "test"}}
    found = opening(tall, entry)
    assert found is not None and found.lines == Searcher(tall, table_bits=16).move_values(0)


def test_the_shipped_book_answers_4x3_at_once_a_draw_by_a_centre_line() -> None:
    game = DotsAndBoxes(4, 3)
    solution = solve(game, engine="auto")
    assert solution.algorithm == "dots-book" and solution.value == 0
    assert sorted(solution.best_moves) == ["c1-c2", "c2-c3", "c3-c4"]
    valued = analyze(game, engine="auto")
    assert len(valued) == 31 and sorted({mv.value for mv in valued}) == [-2, 0]
    assert game.solvable(game.start())


def test_the_cli_answers_4x3_and_4x4_from_the_book_and_refuses_5x4_in_one_line() -> None:
    done = run_cli("solve", "dots", "--width", "4", "--height", "3", timeout=60)
    assert done.returncode == 0, done.stderr
    assert "value: +0" in done.stdout and "dots-book" in done.stdout
    # 4x4: a tie, as David Wilson's analysis has it (wilson.engr.wisc.edu/boxes/results.shtml).
    done = run_cli("solve", "dots", "--width", "4", "--height", "4", timeout=60)
    assert done.returncode == 0, done.stderr
    assert "value: +0" in done.stdout and "dots-book" in done.stdout
    done = run_cli("solve", "dots", "--width", "5", "--height", "4", timeout=60)
    assert done.returncode == 2 and "too big to solve exactly" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_shipped_book_has_every_first_line_of_4x4_a_tie() -> None:
    found = opening(DotsAndBoxes(4, 4))
    assert found is not None
    assert found.value == 0 and len(found.lines) == 40 and set(found.lines.values()) == {0}


def test_positions_differing_in_a_corners_border_line_share_the_table_and_keep_their_values() -> None:
    from perfectplay.games.dots.chains import Searcher, board
    from perfectplay.games.dots.kernel import table
    game = DotsAndBoxes(3, 3)
    exact, _ = table(game)
    borders = board(game).borders
    assert len(borders) == 4  # the four corner boxes, two border lines each
    searcher = Searcher(game, table_bits=12)  # small: the swapped positions meet in it
    rng = random.Random(5)
    swapped = 0
    for _ in range(60):
        drawn = random_drawn(game, rng, 16)
        expected = int(exact[drawn])
        assert searcher.value(drawn) == expected
        for lines in borders[:, 0]:
            ends = [line for line in range(game.edges) if int(lines) >> line & 1]
            if (drawn >> ends[0] & 1) != (drawn >> ends[1] & 1):
                other = drawn ^ (1 << ends[0]) ^ (1 << ends[1])
                assert int(exact[other]) == expected
                assert searcher.value(other) == expected
                swapped += 1
    assert swapped > 30

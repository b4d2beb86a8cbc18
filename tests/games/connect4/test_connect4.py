"""Connect Four: the rules, the test sets' score, the compiled kernel against the Python engine
and against Pons' published scores, and one-line errors for bad input."""

from __future__ import annotations

import json
import random

import pytest
from connect4_helpers import run_cli, sample

from perfectplay import analyze, registry, solve
from perfectplay import value as V
from perfectplay.errors import BadOption, BadPosition
from perfectplay.games.connect4.rules import ConnectFour, has_four, random_late_position

pytest.importorskip("numba", reason="the compiled engine needs numba")


def compiled(game: ConnectFour, position: object, **options: object):  # type: ignore[no-untyped-def]
    return solve(game, position, engine="compiled", **options)  # type: ignore[arg-type]






# -- rules and notation --------------------------------------------------------------------
def test_positions_print_as_the_moves_that_made_them() -> None:
    game, position = registry.load("c4", {}, "4455")
    assert game.format_position(position) == "4455"
    assert game.parse_position("") == game.start()


def test_a_vertical_four_ends_the_game() -> None:
    game = ConnectFour()
    assert game.outcome(game.parse_position("4545454")) is not None
    assert game.outcome(game.parse_position("454545")) is None


def test_score_and_value_convert_both_ways() -> None:
    game = ConnectFour()
    rng = random.Random(5)
    for _ in range(50):
        position = random_late_position(game, rng, remaining=rng.randrange(0, 30))
        for score in range(-18, 19):
            value = game.value_of_score(position, score)
            assert game.score_of(position, value) == score


# -- the data README's examples --------------------------------------------------------------
@pytest.mark.parametrize("moves, score, remoteness", [("4455", 18, 3), ("44455554221", -15, 2)])
def test_readme_examples_have_their_published_scores(moves: str, score: int, remoteness: int) -> None:
    game, position = registry.load("connect4", {}, moves)
    solution = compiled(game, position)
    assert game.score_of(position, solution.value) == score
    assert solution.remoteness == remoteness


def test_solve_json_reports_the_test_set_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "solve", "connect4", "44455554221", "--json")
    assert code == 0
    payload = json.loads(out)
    assert (payload["score"], payload["value"], payload["remoteness"]) == (-15, "loss", 2)


def test_analyze_scores_every_column(capsys: pytest.CaptureFixture[str]) -> None:
    moves = "2252576253462244111563365343671351441"  # Test_L3_R1 line 1: score -1
    code, out, _ = run_cli(capsys, "analyze", "c4", moves, "--json")
    assert code == 0
    rows = json.loads(out)["moves"]
    game = ConnectFour()
    position = game.parse_position(moves)
    assert [row["move"] for row in rows if row["score"] == -1] == ["6"]
    assert {row["move"] for row in rows} == {str(c + 1) for c in game.moves(position)}


# -- Pons' test sets ---------------------------------------------------------------------------
@pytest.mark.parametrize("name, every", [("Test_L3_R1", 10), ("Test_L2_R1", 20)])
def test_compiled_scores_match_a_sample_of_the_test_sets(name: str, every: int) -> None:
    game = ConnectFour()
    for moves, expected in sample(name, every):
        position = game.parse_position(moves)
        solution = compiled(game, position, pv_limit=0)
        assert game.score_of(position, solution.value) == expected, moves


def test_python_engine_agrees_with_the_end_game_test_set() -> None:
    game = ConnectFour()
    for moves, expected in sample("Test_L3_R1", 200):
        position = game.parse_position(moves)
        solution = solve(game, position, engine="python", pv_limit=0)
        assert game.score_of(position, solution.value) == expected, moves


# -- compiled against Python ---------------------------------------------------------------------
# Against the generic tt engine: an implementation independent of the kernel (engine="python"
# alone would now run the kernel's mirror, tested node for node in test_connect4_search.py).
def test_compiled_and_python_agree_on_random_late_positions() -> None:
    game = ConnectFour()
    rng = random.Random(2026)
    for _ in range(25):
        position = random_late_position(game, rng, remaining=rng.randrange(6, 16))
        fast = compiled(game, position, pv_limit=0)
        slow = solve(game, position, algorithm="tt", engine="python", pv_limit=0)
        assert (fast.value, sorted(fast.best_moves)) == (slow.value, sorted(slow.best_moves)), \
            game.format_position(position)


def test_a_side_without_room_for_a_line_is_scored_alike() -> None:
    # The kernel caps the score of a side that has no room left for four in a row (a draw
    # at best); the Python engine searches such positions out. Near the end of a random game
    # about one position in forty is like that.
    game = ConnectFour()
    rng = random.Random(11)
    checked = 0
    while checked < 30:
        position = random_late_position(game, rng, remaining=rng.randrange(3, 8))
        mover, occupied, _ = position
        empty = game.board ^ occupied
        if game.outcome(position) is not None or (
                has_four(mover | empty, game.height) and has_four((mover ^ occupied) | empty, game.height)):
            continue
        fast = compiled(game, position, pv_limit=0)
        slow = solve(game, position, algorithm="tt", engine="python", pv_limit=0)
        assert (fast.value, sorted(fast.best_moves)) == (slow.value, sorted(slow.best_moves)), \
            game.format_position(position)
        checked += 1


def test_compiled_analysis_matches_python_analysis() -> None:
    game = ConnectFour()
    rng = random.Random(7)
    for _ in range(5):
        position = random_late_position(game, rng, remaining=10)
        fast = {m.notation: m.value for m in analyze(game, position, engine="compiled")}
        slow = {m.notation: m.value for m in analyze(game, position, algorithm="tt", engine="python")}
        assert fast == slow, game.format_position(position)


@pytest.mark.parametrize("width, height", [(4, 4), (4, 5), (3, 3), (5, 3)])
def test_small_boards_are_solved_alike_by_both_engines(width: int, height: int) -> None:
    game = ConnectFour(width, height)
    fast = compiled(game, game.start())
    slow = solve(game, game.start(), algorithm="tt", engine="python")
    assert (fast.value, sorted(fast.best_moves)) == (slow.value, sorted(slow.best_moves))


@pytest.mark.parametrize("width, height", [(8, 7), (9, 6)])
def test_boards_that_fill_the_64_bit_word_agree_with_python(width: int, height: int) -> None:
    game = ConnectFour(width, height)  # 8x7 uses bit 63, the top sentinel of the last column
    rng = random.Random(width)
    for _ in range(4):
        position = random_late_position(game, rng, remaining=10)
        fast = compiled(game, position, pv_limit=0)
        slow = solve(game, position, algorithm="tt", engine="python", pv_limit=0)
        assert (fast.value, sorted(fast.best_moves)) == (slow.value, sorted(slow.best_moves))


def test_a_table_too_small_for_a_big_board_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    # Bounded: without a limit 8x7 is refused first, as too big for an exact search.
    code, _, err = run_cli(capsys, "solve", "c4", "1", "--width", "8", "--height", "7",
                           "--tt-size", "1000", "--time", "60")
    assert code == 2 and "needs at least 1,048,576 entries" in err


def test_outcome_only_gives_the_sign_of_the_score() -> None:
    game = ConnectFour()
    for moves, expected in sample("Test_L2_R1", 100):
        position = game.parse_position(moves)
        solution = compiled(game, position, outcome_only=True, pv_limit=0)
        assert solution.value == (expected > 0) - (expected < 0)


def test_a_tiny_table_still_gives_exact_answers() -> None:
    game = ConnectFour()
    position = game.parse_position("44455554221")
    assert compiled(game, position, table_size=64).value == V.loss_in(2)


def test_the_principal_variation_plays_out_the_value() -> None:
    game = ConnectFour()
    position = game.parse_position("2252576253462244111563365343671351441")
    solution = compiled(game, position)
    walk = position
    for move in solution.pv:
        walk = game.play(walk, int(move) - 1)
    assert len(solution.pv) == solution.remoteness
    assert game.outcome(walk) is not None


# -- bad input -----------------------------------------------------------------------------------
@pytest.mark.parametrize("moves, words", [
    ("448", "move 3 ('8'): column 8 is outside the board"),
    ("44444449", "move 7 ('4'): column 4 is full"),
    ("4455x", "move 5 ('x') is not a column digit"),
    ("45454545", "move 8 ('5') comes after the game ended at move 7"),
    ("440", "move 3 ('0'): column 0 is outside the board"),
])
def test_bad_moves_get_one_line_naming_the_move(capsys: pytest.CaptureFixture[str], moves: str,
                                                words: str) -> None:
    code, _, err = run_cli(capsys, "solve", "connect4", moves)
    assert code == 2
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


@pytest.mark.parametrize("options, words", [
    (["--width", "10"], "width must be 1 to 9"),
    (["--width", "8", "--height", "8"], "does not fit a 64-bit bitboard"),
    (["--height", "0"], "at least 1"),
])
def test_bad_board_sizes_get_one_line(capsys: pytest.CaptureFixture[str], options: list[str],
                                      words: str) -> None:
    code, _, err = run_cli(capsys, "solve", "connect4", "1", *options)
    assert code == 2
    assert err.count("\n") == 1 and words in err


def test_the_largest_boards_that_fit_are_accepted() -> None:
    for width, height in ((8, 7), (9, 6), (7, 7)):
        ConnectFour(width, height)
    with pytest.raises(BadOption):
        ConnectFour(9, 7)
    with pytest.raises(BadPosition):
        ConnectFour().parse_position("8")


def test_legal_moves_are_the_searched_moves_unordered() -> None:
    game = ConnectFour(5, 4)
    rng = random.Random(10)
    for _ in range(300):
        position = game.start()
        for _ in range(rng.randrange(game.cells)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(game.moves(position)))
        assert sorted(game.legal_moves(position)) == sorted(game.moves(position))

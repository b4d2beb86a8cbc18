"""Dots and Boxes: lines, boxes and extra turns, notation, every algorithm against a brute
force over the players A and B, the numba table against search, and small boards' values."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from conftest import run_main

from perfectplay import analyze, registry, solve
from perfectplay.compiled import numba_available
from perfectplay.errors import BadOption, BadPosition, IllegalMove
from perfectplay.games.dots.rules import DotsAndBoxes, brute_force_value
from perfectplay.verify import verify

needs_numba = pytest.mark.skipif(not numba_available(), reason="numba is not installed")
OUTER_LINES = ["a1-b1", "b1-c1", "a3-b3", "b3-c3", "a1-a2", "c1-c2", "a2-a3", "c2-c3"]


def test_a_3x3_board_has_24_lines_and_9_boxes() -> None:
    game = DotsAndBoxes(3, 3)
    assert (game.edges, game.boxes) == (24, 9)
    assert all(len(boxes) in (1, 2) for boxes in game.boxes_of)


def test_completing_a_box_scores_it_and_moves_again() -> None:
    game = DotsAndBoxes(1, 1)
    position = game.parse_position("a1-b1,a1-a2,b1-b2 B 0-0")
    line = game.parse_move(position, "a2-b2")
    assert game.keeps_turn(position, line) and game.gain(position, line) == 1
    assert game.play(position, line) == (15, 1, (0, 1))


def test_one_line_can_complete_two_boxes() -> None:
    game = DotsAndBoxes(2, 1)
    position = game.parse_position("a1-b1,b1-c1,a2-b2,b2-c2,a1-a2,c1-c2 A 0-0")
    assert game.gain(position, game.parse_move(position, "b1-b2")) == 2


def test_lines_read_in_either_direction_and_positions_round_trip() -> None:
    game = DotsAndBoxes(2, 2)
    position = game.play(game.start(), game.parse_move(game.start(), "b1-a1"))
    assert game.format_position(position) == "a1-b1 B 0-0"
    assert game.parse_position("a1-b1 B 0-0") == position
    assert game.parse_position("-") == game.start()


@pytest.mark.parametrize("text", ["a1-c1 A 0-0", "a1-b1,a1-b1 A 0-0", "a1-b1 C 0-0",
                                  "a1-b1,a1-a2,b1-b2,a2-b2 A 0-0", "zz A 0-0"])
def test_bad_positions_are_refused_quoting_the_text(text: str) -> None:
    with pytest.raises(BadPosition, match="dots position"):
        DotsAndBoxes(1, 1).parse_position(text)


def test_bad_sizes_and_moves_are_refused() -> None:
    with pytest.raises(BadOption, match="--width 9"):
        DotsAndBoxes(9, 2)
    game = DotsAndBoxes(1, 1)
    with pytest.raises(IllegalMove, match="'a1-c1'"):
        game.parse_move(game.start(), "a1-c1")


@pytest.mark.parametrize(("width", "height", "value"), [(1, 1, -1), (2, 1, 0), (3, 1, -1), (2, 2, 2)])
def test_small_boards_by_every_search_and_the_brute_force(width: int, height: int, value: int) -> None:
    game = DotsAndBoxes(width, height)
    assert brute_force_value(game, game.start()) == value
    for algorithm in ("memo", "tt", "id"):
        assert solve(game, algorithm=algorithm, engine="python").value == value


def test_on_2x2_only_an_outside_line_wins_first() -> None:
    # The known answer to the 2x2 puzzle: the first player wins (3-1) by an outside line;
    # a middle line lets the second player mirror to a draw.
    game = DotsAndBoxes(2, 2)
    solution = solve(game, algorithm="tt", engine="python")
    assert solution.value == 2 and sorted(solution.best_moves) == sorted(OUTER_LINES)
    values = {mv.notation: mv.value for mv in analyze(game, algorithm="tt", engine="python")}
    assert {values[line] for line in ("a2-b2", "b2-c2", "b1-b2", "b2-b3")} == {0}


def test_every_algorithm_agrees_with_the_brute_force_on_random_positions() -> None:
    report = verify(registry.resolve("dots"), cases=30, seed=29)
    assert report.cases == 30 and report.mismatches == []


@needs_numba
def test_the_numba_table_matches_search_on_every_move_of_random_2x3_positions() -> None:
    game = DotsAndBoxes(3, 2)
    rng = random.Random(6)
    for _ in range(12):
        position = game.random_position(rng)
        if not game.legal_moves(position):
            continue
        fast = solve(game, position, engine="compiled")
        assert fast.algorithm == "dots-table"
        slow = solve(game, position, algorithm="tt", engine="python")
        assert (fast.value, sorted(fast.best_moves)) == (slow.value, sorted(slow.best_moves))
        by_table = sorted((mv.notation, mv.value) for mv in analyze(game, position, engine="compiled"))
        by_search = sorted((mv.notation, mv.value)
                           for mv in analyze(game, position, algorithm="tt", engine="python"))
        assert by_table == by_search


@needs_numba
def test_3x3_is_a_second_player_win_by_three() -> None:
    game = DotsAndBoxes(3, 3)
    solution = solve(game, engine="auto", pv_limit=30)
    assert solution.algorithm == "dots-table"
    assert solution.value == -3 and solution.totals == (3, 6)
    assert len(solution.pv) == 24


def run(*args: str, cwd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120)


def test_the_cli_solves_and_refuses_in_one_line(tmp_path) -> None:
    done = run("solve", "dots", "--width", "2", "--height", "2", "--engine", "python", cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "value: +2" in done.stdout
    done = run("solve", "dots", "--width", "2", "--height", "1", "a1-z9 A 0-0", cwd=str(tmp_path))
    assert done.returncode == 2 and "dots position" in done.stderr and "Traceback" not in done.stderr


def test_the_web_api_answers_dots_and_follows_the_extra_turn() -> None:
    import warnings
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

    from perfectplay.web.app import create_app
    client = TestClient(create_app(None))
    params = {"width": "1", "height": "1", "moves": "a1-b1,a1-a2,b1-b2,a2-b2"}
    over = client.get("/api/dots/position", params=params).json()
    assert over["over"] and over["mover"] == 1
    live = client.get("/api/dots/position", params={"width": "2", "height": "2", "moves": "a1-b1"})
    assert live.status_code == 200 and live.json()["value"] == -2
    assert client.get("/game/dots").status_code == 200


def test_past_the_books_first_line_the_perfect_level_estimates_at_once() -> None:
    """4x4's start is in the book, so `play` knows it exactly; after a first line (39 lines
    left, beyond the game's declared reach) the computer estimates within its think time and
    says so, rather than trying a proof for a minute first, and its banner says as much."""
    ran = run_main("play", "dots", "--width", "4", "--height", "4", "--think-time", "1",
                   stdin="a1-b1\nquit\n")
    assert ran.code == 0, ran.stderr
    # The banner promises no more than that.
    assert "I know this position exactly, but every position after it is too big" in ran.stdout
    assert "I can solve this game" not in ran.stdout
    assert "I play line" in ran.stdout
    assert "too big to solve in the time allowed" in ran.stdout
    assert "no move proved optimal" not in ran.stdout

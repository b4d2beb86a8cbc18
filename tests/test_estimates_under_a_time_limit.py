"""`solve` with a time limit on a position out of exact reach gives the estimate the time
allows, said to be one: `solve chess startpos --time 5` stopped "without an answer" after an
exact search that could never finish, while play and the web page estimated the same
position. An exact search still gets half the time first, and a position in reach is
answered exactly as before."""

from __future__ import annotations

import json

import pytest
from conftest import run_main

from perfectplay import registry, solve
from perfectplay.search.limits import Limits


@pytest.mark.parametrize("name, options, estimator", [
    ("chess", [], "engine"),                    # has an evaluation: the depth-limited engine
    ("othello", ["--size", "6", "c2"], "mcts"),  # none: Monte Carlo tree search (one move
                                                 # in: the start is stored, proved)
])
def test_a_time_limit_on_a_position_out_of_reach_gives_an_estimate(name: str, options: list[str],
                                                                    estimator: str) -> None:
    ran = run_main("solve", name, *options, "--time", "1", "--json")
    assert ran.code == 0, ran.stderr
    answer = json.loads(ran.stdout)
    assert (answer["exact"], answer["algorithm"]) == (False, estimator)
    assert answer["best_moves"] and isinstance(answer["value"], int)


def test_a_position_in_reach_is_still_solved_exactly_under_a_time_limit() -> None:
    game, position = registry.load("othello", {"size": 4})
    assert game.solvable(position)
    found = solve(game, position, limits=Limits(time=30))
    assert (found.exact, found.value) == (True, -10)


def test_an_algorithm_asked_for_by_name_is_not_replaced_by_an_estimate() -> None:
    ran = run_main("solve", "chess", "--algorithm", "tt", "--time", "0.5")
    assert ran.code == 1 and "without an answer" in ran.stderr


def test_a_kernel_that_does_not_count_the_deepest_ply_is_not_said_to_reach_ply_0() -> None:
    ran = run_main("solve", "kalah", "--pits", "4", "--seeds", "3")
    assert ran.code == 0 and "kalah-kernel:" in ran.stdout
    assert "max ply 0" not in ran.stdout
    searched = run_main("solve", "tictactoe", "--algorithm", "tt")
    assert "max ply 9" in searched.stdout


def test_a_kernel_asked_for_by_engine_compiled_is_not_replaced_by_an_estimate() -> None:
    # Without Kalah(6,4)'s opening book, which answers its start at once.
    ran = run_main("solve", "kalah", "--engine", "compiled", "--time", "0.5", "--book", "none")
    assert ran.code == 1 and "kalah-kernel stopped (time)" in ran.stderr

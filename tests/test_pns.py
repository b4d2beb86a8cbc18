"""df-pn (``--algorithm pns``): agrees with alpha-beta on random positions of several games,
honours extra turns, proves draws by two searches, scores by bisection, and holds limits."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from pns_extra_turn_games import BonusCoins, BonusSticks, coins_totals, sticks_winner

from perfectplay import analyze, registry, solve
from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.search.limits import Limits

CASES = [("tictactoe", {}), ("connect4", {"width": 4, "height": 4}), ("nim", {}),
         ("othello", {"size": 4}), ("hex", {"size": 3}), ("coins", {}), ("takeaway", {})]


def random_positions(name: str, options: dict[str, Any], count: int, seed: int) -> list[tuple[Any, Any]]:
    rng = random.Random(seed)
    game, start = registry.load(name, options)
    found = []
    for _ in range(count):
        if name == "nim":
            position = game.parse_position(" ".join(str(rng.randint(0, 4)) for _ in range(3)))
        elif name == "coins":
            text = " ".join(str(rng.randint(1, 9)) for _ in range(rng.randint(1, 7)))
            game, position = registry.load(name, options, text)
        elif name == "takeaway":
            position = rng.randint(0, 30)
        else:
            position = start
            plies = rng.randint(3, 9) if name == "connect4" else rng.randint(0, 6)
            for _ in range(plies):
                moves = list(game.moves(position))
                if not moves or game.outcome(position) is not None:
                    break
                position = game.play(position, rng.choice(moves))
        found.append((game, position))
    return found


@pytest.mark.parametrize("name, options", CASES)
def test_pns_agrees_with_alpha_beta_on_random_positions(name: str, options: dict[str, Any]) -> None:
    for game, position in random_positions(name, options, 6, seed=23):
        proved = solve(game, position, algorithm="pns")
        searched = solve(game, position, algorithm="tt", outcome_only=not game.properties.is_score)
        assert proved.exact and proved.value == searched.value, game.format_position(position)
        assert set(proved.best_moves) == set(searched.best_moves)


def test_pns_finds_every_optimal_move_and_a_line_that_keeps_the_value() -> None:
    game, position = registry.load("tictactoe", {}, "X.O/.X./...")
    solution = solve(game, position, algorithm="pns")
    assert solution.describe() == "draw" and solution.best_moves == ["9"]
    assert solution.pv[0] == "9" and len(solution.pv) == 6  # to the full board


def test_pns_analysis_values_every_move_like_alpha_beta() -> None:
    game, position = registry.load("othello", {"size": 4}, "b1")
    by_pns = {move.notation: move.value for move in analyze(game, position, algorithm="pns")}
    by_tt = {move.notation: move.value for move in analyze(game, position, algorithm="tt")}
    assert by_pns == by_tt


@pytest.mark.parametrize("sticks", range(0, 14))
def test_pns_follows_extra_turns_like_a_brute_force(sticks: int) -> None:
    game = BonusSticks(sticks)
    expected = 1 if sticks_winner(sticks, True, 0) == 0 else -1
    assert solve(game, algorithm="pns").value == expected


@pytest.mark.parametrize("sticks", range(0, 12))
def test_pns_scores_extra_turn_games_like_a_brute_force(sticks: int) -> None:
    game = BonusCoins(sticks)
    first, second = coins_totals(sticks, True, 0)
    solution = solve(game, algorithm="pns")
    assert solution.value == first - second
    assert solution.value == solve(game, algorithm="pns").value


def test_pns_stops_at_a_node_limit_and_says_so() -> None:
    game, start = registry.load("hex", {"size": 4})
    with pytest.raises(LimitReached, match="pns stopped"):
        solve(game, start, algorithm="pns", limits=Limits(nodes=500))


def test_pns_refuses_a_depth_and_loopy_games() -> None:
    game, start = registry.load("tictactoe", {})
    with pytest.raises(UnsupportedSearch, match="drop --depth"):
        solve(game, start, algorithm="pns", limits=Limits(depth=3))
    dodgem, position = registry.load("dodgem", {})
    with pytest.raises(UnsupportedSearch, match="retro"):
        solve(dodgem, position, algorithm="pns")


def test_pns_from_the_command_line() -> None:
    run = [sys.executable, "-m", "perfectplay"]
    done = subprocess.run([*run, "solve", "tictactoe", "--algorithm", "pns"], capture_output=True, text=True)
    assert done.returncode == 0 and "value: draw" in done.stdout
    stopped = subprocess.run([*run, "solve", "hex", "--size", "5", "--algorithm", "pns", "--nodes", "100"],
                             capture_output=True, text=True)
    assert stopped.returncode == 1 and "pns stopped" in stopped.stderr


class Oracle:
    """A stand-in for df-pn that knows the value: "reaches t" is t <= value."""

    is_score = True

    def __init__(self, value: int, bound: int | None) -> None:
        from perfectplay.game import Game, Kind, Properties
        self.value = value
        self.game = Game()
        self.game.properties = Properties(kind=Kind.SCORE, value_bound=bound)

    def prove(self, position: Any, need: int) -> bool:
        return need <= self.value


@pytest.mark.parametrize("bound", [None, 20])
def test_scores_are_found_by_bisection_with_or_without_declared_bounds(bound: int | None) -> None:
    from perfectplay.pns.method import value_of
    for value in range(-19, 20):
        assert value_of(Oracle(value, bound), None) == value

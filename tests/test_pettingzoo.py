"""Every perfectplay game as a PettingZoo AEC environment and as a Gymnasium environment
against a perfectplay opponent: the libraries' own API checks pass, rewards come at the end
(the score game's margin), extra turns keep the agent, and a perfect opponent never loses."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from perfectplay import registry, solve
from perfectplay.interop.gymnasium_env import GameEnv
from perfectplay.interop.pettingzoo_env import env

README = Path(__file__).resolve().parent.parent / "README.md"


def action_for(environment: Any, notation: str) -> int:
    """The action that plays the move written ``notation`` in the current position."""
    moves = environment.match.legal()
    return next(index for index, move in enumerate(moves)
                if environment.game.format_move(environment.match.position, move) == notation)


@pytest.mark.parametrize("name", [entry.name for entry in registry.entries()])
def test_every_built_in_game_passes_the_pettingzoo_api_test(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about int observations' bounds
        api_test(env(name), num_cycles=20, verbose_progress=False)


def test_a_tic_tac_toe_win_pays_one_and_minus_one_at_the_end() -> None:
    game = env("tictactoe")
    game.reset()
    for notation in ("1", "4", "2", "5"):  # X takes 1 and 2, O takes 4 and 5
        game.step(action_for(game, notation))
        assert game.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert game.observe("player_0")["action_mask"].sum() == 5
    assert game.observe("player_1")["action_mask"].sum() == 0  # not its turn
    game.step(action_for(game, "3"))  # the top row
    assert game.terminations == {"player_0": True, "player_1": True}
    assert game.rewards == {"player_0": 1.0, "player_1": -1.0}


def test_a_score_game_pays_the_final_margin() -> None:
    # Kalah with 2 pits of 2 seeds: perfect play ends with the first player 2 seeds behind.
    options = {"pits": 2, "seeds": 2}
    rules, start = registry.load("kalah", options)
    solution = solve(rules, start)
    game = env("kalah", options)
    game.reset()
    for notation in solution.pv:
        game.step(action_for(game, notation))
    assert solution.value == -2 and game.match.ended
    assert game.rewards == {"player_0": -2.0, "player_1": 2.0}


def test_a_move_that_keeps_the_turn_keeps_the_agent() -> None:
    game = env("kalah")
    game.reset()
    rules, start = game.game, game.match.position
    again = [rules.format_move(start, move) for move in rules.moves(start) if rules.keeps_turn(start, move)]
    assert again  # from Kalah's start, the pit whose 4 seeds end in the store
    game.step(action_for(game, again[0]))
    assert game.agent_selection == "player_0"
    other = next(rules.format_move(start, m) for m in rules.moves(start) if not rules.keeps_turn(start, m))
    game.reset()
    game.step(action_for(game, other))
    assert game.agent_selection == "player_1"


def test_the_gymnasium_environment_passes_gymnasiums_checker() -> None:
    check_env(GameEnv("tictactoe", opponent="perfect"), skip_render_check=True)
    check_env(GameEnv("kalah", opponent="random", agent_side=1, options={"pits": 3, "seeds": 2}),
              skip_render_check=True)


def test_a_perfect_opponent_never_loses_tic_tac_toe_and_a_random_one_does() -> None:
    def rewards(opponent: str, agent_side: int) -> list[float]:
        environment = GameEnv("tictactoe", opponent=opponent, agent_side=agent_side)
        rng = np.random.default_rng(38)
        found = []
        for episode in range(30):
            _, info = environment.reset(seed=episode)
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                _, reward, done, _, info = environment.step(action)
            found.append(float(reward))
        return found
    assert max(rewards("perfect", 0)) <= 0 and max(rewards("perfect", 1)) <= 0
    assert max(rewards("random", 0)) == 1


def test_an_illegal_action_ends_the_episode_as_a_loss() -> None:
    environment = GameEnv("tictactoe", opponent="random")
    environment.reset(seed=1)
    _, reward, terminated, _, info = environment.step(200)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)


def test_the_readme_training_loop_runs_and_never_beats_the_perfect_player() -> None:
    text = README.read_text()
    block = text.split("perfect player of tic-tac-toe", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    code = [line for line in block.splitlines() if line.strip() and not line.startswith(("import", "from"))]
    assert len(code) <= 11
    scope: dict[str, Any] = {}
    exec(compile(block, str(README), "exec"), scope)
    assert set(scope["results"]) <= {0.0, -1.0} and sum(scope["results"].values()) == 200
    assert scope["results"][0.0] > 0  # it learns to draw


def test_an_openspiel_game_is_an_environment_too() -> None:
    # Any name the registry takes: OpenSpiel's tic-tac-toe, its board read from its text.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env("openspiel:tic_tac_toe"), num_cycles=10, verbose_progress=False)
    check_env(GameEnv("openspiel:breakthrough(rows=3,columns=3)", opponent="perfect"), skip_render_check=True)

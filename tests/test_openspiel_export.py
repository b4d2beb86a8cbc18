"""perfectplay's games registered as OpenSpiel games: every built-in game passes OpenSpiel's
own random-simulation test, OpenSpiel's alpha-beta finds perfectplay's values on them, and
OpenSpiel's MCTSBot plays them."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts, minimax

from perfectplay import registry, solve
from perfectplay.interop.openspiel_export import register


@pytest.mark.parametrize("name", [entry.name for entry in registry.entries()])
def test_every_built_in_game_passes_openspiels_random_simulation_test(name: str) -> None:
    game = pyspiel.load_game(register(name))
    assert game.num_players() == 2 and game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(("name", "options", "position", "expected"), [
    ("tictactoe", {}, None, 0),  # tic-tac-toe is a draw
    ("tictactoe", {}, "XX.OO....", 1),  # X completes the top row
    ("nim", {}, "3 4 5", 1),  # 3 ^ 4 ^ 5 = 2: the mover wins (Bouton)
    ("nim", {}, "1 2 3", -1),  # 1 ^ 2 ^ 3 = 0: the mover loses
])
def test_openspiels_alpha_beta_finds_the_known_values(name: str, options: dict[str, int],
                                                     position: str | None, expected: int) -> None:
    game = pyspiel.load_game(register(name, options, position))
    value, _ = minimax.alpha_beta_search(game, maximum_depth=100)
    assert value == expected


def test_a_score_game_with_extra_turns_pays_perfectplays_margin() -> None:
    # Kalah with 2 pits of 2 seeds a side: the last seed in the store moves again; the final
    # margin for the mover with best play, by perfectplay and by OpenSpiel's alpha-beta.
    options = {"pits": 2, "seeds": 2}
    game, start = registry.load("kalah", options)
    ours = solve(game, start, pv_limit=0).value
    theirs, _ = minimax.alpha_beta_search(pyspiel.load_game(register("kalah", options)), maximum_depth=200)
    assert theirs == ours == -2


def test_openspiels_mcts_bot_takes_the_win_in_one() -> None:
    game = pyspiel.load_game(register("tictactoe", position="XX.OO...."))
    bot = mcts.MCTSBot(game, 2, 400, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    assert state.action_to_string(state.current_player(), bot.step(state)) == "3"


def test_registering_twice_gives_the_same_game() -> None:
    assert register("nim", position="3 4 5") == register("nim", position="3 4 5") == "perfectplay_nim_3_4_5"

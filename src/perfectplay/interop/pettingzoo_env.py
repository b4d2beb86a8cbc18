"""Every perfectplay game as a PettingZoo AEC environment (the ``rl`` extra):

    from perfectplay.interop.pettingzoo_env import env
    game = env("connect4")          # any name registry.resolve takes, with its options

Agents ``player_0`` (who moves first) and ``player_1``. An action is the index of a move in
the list of legal moves of the position (``action_mask`` marks them: an action's meaning
depends on the position, as the list does; ``move_of`` and ``notation`` say which move it is).
The observation is the board the game describes for the web page, as numbers
(perfectplay.interop.observation). Rewards come at the end: 1 and -1 for a win and a loss, 0
for a draw, and each player's final margin of points in a score game (Kalah, Othello, Dots and
Boxes, the row games). A move that keeps the turn (Kalah, Dots and Boxes) leaves the same
agent selected. A loopy game ends drawn at a position's third repetition and is truncated
after perfectplay.interop.match.MAX_PLIES plies.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from perfectplay import registry
from perfectplay.interop import observation
from perfectplay.interop.match import Match

# The most legal moves a position may have (chess has at most 218).
MAX_ACTIONS = 256
AGENTS = ["player_0", "player_1"]


class PerfectPlayEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "perfectplay_v0", "is_parallelizable": False}

    def __init__(self, game: str = "tictactoe", options: dict[str, Any] | None = None,
                 position: str | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.game, self.start_position = registry.load(game, options or {}, position)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.size = observation.room(self.game.diagram(self.start_position)) + 1
        board = spaces.Box(low=-(2**31), high=2**31 - 1, shape=(self.size,), dtype=np.int64)
        mask = spaces.Box(low=0, high=1, shape=(MAX_ACTIONS,), dtype=np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": board, "action_mask": mask})
                                   for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(MAX_ACTIONS) for agent in AGENTS}
        self.match = Match(self.game, self.start_position)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.match = Match(self.game, self.start_position)
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.match.side]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        board = observation.encode(self.game.diagram(self.match.position), self.size)
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        if agent == AGENTS[self.match.side] and not self.match.over:
            mask[:len(self._legal())] = 1
        return {"observation": board, "action_mask": mask}

    def _legal(self) -> list[Any]:
        moves = list(self.match.legal())
        if len(moves) > MAX_ACTIONS:
            raise ValueError(f"{self.game.name}: {len(moves)} legal moves, more than {MAX_ACTIONS} actions")
        return moves

    def move_of(self, action: int) -> Any:
        """The move ``action`` plays in the current position."""
        moves = self._legal()
        if not 0 <= action < len(moves):
            raise ValueError(f"action {action} is not legal here: {len(moves)} legal moves (see action_mask)")
        return moves[action]

    def notation(self, action: int) -> str:
        return self.game.format_move(self.match.position, self.move_of(action))

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.match.play(self.move_of(int(action)))
        self._cumulative_rewards[agent] = 0.0
        if self.match.over:
            paid = self.match.payoffs()
            self.rewards = {name: paid[index] for index, name in enumerate(AGENTS)}
            self.terminations = {name: self.match.ended for name in AGENTS}
            self.truncations = {name: self.match.truncated for name in AGENTS}
        self.agent_selection = AGENTS[self.match.side]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        return self.game.render(self.match.position)

    def close(self) -> None:
        pass


def env(game: str = "tictactoe", options: dict[str, Any] | None = None, position: str | None = None,
        render_mode: str | None = None) -> PerfectPlayEnv:
    return PerfectPlayEnv(game, options, position, render_mode)


__all__ = ["AGENTS", "MAX_ACTIONS", "PerfectPlayEnv", "env"]

"""A perfectplay game as a Gymnasium single-agent environment against a perfectplay opponent
(the ``rl`` extra):

    from perfectplay.interop.gymnasium_env import GameEnv
    env = GameEnv("tictactoe", opponent="perfect")     # random, easy, medium, hard, perfect

The agent plays side ``agent_side`` (0 moves first); after each of its moves the opponent
replies (more than once when a move keeps its turn) with a level of perfectplay's play:
``random`` picks any legal move, the others are the levels of ``perfectplay play``
(perfectplay.play.levels: ``perfect`` plays only optimal moves where the game is solved). An
action is the index of a move in the position's list of legal moves; ``info["action_mask"]``
(and ``action_masks()``) marks them, and an illegal action ends the episode with reward -1
(``info["illegal"]``). The reward comes at the end, as in the PettingZoo environment: 1, 0 or
-1, or the agent's final margin of points in a score game.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from perfectplay import registry
from perfectplay.interop import observation
from perfectplay.interop.match import Match
from perfectplay.play.analyst import Analyst
from perfectplay.play.levels import choose, level_named

MAX_ACTIONS = 256
RANDOM = "random"


class GameEnv(gym.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str = "tictactoe", opponent: str = "perfect", agent_side: int = 0,
                 options: dict[str, Any] | None = None, position: str | None = None,
                 think_time: float = 1.0, render_mode: str | None = None) -> None:
        self.game, self.start_position = registry.load(game, options or {}, position)
        if agent_side not in (0, 1):
            raise ValueError(f"agent_side {agent_side!r}: 0 (moves first) or 1")
        self.level = None if opponent == RANDOM else level_named(opponent)
        self.agent_side = agent_side
        self.analyst = Analyst(self.game, think_time=think_time)
        self.render_mode = render_mode
        self.size = observation.room(self.game.diagram(self.start_position)) + 1
        self.observation_space = spaces.Box(low=-(2**31), high=2**31 - 1, shape=(self.size,), dtype=np.int64)
        self.action_space = spaces.Discrete(MAX_ACTIONS)
        self.match = Match(self.game, self.start_position)
        self.rng = random.Random(0)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.rng = random.Random(int(self.np_random.integers(2**63)))
        self.match = Match(self.game, self.start_position)
        self._opponent_moves()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        moves = list(self.match.legal())
        if not 0 <= int(action) < len(moves):
            return self._observe(), -1.0, True, False, self._info() | {"illegal": True}
        self.match.play(moves[int(action)])
        self._opponent_moves()
        reward = self.match.payoffs()[self.agent_side]
        return self._observe(), reward, self.match.ended, self.match.truncated, self._info()

    def _opponent_moves(self) -> None:
        while not self.match.over and self.match.side != self.agent_side:
            self.match.play(self._opponent_move())

    def _opponent_move(self) -> Any:
        if self.level is None:
            return self.rng.choice(list(self.match.legal()))
        analysis = self.analyst.analyze(self.match.position)
        return choose(analysis, self.level, self.rng).move.move

    def action_masks(self) -> np.ndarray:
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        mask[:len(self.match.legal())] = 1
        return mask

    def _observe(self) -> np.ndarray:
        return observation.encode(self.game.diagram(self.match.position), self.size)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "moves": len(self.match.moves)}

    def render(self) -> str:
        return self.game.render(self.match.position)


__all__ = ["GameEnv", "MAX_ACTIONS", "RANDOM"]

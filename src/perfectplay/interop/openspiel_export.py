"""perfectplay's games as OpenSpiel games, so OpenSpiel's algorithms and bots (MCTSBot, its
minimax, its simulation tests) run on them. Needs the ``openspiel`` extra.

    from perfectplay.interop.openspiel_export import register
    import pyspiel
    game = pyspiel.load_game(register("tictactoe"))   # "perfectplay_tictactoe"

An OpenSpiel action is the index of the move in the perfectplay game's move list at that
state (legal actions are 0, 1, ..., n - 1), so an action id means a move only at its state:
``action_to_string`` names it in the game's notation. Player 0 moves first. The returns follow
perfectplay.finish: a win/loss game pays 1 and -1 (0 for a draw), a score game the final margin
of points; a loopy game (positions may repeat) ends drawn when a position comes up for the
third time, as in perfectplay's own play, and in any case after MAX_LENGTH plies (OpenSpiel
needs a bounded length), which no game here reaches by its own rules but the loopy ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyspiel

from perfectplay import finish, registry
from perfectplay.entry import Options
from perfectplay.game import Game, Outcome

# The most legal moves any position may have; a position with more is an error, said in words.
MAX_ACTIONS = 1024
# Where an unbounded game (a loopy one, chess) is cut off, drawn.
MAX_LENGTH = 400
# A score game's utility bound when it declares none and cannot count its points.
DEFAULT_SCORE_BOUND = 1000

_GAMES: dict[str, tuple[Game[Any, Any], Any]] = {}


def short_name(name: str) -> str:
    return "perfectplay_" + "".join(c if c.isalnum() else "_" for c in name)


def register(name: str, options: Options | None = None, position: str | None = None) -> str:
    """Register the perfectplay game ``name`` (its ``options``, from ``position``, its start when
    None) with OpenSpiel, once; the short name pyspiel.load_game takes."""
    game, start = registry.load(name, options or {}, position)
    given = "_".join(f"{key}_{value}" for key, value in sorted((options or {}).items())
                     if value is not None)
    short = short_name("_".join(part for part in (game.name, given, position) if part))
    if short in _GAMES:
        return short
    _GAMES[short] = (game, start)
    win_loss = not game.properties.is_score
    bound = 1 if win_loss else (game.properties.value_bound or game.total_points(start)
                                or DEFAULT_SCORE_BOUND)
    kind = pyspiel.GameType(
        short_name=short, long_name=f"perfectplay {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})
    length = game.properties.max_length if not game.properties.loopy else None
    info = pyspiel.GameInfo(num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=0, num_players=2,
                            min_utility=-float(bound), max_utility=float(bound), utility_sum=0.0,
                            max_game_length=min(length or MAX_LENGTH, MAX_LENGTH))

    class ExportedGame(pyspiel.Game):
        def __init__(self, params: Any = None) -> None:
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> State:
            return State(self, short)

    ExportedGame.__name__ = ExportedGame.__qualname__ = f"Exported_{short}"
    pyspiel.register_game(kind, ExportedGame)
    return short


@dataclass(frozen=True)
class Now:
    """Where a game stands: immutable, so a state's clone (a deep copy) shares it."""

    position: Any
    side: int  # 0 or 1: who is to move, player 0 having moved first
    earned: tuple[int, int]  # a score game's points so far, of player 0 and player 1
    keys: tuple[Any, ...]  # a loopy game's positions so far, for the repetition rule
    plies: int
    over: bool

    def __deepcopy__(self, memo: dict[int, Any]) -> Now:
        return self


class State(pyspiel.State):
    """A perfectplay position as an OpenSpiel state."""

    def __init__(self, game: Any, short: str) -> None:
        super().__init__(game)
        self._short = short
        rules, start = _GAMES[short]
        keys = (rules.key(start),) if rules.properties.loopy else ()
        self._now = Now(start, 0, (0, 0), keys, 0, finish.is_over(rules, start))

    @property
    def _rules(self) -> Game[Any, Any]:
        return _GAMES[self._short][0]

    def current_player(self) -> int:
        return int(pyspiel.PlayerId.TERMINAL) if self._now.over else self._now.side

    def _moves(self) -> list[Any]:
        moves = list(self._rules.moves(self._now.position))
        if len(moves) > MAX_ACTIONS:
            raise ValueError(f"{self._rules.name}: {len(moves)} legal moves, more than the {MAX_ACTIONS} "
                             "OpenSpiel actions declared")
        return moves

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self._moves())))

    def _apply_action(self, action: int) -> None:
        rules, now = self._rules, self._now
        move = self._moves()[action]
        earned = list(now.earned)
        if rules.properties.is_score and not rules.holds_points:
            earned[now.side] += rules.gain(now.position, move)
        side = now.side if finish.keeps_turn(rules, now.position, move) else 1 - now.side
        position = rules.play(now.position, move)
        keys = now.keys + (rules.key(position),) if rules.properties.loopy else ()
        over = (finish.is_over(rules, position) or now.plies + 1 >= self.get_game().max_game_length()
                or keys.count(keys[-1] if keys else None) >= finish.REPETITIONS_FOR_DRAW)
        self._now = Now(position, side, (earned[0], earned[1]), keys, now.plies + 1, over)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._rules.format_move(self._now.position, self._moves()[action])

    def is_terminal(self) -> bool:
        return self._now.over

    def returns(self) -> list[float]:
        if not self._now.over:
            return [0.0, 0.0]
        mine = self._mover_result()
        return [mine, -mine] if self._now.side == 0 else [-mine, mine]

    def _mover_result(self) -> float:
        """What the finished game pays the side left to move."""
        rules, now = self._rules, self._now
        if not finish.is_over(rules, now.position):
            return 0.0  # ended by repetition or the length cap: drawn
        if rules.properties.is_score:
            if rules.holds_points:
                mine, theirs = rules.points(now.position)
            else:
                mine, theirs = now.earned[now.side], now.earned[1 - now.side]
            return float(mine - theirs)
        result = finish.final_outcome(rules, now.position)
        return 1.0 if result is Outcome.WIN else -1.0 if result is Outcome.LOSS else 0.0

    def __str__(self) -> str:
        return self._rules.render(self._now.position)


__all__ = ["MAX_ACTIONS", "MAX_LENGTH", "State", "register", "short_name"]

"""What every search algorithm shares: the game's rules as fast callables, value conventions
for terminal positions, and the Searcher record the algorithms return."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from perfectplay import value as V
from perfectplay.game import Game, Outcome
from perfectplay.search.tables import TranspositionTable

SearchFn = Callable[[Any, float, float, int, int], float]


class Rules:
    """The game's methods bound once, and the value of a finished game at a given ply.

    ``distance`` is True when win/loss values carry the number of plies (the default);
    outcome-only mode and score games use plain values.
    """

    def __init__(self, game: Game[Any, Any], outcome_only: bool = False) -> None:
        props = game.properties
        self.game = game
        self.moves = game.moves
        self.play = game.play
        self.outcome = game.outcome
        self.gain = game.gain
        self.key = game.key
        self.evaluate = game.evaluate
        self.is_score = props.is_score
        self.distance = not outcome_only and not props.is_score
        self.outcome_only = outcome_only
        self.no_move = Outcome.WIN if props.misere else Outcome.LOSS

    def end_value(self, result: Outcome, ply: int) -> int:
        """The value of a finished game for the side to move at ``ply``."""
        if result is Outcome.DRAW:
            return 0
        magnitude = V.WIN - ply if self.distance else V.WIN_ONLY
        return magnitude if result is Outcome.WIN else -magnitude

    def no_move_value(self, ply: int) -> int:
        """The value when the side to move has no legal move."""
        if self.is_score:
            return 0
        return self.end_value(self.no_move, ply)

    def root_window(self) -> tuple[float, float]:
        """The widest useful window: outcome-only values lie in [-1, 1], so a window of
        exactly that lets a win cut off at once (seed 003's short-circuit)."""
        if self.outcome_only and not self.is_score:
            return (-V.WIN_ONLY, V.WIN_ONLY)
        return (-V.INFINITY, V.INFINITY)


@dataclass
class Counters:
    nodes: int = 0
    table_hits: int = 0
    cutoffs: int = 0
    max_ply: int = 0
    horizon: int = 0


@dataclass
class Searcher:
    """One algorithm bound to one game. ``search(position, alpha, beta, ply, depth)`` returns
    the root-relative value of ``position`` (fail-soft: a bound when outside the window).
    ``windowed`` is False for algorithms that ignore the window and always return exact values.
    """

    name: str
    search: SearchFn
    counters: Callable[[], Counters]
    windowed: bool
    table: TranspositionTable | None = None

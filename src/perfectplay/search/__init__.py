"""The negamax family over the game protocol: minimax, memo, alphabeta, tt and id."""

from perfectplay.search.limits import Limits
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.solver import ALGORITHMS, analyze, solve

__all__ = ["ALGORITHMS", "Limits", "MoveValue", "Solution", "Stats", "analyze", "solve"]

"""The negamax family over the game protocol: minimax, memo, alphabeta, tt, id and table.

The algorithms register themselves as solving methods (perfectplay.search.solver); the way in
is perfectplay.solving (re-exported as perfectplay.solve and perfectplay.analyze).
"""

from perfectplay.search.limits import Limits
from perfectplay.search.results import MoveValue, Solution, Stats

__all__ = ["Limits", "MoveValue", "Solution", "Stats"]

"""UCI_LimitStrength and UCI_Elo: a weaker engine through the levels of ``play``
(perfectplay.play.levels: easy, medium, hard, perfect), which make deliberate, bounded
mistakes among moves whose values the engine has searched.

With ``UCI_LimitStrength`` on, every root move is searched as a line of its own (MultiPV over
all moves) within the same limits, and the level for ``UCI_Elo`` picks among them. At and
above ``FULL_STRENGTH_ELO`` the engine plays its own best move. The Elo bands are nominal:
they order the levels, but no match has measured them on Stockfish's scale (the full engine
scored +98 Elo against Stockfish at UCI_Elo 1350, 20 pairs at 0.1 s a move; issue 25).
"""

from __future__ import annotations

import random
from typing import Any

from perfectplay.engine import Line
from perfectplay.game import Game

# (below this Elo, the level): easy 75% blunders, medium 20% slips and 25% blunders, hard
# 20% slips and 0.5% blunders; from FULL_STRENGTH_ELO on, no deliberate mistakes.
LEVEL_BELOW = ((900, "easy"), (1150, "medium"), (1400, "hard"))
FULL_STRENGTH_ELO = 1400


def level_for(elo: int) -> str:
    """The level that plays at ``elo`` (nominally)."""
    return next((name for below, name in LEVEL_BELOW if elo < below), "perfect")


def choose(game: Game[Any, Any], position: Any, lines: list[Line], level_name: str,
           rng: random.Random, exact: bool) -> Line:
    """The line whose first move the level plays, from every root move's line."""
    from perfectplay.play.analyst import Analysis
    from perfectplay.play.levels import choose as level_choose
    from perfectplay.play.levels import level_named
    from perfectplay.search.results import MoveValue

    ordered = sorted(lines, key=lambda line: -line.score)
    values = tuple(MoveValue(line.pv[0], game.format_move(position, line.pv[0]), line.score, False, exact)
                   for line in ordered)
    picked = level_choose(Analysis(values, exact), level_named(level_name), rng)
    return ordered[values.index(picked.move)]

"""UCI_LimitStrength and UCI_Elo: a weaker engine whose every setting plays differently.

A setting below ``FULL_STRENGTH_ELO`` searches its ``LINES`` best root moves as lines of
their own (MultiPV) within a node budget that doubles every ``ELO_PER_DOUBLING`` Elo, then
plays the move whose value, plus a random error, is highest. The error is Gaussian with a
spread that shrinks with the square of the distance to full strength, and values are first
clipped to ``CLIP_CP`` either way, so that the lowest settings may miss even a mate while
from about 1100 up a mate in 1 is missed almost never: both the node budget and the error are
monotone in the Elo, so a higher setting is never the weaker one. This is the idea of
Stockfish's Skill Level (a random weakness added to a few MultiPV lines' scores), written
here on its own terms. Searching a few lines, not every move, keeps the search deep enough
at short move times (every move as a line of its own reached depth 1 or 2 in 0.1 s and lost
every game to Stockfish at its lowest setting).

The Elo figures are nominal; docs/chess.md gives what short matches against Stockfish's own
UCI_Elo measured.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from perfectplay.engine import Line

LOWEST_ELO = 500
FULL_STRENGTH_ELO = 2000  # the option's highest setting: the engine's own best move
NODES_AT_LOWEST = 60
ELO_PER_DOUBLING = 150
ERROR_AT_LOWEST_CP = 500  # the spread (one standard deviation) of the error at LOWEST_ELO
CLIP_CP = 1000  # values beyond a queen's worth (mates included) count as this much
LINES = 4  # the best moves a weakened level chooses among


@dataclass(frozen=True)
class Level:
    """How one UCI_Elo setting plays: ``nodes`` for its search (None: no limit of its own)
    and ``error_cp``, the spread of the error added to each move's value."""

    elo: int
    nodes: int | None
    error_cp: float

    @property
    def full(self) -> bool:
        return self.nodes is None


def level_for(elo: int) -> Level:
    """The level that plays at ``elo`` (nominally); clamped to the option's range."""
    elo = min(max(elo, LOWEST_ELO), FULL_STRENGTH_ELO)
    if elo >= FULL_STRENGTH_ELO:
        return Level(elo, None, 0.0)
    nodes = int(NODES_AT_LOWEST * 2 ** ((elo - LOWEST_ELO) / ELO_PER_DOUBLING))
    error = ERROR_AT_LOWEST_CP * ((FULL_STRENGTH_ELO - elo) / (FULL_STRENGTH_ELO - LOWEST_ELO)) ** 2
    return Level(elo, nodes, error)


def choose(lines: list[Line], level: Level, rng: random.Random) -> Line:
    """The line whose first move ``level`` plays, from every root move's line."""
    if level.full or len(lines) == 1:
        return max(lines, key=lambda line: line.score)

    def judged(line: Line) -> float:
        clipped = min(max(line.score, -CLIP_CP), CLIP_CP)
        return clipped + rng.gauss(0.0, level.error_cp)

    return max(lines, key=judged)

"""How strongly the computer plays: four levels over the same analysis.

Every level sees the exact value of every move. The weaker levels then make deliberate,
bounded mistakes, drawn afresh for each move:

=========  ============  =========  ==============================================
level      slip          blunder    so a move is non-optimal with probability at most
=========  ============  =========  ==============================================
perfect    0 %           0 %        0 %
hard       20 %          0.5 %      20.5 %
medium     20 %          25 %       45 %
easy       0 %           75 %       75 %
=========  ============  =========  ==============================================

* A *slip* is a non-optimal move that keeps the outcome: a slower win, a quicker
  loss, a smaller lead that is still a lead. When no such move exists the best move is
  played, so a slip never turns a win into a draw or a loss.
* A *blunder* is any non-optimal move, chosen uniformly: it may throw a win away.
* Otherwise the level plays like ``perfect``: the best value (the fastest win, the slowest
  loss, the largest score difference), chosen at random among equally good moves.

Measured win rates are in docs/benchmarks-log.md ("Playing strength by level").
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from perfectplay.errors import BadOption
from perfectplay.play.analyst import Analysis, outcome_class
from perfectplay.search.results import MoveValue


@dataclass(frozen=True)
class Level:
    name: str
    slip: float
    blunder: float
    summary: str

    @property
    def mistake_rate(self) -> float:
        """The most often a move of this level is non-optimal."""
        return self.slip + self.blunder


LEVELS: dict[str, Level] = {
    level.name: level for level in (
        Level("easy", 0.0, 0.75, "75% blunders"),
        Level("medium", 0.20, 0.25, "20% slips, 25% blunders"),
        Level("hard", 0.20, 0.005, "20% slips, 0.5% blunders"),
        Level("perfect", 0.0, 0.0, "no deliberate mistakes: perfect where the game is solved "
                                   "(only moves proved optimal: past the think time it goes "
                                   "on, up to a minute of CPU, until one is), else the best "
                                   "move an estimate finds, said to be one"),
    )
}
DEFAULT_LEVEL = "perfect"


def level_named(name: str) -> Level:
    level = LEVELS.get(name.strip().lower())
    if level is None:
        raise BadOption(f"unknown level {name!r}; choose one of: {', '.join(LEVELS)}")
    return level


def levels_help() -> str:
    """One line per level, for --help."""
    levels = "; ".join(f"{level.name}: {level.summary}" for level in LEVELS.values())
    return (f"{levels}. A slip is a non-optimal move that keeps the outcome (a slower win); "
            "a blunder is any non-optimal move, and may throw a win away")


@dataclass(frozen=True)
class Choice:
    """The move a level picked, and whether it was meant as a mistake."""

    move: MoveValue
    kind: str  # "best", "slip" or "blunder"


def choose(analysis: Analysis, level: Level, rng: random.Random, lead: int = 0) -> Choice:
    """Pick a move from ``analysis`` as ``level`` plays; ``rng`` makes it reproducible.

    ``lead`` is the mover's score lead so far in a score game: a slip must keep the final
    outcome, points already taken included."""
    # One draw per move, always, so a seed replays the same game move for move.
    roll = rng.random()
    if roll < level.blunder:
        pool = worse_moves(analysis)
        if pool:
            return Choice(rng.choice(pool), "blunder")
    elif roll < level.blunder + level.slip:
        pool = slips(analysis, lead)
        if pool:
            return Choice(rng.choice(pool), "slip")
    return Choice(rng.choice(analysis.best()), "best")


def worse_moves(analysis: Analysis) -> list[MoveValue]:
    return [move for move in analysis.moves if move.value < analysis.best_value]


def slips(analysis: Analysis, lead: int = 0) -> list[MoveValue]:
    """Non-optimal moves that keep the outcome the best move reaches."""
    keep = outcome_class(analysis.best_value + lead)
    return [move for move in worse_moves(analysis) if outcome_class(move.value + lead) == keep]

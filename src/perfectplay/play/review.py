"""After the game: the losing player's first mistake, the move that turned their position
from a win or a draw into a loss, and what would have kept it.

For a score game "win, draw, loss" are the signs of the score difference the player could
still force. The review uses exact analyses only; in a game too big to solve it says so
rather than blame a move on an estimate.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from perfectplay.play.analyst import Analysis, Analyst, outcome_class
from perfectplay.play.session import Session, Turn
from perfectplay.search.results import MoveValue


@dataclass(frozen=True)
class Mistake:
    """``ply`` counts every move of the game from 1; ``own`` counts only the player's."""

    ply: int
    own: int
    played: MoveValue
    before: int  # the value of the player's position before the move
    better: MoveValue
    lead: int = 0  # score games: the player's lead in points before the move


@dataclass(frozen=True)
class Review:
    """``mistake`` is None when the player never had a win or draw to lose (``lost_from_start``)
    or when the game was too big to review exactly (``exact`` False)."""

    mistake: Mistake | None
    lost_from_start: bool
    exact: bool


def _own_moves(session: Session, side: int,
               analyst: Analyst) -> Iterator[tuple[int, int, Turn, Analysis | None, int]]:
    """Each move of ``side``: (ply from 1, its own count from 1, the turn, the exact analysis
    of the position it was played from or None, the player's lead in points before it)."""
    own = 0
    scores = session.score_history() if session.score_game else None
    for ply, turn in enumerate(session.history, start=1):
        if turn.side != side:
            continue
        own += 1
        lead = 0 if scores is None else scores[ply - 1][side] - scores[ply - 1][1 - side]
        yield ply, own, turn, analyst.exact_only(turn.before), lead


def first_mistake(session: Session, side: int, analyst: Analyst) -> Review:
    first_value: int | None = None
    for ply, own, turn, analysis, lead in _own_moves(session, side, analyst):
        if analysis is None:
            return Review(None, False, exact=False)
        if first_value is None:
            first_value = analysis.best_value + lead
        played = analysis.find(turn.notation, turn.move)
        # In a score game the points already won count too: a lead can absorb a bad move.
        if outcome_class(analysis.best_value + lead) >= 0 > outcome_class(played.value + lead):
            better = analysis.best()[0]
            return Review(Mistake(ply, own, played, analysis.best_value + lead, better, lead),
                          False, exact=True)
    lost_from_start = first_value is not None and outcome_class(first_value) < 0
    return Review(None, lost_from_start, exact=True)


def point_losses(session: Session, side: int, analyst: Analyst) -> list[Mistake] | None:
    """Score games: every move of ``side`` that scored less than the best move would have,
    whether or not it changed who wins (None when a position is too big to analyse exactly)."""
    found: list[Mistake] = []
    for ply, own, turn, analysis, lead in _own_moves(session, side, analyst):
        if analysis is None:
            return None
        played = analysis.find(turn.notation, turn.move)
        if played.value < analysis.best_value:
            found.append(Mistake(ply, own, played, analysis.best_value + lead, analysis.best()[0], lead))
    return found

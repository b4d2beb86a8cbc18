"""Computers playing whole games without a terminal: for the benchmark of levels and for
tests that a perfect computer never lets a won position go."""

from __future__ import annotations

from dataclasses import dataclass

from perfectplay.play.analyst import Analyst, outcome_class
from perfectplay.play.game_loop import Computer
from perfectplay.play.session import Result, Session


@dataclass(frozen=True)
class GameRecord:
    """How a game ended, and for each side the best outcome (+1 win, 0 draw, -1 loss) it
    stood on at any of its turns: a side that stood on a win and did not win let it go."""

    result: Result
    best_stood: tuple[int, int]

    def let_go(self, side: int) -> bool:
        """Whether ``side`` had a won position at some turn and did not win."""
        return self.best_stood[side] > 0 and self.result.winner != side


def play_out(session: Session, analyst: Analyst,
             computers: tuple[Computer, Computer]) -> GameRecord:
    """Play ``session`` to the end, side 0 by ``computers[0]``; the record of the game."""
    best_stood = [-1, -1]
    while not session.is_over():
        side = session.side_to_move
        scores = session.scores()
        lead = scores[side] - scores[1 - side]
        analysis = analyst.best_moves(session.position)
        # In a score game the points already taken decide a win as much as those to come.
        best_stood[side] = max(best_stood[side], outcome_class(analysis.best_value + lead))
        choice, _ = computers[side].move(analyst, session.position, lead)
        session.play(choice.move.move)
    result = session.result()
    assert result is not None  # the loop ends only when the game does
    return GameRecord(result, (best_stood[0], best_stood[1]))

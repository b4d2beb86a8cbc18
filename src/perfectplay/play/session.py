"""One game in progress: the position, the moves played so far, undo, and the result.

The session knows nothing about who the players are; sides are numbered 0 (moves first
from the session's start position) and 1. It works with any Game, score games included:
both scores are always at hand, counted as the game counts them (perfectplay.finish).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfectplay import finish
from perfectplay.game import Game


@dataclass(frozen=True)
class Turn:
    """One move: who played it, from which position, and its gain (Game.gain, score games;
    the scores themselves come from perfectplay.finish)."""

    side: int
    before: Any
    move: Any
    notation: str
    gain: int
    # The mover moves again after it (an extra turn: Kalah, Dots and Boxes).
    again: bool = False


@dataclass(frozen=True)
class Result:
    """How a finished game ended. ``winner`` is a side, or None for a draw."""

    winner: int | None
    plies: int
    scores: tuple[int, int] | None
    repetition: bool = False  # drawn because a loopy game's position came up a third time


# The repetition rule is the library's (perfectplay.finish), as the web page applies it.
REPETITIONS_FOR_DRAW = finish.REPETITIONS_FOR_DRAW


class Session:
    def __init__(self, game: Game[Any, Any], start: Any = None) -> None:
        self.game = game
        self.start = game.start() if start is None else start
        self.position = self.start
        self.history: list[Turn] = []

    @property
    def side_to_move(self) -> int:
        """The side after the last turn: the same one after an extra turn, else the other."""
        if not self.history:
            return 0
        last = self.history[-1]
        return last.side if last.again else 1 - last.side

    @property
    def score_game(self) -> bool:
        return self.game.properties.is_score

    def repeated(self) -> bool:
        """Whether a loopy game has reached the same position REPETITIONS_FOR_DRAW times."""
        return finish.repeated(self.game, self.start, [turn.move for turn in self.history])

    def legal_moves(self) -> list[Any]:
        if self.game.outcome(self.position) is not None or self.repeated():
            return []
        return list(self.game.moves(self.position))

    def is_over(self) -> bool:
        # has_moves, not legal_moves: a game may have more moves than can be listed (Nim 10^30).
        game, position = self.game, self.position
        return game.outcome(position) is not None or self.repeated() or not game.has_moves(position)

    def is_legal(self, move: Any) -> bool:
        """Whether ``move`` (from parse) may be played now; lists no moves (Game.is_legal)."""
        return not self.is_over() and self.game.is_legal(self.position, move)

    def parse(self, text: str) -> Any:
        """The legal move written as ``text``; raises IllegalMove (quoting it) otherwise."""
        return self.game.parse_move(self.position, text)

    def play(self, move: Any) -> Turn:
        """Play a legal move (one from legal_moves or parse)."""
        game, position = self.game, self.position
        gain = game.gain(position, move) if self.score_game else 0
        again = game.properties.extra_turns and game.keeps_turn(position, move)
        turn = Turn(self.side_to_move, position, move, game.format_move(position, move), gain,
                    again)
        self.history.append(turn)
        self.position = game.play(position, move)
        return turn

    def undo(self, side: int) -> list[Turn]:
        """Take back ``side``'s last move and every move after it, oldest first in the
        returned list; nothing when ``side`` has not moved."""
        if not any(turn.side == side for turn in self.history):
            return []
        taken: list[Turn] = []
        while True:
            turn = self.history.pop()
            taken.insert(0, turn)
            if turn.side == side:
                break
        self.position = taken[0].before
        return taken

    def restart(self) -> None:
        self.history.clear()
        self.position = self.start

    def moves(self) -> list[Any]:
        return [turn.move for turn in self.history]

    def score_history(self) -> list[tuple[int, int]]:
        """The points of side 0 and side 1 at the start and after each turn (score games)."""
        return finish.scores_along(self.game, self.start, self.moves())

    def scores(self) -> tuple[int, int]:
        """The points of side 0 and side 1 now (score games): the game's own count where its
        positions hold them (Othello's discs, Kalah's stores), else the points earned."""
        return self.score_history()[-1]

    def result(self) -> Result | None:
        """How the game ended, or None while it goes on."""
        if not self.is_over():
            return None
        plies = len(self.history)
        if self.repeated():
            return Result(None, plies, None, repetition=True)
        ended = finish.ending(self.game, self.start, self.moves())
        return Result(ended.winner, plies, ended.scores)

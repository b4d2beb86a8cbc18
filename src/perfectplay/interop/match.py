"""One game played move by move between two sides, as the environments need it: who is to
move (side 0 moved first; a move that keeps the turn keeps it), whether it is over (by the
rules, by a third repetition in a loopy game, or at a length cap) and what each side is paid
at the end, counted by perfectplay.finish: 1 and -1 for a win and a loss, 0 for a draw, and in
a score game each side's final margin of points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay import finish
from perfectplay.game import Game

# Where a game with no bound on its length (a loopy one, chess) is cut off: truncated.
MAX_PLIES = 400


class Match:
    def __init__(self, game: Game[Any, Any], start: Any, max_plies: int = MAX_PLIES) -> None:
        self.game, self.start, self.position = game, start, start
        self.side = 0
        self.moves: list[Any] = []
        self.repetitions = finish.Repetitions(game, start)
        bound = None if game.properties.loopy else game.properties.max_length
        self.max_plies = max_plies if bound is None else min(bound, max_plies)

    def legal(self) -> Sequence[Any]:
        return [] if self.over else self.game.moves(self.position)

    def play(self, move: Any) -> None:
        if not finish.keeps_turn(self.game, self.position, move):
            self.side = 1 - self.side
        self.position = self.game.play(self.position, move)
        self.moves.append(move)
        self.repetitions.add(self.position)

    @property
    def ended(self) -> bool:
        """Over by the game's rules or by repetition (a draw): terminated."""
        return finish.is_over(self.game, self.position) or self.repetitions.drawn

    @property
    def truncated(self) -> bool:
        return not self.ended and len(self.moves) >= self.max_plies

    @property
    def over(self) -> bool:
        return self.ended or self.truncated

    def payoffs(self) -> tuple[float, float]:
        """What side 0 and side 1 are paid: nothing until the game has ended."""
        if not self.ended:
            return 0.0, 0.0
        ending = finish.ending(self.game, self.start, self.moves)
        if ending.scores is not None:
            margin = float(ending.scores[0] - ending.scores[1])
            return margin, -margin
        if ending.winner is None:
            return 0.0, 0.0
        return (1.0, -1.0) if ending.winner == 0 else (-1.0, 1.0)


__all__ = ["MAX_PLIES", "Match"]

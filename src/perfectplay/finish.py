"""How a game ended, counted by the game itself: who won, both final scores, and the words
("White wins 13-3", "draw 8-8", "Red (X) wins").

Sides are numbered from a start position: side 0 is the side to move there, side 1 the other;
a move that keeps the turn (Kalah, Dots and Boxes) leaves the side to move as it was. A score
game whose positions hold the points (``Game.holds_points``: Othello's discs, Kalah's stores,
the boxes taken in Dots and Boxes) counts them itself with ``Game.points``; in the other score
games (the row games) a move's ``gain`` is the points it earns, and they are added up here,
once, so that no front end adds up gains.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from perfectplay.game import ORDERED_SIDES, UNNAMED_SIDES, Game, Outcome

Scores = tuple[int, int]

# A loopy game (Properties.loopy) ends drawn in play when a position comes up for this many
# times, as in chess: a perfect winner never repeats a position (each of its moves brings the
# end nearer), so only drawn play, or a player who lets a win go, meets this rule.
REPETITIONS_FOR_DRAW = 3


@dataclass(frozen=True)
class Ending:
    """How a finished game ended: ``winner`` is a side (0 or 1) or None for a draw, ``scores``
    the final points of side 0 and side 1 in a score game (None otherwise), ``names`` what
    people call side 0 and side 1."""

    winner: int | None
    scores: Scores | None
    names: tuple[str, str]
    repetition: bool = False  # drawn because a loopy game's position came up a third time

    @property
    def words(self) -> str:
        if self.repetition:
            return "draw: the same position came up a third time"
        if self.scores is None:
            return "draw" if self.winner is None else f"{self.names[self.winner]} wins"
        if self.winner is None:
            return f"draw {self.scores[0]}-{self.scores[1]}"
        won, lost = self.scores[self.winner], self.scores[1 - self.winner]
        return f"{self.names[self.winner]} wins {won}-{lost}"


def is_over(game: Game[Any, Any], position: Any) -> bool:
    """Whether the game is over at ``position``: a rule has ended it, or no move is left."""
    return game.outcome(position) is not None or not game.has_moves(position)


class Repetitions:
    """The positions of a game counted as it is played from ``start`` (``add`` each position
    reached), for the repetition rule: ``drawn`` once a loopy game has just come to a position
    for the REPETITIONS_FOR_DRAW-th time."""

    def __init__(self, game: Game[Any, Any], start: Any) -> None:
        self.key = game.key if game.properties.loopy else None
        self.seen: Counter[Any] = Counter()
        self.last: Any = None
        self.add(start)

    def add(self, position: Any) -> None:
        if self.key is not None:
            self.last = self.key(position)
            self.seen[self.last] += 1

    @property
    def drawn(self) -> bool:
        return self.key is not None and self.seen[self.last] >= REPETITIONS_FOR_DRAW


def repeated(game: Game[Any, Any], start: Any, moves: Sequence[Any]) -> bool:
    """Whether a loopy game played from ``start`` by ``moves`` has just come to a position
    for the REPETITIONS_FOR_DRAW-th time, which ends it drawn."""
    if not game.properties.loopy or len(moves) < 2 * (REPETITIONS_FOR_DRAW - 1):
        return False
    position, counted = start, Repetitions(game, start)
    for move in moves:
        position = game.play(position, move)
        counted.add(position)
    return counted.drawn


def game_over(game: Game[Any, Any], start: Any, moves: Sequence[Any]) -> bool:
    """Whether the game played from ``start`` by ``moves`` is over: by its rules at the
    position reached, or by repetition (a loopy game)."""
    position, _ = side_after(game, start, moves)
    return is_over(game, position) or repeated(game, start, moves)


def keeps_turn(game: Game[Any, Any], position: Any, move: Any) -> bool:
    return game.properties.extra_turns and game.keeps_turn(position, move)


def scores_along(game: Game[Any, Any], start: Any, moves: Sequence[Any]) -> list[Scores]:
    """The points of side 0 and side 1 at ``start`` and after each of ``moves`` (a score
    game): the game's own count where its positions hold the points, else the gains so far."""
    position, side = start, 0
    earned = [0, 0]
    found = [_count(game, position, side, earned)]
    for move in moves:
        if not game.holds_points:
            earned[side] += game.gain(position, move)
        if not keeps_turn(game, position, move):
            side = 1 - side
        position = game.play(position, move)
        found.append(_count(game, position, side, earned))
    return found


def _count(game: Game[Any, Any], position: Any, side: int, earned: list[int]) -> Scores:
    if not game.holds_points:
        return earned[0], earned[1]
    mine, theirs = game.points(position)
    return (mine, theirs) if side == 0 else (theirs, mine)


def side_after(game: Game[Any, Any], start: Any, moves: Sequence[Any]) -> tuple[Any, int]:
    """The position after ``moves`` from ``start``, and the side to move there."""
    position, side = start, 0
    for move in moves:
        if not keeps_turn(game, position, move):
            side = 1 - side
        position = game.play(position, move)
    return position, side


def names_by_side(game: Game[Any, Any], start: Any) -> tuple[str, str]:
    """What people call side 0 and side 1: the game's names at ``start``, or the first and
    the second player (side 0 moved first) where the game has none."""
    names = game.side_names(start)
    return ORDERED_SIDES if names == UNNAMED_SIDES else names


def ending(game: Game[Any, Any], start: Any, moves: Sequence[Any],
           names: tuple[str, str] | None = None) -> Ending:
    """How the game played from ``start`` by ``moves`` ended (it must be over): in a score
    game by the final scores, else by the rules' outcome for the side left to move (no move
    left loses, or wins under misère play). ``names`` name side 0 and side 1 (the game's own
    names by default)."""
    named = names_by_side(game, start) if names is None else names
    position, mover = side_after(game, start, moves)
    if not is_over(game, position) and repeated(game, start, moves):
        return Ending(None, None, named, repetition=True)
    if not is_over(game, position):
        raise ValueError(f"{game.name} position {game.format_position(position)!r} is not over")
    if game.properties.is_score:
        scores = scores_along(game, start, moves)[-1]
        winner = None if scores[0] == scores[1] else 0 if scores[0] > scores[1] else 1
        return Ending(winner, scores, named)
    result = final_outcome(game, position)
    if result is Outcome.DRAW:
        return Ending(None, None, named)
    return Ending(mover if result is Outcome.WIN else 1 - mover, None, named)


def final_outcome(game: Game[Any, Any], position: Any) -> Outcome:
    """The result for the side to move at a finished position of a win/loss game."""
    found = game.outcome(position)
    if found is not None:
        return found
    return Outcome.WIN if game.properties.misere else Outcome.LOSS


def line_totals(game: Game[Any, Any], position: Any, line: Sequence[Any],
                value: int) -> Scores | None:
    """The points of the side to move at ``position`` and of the other side at the end of
    ``line``, its principal variation, whose value is ``value`` (the margin still to win).
    A game that says how many points are left (``total_points``) needs no line: they are
    shared so that the margin grows by ``value``. Otherwise the line is played out; None
    when it stops before the game ends or does not earn the value (cut short, or a bound)."""
    left = game.total_points(position)
    if left is not None:
        mine, theirs = game.points(position) if game.holds_points else (0, 0)
        return mine + (left + value) // 2, theirs + (left - value) // 2
    along = scores_along(game, position, line)
    end, _ = side_after(game, position, line)
    (first, second), (mover, other) = along[0], along[-1]
    if not is_over(game, end) or (mover - other) - (first - second) != value:
        return None
    return mover, other

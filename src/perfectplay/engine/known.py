"""The root of a search whose value the game already knows (Game.known_value: in chess, the
endgame tables): the best move and its line come from the known values of the children, so
the engine answers exactly, at once, without searching."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay import value as V
from perfectplay.game import Game, Outcome

ENDED = {Outcome.WIN: V.WIN, Outcome.DRAW: V.DRAW, Outcome.LOSS: -V.WIN}
# A drawn line goes on for ever: show this many plies of it.
DRAWN_LINE = 8


def child_value(game: Game[Any, Any], child: Any) -> int | None:
    """The node value of ``child`` if the game has ended there or knows it, else None."""
    result = game.outcome(child)
    if result is None and not game.moves(child):
        result = Outcome.WIN if game.properties.misere else Outcome.LOSS
    if result is not None:
        return ENDED[result]
    return game.known_value(child)


def known_best(game: Game[Any, Any], position: Any, moves: Sequence[Any]) -> tuple[int, Any] | None:
    """(value for the side to move, best move) from the children's known values, or None
    when one of them is not known. The first of equal moves is taken."""
    best: tuple[int, Any] | None = None
    for move in moves:
        child = child_value(game, game.play(position, move))
        if child is None:
            return None
        score = -int(V.from_table(child, 1))
        if best is None or score > best[0]:
            best = (score, move)
    return best


def known_root(game: Game[Any, Any], position: Any,
               moves: Sequence[Any]) -> tuple[int, Any, list[Any]] | None:
    """(score, best move, line) when the game knows the root and all its children."""
    if not moves or game.known_value(position) is None:
        return None
    found = known_best(game, position, moves)
    if found is None:
        return None
    score, best = found
    length = V.remoteness(score) if V.is_decisive(score) else DRAWN_LINE
    line = [best]
    current = game.play(position, best)
    while len(line) < length:
        following = game.moves(current)
        step = known_best(game, current, following) if following and game.outcome(current) is None else None
        if step is None:
            break
        line.append(step[1])
        current = game.play(current, step[1])
    return score, best, line

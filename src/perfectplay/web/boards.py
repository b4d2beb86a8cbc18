"""What the page needs to draw a position in SVG: the game's own diagram (Game.diagram, one
of perfectplay.diagram's kinds) as JSON, and the names of its sides (Game.side_names).

The page (static/board.js) draws each kind and plays the notation a clicked place carries;
every game also gets its moves as buttons, so a board that is only a picture (octal heaps)
is still played by clicking. A game with no diagram of its own (a user's game) is drawn as
its ``render`` text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import as_json
from perfectplay.game import Game


def board_of(game: Game[Any, Any], position: Any, start: Any = None,
             played: Sequence[Any] = ()) -> dict[str, Any]:
    """``position``'s diagram; ``played``, the moves from ``start`` that reached it, tells
    the game what the position alone does not (who took a box, a kept turn)."""
    history = []
    if start is not None:
        at = start
        for move in played:
            history.append((at, move))
            at = game.play(at, move)
    return as_json(game.diagram(position, history))


def side_names(game: Game[Any, Any], position: Any, board: dict[str, Any]) -> list[str]:
    """The names of the side to move and of the other side, as the game names them
    (Game.side_names): the status line, and the winner at the end."""
    return list(game.side_names(position))

"""What the page needs to draw a position in SVG: the game's own diagram (Game.diagram, one
of perfectplay.diagram's kinds) as JSON.

The page (static/board.js) draws each kind and plays the notation a clicked place carries;
every game also gets its moves as buttons, so a board that is only a picture (octal heaps)
is still played by clicking. A game with no diagram of its own (a user's game) is drawn as
its ``render`` text.
"""

from __future__ import annotations

from typing import Any, Sequence

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


SIDE_NAMES = {"X": "X", "O": "O", "R": "Red", "B": "Blue", "w": "White", "b": "Black"}
OTHER_SIDE = {"X": "O", "O": "X", "R": "B", "B": "R", "w": "b", "b": "w"}


# Boards whose sides have names of their own (Dots and Boxes' B is not dodgem's Blue).
KIND_SIDES = {
    "kalah": {"S": "South", "N": "North"},
    "dots": {"A": "Player A", "B": "Player B"},
    "hex": {"X": "Red (X)", "O": "Blue (O)"},
    "othello": {"b": "Black", "w": "White"},
}


def side_names(game: Game[Any, Any], position: Any, board: dict[str, Any]) -> list[str]:
    """The names of the side to move and of the other side, as the page names them (the
    status line, and the winner at the end)."""
    mark = board.get("to_move")
    named = KIND_SIDES.get(board["kind"])
    if named is not None and mark in named:
        return [named[mark], next(name for key, name in named.items() if key != mark)]
    if mark in OTHER_SIDE:
        other = OTHER_SIDE[mark]
        if board["kind"] == "connect4":
            return [CONNECT4_SIDES[mark], CONNECT4_SIDES[other]]
        return [SIDE_NAMES[mark], SIDE_NAMES[other]]
    marks = game.player_marks(position)
    if marks is not None:
        return list(marks)
    player = game.player_to_move(position)
    if player is not None:
        names = ["the first player", "the second player"]
        return [names[player], names[1 - player]]
    return ["the player to move", "the other player"]


# The page draws X red and O yellow (Connect Four's diagram); the status line names the piece
# a player sees, with the mark the text board and the terminal use.
CONNECT4_SIDES = {"X": "Red (X)", "O": "Yellow (O)"}

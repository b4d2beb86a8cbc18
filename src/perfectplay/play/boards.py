"""The board as the person sees it: the game's own picture (Game.picture), with what play adds
for games whose players have marks."""

from __future__ import annotations

from typing import Any

from perfectplay.game import Picture

# Kept under its old name for callers: a board is the game's Picture.
Board = Picture


def board_of(game: Any, position: Any) -> Picture:
    """The game's picture of ``position``: marks and a caption where the game has them
    (Connect Four's last move and winning four), its text otherwise."""
    return game.picture(position)


def marks_to_move(game: Any, position: Any) -> tuple[str, str] | None:
    """The marks of the side to move at ``position`` and of the other side, in games whose
    players have marks (X moves first in tic-tac-toe and Connect Four)."""
    return game.player_marks(position)

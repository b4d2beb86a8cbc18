"""Tic-tac-toe on the web page: the nine squares, X blue and O orange, each empty square the
move that fills it, and the three in a row highlighted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Cell, Grid, Highlight, Piece
from perfectplay.games.tictactoe.board import LINES

PIECES = {"X": Piece("letter", "#1b4f9c", "X"), "O": Piece("letter", "#b3541e", "O")}
HELP = "Numbers on the squares are plies to the end of the game with best play."


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]]) -> Grid:
    x, o = game.x_and_o(position)
    marks = game.format_position(position)
    legal = set(game.moves(position)) if game.outcome(position) is None else set()
    cells = tuple(Cell(str(s + 1), "" if mark == "." else mark, str(s + 1) if s in legal else None)
                  for s, mark in enumerate(marks))
    won = [line for line in LINES for stones in (x, o) if stones & line == line]
    highlights = [Highlight(str(s + 1), "win") for line in won for s in range(9) if line >> s & 1]
    if history:
        highlights.append(Highlight(str(history[-1][1] + 1), "last"))
    return Grid(rows=3, columns=3, cells=cells, pieces=PIECES, highlights=tuple(highlights),
                to_move=game.player_marks(position)[0], help=HELP)

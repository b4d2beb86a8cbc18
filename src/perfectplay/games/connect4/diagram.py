"""Connect Four on the web page: red (X) and yellow (O) discs in a blue frame, a click
anywhere in a column drops there, the last disc and a winning four highlighted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Cell, Grid, Highlight, Piece

PIECES = {"X": Piece("disc", "#e03c31", outline="none"), "O": Piece("disc", "#f2c81d", outline="none")}
HELP = ("Numbers above the columns are exact scores in the test sets' convention: +N wins for the player "
        "who drops there (larger is sooner), -N loses, 0 draws; \"~+1\" (pale) is the engine's estimate.")


def place(column: int, row: int) -> str:
    """A cell's name: its column (1 at the left) and row (1 at the bottom)."""
    return f"{column + 1}.{row + 1}"


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]], four: int) -> Grid:
    """``game``: the rules (rules.ConnectFour, which imports this module); ``four``: the
    stones of a winning four, if any."""
    mover, occupied, played = position
    rows = [row.split() for row in game.render(position).splitlines()[:game.height]]  # the top row first
    cells = tuple(Cell(place(c, game.height - 1 - r), "" if mark == "." else mark)
                  for r, row in enumerate(rows) for c, mark in enumerate(row))
    free = set(game.legal_moves(position)) if not four else set()
    highlights = [Highlight(place(*divmod(bit, game.height + 1)), "win")
                  for bit in range(four.bit_length()) if four >> bit & 1]
    if played:
        column = int(played[-1]) - 1
        top = (occupied & game.column_masks[column]).bit_length() - 1 - column * (game.height + 1)
        highlights.append(Highlight(place(column, top), "last"))
    return Grid(rows=game.height, columns=game.width, cells=cells, pieces=PIECES, look="frame",
                drops=tuple(str(c + 1) if c in free else None for c in range(game.width)),
                highlights=tuple(highlights), to_move="X" if len(played) % 2 == 0 else "O", help=HELP)

"""Othello on the web page: black and white discs on green felt, each legal square the move
that places there, the disc counts above, and the pass as a button when it is the only move."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Cell, Count, Grid, Highlight, Piece, Words

PIECES = {"B": Piece("disc", "#111", outline="#000"), "W": Piece("disc", "#f7f7f7", outline="#777")}
NAMES = {"B": "Black", "W": "White"}
HELP = ("Click a marked square to place a disc: the mark's colour and number are that move's value (the "
        "final disc margin with best play). With no legal move, the pass button is under the board.")
LETTERS = "abcdefghij"


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]]) -> Grid:
    rows = game.rows(position)
    moves = {game.format_move(position, move) for move in game.moves(position)}
    n = game.size
    cells = tuple(Cell(f"{LETTERS[c]}{r + 1}", "" if rows[r][c] == "." else rows[r][c],
                       f"{LETTERS[c]}{r + 1}" if f"{LETTERS[c]}{r + 1}" in moves else None)
                  for r in range(n) for c in range(n))
    every = "".join(rows)
    counts = tuple(Count(mark, f"{NAMES[mark]} {every.count(mark)}") for mark in "BW")
    mover = "B" if position[2] else "W"
    last = game.format_move(*history[-1]) if history else None
    return Grid(rows=n, columns=n, cells=cells, pieces=PIECES, look="felt", counts=counts,
                passing="pass" if moves == {"pass"} else None, to_move=mover, over=not moves,
                highlights=(Highlight(last, "last"),) if last and last != "pass" else (),
                column_names=tuple(LETTERS[:n]), row_names=tuple(str(r + 1) for r in range(n)),
                status=(Words(_status(mover, moves, counts, position[3])),), help=HELP)


def _status(mover: str, moves: set[str], counts: tuple[Count, ...], passes: int) -> str:
    other = NAMES["W" if mover == "B" else "B"]
    if not moves:
        return f"Game over: {counts[0].label}, {counts[1].label}"
    if moves == {"pass"}:
        return f"{NAMES[mover]} has no legal move and must pass:"
    return f"{NAMES[mover]} to move" + (f" ({other} had no move and passed)" if passes else "")

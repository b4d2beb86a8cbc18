"""Hex on the web page: the n x n rhombus, Red (X) joining top and bottom, Blue (O) left and
right; each empty cell is the move that places there, and a winner's chain is highlighted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Cell, HexBoard, Highlight, Piece, Words

RED, BLUE = "#d1372b", "#2459c9"
PIECES = {"X": Piece("disc", RED, tint="#f3c4bf"), "O": Piece("disc", BLUE, tint="#c3d3f3")}
HELP = ("Click an empty cell to place a stone: the small hexagon inside is that move's value. Red (X) "
        "joins top and bottom, Blue (O) left and right; there are no draws.")
# Hex's six neighbours as HexWiki numbers cells (column, row): rules.Hex's docstring.
NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1))


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]]) -> HexBoard:
    rows, n = game.rows(position), game.size
    columns = "".join(game.cell_name(c)[0] for c in range(n))
    winner = game.winner(position)
    cells = tuple(Cell(f"{columns[c]}{r + 1}", "" if rows[r][c] == "." else rows[r][c],
                       f"{columns[c]}{r + 1}" if rows[r][c] == "." and not winner else None)
                  for r in range(n) for c in range(n))
    chain = winning_chain(rows, winner) if winner else []
    highlights = [Highlight(f"{columns[c]}{r + 1}", "win") for c, r in chain]
    if history:
        highlights.append(Highlight(game.cell_name(history[-1][1]), "last"))
    if winner == "X":
        status: tuple[Words, ...] = (Words("Red (X) has joined top and bottom", RED, True),)
    elif winner == "O":
        status = (Words("Blue (O) has joined left and right", BLUE, True),)
    else:
        status = (Words("Red X joins top and bottom", RED), Words("Blue O joins left and right", BLUE))
    return HexBoard(size=n, cells=cells, pieces=PIECES, vertical="X", horizontal="O",
                    highlights=tuple(highlights), column_names=tuple(columns),
                    row_names=tuple(str(r + 1) for r in range(n)),
                    to_move="X" if game.x_to_move(position) else "O", status=status, help=HELP)


def winning_chain(rows: list[str], winner: str) -> list[tuple[int, int]]:
    """The winner's stones reached from both of its edges (a flood fill from each edge), as
    (column, row), row by row."""
    n = len(rows)
    stones = {(c, r) for r in range(n) for c in range(n) if rows[r][c] == winner}

    def reached(edge: set[tuple[int, int]]) -> set[tuple[int, int]]:
        found, todo = set(edge), list(edge)
        while todo:
            c, r = todo.pop()
            for dc, dr in NEIGHBOURS:
                cell = (c + dc, r + dr)
                if cell in stones and cell not in found:
                    found.add(cell)
                    todo.append(cell)
        return found

    axis = 1 if winner == "X" else 0
    ends = ({s for s in stones if s[axis] == 0}, {s for s in stones if s[axis] == n - 1})
    return sorted(reached(ends[0]) & reached(ends[1]), key=lambda s: (s[1], s[0]))

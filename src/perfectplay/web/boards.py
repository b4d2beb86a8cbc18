"""What the page needs to draw a position in SVG: a small description per kind of board.

The page (static/board.js) draws each kind and maps a click on the board to a move's
notation; every game also gets its moves as buttons, so a board that is only a picture
(crates, coins, octal heaps) is still played by clicking. A game with no picture of its
own (a user's game) is drawn as its ``render`` text.
"""

from __future__ import annotations

from typing import Any

from perfectplay.game import Game


def board_of(game: Game[Any, Any], position: Any) -> dict[str, Any]:
    for kind, draw in _KINDS:
        if _is(game, kind):
            return draw(game, position)
    return {"kind": "text", "text": game.render(position)}


def side_names(game: Game[Any, Any], position: Any, board: dict[str, Any]) -> list[str]:
    """The names of the side to move and of the other side, as the game names them
    (Game.side_names): the status line, and the winner at the end."""
    return list(game.side_names(position))


def _is(game: Game[Any, Any], kind: str) -> bool:
    names = {type_.__name__ for type_ in type(game).__mro__}
    module = type(game).__module__
    return kind in names and module.startswith("perfectplay.")


def _tictactoe(game: Any, position: int) -> dict[str, Any]:
    cells = game.format_position(position)
    to_move = "X" if cells.count("X") == cells.count("O") else "O"
    return {"kind": "tictactoe", "cells": cells, "to_move": to_move}


def _connect4(game: Any, position: Any) -> dict[str, Any]:
    rows = game.render(position).splitlines()[:-1]  # top row first; the last line is numbers
    to_move = "X" if len(position[2]) % 2 == 0 else "O"
    return {"kind": "connect4", "width": game.width, "height": game.height,
            "rows": ["".join(row.split()) for row in rows], "to_move": to_move,
            "side": game.side_names(position)[0]}


def _heaps(style: str) -> Any:
    def draw(game: Any, position: tuple[int, ...]) -> dict[str, Any]:
        return {"kind": "heaps", "style": style, "heaps": list(position)}
    return draw


def _pile(game: Any, pile: int) -> dict[str, Any]:
    return {"kind": "heaps", "style": "pile", "heaps": [pile]}


def _row(game: Any, span: tuple[int, int]) -> dict[str, Any]:
    left, right = span
    return {"kind": "row", "item": game.item, "values": list(game.values),
            "left": left, "right": right}


def _claim(game: Any, row: tuple[int, int]) -> dict[str, Any]:
    n, claimed = row
    if n > 200:
        return {"kind": "text", "text": game.format_position(row)}
    free = game.available(row)
    cells = "".join("x" if claimed >> i & 1 else "." if free >> i & 1 else "-" for i in range(n))
    return {"kind": "claim", "cells": cells}


def _dodgem(game: Any, position: int) -> dict[str, Any]:
    blue, red = game.colours(position)
    n = game.size
    return {"kind": "dodgem", "size": n, "rows": game.format_position(position).split()[0].split("/"),
            "to_move": "R" if position & game.red_to_move else "B",
            "side": "Red" if position & game.red_to_move else "Blue",
            "off": {"B": n - 1 - bin(blue).count("1"), "R": n - 1 - bin(red).count("1")}}


def _morris(game: Any, position: int) -> dict[str, Any]:
    cells, side = game.format_position(position).split()
    placed = sum(cell == side for cell in cells)
    return {"kind": "morris", "cells": cells.replace("/", ""), "diagonals": bool(game.diagonals),
            "to_move": side, "phase": "placing" if placed < 3 else "moving"}


def _chopsticks(game: Any, position: int) -> dict[str, Any]:
    mine, theirs = game.format_position(position).split("/")
    return {"kind": "chopsticks", "mover": [int(n) for n in mine.split()],
            "other": [int(n) for n in theirs.split()]}


def _chess(game: Any, position: Any) -> dict[str, Any]:
    board = position.board
    # Rank 8 first, as the page draws it: one character per square, '.' for empty.
    squares = "".join("".join(row.split()) for row in str(board).splitlines())
    return {"kind": "chess", "squares": squares, "to_move": "w" if board.turn else "b",
            "side": "White" if board.turn else "Black",
            "check": board.king(board.turn) if board.is_check() else None}


def _kalah(game: Any, position: Any) -> dict[str, Any]:
    """South's pits 1..m left to right along the bottom, North's 1..m right to left along
    the top (pit k of a side is opposite pit m + 1 - k of the other), the stores at each
    player's right. A move is the number of a pit on the mover's side."""
    cells, mover = position
    m = game.pits
    legal = game.legal_moves(position)
    return {"kind": "kalah", "pits": m, "south": list(cells[:m]), "north": list(cells[m + 1:2 * m + 1]),
            "stores": {"S": cells[m], "N": cells[-1]}, "to_move": "SN"[mover],
            "again": [pit for pit in legal if game.keeps_turn(position, pit)],
            "empty_capture": bool(game.empty_capture), "over": not legal}


def _dots(game: Any, position: Any) -> dict[str, Any]:
    """Every line by its notation and its two dots ([row, column] from the top left), and
    every box by its four lines. Who took a box is not in the position (only the score):
    the page finds it by replaying the moves played (static/board.js)."""
    drawn, mover, scores = position
    lines = []
    for line in range(game.edges):
        notation = game.format_move(position, line)
        first, second = (_dot(end) for end in notation.split("-"))
        lines.append({"move": notation, "from": first, "to": second, "drawn": bool(drawn >> line & 1)})
    boxes = []
    for box, mask in enumerate(game.box_masks):
        row, column = divmod(box, game.width)
        sides = [lines[line]["move"] for line in range(game.edges) if mask >> line & 1]
        boxes.append({"row": row, "column": column, "lines": sides, "complete": drawn & mask == mask})
    return {"kind": "dots", "width": game.width, "height": game.height, "lines": lines, "boxes": boxes,
            "scores": {"A": scores[0], "B": scores[1]}, "to_move": "AB"[mover],
            "over": drawn == game.full}


def _dot(name: str) -> list[int]:
    """A dot of Dots and Boxes' notation ('b3': column b, row 3 from the top) as [row, column]
    from 0."""
    return [int(name[1:]) - 1, ord(name[0]) - ord("a")]


def _hex(game: Any, position: Any) -> dict[str, Any]:
    """Rows from the top (X, O or .); X (red) joins top and bottom, O (blue) left and right.
    ``chain``: the winner's stones joined to both its edges, [column, row] each."""
    rows = game.rows(position)
    winner = game.winner(position)
    return {"kind": "hex", "size": game.size, "rows": rows,
            "to_move": "X" if game.x_to_move(position) else "O", "winner": winner,
            "chain": _winning_chain(rows, winner) if winner else []}


# Hex's six neighbours as HexWiki numbers cells (column, row): rules.Hex's docstring.
HEX_NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1), (1, -1), (-1, 1))


def _winning_chain(rows: list[str], winner: str) -> list[list[int]]:
    """The winner's stones reached from both of its edges (a flood fill from each edge)."""
    n = len(rows)
    stones = {(c, r) for r in range(n) for c in range(n) if rows[r][c] == winner}

    def reached(edge: set[tuple[int, int]]) -> set[tuple[int, int]]:
        found, todo = set(edge), list(edge)
        while todo:
            c, r = todo.pop()
            for dc, dr in HEX_NEIGHBOURS:
                cell = (c + dc, r + dr)
                if cell in stones and cell not in found:
                    found.add(cell)
                    todo.append(cell)
        return found

    if winner == "X":
        ends = ({s for s in stones if s[1] == 0}, {s for s in stones if s[1] == n - 1})
    else:
        ends = ({s for s in stones if s[0] == 0}, {s for s in stones if s[0] == n - 1})
    return [list(cell) for cell in sorted(reached(ends[0]) & reached(ends[1]), key=lambda s: (s[1], s[0]))]


def _othello(game: Any, position: Any) -> dict[str, Any]:
    """Rows from the top (B, W or .); ``must_pass`` when the mover's only move is the pass."""
    rows = game.rows(position)
    moves = [game.format_move(position, move) for move in game.moves(position)]
    cells = "".join(rows)
    return {"kind": "othello", "size": game.size, "rows": rows, "to_move": "b" if position[2] else "w",
            "counts": {"B": cells.count("B"), "W": cells.count("W")},
            "must_pass": moves == ["pass"], "passes": position[3], "over": not moves}


# Most specific first: the matchgame is a Nim, Tapatan a Three Men's Morris.
_KINDS = (
    ("TicTacToe", _tictactoe),
    ("ConnectFour", _connect4),
    ("MatchGame", _heaps("matches")),
    ("Nim", _heaps("sticks")),
    ("OctalGame", _heaps("tokens")),
    ("TakeAway", _pile),
    ("RowGame", _row),
    ("ClaimLine", _claim),
    ("Dodgem", _dodgem),
    ("ThreeMensMorris", _morris),
    ("Chopsticks", _chopsticks),
    ("Chess", _chess),
    ("Kalah", _kalah),
    ("DotsAndBoxes", _dots),
    ("Hex", _hex),
    ("Othello", _othello),
)

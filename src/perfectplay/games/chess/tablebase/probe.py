"""Read the tables for a python-chess board: its value, every move's value, the best line.

A board is in a table when it holds the two kings and one queen, rook or pawn (of either
colour, either side to move). The tables index no castling rights; a KRK board that still has
one is valued from its moves, whose positions (after at most two plies) have none. Boards
with two kings and at most a bishop or knight besides are dead draws and valued 0 without a
table. Values are perfectplay.value integers, node-relative: ``WIN - r`` when the side to
move mates in ``r`` plies, ``r - WIN`` when it is mated in ``r``, 0 for a draw. The fifty-move
rule is not applied (the tables are built without it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess

from perfectplay import value as V
from perfectplay.games.chess.tablebase import files
from perfectplay.games.chess.tablebase.index import TABLES, index_of, node_value

_PIECE_TABLE = {chess.QUEEN: "KQK", chess.ROOK: "KRK", chess.PAWN: "KPK"}
_LOADED: dict[tuple[str, str], Any] = {}


def table_values(name: str, directory: str | Path | None = None) -> Any:
    """The stored bytes of one table, read once per process and directory."""
    where = (name, str(files.table_dir(directory)))
    if where not in _LOADED:
        _LOADED[where] = files.load(name, directory)
    return _LOADED[where]


def forget_loaded() -> None:
    """Drop the tables read so far (a test that swaps files calls this)."""
    _LOADED.clear()


def material(board: chess.Board) -> tuple[str, bool] | None:
    """(table name, strong colour) when ``board`` has the material of a table, else None."""
    if chess.popcount(board.occupied) != 3:
        return None
    others = board.occupied & ~board.kings
    square = chess.lsb(others)
    piece = board.piece_at(square)
    if piece is None or piece.piece_type not in _PIECE_TABLE:
        return None
    return _PIECE_TABLE[piece.piece_type], piece.color


def why_not(board: chess.Board) -> str | None:
    """None when ``board`` is answered from a table, else why not, in words."""
    if material(board) is None:
        return (f"the endgame tables hold {', '.join(TABLES)} (two kings and one queen, rook or "
                f"pawn); {board.fen()!r} is not one of them")
    return None


def dead_draw(board: chess.Board) -> bool:
    """Two kings and at most one bishop or knight: no mate is possible."""
    return chess.popcount(board.occupied) <= 3 and board.is_insufficient_material()


def index_of_board(board: chess.Board, strong: bool) -> int:
    """The table index of ``board`` (its strong side playing up the board, as White)."""
    flip = 0 if strong == chess.WHITE else 56
    piece = chess.lsb(board.occupied & ~board.kings)
    strong_king = board.king(strong)
    weak_king = board.king(not strong)
    assert strong_king is not None and weak_king is not None  # material() saw both kings
    mover = 0 if board.turn == strong else 1
    return index_of(mover, strong_king ^ flip, weak_king ^ flip, piece ^ flip)


def value(board: chess.Board, directory: str | Path | None = None) -> int | None:
    """The node-relative value of ``board`` from the tables (0 for a dead draw), or None
    when it is in no table."""
    found = material(board)
    if found is None:
        return V.DRAW if dead_draw(board) else None
    if board.clean_castling_rights():
        return _value_by_moves(board, directory)
    name, strong = found
    stored = int(table_values(name, directory)[index_of_board(board, strong)])
    return node_value(stored)


def _value_by_moves(board: chess.Board, directory: str | Path | None) -> int:
    """The value of a board with a castling right (KRK with the rook and king at home), which
    the tables do not index: the best of its moves. A move of the strong side ends the right,
    so this looks at most two plies ahead."""
    valued = move_values(board, directory)
    if not valued:
        return -V.WIN if board.is_check() else V.DRAW
    return max(move_value for _, move_value in valued)


def move_values(board: chess.Board, directory: str | Path | None = None) -> list[tuple[chess.Move, int]]:
    """Every legal move with its value for the side that plays it (root-relative: a win in
    ``p`` plies from ``board`` is ``WIN - p``), in python-chess's order."""
    valued = []
    for move in board.legal_moves:
        board.push(move)
        try:
            child = value(board, directory)
        finally:
            board.pop()
        if child is None:
            raise ValueError(f"{board.fen()!r}: move {move.uci()} leaves the tables")
        valued.append((move, -int(V.from_table(child, 1))))
    return valued


def best_line(board: chess.Board, limit: int = 200, directory: str | Path | None = None) -> list[chess.Move]:
    """Optimal moves (the winner mates soonest, the loser delays longest) until the game
    ends, ``limit`` plies, or a drawn line comes back to a position it has seen."""
    board = board.copy(stack=False)
    line: list[chess.Move] = []
    seen = {board.epd()}
    while len(line) < limit and any(board.legal_moves) and not dead_draw(board):
        valued = move_values(board, directory)
        best = max(move_value for _, move_value in valued)
        move = next(move for move, move_value in valued if move_value == best)
        line.append(move)
        board.push(move)
        if board.epd() in seen:
            break
        seen.add(board.epd())
    return line

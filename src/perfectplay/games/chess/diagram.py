"""Chess on the web page, with Unicode pieces, from White's side (the page may turn it
round): a piece, then its square (a promotion by click makes a queen; the others are move
buttons), the king in check and the last move highlighted, every legal move labelled in SAN
and the moves played numbered as a score sheet writes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import chess

from perfectplay.diagram import Cell, Grid, Highlight, Label, Piece, Recorded, Step

GLYPHS = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
          "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}
PIECES = {mark: Piece("glyph", "#111", glyph) for mark, glyph in GLYPHS.items()}
HELP = ("Click a piece, then a square. Colours are proven values (endgame tables, mates) where known; "
        "pale colours are the engine's estimates in pawns (+ favours the player to move). The arrow is the "
        "engine's best line. The arrow keys step through the moves played.")


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]]) -> Grid:
    board = position.board
    cells = []
    for rank in reversed(range(8)):
        for file in range(8):
            square = chess.square(file, rank)
            piece = board.piece_at(square)
            cells.append(Cell(chess.square_name(square), piece.symbol() if piece else ""))
    legal = game.legal_moves(position)
    steps = tuple(Step(move.uci(), chess.square_name(move.from_square), chess.square_name(move.to_square))
                  for move in legal if move.promotion in (None, chess.QUEEN))
    highlights = []
    if board.is_check():
        king = board.king(board.turn)
        if king is not None:
            highlights.append(Highlight(chess.square_name(king), "check"))
    if history:
        last = history[-1][1]
        highlights += [Highlight(chess.square_name(last.from_square), "last"),
                       Highlight(chess.square_name(last.to_square), "last")]
    return Grid(rows=8, columns=8, cells=tuple(cells), pieces=PIECES, look="checkered", steps=steps,
                highlights=tuple(highlights), to_move="w" if board.turn else "b",
                column_names=tuple("abcdefgh"), row_names=tuple("87654321"), help=HELP, units="centipawns",
                labels=tuple(Label(move.uci(), board.san(move)) for move in legal),
                record=score_sheet(history), flippable=True)


def score_sheet(history: Sequence[tuple[Any, Any]]) -> tuple[Recorded, ...]:
    """The moves played in SAN, numbered: "1." before White's move, "1..." before a first
    move by Black (a game from a FEN with Black to move), none before Black's reply."""
    sheet = []
    for ply, (before, move) in enumerate(history):
        board = before.board
        number = (f"{board.fullmove_number}." if board.turn
                  else f"{board.fullmove_number}..." if ply == 0 else "")
        sheet.append(Recorded(number, board.san(move)))
    return tuple(sheet)

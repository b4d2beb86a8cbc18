"""UCI's ``position`` command: ``startpos`` or ``fen FEN``, then optionally ``moves ...``.

With ``UCI_Chess960`` on, a chess position is a python-chess board in Chess960 mode: FEN
castling rights may name the rooks' files (Shredder-FEN ``HAha`` or X-FEN), and castling is
written as the king moving onto its own rook (``e1h1`` in the standard start position),
both read and written, as the protocol asks of a Chess960 engine.
"""

from __future__ import annotations

from typing import Any

from perfectplay.errors import BadPosition
from perfectplay.game import Game
from perfectplay.uci.go import UciError


def position_text(arguments: list[str]) -> str:
    """The game's position text (FEN or 'startpos', then 'moves ...') from the arguments;
    UciError for a malformed command."""
    written = " ".join(arguments)
    if not arguments or arguments[0] not in ("startpos", "fen"):
        raise UciError(f"position {written!r}: write 'position startpos [moves ...]' "
                       "or 'position fen FEN [moves ...]'")
    if arguments[0] == "startpos" and len(arguments) > 1 and arguments[1] != "moves":
        raise UciError(f"position {written!r}: after startpos only 'moves ...' may follow")
    if arguments[0] == "fen" and (len(arguments) < 2 or arguments[1] == "moves"):
        raise UciError(f"position {written!r}: a FEN must follow 'fen'")
    return " ".join(arguments[1:]) if arguments[0] == "fen" else written


def chess960_position(game: Game[Any, Any], text: str) -> Any:
    """A chess position on a Chess960 board from 'startpos'/FEN and moves, with the moves'
    history (repetitions), as ``Chess.parse_position`` gives on a standard board."""
    import chess

    fen, _, played = " ".join(text.split()).partition("moves")
    fen = fen.strip()
    try:
        board = chess.Board(chess.STARTING_FEN if fen == "startpos" else fen, chess960=True)
    except ValueError as error:
        raise BadPosition(f"illegal FEN {fen!r}: {error}") from None
    if not board.is_valid():
        reasons = [flag.name.removeprefix("STATUS_").lower().replace("_", " ")
                   for flag in chess.Status if flag and flag in board.status() and flag.name]
        raise BadPosition(f"illegal Chess960 FEN {fen!r}: {', '.join(reasons)}")
    position = game.from_board(board)  # type: ignore[attr-defined]
    for move in played.split():
        position = game.play(position, game.parse_move(position, move))
    return position

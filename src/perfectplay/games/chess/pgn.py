"""A game as PGN (Portable Game Notation), the web page's way to load and copy a game:
``read`` turns pasted PGN into a start and the moves played, ``write`` a start and moves
into PGN (python-chess writes it). The registry's extension "record" names this module.

Reading is strict where python-chess's reader is lenient (it skips a token it cannot read
and stops at an illegal move, keeping the moves before): the first word of the move text
that is not a legal move is an error that quotes it, so a game is never half loaded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import chess
import chess.pgn

from perfectplay.errors import BadPosition

# What the page calls the format (its buttons say "Paste PGN", "Copy PGN").
FORMAT = "PGN"
# Pasted text longer than this is refused: a long game with comments is a few kilobytes.
MAX_CHARACTERS = 100_000

_TAG = re.compile(r'\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_COMMENT = re.compile(r"\{[^}]*\}|;[^\n]*")
_VARIATION = re.compile(r"\([^()]*\)")
_NUMBER = re.compile(r"^\d+\.+")
_RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def read(text: str) -> tuple[str | None, list[str]]:
    """The start (a FEN, or None for the usual start) and the moves in UCI of the game in
    ``text``; BadPosition, quoting the text, for anything that is not a game of legal moves."""
    if len(text) > MAX_CHARACTERS:
        raise BadPosition(f"PGN {_quoted(text)} is too long ({len(text):,} characters; at most "
                          f"{MAX_CHARACTERS:,})")
    tags = {name: value.replace('\\"', '"') for name, value in _TAG.findall(text)}
    fen = tags.get("FEN")
    try:
        board = chess.Board(fen) if fen else chess.Board()
    except ValueError as error:
        raise BadPosition(f"PGN {_quoted(text)}: its FEN tag {fen!r} is not a position ({error})") from None
    moves: list[str] = []
    for word in _move_words(text):
        try:
            move = board.parse_san(word)
        except ValueError:
            move = None
        if not move:  # a null move ("--") is no move of the game
            side = "White" if board.turn else "Black"
            raise BadPosition(f"PGN {_quoted(text)}: move {board.fullmove_number} for {side}, {word!r}, "
                              f"is not a legal move in {board.fen()!r}")
        moves.append(move.uci())
        board.push(move)
    if not moves and not fen:
        raise BadPosition(f"PGN {_quoted(text)}: no moves and no FEN tag; paste a game, e.g. "
                          "'1. e4 e5 2. Nf3 Nc6'")
    return fen, moves


def _move_words(text: str) -> list[str]:
    """The moves of the main line as written: tags, comments, variations, move numbers,
    numeric annotation glyphs, !/? marks and the result left out."""
    body = _COMMENT.sub(" ", _TAG.sub(" ", text))
    while _VARIATION.search(body):  # innermost first, so nested variations go too
        body = _VARIATION.sub(" ", body)
    words = []
    for word in body.split():
        word = _NUMBER.sub("", word).rstrip("!?")
        if word and word not in _RESULTS and not word.startswith("$"):
            words.append(word)
    return words


def write(start_fen: str | None, moves: Sequence[str]) -> str:
    """The game from ``start_fen`` (None: the usual start) through ``moves`` (UCI, trusted
    legal: the page's own line) as PGN, with a SetUp/FEN tag for another start."""
    board = chess.Board(start_fen) if start_fen else chess.Board()
    game = chess.pgn.Game()
    if start_fen and board.fen() != chess.STARTING_FEN:
        game.setup(board)
    node: chess.pgn.GameNode = game
    for text in moves:
        move = chess.Move.from_uci(text)
        node = node.add_variation(move)
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome else "*"
    return str(game)


def _quoted(text: str, keep: int = 60) -> str:
    """``text`` on one line, shortened, quoted: an error message stays one line."""
    line = " ".join(text.split())
    return repr(line) if len(line) <= keep else repr(line[:keep]) + "..."

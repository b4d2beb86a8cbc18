"""Chess's part of `perfectplay uci chess` (perfectplay.uci.extras): the options UCI_Chess960
and SyzygyPath, the Syzygy tables the search probes and the root follows
(perfectplay.games.chess.syzygy), and the engine's own endgame tables loaded at isready.

With ``UCI_Chess960`` on, a position is a python-chess board in Chess960 mode: FEN castling
rights may name the rooks' files (Shredder-FEN ``HAha`` or X-FEN), and castling is written
as the king moving onto its own rook (``e1h1`` in the standard start position), both read
and written, as the protocol asks of a Chess960 engine.

It sits in the front ends' layer, beside perfectplay.uci, whose Option and UciExtras it
builds on; the UCI loop reaches it through chess's entry (``extensions["uci"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from perfectplay.errors import BadPosition
from perfectplay.game import Game
from perfectplay.uci.extras import RootAdvice, UciExtras
from perfectplay.uci.options import Option, Options

# One position per endgame table of the engine's own (KQK, KRK, KPK): asking them loads the
# tables at isready, not during the first search that reaches one.
TABLE_POSITIONS = ("8/8/8/4k3/8/8/3QK3/8 w - - 0 1", "8/8/8/4k3/8/8/3RK3/8 w - - 0 1",
                   "8/8/8/4k3/8/3P4/4K3/8 w - - 0 1")


def extras(game: Game[Any, Any]) -> UciExtras:
    """Chess's extras for ``game``; none for a game that only shares chess's name."""
    from perfectplay.games.chess.rules import Chess
    return ChessUci(game) if isinstance(game, Chess) else UciExtras()


class ChessUci(UciExtras):
    """UCI_Chess960, SyzygyPath and the tables behind them."""

    options = (Option("UCI_Chess960", "check", False), Option("SyzygyPath", "string", ""))

    def __init__(self, game: Any) -> None:
        from perfectplay.games.chess.syzygy import SyzygyTables
        self.game = game
        self.syzygy: SyzygyTables | None = None
        self.damage_told = False
        self.tables_loaded = False

    def warm_up(self) -> None:
        if not self.tables_loaded:
            self.tables_loaded = True
            for fen in TABLE_POSITIONS:
                self.game.known_value(self.game.parse_position(fen))

    def read_position(self, text: str, values: Options) -> Any | None:
        return chess960_position(self.game, text) if values["UCI_Chess960"] else None

    def apply(self, name: str, values: Options) -> list[str] | None:
        if name != "syzygypath":
            return None
        from perfectplay.games.chess.syzygy import SyzygyTables
        path = values["SyzygyPath"]
        tables = SyzygyTables.open(path) if path.strip() else None
        self.close()
        self.syzygy = tables
        self.damage_told = False
        if tables is None:
            return []
        return [f"info string SyzygyPath {path!r}: {tables.tables} table files, "
                f"up to {tables.max_pieces} pieces"]

    def play_on(self, position: Any) -> Any | None:
        """The board without its claimable draws (the repetitions before it, the fifty-move
        clock), which a GUI may leave unclaimed; None for bare kings with at most a minor
        piece, where every move is a draw."""
        board = position.board
        if board.is_insufficient_material():
            return None
        fresh = board.copy(stack=False)
        fresh.halfmove_clock = 0
        return self.game.from_board(fresh)

    def probe(self) -> Callable[[Any], int | None] | None:
        return None if self.syzygy is None else self.syzygy.value

    def root(self, position: Any, moves: Sequence[Any]) -> RootAdvice | None:
        """The Syzygy tables' ranking of the root's moves, unless the engine's own tables
        (with mate distances) hold the root."""
        if self.syzygy is None or self.game.known_value(position) is not None:
            return None
        return self.syzygy.root(position.board, list(moves))

    def after_search(self) -> list[str]:
        """Say once that a Syzygy table could not be read (the search went on without it)."""
        if self.syzygy is None or not self.syzygy.damaged or self.damage_told:
            return []
        self.damage_told = True
        return [f"info string error: a Syzygy table could not be read ({self.syzygy.damaged}); "
                "positions it holds are searched without it"]

    def close(self) -> None:
        if self.syzygy is not None:
            self.syzygy.close()


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

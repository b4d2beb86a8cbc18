"""Syzygy endgame tables for the UCI engine (chess's option ``SyzygyPath``,
perfectplay.games.chess.uci), read by python-chess's
``chess.syzygy`` from the directories the user names (separated by ``:``; ``;`` on Windows).

Syzygy tables give each position's result (WDL: win, cursed win, draw, blessed loss, loss;
"cursed" and "blessed" are results the fifty-move rule turns into draws) and its distance to
the next zeroing move (DTZ: a capture or pawn move, or mate). No mate distance. So they are
used as engines use them (Stockfish's ``Tablebases::rank_root_moves`` and its probe in the
search, whose scheme this follows; the code is our own):

* at the root, every move is ranked by the tables: wins that the fifty-move rule lets
  through, the nearest zeroing first; then cursed wins, draws, blessed losses; then losses,
  the longest first. The search chooses only among the moves of the best rank, so a won
  position is always converted (the DTZ-nearest moves make progress) and a drawn one is
  never lost, whatever the evaluation thinks;
* inside the search, a position just after a capture or pawn move (where the tables'
  fifty-move counter holds) with few enough pieces and no castling rights is valued by its
  WDL: ``TB_WIN`` centipawns for a win, beyond any evaluation and short of a mate score, 1
  or -1 for a cursed win or blessed loss, 0 for a draw. It ends the line like a horizon,
  since the value carries no distance.

The engine's own tables (KQK, KRK, KPK with mate distances, perfectplay.games.chess.tablebase) answer
first wherever they hold a position. Every answer counts as a ``tbhits``.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from typing import Any, Protocol

import chess
import chess.syzygy

from perfectplay.errors import BadOption

TB_WIN = 20_000
WDL_VALUE = {2: TB_WIN, 1: 1, 0: 0, -1: -1, -2: -TB_WIN}
# Among table wins the search prefers the one that leaves the winner more material (the
# textbook points, in tens of centipawns): every such move wins, but a queen mates sooner than
# a rook, so the engine does not underpromote for nothing.
PIECE_POINTS = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
RESULT_NAMES = {2: "win", 1: "cursed win", 0: "draw", -1: "blessed loss", -2: "loss"}
# What python-chess raises for a damaged file: OSError for a bad header or a file cut short,
# IndexError (or ValueError, struct.error) when bytes inside the compressed data were changed,
# since Syzygy files carry no checksum and the decoder follows what it reads.
DAMAGE_ERRORS = (OSError, ValueError, IndexError, struct.error)


class Prober(Protocol):
    """What is read from a tablebase: python-chess's ``chess.syzygy.Tablebase``, or a test's."""

    def probe_wdl(self, board: chess.Board) -> int: ...

    def probe_dtz(self, board: chess.Board) -> int: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class RootAdvice:
    """What the tables say at the root: the moves of the best rank, its result for the side
    to move (2 win ... -2 loss), and plies to the next zeroing move along the best of them."""

    moves: list[chess.Move]
    result: int
    plies: int
    probes: int

    @property
    def score(self) -> int:
        """What the UCI loop reports while the search follows the tables: the result's value."""
        return WDL_VALUE[self.result]

    def describe(self, total: int) -> str:
        kept = f"{len(self.moves)} of {total} moves keep it"
        if self.result in (2, -2):
            return (f"syzygy: {RESULT_NAMES[self.result]}; {kept}, "
                    f"{self.plies} plies to a zeroing move or mate")
        return f"syzygy: {RESULT_NAMES[self.result]}; {kept}"


class SyzygyTables:
    """The tables found under ``path``; ``tables`` counts the files, ``max_pieces`` is the
    most pieces (kings included) of any of them."""

    def __init__(self, prober: Prober, tables: int, max_pieces: int) -> None:
        self.prober = prober
        self.tables = tables
        self.max_pieces = max_pieces
        self.damaged: str | None = None  # why a table could not be read, once one could not

    def _probe(self, read: Any, board: chess.Board) -> int | None:
        """``read(board)``, or None for a position the tables do not hold or cannot read."""
        try:
            return int(read(board))
        except KeyError:  # not in the tables (chess.syzygy.MissingTableError)
            return None
        except DAMAGE_ERRORS as error:
            self.damaged = f"{type(error).__name__}: {error}"
            return None

    @classmethod
    def open(cls, path: str) -> SyzygyTables:
        """Open every table in the directories of ``path``; BadOption for a directory that
        does not exist or cannot be read."""
        tablebase = chess.syzygy.Tablebase()
        found = 0
        for directory in (part.strip() for part in path.split(os.pathsep)):
            if not directory:
                continue
            if not os.path.isdir(directory):
                tablebase.close()
                raise BadOption(f"SyzygyPath {path!r}: {directory!r} is not a directory")
            try:
                found += tablebase.add_directory(directory)
            except OSError as error:
                tablebase.close()
                raise BadOption(f"SyzygyPath {path!r}: cannot read {directory!r}: {error.strerror}") from None
        pieces = max((len(name) - 1 for name in tablebase.wdl), default=0)  # "KQvK": 3 pieces
        return cls(tablebase, found, pieces)

    def close(self) -> None:
        self.prober.close()

    def holds(self, board: chess.Board) -> bool:
        """Whether ``board`` may be in the tables: few enough pieces, no castling rights."""
        return chess.popcount(board.occupied) <= self.max_pieces and not board.castling_rights

    def value(self, position: Any) -> int | None:
        """The search's probe (perfectplay.engine's ``probe``): the WDL value of a chess
        position right after a zeroing move, or None."""
        board = position.board
        if board.halfmove_clock or not self.holds(board):
            return None
        wdl = self._probe(self.prober.probe_wdl, board)
        if wdl is None:
            return None
        if wdl in (2, -2):
            return WDL_VALUE[wdl] + 10 * _material_margin(board)
        return WDL_VALUE[wdl]

    def root(self, board: chess.Board, moves: list[chess.Move]) -> RootAdvice | None:
        """The root's ranking, or None when the root is not in the tables."""
        if not self.holds(board) or not moves:
            return None
        ranked = []
        for move in moves:
            rank = self._rank(board, move)
            if rank is None:
                return None
            ranked.append((rank, move))
        best = max(rank for rank, _ in ranked)
        return RootAdvice([move for rank, move in ranked if rank == best], best[0], abs(best[1]),
                          2 * len(moves))

    def _rank(self, board: chess.Board, move: chess.Move) -> tuple[int, int] | None:
        """(result for the mover, then a tie-break where larger is better): a win sooner to
        its next zeroing move (a winning move that zeroes is that move), a loss later."""
        child = board.copy(stack=False)
        child.push(move)
        if child.is_checkmate():
            return 2, 0
        if child.is_stalemate() or child.is_insufficient_material():
            return 0, 0
        wdl = self._probe(self.prober.probe_wdl, child)
        dtz = self._probe(self.prober.probe_dtz, child)
        if wdl is None or dtz is None:
            return None
        result, plies = -wdl, 1 + abs(dtz)
        if result == 2 and not child.halfmove_clock:
            plies = 1
        if result in (2, -2) and child.halfmove_clock + plies - 1 > 100:
            result //= 2  # the fifty-move rule comes first: a win is cursed, a loss blessed
        if result == 2:
            return 2, -plies
        if result == -2:
            return -2, plies
        return result, 0


def _material_margin(board: chess.Board) -> int:
    """The side to move's material points minus the opponent's."""
    margin = 0
    for piece, points in PIECE_POINTS.items():
        margin += points * (len(board.pieces(piece, board.turn)) - len(board.pieces(piece, not board.turn)))
    return margin

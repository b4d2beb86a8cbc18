"""The perfect index of a table and the byte each position's value is stored in.

Every table of king and one piece against a lone king has ``2 * 64 ** 3`` slots, one per
(side to move, strong king, weak king, piece square), in that order from the high bits:
``index = mover << 18 | strong_king << 12 | weak_king << 6 | piece``, with mover 0 when the
strong side (the one with the piece) is to move. The strong side always plays up the board
as White does; a position where Black has the piece is read with its squares mirrored top to
bottom (square ^ 56), which is an exact symmetry of chess without castling.

Slots of illegal positions (two men on one square, kings side by side, a pawn on the first or
last rank, the side not to move in check) hold ILLEGAL. The others hold the value for the
side to move in plies, counted without the fifty-move rule:

* ``r`` (1..127): the side to move mates in ``r`` plies (``(r + 1) // 2`` of its moves);
* ``-(r + 1)`` (-1..-127): the side to move is mated in ``r`` plies at the latest (-1: it
  is checkmated now);
* 0: a draw (stalemate, the piece lost, or no forced mate either way).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from perfectplay import value as V

if TYPE_CHECKING:
    import numpy as np

SIZE = 2 * 64 ** 3
ILLEGAL = -128
# The tables, in the order a full build makes them: KPK reads KQK and KRK (promotions).
TABLES = ("KQK", "KRK", "KPK")
PIECE_LETTER = {"KQK": "Q", "KRK": "R", "KPK": "P"}


def index_of(mover: int, strong_king: int, weak_king: int, piece: int) -> int:
    return mover << 18 | strong_king << 12 | weak_king << 6 | piece


def split(index: int) -> tuple[int, int, int, int]:
    """(mover, strong king, weak king, piece) of an index."""
    return index >> 18, (index >> 12) & 63, (index >> 6) & 63, index & 63


def node_value(stored: int) -> int | None:
    """The perfectplay.value of a stored byte, node-relative (None for ILLEGAL)."""
    if stored == ILLEGAL:
        return None
    if stored > 0:
        return V.win_in(stored)
    if stored < 0:
        return V.loss_in(-stored - 1)
    return V.DRAW


def encode(codes: np.ndarray, remoteness: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Stored bytes from the retrograde solver's codes and remoteness (perfectplay.retro)."""
    import numpy as np

    from perfectplay.retro.solver import LOST, WON
    if remoteness.max(initial=0) > 126:
        raise ValueError("a remoteness over 126 plies does not fit the table's byte")
    stored = np.zeros(len(codes), dtype=np.int8)
    won, lost = codes == WON, codes == LOST
    stored[won] = remoteness[won]
    stored[lost] = -remoteness[lost] - 1
    stored[~legal] = ILLEGAL
    return stored


def summary(values: np.ndarray) -> dict[str, dict[str, int]]:
    """Per side to move ('strong', 'weak'): legal positions, wins, draws and losses for the
    side to move, the longest win and loss in plies, and how many positions have them."""
    import numpy as np

    half = SIZE // 2
    sides = {}
    for side, part in (("strong", values[:half]), ("weak", values[half:])):
        legal = part[part != ILLEGAL].astype(np.int64)
        wins, losses = legal[legal > 0], -legal[legal < 0] - 1
        longest_win = int(wins.max(initial=0))
        longest_loss = int(losses.max(initial=0))
        sides[side] = {"positions": len(legal), "wins": len(wins), "draws": int(np.count_nonzero(legal == 0)),
                       "losses": len(losses), "longest_win": longest_win,
                       "longest_win_count": int(np.count_nonzero(wins == longest_win)),
                       "longest_loss": longest_loss,
                       "longest_loss_count": int(np.count_nonzero(losses == longest_loss))}
    return sides


def moves_to_mate(plies: int) -> int:
    """Moves of the winning side in a mate ``plies`` plies away, as mates are counted ("mate
    in 10"): a win in 19 plies from the side to move is mate in 10; a loss in 20 plies for
    the side to move is also the winner's 10th move."""
    return (plies + 1) // 2


def symmetry_maps(name: str) -> list[list[int]]:
    """The board's symmetries as square maps: all 8 (mirrors, rotations) without a pawn, only
    the left-right mirror with one (a pawn's direction fixes the ranks)."""
    maps = []
    for swap in (False, True):
        for flip_file in (False, True):
            for flip_rank in (False, True):
                if name == "KPK" and (swap or flip_rank):
                    continue
                square_map = []
                for square in range(64):
                    file, rank = square & 7, square >> 3
                    if swap:
                        file, rank = rank, file
                    file = 7 - file if flip_file else file
                    rank = 7 - rank if flip_rank else rank
                    square_map.append(file + 8 * rank)
                maps.append(square_map)
    return maps


def symmetry_classes(name: str, indexes: Iterable[int]) -> int:
    """How many of the positions ``indexes`` (one side to move) differ up to the board's
    symmetries: the way published table statistics count positions."""
    maps = symmetry_maps(name)
    return len({min((m[(int(i) >> 12) & 63], m[(int(i) >> 6) & 63], m[int(i) & 63]) for m in maps)
                for i in indexes})

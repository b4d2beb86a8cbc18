"""The rules of king and one piece against a lone king, compiled by numba (the table builds).

Positions are perfect indexes (perfectplay.games.chess.tablebase.index): the strong side (the one with the
piece) plays up the board like White, so a pawn advances to higher squares. Squares are 0 (a1)
to 63 (h8), python-chess's numbering. A move is ``from + 64 * to + 4096 * promotion`` with
promotion 0 (none) or one of PROMOTE_QUEEN..PROMOTE_KNIGHT.

Why the rules are this short: the weak side has a king only, so the strong king is never in
check except by standing next to the other king, the piece can never be pinned, and nothing
but the weak king can be captured. Inner loops trust the index to be a legal position
(``is_legal`` is asked first); the tests check every move list against python-chess's legal
moves on random positions of each table.

numba is imported here, at the top: this module is imported only when a table is built.
"""

from __future__ import annotations

import numpy as np
from numba import njit

QUEEN, ROOK, PAWN = 0, 1, 2
STRONG_TO_MOVE, WEAK_TO_MOVE = 0, 1
PROMOTE_QUEEN, PROMOTE_ROOK, PROMOTE_BISHOP, PROMOTE_KNIGHT = 1, 2, 3, 4
# More than any position here has: a queen has at most 27 moves and a king 8.
MAX_MOVES = 40
KING_STEPS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_STEPS = ((1, 0), (0, 1), (-1, 0), (0, -1))
QUEEN_STEPS = KING_STEPS
_FILE_STEP = np.array([step[0] for step in KING_STEPS], dtype=np.int64)
_RANK_STEP = np.array([step[1] for step in KING_STEPS], dtype=np.int64)


@njit(cache=True)
def split(index: int) -> tuple[int, int, int, int]:
    """(side to move, strong king, weak king, piece) of an index."""
    return index >> 18, (index >> 12) & 63, (index >> 6) & 63, index & 63


@njit(cache=True)
def join(mover: int, strong_king: int, weak_king: int, piece: int) -> int:
    return (mover << 18) | (strong_king << 12) | (weak_king << 6) | piece


@njit(cache=True)
def next_to(a: int, b: int) -> bool:
    """Whether squares ``a`` and ``b`` touch (or are the same square)."""
    return abs((a & 7) - (b & 7)) <= 1 and abs((a >> 3) - (b >> 3)) <= 1


@njit(cache=True)
def piece_attacks(kind: int, piece: int, target: int, blocker: int) -> bool:
    """Whether the piece on ``piece`` attacks ``target`` with only ``blocker`` in the way."""
    if piece == target:
        return False
    file_step = (target & 7) - (piece & 7)
    rank_step = (target >> 3) - (piece >> 3)
    if kind == PAWN:
        return rank_step == 1 and abs(file_step) == 1
    straight = file_step == 0 or rank_step == 0
    diagonal = abs(file_step) == abs(rank_step)
    if not (straight or (kind == QUEEN and diagonal)):
        return False
    step = (1 if file_step > 0 else -1 if file_step < 0 else 0) + 8 * (
        1 if rank_step > 0 else -1 if rank_step < 0 else 0)
    square = piece + step
    while square != target:
        if square == blocker:
            return False
        square += step
    return True


@njit(cache=True)
def is_legal(kind: int, index: int) -> bool:
    """Three different squares, kings apart, no pawn on the first or last rank, and the side
    that just moved (the weak side, when the strong side is to move) not in check."""
    mover, strong_king, weak_king, piece = split(index)
    if strong_king == weak_king or piece == strong_king or piece == weak_king:  # noqa: SIM109 - numba
        return False
    if next_to(strong_king, weak_king):
        return False
    if kind == PAWN and (piece < 8 or piece >= 56):
        return False
    return not (mover == STRONG_TO_MOVE and piece_attacks(kind, piece, weak_king, strong_king))


@njit(cache=True)
def in_check(kind: int, index: int) -> bool:
    """Whether the side to move is in check (only the weak king can be)."""
    mover, strong_king, weak_king, piece = split(index)
    return mover == WEAK_TO_MOVE and piece_attacks(kind, piece, weak_king, strong_king)


@njit(cache=True)
def _king_moves(origin: int, avoid: int, own: int, out: np.ndarray, count: int) -> int:
    """King steps from ``origin`` off the board's edge, away from the king on ``avoid``, not
    onto ``own`` (the strong side's piece, when the strong king moves)."""
    for d in range(8):
        file, rank = (origin & 7) + _FILE_STEP[d], (origin >> 3) + _RANK_STEP[d]
        if 0 <= file < 8 and 0 <= rank < 8:
            target = file + 8 * rank
            if target != own and not next_to(target, avoid):
                out[count] = origin + 64 * target
                count += 1
    return count


@njit(cache=True)
def _slider_moves(kind: int, piece: int, strong_king: int, weak_king: int, out: np.ndarray,
                  count: int) -> int:
    directions = 8 if kind == QUEEN else 4
    for d in range(0, 8, 8 // directions):
        file, rank = piece & 7, piece >> 3
        while True:
            file += _FILE_STEP[d]
            rank += _RANK_STEP[d]
            if not (0 <= file < 8 and 0 <= rank < 8):
                break
            target = file + 8 * rank
            if target == strong_king or target == weak_king:  # noqa: SIM109 - numba
                break
            out[count] = piece + 64 * target
            count += 1
    return count


@njit(cache=True)
def _pawn_moves(piece: int, strong_king: int, weak_king: int, out: np.ndarray, count: int) -> int:
    """Pushes only: the one thing a pawn could capture is the weak king."""
    ahead = piece + 8
    if ahead == strong_king or ahead == weak_king:  # noqa: SIM109 - numba
        return count
    if ahead >= 56:
        for promotion in range(PROMOTE_QUEEN, PROMOTE_KNIGHT + 1):
            out[count] = piece + 64 * ahead + 4096 * promotion
            count += 1
        return count
    out[count] = piece + 64 * ahead
    count += 1
    twice = ahead + 8
    if piece < 16 and twice != strong_king and twice != weak_king:
        out[count] = piece + 64 * twice
        count += 1
    return count


@njit(cache=True)
def legal_moves(kind: int, index: int, out: np.ndarray) -> int:
    """Write the legal moves of a legal position into ``out``; return how many."""
    mover, strong_king, weak_king, piece = split(index)
    if mover == STRONG_TO_MOVE:
        count = _king_moves(strong_king, weak_king, piece, out, 0)
        if kind == PAWN:
            return _pawn_moves(piece, strong_king, weak_king, out, count)
        return _slider_moves(kind, piece, strong_king, weak_king, out, count)
    count = 0
    for d in range(8):
        file, rank = (weak_king & 7) + _FILE_STEP[d], (weak_king >> 3) + _RANK_STEP[d]
        if not (0 <= file < 8 and 0 <= rank < 8):
            continue
        target = file + 8 * rank
        # Onto the piece is a capture, legal when the strong king does not guard it.
        if next_to(target, strong_king) or piece_attacks(kind, piece, target, strong_king):
            continue
        out[count] = weak_king + 64 * target
        count += 1
    return count


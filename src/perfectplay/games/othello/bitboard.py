"""Othello's rules on one 64-bit word, in numba: the kernel's move generation and flips.

A board of n x n cells (n = 4, 6 or 8) sits in the top left corner of an 8 x 8 word: cell
(row r, column c) is bit r * 8 + c, so a1 is bit 0 and h8 bit 63. Every function takes
``board``, the word of the n x n cells; on a smaller board the columns and rows past n are
never occupied and never empty, so the 8 x 8 shifts need no other mask: a run of discs that
walks off the n x n corner meets a cell that is neither a disc of the mover nor empty.
Horizontal and diagonal runs use the opponent's discs off columns a and h (``INNER``), so a
shift that wraps from one row into the next never continues a run.

Inner loops trust their arguments (bit sets of two disjoint colours inside ``board``): the
method checks positions once, at the boundary.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.extending import intrinsic

INNER = np.uint64(0x7E7E7E7E7E7E7E7E)
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)  # off column a
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)  # off column h
ONE = np.uint64(1)


@intrinsic
def _ctpop(typingctx, bits):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.int64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, bits):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, bits):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))
    return types.int64(types.uint64), codegen


@njit(cache=True, inline="always")
def popcount(bits: np.uint64) -> int:
    """The number of set bits, as the processor's popcnt instruction counts them."""
    return _ctpop(bits)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def lowest(bits: np.uint64) -> int:
    """The index of the lowest set bit (undefined for 0: callers never ask)."""
    return _cttz(bits)  # type: ignore[call-arg]


@njit(cache=True, inline="always")
def _moves_up(mine: np.uint64, run_mask: np.uint64, shift: int) -> np.uint64:
    """The cells one step past runs of ``run_mask`` discs that start next to ``mine``,
    going towards higher bits: runs of 2 and 4 by pairs of the mask (a run on 8x8 holds at
    most 6 discs)."""
    run = run_mask & (mine << shift)
    run |= run_mask & (run << shift)
    pairs = run_mask & (run_mask << shift)
    run |= pairs & (run << 2 * shift)
    run |= pairs & (run << 2 * shift)
    return run << shift


@njit(cache=True, inline="always")
def _moves_down(mine: np.uint64, run_mask: np.uint64, shift: int) -> np.uint64:
    run = run_mask & (mine >> shift)
    run |= run_mask & (run >> shift)
    pairs = run_mask & (run_mask >> shift)
    run |= pairs & (run >> 2 * shift)
    run |= pairs & (run >> 2 * shift)
    return run >> shift


@njit(cache=True)
def legal_moves(mine: np.uint64, theirs: np.uint64, board: np.uint64) -> np.uint64:
    """The empty cells where the mover may place a disc."""
    inner = theirs & INNER
    found = _moves_up(mine, inner, 1) | _moves_down(mine, inner, 1)
    found |= _moves_up(mine, theirs, 8) | _moves_down(mine, theirs, 8)
    found |= _moves_up(mine, inner, 7) | _moves_down(mine, inner, 7)
    found |= _moves_up(mine, inner, 9) | _moves_down(mine, inner, 9)
    return found & board & ~(mine | theirs)


@njit(cache=True)
def around(discs: np.uint64) -> np.uint64:
    """The cells next to ``discs`` in any of the eight directions (the discs included)."""
    sideways = discs | ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H)
    return sideways | (sideways << 8) | (sideways >> 8)


def _rays() -> np.ndarray:
    """RAYS[square, k]: the cells from ``square`` (not included) to the edge of the 8 x 8
    word in direction k: four towards higher bits (k < 4), four towards lower bits."""
    found = np.zeros((64, 8), dtype=np.uint64)
    steps = ((0, 1), (1, 0), (1, 1), (1, -1), (0, -1), (-1, 0), (-1, -1), (-1, 1))
    for square in range(64):
        for k, (dr, dc) in enumerate(steps):
            row, column = divmod(square, 8)
            word = 0
            while 0 <= row + dr < 8 and 0 <= column + dc < 8:
                row, column = row + dr, column + dc
                word |= 1 << row * 8 + column
            found[square, k] = np.uint64(word)
    return found


RAYS = _rays()


@njit(cache=True)
def flips(mine: np.uint64, theirs: np.uint64, square: int) -> np.uint64:
    """The opponent's discs a disc of the mover on ``square`` (empty) turns over: 0 when the
    move is illegal. Along each ray the first cell that is not the opponent's (its lowest or
    highest bit) closes the run if it is the mover's; on a smaller board a ray that leaves it
    meets a cell that is never a disc."""
    turned = np.uint64(0)
    for k in range(4):
        ray = RAYS[square, k]
        stop = ray & ~theirs
        closer = stop & (ONE + ~stop)  # the lowest bit of stop (0 when none)
        if closer & mine:
            turned |= (closer - ONE) & ray
    for k in range(4, 8):
        ray = RAYS[square, k]
        stop = ray & ~theirs
        if stop:
            closer = ONE << np.uint64(63 - _ctlz(stop))  # type: ignore[call-arg]
            if closer & mine:
                turned |= ray & ~((closer << ONE) - ONE)
    return turned


@njit(cache=True)
def final_score(mine: np.uint64, theirs: np.uint64, cells: int) -> int:
    """The mover's discs minus the opponent's at the end, the empty cells to the winner (the
    World Othello Federation's count; a draw leaves them out)."""
    own = popcount(mine)
    other = popcount(theirs)
    lead = own - other
    empty = cells - own - other
    if lead > 0:
        return lead + empty
    if lead < 0:
        return lead - empty
    return 0


def board_word(size: int) -> int:
    """The bit set of an n x n board's cells in the 8 x 8 word."""
    return sum(1 << r * 8 + c for r in range(size) for c in range(size))


def to_words(size: int, stride: int, mine: int, theirs: int) -> tuple[int, int]:
    """The rules' bit sets (cell r * stride + c, perfectplay.games.othello.rules) as the
    kernel's words (bit r * 8 + c), a row at a time."""
    row = (1 << size) - 1
    own = other = 0
    for r in range(size):
        own |= (mine >> r * stride & row) << r * 8
        other |= (theirs >> r * stride & row) << r * 8
    return own, other


def _lines_and_borders() -> tuple[np.ndarray, np.ndarray]:
    """LINES[n, axis]: the lines of the n x n board along each axis (rows, columns, and the
    two diagonals), as words (unused places 0); BORDERS[n, axis]: its cells with a neighbour
    off the board along that axis (no run can enclose them that way)."""
    lines = np.zeros((9, 4, 16), dtype=np.uint64)
    borders = np.zeros((9, 4), dtype=np.uint64)
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    for size in (4, 6, 8):
        for axis, (dr, dc) in enumerate(steps):
            count = 0
            for r in range(size):
                for c in range(size):
                    if 0 <= r - dr < size and 0 <= c - dc < size:
                        continue  # not the first cell of its line
                    word = 0
                    rr, cc = r, c
                    while 0 <= rr < size and 0 <= cc < size:
                        word |= 1 << rr * 8 + cc
                        rr, cc = rr + dr, cc + dc
                    lines[size, axis, count] = np.uint64(word)
                    count += 1
            border = 0
            for r in range(size):
                for c in range(size):
                    inside = [0 <= r + k * dr < size and 0 <= c + k * dc < size for k in (-1, 1)]
                    if not all(inside):
                        border |= 1 << r * 8 + c
            borders[size, axis] = np.uint64(border)
    return lines, borders


LINES, BORDERS = _lines_and_borders()


@njit(cache=True)
def _protected(occupied: np.uint64, size: int, axis: int) -> np.uint64:
    """The cells no run along ``axis`` can enclose: on the border, or on a full line."""
    found = BORDERS[size, axis]
    for index in range(16):
        line = LINES[size, axis, index]
        if occupied & line == line:
            found |= line
    return found


@njit(cache=True)
def stable_discs(discs: np.uint64, occupied: np.uint64, size: int) -> np.uint64:
    """Discs of one colour that can never be turned over (a lower estimate): along each of
    the four axes a disc must sit on the border, on a full line, or next to a stable disc of
    its colour; the set grows from the corners until it stops growing."""
    rows = _protected(occupied, size, 0)
    columns = _protected(occupied, size, 1)
    diagonals = _protected(occupied, size, 2)
    antidiagonals = _protected(occupied, size, 3)
    stable = np.uint64(0)
    while True:
        grown = discs & (rows | ((stable >> 1) & NOT_H) | ((stable << 1) & NOT_A))
        grown &= columns | (stable >> 8) | (stable << 8)
        grown &= diagonals | ((stable >> 9) & NOT_H) | ((stable << 9) & NOT_A)
        grown &= antidiagonals | ((stable >> 7) & NOT_A) | ((stable << 7) & NOT_H)
        if grown == stable:
            return stable
        stable = grown

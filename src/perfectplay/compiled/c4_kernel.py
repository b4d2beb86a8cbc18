"""The compiled Connect Four search (numba, ``cache=True``): scores in the test sets' convention.

The techniques are those of Pascal Pons' blog "Solving Connect 4" (parts 4-12), written anew:
bitboards with win detection by shifts (see perfectplay.games.connect4 for the layout), only
moves that do not hand the opponent an immediate win, moves ordered by the threats they
create, a transposition table (layout in c4_table), and an iterative null-window search on
the score. Searches assume, as Pons' do, that the side to move cannot win at once; the root
(``solve_score``) checks that first.

Every bitboard is a uint64 and every shift amount a uint64 too: numba turns a uint64 mixed
with a signed int into a float. ``geo`` holds the board's geometry (see GEO_* below) so one
compiled kernel serves every board size.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from perfectplay.compiled import c4_table as T

# Geometry array slots (uint64).
GEO_HEIGHT, GEO_WIDTH, GEO_BOARD, GEO_BOTTOM, GEO_CELLS = 0, 1, 2, 3, 4
GEO_ORDER = 5  # then `width` columns, centre first
# Statistics array slots (int64).
NODES, HITS, CUTOFFS, MAX_PLY = 0, 1, 2, 3

ONE = np.uint64(1)
ZERO = np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    count = 0
    while x:
        x &= x - ONE
        count += 1
    return count


@njit(cache=True, inline="always")
def column_mask(column: int, h: np.uint64) -> np.uint64:
    return ((ONE << h) - ONE) << (np.uint64(column) * (h + ONE))


@njit(cache=True)
def has_four(stones: np.uint64, h: np.uint64) -> bool:
    for shift in (ONE, h + ONE, h, h + np.uint64(2)):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (shift + shift)):
            return True
    return False


@njit(cache=True, inline="always")
def winning_squares(stones: np.uint64, occupied: np.uint64, h: np.uint64,
                    board: np.uint64) -> np.uint64:
    """Empty squares that would complete four in a row for ``stones``."""
    found = (stones << ONE) & (stones << np.uint64(2)) & (stones << np.uint64(3))
    for shift in (h + ONE, h, h + np.uint64(2)):
        two = shift + shift
        below = (stones << shift) & (stones << two)
        found |= below & (stones << (two + shift))
        found |= below & (stones >> shift)
        above = (stones >> shift) & (stones >> two)
        found |= above & (stones << shift)
        found |= above & (stones >> (two + shift))
    return found & (board ^ occupied)


@njit(cache=True, inline="always")
def playable(occupied: np.uint64, geo: np.ndarray) -> np.uint64:
    return (occupied + geo[GEO_BOTTOM]) & geo[GEO_BOARD]


@njit(cache=True)
def can_win_now(mover: np.uint64, occupied: np.uint64, geo: np.ndarray) -> bool:
    h = geo[GEO_HEIGHT]
    return (winning_squares(mover, occupied, h, geo[GEO_BOARD]) & playable(occupied, geo)) != ZERO


@njit(cache=True, inline="always")
def safe_moves(mover: np.uint64, occupied: np.uint64, geo: np.ndarray) -> np.uint64:
    """Playable squares that do not let the opponent win next move; 0 when every move loses.

    A square the opponent would win on must be blocked; two such squares cannot both be; and
    a stone just below an opponent's winning square lets the opponent play there."""
    h, board = geo[GEO_HEIGHT], geo[GEO_BOARD]
    possible = playable(occupied, geo)
    threats = winning_squares(mover ^ occupied, occupied, h, board)
    forced = possible & threats
    if forced:
        if forced & (forced - ONE):
            return ZERO
        possible = forced
    return possible & ~(threats >> ONE)


@njit(cache=True, inline="always")
def trunc_half(x: int) -> int:
    """x / 2 rounded toward zero, as C++ divides (the null-window midpoints follow Pons)."""
    return -((-x) // 2) if x < 0 else x // 2


@njit(cache=True)
def order_moves(mover: np.uint64, occupied: np.uint64, moves: np.uint64, geo: np.ndarray,
                hint: int, columns: np.ndarray, keys: np.ndarray) -> int:
    """Fill ``columns`` with the columns of ``moves``, most new threats first (centre first
    among equals), the table's best move ``hint`` ahead of all; return how many."""
    h, board = geo[GEO_HEIGHT], geo[GEO_BOARD]
    width = int(geo[GEO_WIDTH])
    count = 0
    for i in range(width):
        column = int(geo[GEO_ORDER + i])
        square = moves & column_mask(column, h)
        if not square:
            continue
        key = popcount(winning_squares(mover | square, occupied | square, h, board))
        if column == hint:
            key = 1000
        # Insertion sort, stable: a later column goes after earlier ones of equal key.
        j = count
        while j > 0 and keys[j - 1] < key:
            keys[j] = keys[j - 1]
            columns[j] = columns[j - 1]
            j -= 1
        keys[j] = key
        columns[j] = column
        count += 1
    return count


@njit(cache=True)
def negamax(mover: np.uint64, occupied: np.uint64, stones: int, alpha: int, beta: int,
            geo: np.ndarray, table: np.ndarray, stats: np.ndarray,
            scratch: np.ndarray) -> int:
    """The score of a position whose side to move cannot win at once; fail-soft within
    (alpha, beta): a result <= alpha is an upper bound, >= beta a lower bound."""
    stats[NODES] += 1
    if stones > stats[MAX_PLY]:
        stats[MAX_PLY] = stones
    cells = int(geo[GEO_CELLS])
    moves = safe_moves(mover, occupied, geo)
    if moves == ZERO:
        return -((cells - stones) // 2)  # the opponent wins with its next stone
    if stones >= cells - 2:
        return 0  # neither side can complete a line with the last two stones
    low = -((cells - 2 - stones) // 2)  # the opponent cannot win sooner than in two moves
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - stones) // 2  # we cannot win at once
    key = mover + occupied
    entry = T.probe(table, key)
    hint = -1
    if entry != ZERO:
        stats[HITS] += 1
        value, flag, hint = T.value_of(entry), T.flag_of(entry), T.move_of(entry)
        if flag & T.UPPER and value < high:
            high = value
        if flag & T.LOWER and value > low:
            low = value
    if max(alpha, low) >= min(beta, high):
        # The bounds decide the window: fail soft with the bound that does.
        if low >= beta:
            return low
        if high <= alpha:
            return high
        return low  # low == high: the exact score
    # One function, not two: numba's cache mishandles mutually recursive functions
    # (a cached pair segfaulted here), while a self-recursive one is cached fine.
    alpha, beta = max(alpha, low), min(beta, high)
    columns = scratch[stones, :16]
    keys = scratch[stones, 16:]
    count = order_moves(mover, occupied, moves, geo, hint, columns, keys)
    h = geo[GEO_HEIGHT]
    alpha_in = alpha
    best_column = columns[0]
    for i in range(count):
        column = columns[i]
        square = moves & column_mask(column, h)
        score = -negamax(mover ^ occupied, occupied | square, stones + 1, -beta, -alpha,
                         geo, table, stats, scratch)
        if score >= beta:
            stats[CUTOFFS] += 1
            T.store(table, key, score, T.LOWER, column, stones)
            return score
        if score > alpha:
            alpha = score
            best_column = column
    flag = T.EXACT if alpha > alpha_in else T.UPPER
    T.store(table, key, alpha, flag, best_column, stones)
    return alpha


@njit(cache=True)
def solve_score(mover: np.uint64, occupied: np.uint64, stones: int, low: int, high: int,
                geo: np.ndarray, table: np.ndarray, stats: np.ndarray,
            scratch: np.ndarray) -> int:
    """The exact score of a live position, clamped to [low, high] (low = -1, high = 1 gives
    only its sign): null-window searches narrow [low, high] until it closes (Pons, part 7)."""
    cells = int(geo[GEO_CELLS])
    if can_win_now(mover, occupied, geo):
        return min(high, (cells + 1 - stones) // 2)
    low = max(low, -((cells - stones) // 2))
    high = min(high, (cells + 1 - stones) // 2)
    while low < high:
        middle = low + (high - low) // 2
        # Probe nearer zero first: most positions are decided by small margins.
        if middle <= 0 and trunc_half(low) < middle:
            middle = trunc_half(low)
        elif middle >= 0 and trunc_half(high) > middle:
            middle = trunc_half(high)
        found = negamax(mover, occupied, stones, middle, middle + 1, geo, table, stats, scratch)
        if found <= middle:
            high = found
        else:
            low = found
    return low


@njit(cache=True)
def at_least(mover: np.uint64, occupied: np.uint64, stones: int, target: int,
             geo: np.ndarray, table: np.ndarray, stats: np.ndarray,
            scratch: np.ndarray) -> bool:
    """Whether the live position's score is at least ``target`` (one null-window search)."""
    cells = int(geo[GEO_CELLS])
    if can_win_now(mover, occupied, geo):
        return (cells + 1 - stones) // 2 >= target
    return negamax(mover, occupied, stones, target - 1, target, geo, table, stats, scratch) >= target

"""Othello's exact endgame search in numba: the final disc difference with best play.

The search is negamax alpha-beta over bitboards (perfectplay.games.othello.bitboard) in the
form the field's endgame solvers take (Edax, Zebra; Buro's and Gunnar Andersson's notes):

* principal variation search: the first move with the whole window, the rest with a null
  window, searched again only when one beats it;
* with more than ``SHALLOW`` empty cells: moves generated as a bit set and ordered after the
  table's move fastest first (the fewest replies left to the opponent, corners counted twice,
  then the fewest empty cells next to the mover's discs; below ``LOOK_AHEAD_FROM`` empties
  a move into a quadrant of odd parity before an equal one elsewhere), from
  ``LOOK_AHEAD_FROM`` empties by the least mobility margin the opponent's best reply leaves,
  and from ``ESTIMATE_FROM`` by a shallow alpha-beta search (2 to 6 plies) of a mobility,
  corner and frontier evaluation of each child; a table of bounds probed at every node, and
  from ``ETC_FROM`` empties for every child before any is searched (an enhanced
  transposition cutoff);
* with ``SHALLOW`` or fewer: no move generation and no table; each empty cell is tried in
  turn, those in quadrants with an odd number of empty cells first (parity), corners first
  and the cells next to corners last, and the last empty cell is valued by counting its
  flips without playing it;
* a stability cutoff where alpha is high: the opponent's stable discs cap the mover's score.

Scores are the final disc difference for the side to move with the empty cells to the winner
(bitboard.final_score), from -cells to +cells.

The table: two entries a bucket, each holding the position (both words, so no collision can
give a wrong answer), a lower and an upper bound of its exact value, the best move found and
the empty cells it had, in three words: the data packed in one, and the position's two each
XORed with the scrambled data, so an entry torn by two threads writing at once reads as
absent. The first of a bucket keeps the entry with the most empty cells, the second takes
whatever the first refuses. Bounds of an exact value hold at any depth, so an entry answers
any window it decides. Two threads may share it (perfectplay.games.othello.searcher).

A search gives up after ``budget`` nodes (an exact count: the shallow searches are handed
what is left of it), or once ``counters[STOP]`` is set (by a watching thread: the search
releases the GIL), polled at every node with more than ``SHALLOW`` empty cells and before
every shallow search (at most a few thousand nodes); it says so (``counters[ABORTED]``), and
nothing it computed after that enters the table, so calling it again goes on where the
table left off.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from perfectplay.games.othello.bitboard import (
    ONE,
    around,
    final_score,
    flips,
    legal_moves,
    lowest,
    popcount,
    stable_discs,
)

# counters' slots
NODES, HITS, CUTOFFS, ABORTED, STOP = range(5)
# Empty cells at or below which the search stops generating moves and using the table.
SHALLOW = 7
# Empty cells above which a node probes the table for every child (enhanced transposition
# cutoffs): nearer the end the probes cost more than they save.
ETC_FROM = 10
# Empty cells from which the order looks at the opponent's replies too (the few nodes near the
# root, where a better order saves the most).
LOOK_AHEAD_FROM = 12
# Empty cells from which the order rests on a shallow search of a mobility evaluation of each
# child (far from the end, where a node's order decides the most work below it).
ESTIMATE_FROM = 14
ESTIMATE_DEPTH = 2
# ... deepening by one ply every two empty cells more, up to this (its cost grows
# exponentially, far faster than the saving in the opening's hopeless searches)
ESTIMATE_MAX_DEPTH = 6
ESTIMATE_WEIGHT = 1 << 10
# Below LOOK_AHEAD_FROM, the worth of playing into a quadrant with an odd number of empty
# cells, in the order's units (a reply fewer is 1024): it breaks ties of mobility. Nodes on
# FFO #40-#44 -1.8%, #48 -3.7%, #49 -2.2%; 1536 instead gave +8% on #40-#44.
PARITY_BONUS = 512
INFINITY = 127
PASS = -1
CORNERS = np.uint64(0x8100000000000081)

def _neighbours() -> np.ndarray:
    """For each square, the squares next to it: a move needs an opponent's disc there."""
    found = np.zeros(64, dtype=np.uint64)
    for square in range(64):
        row, column = divmod(square, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= row + dr < 8 and 0 <= column + dc < 8:
                    found[square] |= np.uint64(1 << (row + dr) * 8 + column + dc)
    return found


NEIGHBOURS = _neighbours()
# Plies a search may go down: 60 moves and the passes between them.
MAX_PLIES = 130
# Moves a position may have (the most known on 8x8 is 33).
MAX_MOVES = 40
BYTES_PER_ENTRY = 24
DEFAULT_TABLE_BITS = 22


def _quadrants() -> np.ndarray:
    """QUADRANTS[n]: the four n/2 x n/2 quadrants of the n x n board (n = 4, 6, 8). Near the
    end a search plays first into the quadrants holding an odd number of empty cells (parity:
    the last move of a region is worth having)."""
    found = np.zeros((9, 4), dtype=np.uint64)
    for size in (4, 6, 8):
        half = size // 2
        for index, (top, left) in enumerate(((0, 0), (0, half), (half, 0), (half, half))):
            for r in range(half):
                for c in range(half):
                    found[size, index] |= np.uint64(1 << (top + r) * 8 + left + c)
    return found


QUADRANTS = _quadrants()


def _ranks() -> np.ndarray:
    """RANKS[n]: the n x n board's cells in five groups, tried in this order near the end:
    corners, the other edge cells, the inner cells, then the cells next to a corner along an
    edge and diagonally (which tend to give the corner away)."""
    found = np.zeros((9, 5), dtype=np.uint64)
    for size in (4, 6, 8):
        last = size - 1
        for r in range(size):
            for c in range(size):
                edge_r, edge_c = r in (0, last), c in (0, last)
                near_r, near_c = r in (1, last - 1), c in (1, last - 1)
                if edge_r and edge_c:
                    rank = 0
                elif near_r and near_c:
                    rank = 4
                elif (edge_r and near_c) or (edge_c and near_r):
                    rank = 3
                elif edge_r or edge_c:
                    rank = 1
                else:
                    rank = 2
                found[size, rank] |= np.uint64(1 << r * 8 + c)
    return found


RANKS = _ranks()


@njit(cache=True)
def _last_cell(mine: np.uint64, theirs: np.uint64, square: int, cells: int) -> int:
    """The final score with one empty cell, ``square``: its flips counted, never played."""
    lead = 2 * popcount(mine) + 1 - cells
    turned = popcount(flips(mine, theirs, square))
    if turned:
        return lead + 2 * turned + 1
    turned = popcount(flips(theirs, mine, square))
    if turned:
        return lead - 2 * turned - 1
    return lead + 1 if lead > 0 else lead - 1 if lead < 0 else 0


@njit(cache=True)
def _odd_quadrants(empty: np.uint64, size: int) -> np.uint64:
    odd = np.uint64(0)
    for index in range(4):
        quadrant = QUADRANTS[size, index]
        if popcount(empty & quadrant) & 1:
            odd |= quadrant
    return odd


@njit(cache=True, nogil=True)
def _shallow(mine: np.uint64, theirs: np.uint64, alpha: int, beta: int, empty: np.uint64,
             left: int, size: int, allowance: int) -> tuple[int, int]:
    """The final score (fail-soft within alpha, beta) with ``left`` empty cells, 2 or more,
    and the nodes it took. Scalars only, for speed: no table, no counters; the search gives
    up once it has counted more than ``allowance`` nodes (the caller sees it in the count)."""
    if allowance < 1:
        return 0, 1
    nodes = 1
    cells = size * size
    if left >= 5 and alpha >= 2 * left + cells - 64:
        cap = cells - 2 * popcount(stable_discs(theirs, mine | theirs, size))
        if cap <= alpha:
            return cap, nodes
    odd = _odd_quadrants(empty, size)
    best = -INFINITY
    for stage in range(10):
        todo = (empty & odd if stage < 5 else empty & ~odd) & RANKS[size, stage % 5]
        while todo:
            square = lowest(todo)
            todo &= todo - ONE
            if not theirs & NEIGHBOURS[square]:
                continue
            turned = flips(mine, theirs, square)
            if not turned:
                continue
            cell = ONE << np.uint64(square)
            child_mine = theirs & ~turned
            child_theirs = mine | turned | cell
            if left == 2:
                if nodes >= allowance:
                    return 0, nodes + 1
                nodes += 1
                value = -_last_cell(child_mine, child_theirs, lowest(empty & ~cell), cells)
            else:
                found, used = _shallow(child_mine, child_theirs, -beta, -max(alpha, best),
                                       empty & ~cell, left - 1, size, allowance - nodes)
                nodes += used
                if nodes > allowance:
                    return 0, nodes
                value = -found
            if value > best:
                best = value
                if value >= beta:
                    return best, nodes
    if best > -INFINITY:
        return best, nodes
    if not _can_move(theirs, mine, empty):
        return final_score(mine, theirs, cells), nodes
    # A pass: no flag is passed down (a literal one would give numba's cache two signatures
    # of one recursive function, which it loads as a crash)
    found, used = _shallow(theirs, mine, -beta, -alpha, empty, left, size, allowance - nodes)
    return -found, nodes + used


@njit(cache=True)
def _can_move(mine: np.uint64, theirs: np.uint64, empty: np.uint64) -> bool:
    while empty:
        if flips(mine, theirs, lowest(empty)):
            return True
        empty &= empty - ONE
    return False


@njit(cache=True)
def _below_shallow(mine: np.uint64, theirs: np.uint64, alpha: int, beta: int, left: int,
                   board: np.uint64, size: int, counters: np.ndarray, budget: int | np.int64) -> int:
    """A position with ``SHALLOW`` or fewer empty cells, by the searches without a table."""
    if counters[STOP]:
        counters[ABORTED] = 1
        return 0
    empty = board & ~(mine | theirs)
    cells = size * size
    if left <= 1:
        counters[NODES] += 1
        if counters[NODES] > budget:
            counters[ABORTED] = 1
            return 0
        if left == 0:
            return final_score(mine, theirs, cells)
        return _last_cell(mine, theirs, lowest(empty), cells)
    found, used = _shallow(mine, theirs, alpha, beta, empty, left, size,
                           budget - counters[NODES])
    counters[NODES] += used
    if counters[NODES] > budget:
        counters[ABORTED] = 1
        return 0
    return found


@njit(cache=True)
def _slot(mine: np.uint64, theirs: np.uint64, mask: int) -> int:
    mixed = (mine * np.uint64(0x9E3779B97F4A7C15)) ^ (theirs * np.uint64(0xC2B2AE3D27D4EB4F))
    return int((mixed ^ (mixed >> np.uint64(29))) & np.uint64(mask)) & ~1


@njit(cache=True, inline="always")
def _scramble(word: np.uint64) -> np.uint64:
    return word * np.uint64(0xD6E8FEB86659FD93)


@njit(cache=True)
def _probe(mine: np.uint64, theirs: np.uint64, keys: np.ndarray, mask: int) -> np.uint64:
    """The position's entry (packed: _pack), or 0 when the table has none. An entry's three
    words are checked against each other, so one torn by another thread writing the same
    place at the same time reads as absent, not as another position's bounds."""
    slot = _slot(mine, theirs, mask)
    for index in (slot, slot + 1):
        word = keys[index, 2]
        check = _scramble(word)
        if keys[index, 0] ^ check == mine and keys[index, 1] ^ check == theirs:
            return word
    return np.uint64(0)


@njit(cache=True, inline="always")
def _pack(lower: int, upper: int, move: int, left: int) -> np.uint64:
    """An entry's data in one word: each field offset to be positive, so no entry is 0."""
    return np.uint64((lower + 128) | (upper + 128) << 8 | (move + 1) << 16 | left << 24)


@njit(cache=True, inline="always")
def _lower(word: np.uint64) -> int:
    return int(word & np.uint64(255)) - 128


@njit(cache=True, inline="always")
def _upper(word: np.uint64) -> int:
    return int((word >> np.uint64(8)) & np.uint64(255)) - 128


@njit(cache=True, inline="always")
def _move(word: np.uint64) -> int:
    return int((word >> np.uint64(16)) & np.uint64(255)) - 1


@njit(cache=True, inline="always")
def _left(word: np.uint64) -> int:
    return int(word >> np.uint64(24))


@njit(cache=True)
def _store(mine: np.uint64, theirs: np.uint64, lower: int, upper: int, move: int, left: int,
           keys: np.ndarray, mask: int) -> None:
    """Write the entry: over the position's own entry if it has one, else into the bucket's
    first place when it has no more empty cells than this, else into the second."""
    slot = _slot(mine, theirs, mask)
    index = slot + 1
    for place in (slot, slot + 1):
        check = _scramble(keys[place, 2])
        if keys[place, 0] ^ check == mine and keys[place, 1] ^ check == theirs:
            index = place
            break
    else:
        if _left(keys[slot, 2]) <= left:
            index = slot
    word = _pack(lower, upper, move, left)
    check = _scramble(word)
    keys[index, 2] = word
    keys[index, 0] = mine ^ check
    keys[index, 1] = theirs ^ check


@njit(cache=True)
def _worst_reply(mine: np.uint64, theirs: np.uint64, replies: np.uint64, board: np.uint64) -> int:
    """Looking one reply further: the least mobility margin (corners twice) the opponent,
    ``mine`` here, can leave the other side after any of its ``replies``."""
    if not replies:
        return 32
    worst = 1000
    while replies:
        square = lowest(replies)
        replies &= replies - ONE
        turned = flips(mine, theirs, square)
        after_theirs = theirs & ~turned
        after_mine = mine | turned | (ONE << np.uint64(square))
        ours = legal_moves(after_theirs, after_mine, board)
        others = legal_moves(after_mine, after_theirs, board)
        margin = popcount(ours) + popcount(ours & CORNERS) - popcount(others) - popcount(others & CORNERS)
        if margin < worst:
            worst = margin
    return worst


@njit(cache=True)
def _evaluate(mine: np.uint64, theirs: np.uint64, board: np.uint64) -> int:
    """A rough worth of the position to the mover: its mobility margin (corners twice), the
    corners held, and the empty cells next to the opponent's discs (moves to come)."""
    empty = board & ~(mine | theirs)
    ours = legal_moves(mine, theirs, board)
    others = legal_moves(theirs, mine, board)
    value = 4 * (popcount(ours) + popcount(ours & CORNERS) - popcount(others) - popcount(others & CORNERS))
    value += 16 * (popcount(mine & CORNERS) - popcount(theirs & CORNERS))
    value += popcount(around(theirs) & empty) - popcount(around(mine) & empty)
    return value


@njit(cache=True)
def _estimate(mine: np.uint64, theirs: np.uint64, depth: int, alpha: int | np.int64, beta: int | np.int64,
              board: np.uint64) -> int:
    """Alpha-beta over ``depth`` plies of _evaluate, the position's guessed worth."""
    if depth == 0:
        return _evaluate(mine, theirs, board)
    moves = legal_moves(mine, theirs, board)
    if not moves:
        if not legal_moves(theirs, mine, board):
            return 1000 * (popcount(mine) - popcount(theirs))
        return -_estimate(theirs, mine, depth - 1, -beta, -alpha, board)
    best = -100000
    # corners first: the value is the same in any order (a whole window at the top), the
    # cutoffs come sooner
    for stage in range(2):
        todo = moves & CORNERS if stage == 0 else moves & ~CORNERS
        while todo:
            square = lowest(todo)
            todo &= todo - ONE
            turned = flips(mine, theirs, square)
            value = -_estimate(theirs & ~turned, mine | turned | (ONE << np.uint64(square)),
                               depth - 1, -beta, -max(alpha, best), board)
            if value > best:
                best = value
                if value >= beta:
                    return best
    return best


@njit(cache=True)
def _transposition_cutoff(mine: np.uint64, theirs: np.uint64, moves: np.uint64, beta: int,
                          keys: np.ndarray, mask: int) -> int:
    """An enhanced transposition cutoff: a value of at least ``beta`` a child's table entry
    proves (its upper bound, negated), or -INFINITY when none does."""
    while moves:
        square = lowest(moves)
        moves &= moves - ONE
        turned = flips(mine, theirs, square)
        word = _probe(theirs & ~turned, mine | turned | (ONE << np.uint64(square)), keys, mask)
        if word and -_upper(word) >= beta:
            return -_upper(word)
    return -INFINITY


@njit(cache=True)
def _order(mine: np.uint64, theirs: np.uint64, moves: np.uint64, left: int, board: np.uint64,
           size: int, squares: np.ndarray, scores: np.ndarray) -> int:
    """Fill ``squares`` with the moves, best first, and return how many: the fewest replies
    (corners twice), nearer the end a move into a quadrant of odd parity before an equal one
    elsewhere, nearer the root after a look one reply further or a shallow search."""
    count = 0
    odd = _odd_quadrants(board & ~(mine | theirs), size)
    while moves:
        square = lowest(moves)
        moves &= moves - ONE
        turned = flips(mine, theirs, square)
        child_mine = theirs & ~turned
        child_theirs = mine | turned | (ONE << np.uint64(square))
        # the opponent's replies (corners twice), then the empty cells next to the mover's
        # discs: the opponent's moves to come
        replies = legal_moves(child_mine, child_theirs, board)
        score = -(popcount(replies) + popcount(replies & CORNERS)) * 1024
        score -= popcount(around(child_theirs) & board & ~(child_mine | child_theirs)) * 16
        if left < LOOK_AHEAD_FROM and (ONE << np.uint64(square)) & odd:
            score += PARITY_BONUS
        if left >= ESTIMATE_FROM:
            depth = min(ESTIMATE_DEPTH + (left - ESTIMATE_FROM) // 2, ESTIMATE_MAX_DEPTH)
            # the bounds as int64 values, not literals: a literal would give numba's cache
            # two signatures of one recursive function, which it loads as a crash
            # the bounds as int64 values, not literals: a literal would give numba's cache
            # two signatures of one recursive function, which it loads as a crash
            wide = np.int64(100000)
            score -= _estimate(child_mine, child_theirs, depth, -wide, wide, board) * ESTIMATE_WEIGHT
        elif left >= LOOK_AHEAD_FROM:
            score += _worst_reply(child_mine, child_theirs, replies, board) * (1 << 14)
        # insertion: the list is short
        position = count
        while position > 0 and scores[position - 1] < score:
            scores[position] = scores[position - 1]
            squares[position] = squares[position - 1]
            position -= 1
        scores[position] = score
        squares[position] = square
        count += 1
    return count


@njit(cache=True, nogil=True)
def _deep(mine: np.uint64, theirs: np.uint64, alpha: int, beta: int, left: int, ply: int | np.int64,
          board: np.uint64, cells: int, size: int, keys: np.ndarray, mask: int,
          squares: np.ndarray, scores: np.ndarray, best_moves: np.ndarray,
          counters: np.ndarray, budget: int | np.int64) -> int:
    """The final score of a position with ``left`` empty cells (fail-soft); its best move
    goes to ``best_moves[ply]`` (PASS when it must pass). Below the root, a position with
    ``SHALLOW`` or fewer empty cells goes to the searches without a table."""
    if left <= SHALLOW and ply > 0:
        return _below_shallow(mine, theirs, alpha, beta, left, board, size, counters, budget)
    counters[NODES] += 1
    if counters[NODES] > budget or counters[STOP]:
        counters[ABORTED] = 1
        return 0
    moves = legal_moves(mine, theirs, board)
    if not moves:
        best_moves[ply] = PASS
        if not legal_moves(theirs, mine, board):
            return final_score(mine, theirs, cells)
        value = -_deep(theirs, mine, -beta, -alpha, left, ply + 1, board, cells, size, keys,
                       mask, squares, scores, best_moves, counters, budget)
        return 0 if counters[ABORTED] else value
    # Stability: the opponent keeps its stable discs, which caps the mover's score; checked
    # only where alpha is high enough for the cap to matter (as Edax does).
    if alpha >= 2 * left + cells - 64:
        cap = cells - 2 * popcount(stable_discs(theirs, mine | theirs, size))
        if cap <= alpha:
            counters[CUTOFFS] += 1
            return cap
    lower = -INFINITY
    upper = INFINITY
    first = -1
    word = _probe(mine, theirs, keys, mask)
    if word:
        counters[HITS] += 1
        lower = _lower(word)
        upper = _upper(word)
        first = _move(word)
        if lower >= beta or lower == upper:
            best_moves[ply] = first
            return lower
        if upper <= alpha:
            best_moves[ply] = first
            return upper
        alpha = max(alpha, lower)
        beta = min(beta, upper)
    if left > ETC_FROM:
        proven = _transposition_cutoff(mine, theirs, moves, beta, keys, mask)
        if proven >= beta:
            counters[CUTOFFS] += 1
            return proven
    # The table's move first, before the others are ordered: where it cuts off, as it mostly
    # does, the order's shallow searches are never paid for.
    has_first = 1 if first >= 0 and moves & (ONE << np.uint64(first)) else 0
    count = has_first + (0 if has_first else _order(mine, theirs, moves, left, board, size, squares[ply],
                                                     scores[ply]))
    alpha_in = alpha
    best = -INFINITY
    best_move = PASS
    i = 0
    while i < count:
        # with the table's move first, the order fills the places after it
        square = first if has_first and i == 0 else squares[ply, i]
        turned = flips(mine, theirs, square)
        cell = ONE << np.uint64(square)
        child_mine = theirs & ~turned
        child_theirs = mine | turned | cell
        floor = max(alpha, best)
        if i == 0:
            value = -_deep(child_mine, child_theirs, -beta, -floor, left - 1, ply + 1, board, cells,
                            size, keys, mask, squares, scores, best_moves, counters, budget)
        else:
            value = -_deep(child_mine, child_theirs, -floor - 1, -floor, left - 1, ply + 1, board,
                            cells, size, keys, mask, squares, scores, best_moves, counters,
                            budget)
            if floor < value < beta and not counters[ABORTED]:
                value = -_deep(child_mine, child_theirs, -beta, -value, left - 1, ply + 1, board,
                                cells, size, keys, mask, squares, scores, best_moves,
                                counters, budget)
        if counters[ABORTED]:
            return 0
        if value > best:
            best = value
            best_move = square
            if value >= beta:
                counters[CUTOFFS] += 1
                break
        if has_first and i == 0:
            # the table's move did not cut off: the others in order after it
            count += _order(mine, theirs, moves & ~cell, left, board, size, squares[ply, 1:],
                            scores[ply, 1:])
        i += 1
    if best >= beta:
        lower = best
    elif best <= alpha_in:
        # every move failed low: the one with the highest bound proves nothing, keep the
        # table's move (an earlier lower bound may be this value's proof)
        upper = best
        if first >= 0:
            best_move = first
    else:
        lower = upper = best
    _store(mine, theirs, lower, upper, best_move, left, keys, mask)
    best_moves[ply] = best_move
    return best

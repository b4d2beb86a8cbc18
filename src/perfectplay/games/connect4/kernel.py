"""The compiled Connect Four search (numba, ``cache=True``): scores in the test sets' convention.

The techniques are those of Pascal Pons' blog "Solving Connect 4" (parts 4-12), written anew:
bitboards with win detection by shifts (see perfectplay.games.connect4.rules for the layout), only
moves that do not hand the opponent an immediate win, moves ordered by the threats they
create, a transposition table (layout and replacement policy: kernel_table's docstring), and an
iterative null-window search on the score. Additions of ours, each kept because the
benchmark said so (docs/benchmarks-log.md): two-entry buckets, prefetching the children's
buckets, enhanced transposition cutoffs where they pay (``child_cutoff``, ETC_*), a
draw bound for a side with no room left for four in a row, a node with one safe move playing
it at once (no table, no ordering), each child handed the opponent's threats its parent
found while ordering, a win with the mover's next stone seen while ordering (then no child is
searched) and otherwise the score's upper bound a move later, and fail-soft values on a fail
low (the children's best, not alpha). Searches assume, as Pons' do,
that the side to move cannot win at once; the root (``narrow``) checks that first.

Every bitboard is a uint64 and every shift amount a uint64 too: numba turns a uint64 mixed
with a signed int into a float. ``work`` holds the board's geometry (see GEO_* below), so one
compiled kernel serves every board size, with the statistics and the ordering scratch. The
entry points (``narrow``, ``at_least``) take the array; below them ``work`` is its data
pointer (``words_of``), indexed the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from perfectplay.games.connect4 import probes
from perfectplay.value import EXACT, LOWER, UPPER

# The kernel's one array (uint64): the work area from 0, then the table from TABLE_AT. numba
# passes each array as a struct of seven or more words, so one array argument instead of two
# makes every call cheaper (about 5% faster in a side-by-side run on Test_L1_R1, L2_R2).
# Geometry: height, width, board mask, bottom row, cells, then the columns centre first.
GEO_HEIGHT, GEO_WIDTH, GEO_BOARD, GEO_BOTTOM, GEO_CELLS = 0, 1, 2, 3, 4
GEO_ORDER = 5
# Statistics.
NODES, HITS, CUTOFFS, MAX_PLY = 21, 22, 23, 24
# Set to 1 by the caller's thread to stop a search at its next node (Ctrl-C): the
# entry points release the GIL, so the caller can wait in Python and notice the interrupt.
STOP = 25
# A search also stops once NODES exceeds this word (the caller sets it; no limit by default),
# as for STOP: the caller sees NODES > NODE_LIMIT and discards the result. A stopped search
# unwinds without storing anything, so the table holds only true bounds and the same call can
# be made again, from where the table stands (perfectplay.games.connect4.kernel_engine.Engine
# runs a short slice directly, then hands a long search to a worker thread).
NODE_LIMIT = 26
NO_LIMIT = np.uint64(0xFFFFFFFFFFFFFFFF)
# Move-ordering scratch: 48 words per ply (columns, their sort keys, then the threats each
# move leaves the opponent facing: the child's, handed down), from SCRATCH.
SCRATCH, ROW = 32, 48


# How every function here is compiled. ``_nrt=False``: no reference counting. With it, numba
# wrapped every call that passes ``work`` in an atomic increment and decrement of the array's
# count (two locked instructions per node in negamax, more in tt_store); the entry points'
# caller holds the array for the whole call, so the counts guarded nothing (10-15% of the
# time, docs/benchmarks-log.md, fourth round). Nothing here allocates, which _nrt=False forbids.
COMPILED: dict[str, Any] = {"cache": True, "error_model": "numpy", "_nrt": False}

ONE = np.uint64(1)
ZERO = np.uint64(0)


# -- the transposition table (layout and replacement policy: kernel_table's docstring) ----------
WAYS = 2
VALUE_BIAS = 64
FLAG_SHIFT, MOVE_SHIFT, STONES_SHIFT, GEN_SHIFT = 7, 9, 13, 19
DATA_BITS = 19
GEN_BITS = 12
TABLE_AT = 4096  # after the largest work area: 32 + 48 * (63 + 2) words
H_INDEX_BITS, H_GENERATION, H_KEY_BITS, H_GEN_BITS = (TABLE_AT, TABLE_AT + 1, TABLE_AT + 2,
                                                      TABLE_AT + 3)
# Derived once by kernel_table.allocate, so that a probe does not recompute them: the key's mask
# (K bits), half of K, and the bucket index's mask.
H_KEY_MASK, H_HALF, H_BUCKET_MASK = TABLE_AT + 4, TABLE_AT + 5, TABLE_AT + 6
HEADER = TABLE_AT + 8  # the first entry
BYTES_PER_ENTRY = 8

MULTIPLIER = 0x9E3779B97F4A7C15  # odd: multiplying by it is a bijection modulo 2**K

U = np.uint64


@njit(**COMPILED, inline="always")
def scramble(key: np.uint64, mask: np.uint64, half: np.uint64) -> np.uint64:
    """An invertible map of K-bit numbers (an odd multiplication, then an xor-shift: both
    bijections), so that bucket index and stored bits together identify the key. ``mask``
    has the low K bits set, ``half`` is K // 2."""
    x = (key * U(MULTIPLIER)) & mask
    return x ^ (x >> half)


@njit(**COMPILED, inline="always")
def locate(table: np.ndarray, key: np.uint64) -> tuple[int, np.uint64]:
    """The first word of ``key``'s bucket and the bits that identify it there."""
    index_bits = table[H_INDEX_BITS]
    x = scramble(key, table[H_KEY_MASK], table[H_HALF])
    bucket = x & table[H_BUCKET_MASK]
    return HEADER + int(bucket) * WAYS, x >> index_bits


@intrinsic
def words_of(typingctx, array):
    """The data pointer of a uint64 array, indexed as the array is (``p[i]``). The search
    passes this, not the array: numba passes an array as seven words (two on the stack on
    every recursive call), a pointer as one. The caller keeps the array alive throughout."""
    signature = types.CPointer(array.dtype)(array)

    def codegen(context, builder, sig, args):
        return context.make_array(sig.args[0])(context, builder, args[0]).data

    return signature, codegen


@intrinsic
def prefetch(typingctx, words, index):
    """Ask the processor to fetch ``words[index]``'s cache line (LLVM's llvm.prefetch: read,
    keep in all cache levels); no effect on the result. The table is probed at random, so a
    probe waits for memory unless the line was asked for earlier."""
    signature = types.void(words, index)

    def codegen(context, builder, sig, args):
        pointer = builder.gep(args[0], [args[1]])
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        function = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32]),
            "llvm.prefetch.p0")
        builder.call(function, [builder.bitcast(pointer, byte_pointer), ir.Constant(i32, 0),
                                ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return signature, codegen


@njit(**COMPILED, inline="always")
def tag_shift(table: np.ndarray) -> np.uint64:
    return U(GEN_SHIFT) + table[H_GEN_BITS]


@njit(**COMPILED, inline="always")
def is_live(table: np.ndarray, word: np.uint64) -> bool:
    gen_bits = table[H_GEN_BITS]
    if word == U(0):
        return False
    if gen_bits == U(0):
        return True
    generation = (word >> U(GEN_SHIFT)) & ((U(1) << gen_bits) - U(1))
    return generation == table[H_GENERATION]


@njit(**COMPILED, inline="always")
def tt_probe(table: np.ndarray, key: np.uint64) -> np.uint64:
    """The live entry for ``key``, or 0."""
    first, tag = locate(table, key)
    # Tag and generation compared at once (the generation is 0 when it has no bits).
    expected = (tag << table[H_GEN_BITS]) | table[H_GENERATION]
    for way in range(WAYS):
        word = table[first + way]
        if (word >> U(GEN_SHIFT)) == expected and word != U(0):
            return word
    return U(0)


@njit(**COMPILED, inline="always")
def tt_store(table: np.ndarray, key: np.uint64, score: int, flag: int,
             column: int, stones: int) -> None:
    first, tag = locate(table, key)
    shift = tag_shift(table)
    word = (U(score + VALUE_BIAS) | (U(flag) << U(FLAG_SHIFT)) | (U(column + 1) << U(MOVE_SHIFT))
            | (U(stones) << U(STONES_SHIFT)) | (table[H_GENERATION] << U(GEN_SHIFT))
            | (tag << shift))
    target = -1
    for way in range(WAYS):
        old = table[first + way]
        if (old >> shift) == tag or not is_live(table, old):
            target = first + way
            break
    if target < 0:
        # Both hold other live positions: replace the one nearer the leaves.
        target = first
        deepest = np.int64(-1)  # np.int64 throughout: int(uint64) stays unsigned in numba, and
        for way in range(WAYS):  # comparing unsigned with signed goes through floats
            stored = np.int64((table[first + way] >> U(STONES_SHIFT)) & U(63))
            if stored > deepest:
                deepest = stored
                target = first + way
    table[target] = word


@njit(**COMPILED, inline="always")
def value_of(word: np.uint64) -> int:
    return int(word & U(127)) - VALUE_BIAS


@njit(**COMPILED, inline="always")
def flag_of(word: np.uint64) -> int:
    return int((word >> U(FLAG_SHIFT)) & U(3))


@njit(**COMPILED, inline="always")
def move_of(word: np.uint64) -> int:
    return int((word >> U(MOVE_SHIFT)) & U(15)) - 1


M1, M2 = np.uint64(0x5555555555555555), np.uint64(0x3333333333333333)
M4, H01 = np.uint64(0x0F0F0F0F0F0F0F0F), np.uint64(0x0101010101010101)


@njit(**COMPILED, inline="always")
def popcount(x: np.uint64) -> int:
    """Bits set in ``x``, by the branch-free SWAR method (Hacker's Delight, 5-1)."""
    x = x - ((x >> ONE) & M1)
    x = (x & M2) + ((x >> np.uint64(2)) & M2)
    x = (x + (x >> np.uint64(4))) & M4
    return int((x * H01) >> np.uint64(56))


@njit(**COMPILED, inline="always")
def column_mask(column: int, h: np.uint64) -> np.uint64:
    return ((ONE << h) - ONE) << (np.uint64(column) * (h + ONE))


@njit(**COMPILED, inline="always")
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


# From this many stones on, a node checks whether either side still has room for a line
# (earlier, both always have: the check would only cost time).
LATE = 16


@njit(**COMPILED, inline="always")
def has_four(stones: np.uint64, h: np.uint64) -> bool:
    """Whether ``stones`` hold four in a row in some direction."""
    for shift in (ONE, h, h + ONE, h + np.uint64(2)):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (shift + shift)):
            return True
    return False


@njit(**COMPILED, inline="always")
def playable(occupied: np.uint64, work: np.ndarray) -> np.uint64:
    return (occupied + work[GEO_BOTTOM]) & work[GEO_BOARD]


@njit(**COMPILED)
def can_win_now(mover: np.uint64, occupied: np.uint64, work: np.ndarray) -> bool:
    h = work[GEO_HEIGHT]
    return (winning_squares(mover, occupied, h, work[GEO_BOARD]) & playable(occupied, work)) != ZERO


@njit(**COMPILED, inline="always")
def opponent_threats(mover: np.uint64, occupied: np.uint64, work: np.ndarray) -> np.uint64:
    return winning_squares(mover ^ occupied, occupied, work[GEO_HEIGHT], work[GEO_BOARD])


@njit(**COMPILED, inline="always")
def safe_moves(threats: np.uint64, occupied: np.uint64, work: np.ndarray) -> np.uint64:
    """Playable squares that do not let the opponent win next move; 0 when every move loses.
    ``threats``: the opponent's winning squares.

    A square the opponent would win on must be blocked; two such squares cannot both be; and
    a stone just below an opponent's winning square lets the opponent play there."""
    possible = playable(occupied, work)
    forced = possible & threats
    if forced:
        if forced & (forced - ONE):
            return ZERO
        possible = forced
    return possible & ~(threats >> ONE)


# The probe placement shared with the pure-Python search (probes.py), compiled inline here.
# numba's disk cache of this module is keyed on this file alone (its time and size): after
# editing probes.py in a working tree, touch this file, or the cached kernels keep the old
# placement. An install writes both files anew (a new time), which invalidates the cache.
toward = njit(**COMPILED, inline="always")(probes.toward)


@njit(**COMPILED, inline="always")
def order_moves(mover: np.uint64, occupied: np.uint64, moves: np.uint64, work: np.ndarray,
                hint: int, row: int) -> int:
    """Write the columns of ``moves`` at ``work[row:]``, most new threats first (centre first
    among equals), the table's best move ``hint`` ahead of all; return how many. Their sort
    keys go at ``work[row + 16:]``, the mover's winning squares after each at
    ``work[row + 32:]``. Return -1 instead, the ordering unfinished, as soon as a move
    leaves the opponent no safe reply: the mover wins with its next stone."""
    h, board = work[GEO_HEIGHT], work[GEO_BOARD]
    width = int(work[GEO_WIDTH])
    count = 0
    for i in range(width):
        column = np.int64(work[GEO_ORDER + i])  # signed, as hint: no float comparison
        square = moves & column_mask(column, h)
        if not square:
            continue
        threats = winning_squares(mover | square, occupied | square, h, board)
        if safe_moves(threats, occupied | square, work) == ZERO:
            return -1
        key = np.uint64(popcount(threats))
        if column == hint:
            key = np.uint64(1000)
        # Insertion sort, stable: a later column goes after earlier ones of equal key.
        j = count
        while j > 0 and work[row + 16 + j - 1] < key:
            work[row + 16 + j] = work[row + 16 + j - 1]
            work[row + 32 + j] = work[row + 32 + j - 1]
            work[row + j] = work[row + j - 1]
            j -= 1
        work[row + 16 + j] = key
        work[row + 32 + j] = threats
        work[row + j] = np.uint64(column)
        count += 1
    return count


# Enhanced transposition cutoffs cost a table probe per child. They pay where children are
# likely stored: at a node that is itself stored (searched before, typically by an earlier
# null-window probe), and anywhere once a solve has explored ETC_ALL_AFTER positions and the
# table is full of transpositions; and only while ETC_MIN_EMPTY or more squares are empty,
# where a cutoff saves a subtree worth the probes (docs/benchmarks-log.md, third round).
ETC_MIN_EMPTY = 10
ETC_ALL_AFTER = np.uint64(1 << 20)


@njit(**COMPILED, inline="always")
def prefetch_children(mover: np.uint64, occupied: np.uint64, moves: np.uint64,
                      work: np.ndarray) -> None:
    """Start fetching the table buckets of every child, so that their probes (enhanced
    cutoffs here, then each child's own probe) overlap instead of waiting one by one."""
    h = work[GEO_HEIGHT]
    width = int(work[GEO_WIDTH])
    child_mover = mover ^ occupied
    for column in range(width):
        square = moves & column_mask(column, h)
        if square:
            first, _ = locate(work, child_mover + (occupied | square))
            prefetch(work, first)  # type: ignore[call-arg]


@njit(**COMPILED, inline="always")
def child_cutoff(mover: np.uint64, occupied: np.uint64, moves: np.uint64, beta: int,
                 work: np.ndarray) -> int:
    """Enhanced transposition cutoff: a child whose stored upper bound u gives -u >= beta
    refutes the window before any child is searched. Returns the best such -u, or -1000."""
    h = work[GEO_HEIGHT]
    width = int(work[GEO_WIDTH])
    child_mover = mover ^ occupied
    for column in range(width):
        square = moves & column_mask(column, h)
        if not square:
            continue
        child = occupied | square
        entry = tt_probe(work, child_mover + child)
        if entry != ZERO and flag_of(entry) & UPPER and -value_of(entry) >= beta:
            return -value_of(entry)
    return -1000


@njit(**COMPILED)
def negamax(mover: np.uint64, occupied: np.uint64, stones: int, alpha: int, beta: int,
            threats: np.uint64, work: np.ndarray) -> int:
    """The score of a position whose side to move cannot win at once; fail-soft within
    (alpha, beta): a result <= alpha is an upper bound, >= beta a lower bound. ``threats``
    are the opponent's winning squares, found by the parent while ordering its moves."""
    work[NODES] += 1
    if work[STOP] or work[NODES] > work[NODE_LIMIT]:
        return 0  # stopped: every value from here on is discarded by the caller
    if U(stones) > work[MAX_PLY]:  # both unsigned: a signed one would compare as floats
        work[MAX_PLY] = U(stones)
    cells = int(work[GEO_CELLS])
    moves = safe_moves(threats, occupied, work)
    if moves == ZERO:
        return -((cells - stones) // 2)  # the opponent wins with its next stone
    if stones >= cells - 2:
        return 0  # neither side can complete a line with the last two stones
    low = -((cells - 2 - stones) // 2)  # the opponent cannot win sooner than in two moves
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high_now = (cells - 1 - stones) // 2  # we cannot win at once: next move at the soonest
    high = high_now
    if stones >= LATE:
        # When even every empty square would not give the mover four in a row, the mover
        # cannot win: a draw at best, and exactly a draw if the opponent cannot either.
        h = work[GEO_HEIGHT]
        empty = work[GEO_BOARD] ^ occupied
        if not has_four(mover | empty, h):
            if not has_four((mover ^ occupied) | empty, h):
                return 0
            high = 0
    if moves & (moves - ONE) == ZERO:
        # One safe move: its score is ours. No table entry, no ordering, no prefetching.
        if high <= alpha:
            return high
        return -negamax(mover ^ occupied, occupied | moves, stones + 1, -min(beta, high), -alpha,
                        winning_squares(mover | moves, occupied | moves, work[GEO_HEIGHT],
                                        work[GEO_BOARD]), work)
    key = mover + occupied
    prefetch_children(mover, occupied, moves, work)
    entry = tt_probe(work, key)
    hint = -1
    if entry != ZERO:
        work[HITS] += 1
        value, flag, hint = value_of(entry), flag_of(entry), move_of(entry)
        if flag & UPPER and value < high:
            high = value
        if flag & LOWER and value > low:
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
    row = SCRATCH + ROW * stones
    count = order_moves(mover, occupied, moves, work, hint, row)
    if count < 0:
        return high_now  # exact: no better score exists
    # No move wins with the mover's next stone: the earliest win is a move later (the bound
    # one ply deeper than ``high``, found from the threats the ordering computes anyway).
    high = min(high, (cells - 3 - stones) // 2)
    if high <= alpha:
        return high
    # Enhanced cutoffs after the ordering, not before: the two returns above settle many
    # nodes without the children's probes, which wait on memory (10-15% of the CPU time on
    # Test_L1_R2, docs/benchmarks-log.md, sixth round).
    if cells - stones >= ETC_MIN_EMPTY and (entry != ZERO or work[NODES] > ETC_ALL_AFTER):
        refuted = child_cutoff(mover, occupied, moves, beta, work)
        if refuted >= beta:
            return refuted
    h = work[GEO_HEIGHT]
    alpha_in = alpha
    best_column = int(work[row])
    best = -1000  # the highest child score: on a fail low, a tighter upper bound than alpha
    for i in range(count):
        column = int(work[row + i])
        square = moves & column_mask(column, h)
        score = -negamax(mover ^ occupied, occupied | square, stones + 1, -beta, -alpha,
                         work[row + 32 + i], work)
        if work[STOP] or work[NODES] > work[NODE_LIMIT]:
            return 0  # stopped below: store nothing, so that the table keeps only true bounds
        if score >= beta:
            work[CUTOFFS] += 1
            tt_store(work, key, score, LOWER, column, stones)
            return score
        if score > best:
            best = score
        if score > alpha:
            alpha = score
            best_column = column
    if alpha == alpha_in:
        # Every child failed low, each score an upper bound on its move's value (the moves
        # safe_moves left out lose sooner still), so their maximum bounds this node: fail soft
        # with it, not with alpha, so that the table and the root's next probe learn more.
        alpha = best
    flag = EXACT if alpha > alpha_in else UPPER
    tt_store(work, key, alpha, flag, best_column, stones)
    return alpha


@njit(**COMPILED, nogil=True)
def narrow(mover: np.uint64, occupied: np.uint64, stones: int, low: int, high: int, probes: int,
           array: np.ndarray) -> tuple[int, int]:
    """Narrow the bounds [low, high] on a live position's score with at most ``probes``
    null-window searches (Pons, part 7); the score is known when they meet. Starting from
    [-1, 1] finds only its sign. A caller that wants progress asks for one probe at a time."""
    work: np.ndarray = words_of(array)  # type: ignore[call-arg]
    cells = int(work[GEO_CELLS])
    if can_win_now(mover, occupied, work):
        best = min(high, (cells + 1 - stones) // 2)
        return best, best
    low = max(low, -((cells - stones) // 2))
    high = min(high, (cells + 1 - stones) // 2)
    for _ in range(probes):
        if low >= high:
            break
        middle = low + (high - low) // 2
        if middle <= 0 and toward(low) < middle:
            middle = toward(low)
        elif middle >= 0 and toward(high) > middle:
            middle = toward(high)
        found = negamax(mover, occupied, stones, middle, middle + 1,
                        opponent_threats(mover, occupied, work), work)
        if work[STOP] or work[NODES] > work[NODE_LIMIT]:
            break  # stopped: the bounds so far are still true
        if found <= middle:
            high = found
        else:
            low = found
    return low, high


@njit(**COMPILED, nogil=True)
def at_least(mover: np.uint64, occupied: np.uint64, stones: int, target: int,
             array: np.ndarray) -> bool:
    """Whether the live position's score is at least ``target`` (one null-window search)."""
    work: np.ndarray = words_of(array)  # type: ignore[call-arg]
    cells = int(work[GEO_CELLS])
    if can_win_now(mover, occupied, work):
        return (cells + 1 - stones) // 2 >= target
    return negamax(mover, occupied, stones, target - 1, target,
                   opponent_threats(mover, occupied, work), work) >= target

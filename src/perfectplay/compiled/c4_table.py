"""The Connect Four transposition table: one numpy uint64 array, one word per entry.

A position's key (mover + occupied, unique and below 2**K with K = (height+1)*width bits) is
first scrambled by an invertible map of K-bit numbers (multiply by an odd constant, then fold
the high half into the low half). The low bits of the scrambled key pick a bucket of
``WAYS`` adjacent entries; the remaining high bits are stored in the entry. Because the map is
invertible, bucket and stored bits together give back the whole key: a match is never a
collision between two positions (Pons stores a truncated key for the same reason, with a
prime table size and the Chinese remainder theorem; a power-of-two size and a bijection give
the same guarantee with a mask instead of a division).

Entry layout, from bit 0 (an all-zero word is an empty entry):

    bits  0-6   score + 64
    bits  7-8   bound flag: LOWER = 1, UPPER = 2, EXACT = 3
    bits  9-12  best column + 1 (0: none)
    bits 13-18  stones on the board (the entry's distance from the start)
    bits 19-30  generation: the solve that wrote it (GEN_BITS = 12)
    bits 31-63  the scrambled key's bits above the bucket index

Header words ``tt[0..3]`` hold the table's shape for the kernel: index bits, generation, key
bits K, and the generation's width in bits (0 when the key leaves it no room: the table is
then cleared for every solve instead).

Generations make "clear the table" cost nothing: an entry written by an earlier solve counts
as empty. Pons' benchmark clears its table before each position; so do we, in O(1), and the
node counts stay comparable. Every 4,095 solves the words are really zeroed.

Replacement policy (``store``), with two-entry buckets: the same position is overwritten in
place; otherwise an empty or stale entry is used; otherwise the entry nearer the leaves (more
stones on the board, a smaller subtree, cheaper to recompute) is replaced.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LOWER, UPPER, EXACT = 1, 2, 3
WAYS = 2
VALUE_BIAS = 64
FLAG_SHIFT, MOVE_SHIFT, STONES_SHIFT, GEN_SHIFT = 7, 9, 13, 19
DATA_BITS = 19
GEN_BITS = 12
HEADER = 4  # words before the entries
H_INDEX_BITS, H_GENERATION, H_KEY_BITS, H_GEN_BITS = 0, 1, 2, 3
BYTES_PER_ENTRY = 8

MULTIPLIER_1 = 0x9E3779B97F4A7C15
MULTIPLIER_2 = 0xD6E8FEB86659FD93

U = np.uint64


def allocate(entries: int, key_bits: int) -> np.ndarray:
    """A table of ``entries`` words (a power of two) for keys of ``key_bits`` bits."""
    index_bits = entries.bit_length() - 1 - (WAYS.bit_length() - 1)
    stored = max(0, key_bits - index_bits)
    gen_bits = GEN_BITS if DATA_BITS + GEN_BITS + stored <= 64 else 0
    if DATA_BITS + gen_bits + stored > 64:
        least = 1 << (key_bits - (64 - DATA_BITS) + WAYS.bit_length() - 1)
        from perfectplay.errors import BadOption
        raise BadOption(f"--tt-size: a table for this board needs at least {least:,} entries "
                        f"({least * BYTES_PER_ENTRY:,} bytes)")
    table = np.zeros(HEADER + entries, dtype=np.uint64)
    # Touch every page now: the zeros are mapped lazily, and first touches inside a search
    # would be charged to whichever position happens to run first.
    table.fill(0)
    table[H_INDEX_BITS] = index_bits
    table[H_KEY_BITS] = key_bits
    table[H_GEN_BITS] = gen_bits
    return table


def new_generation(table: np.ndarray) -> None:
    """Start a solve: older entries now count as empty."""
    limit = (1 << int(table[H_GEN_BITS])) - 1
    generation = int(table[H_GENERATION]) + 1
    if generation > limit:
        table[HEADER:] = 0
        generation = 1 if limit else 0
    table[H_GENERATION] = generation


@njit(cache=True, inline="always", error_model="numpy")
def scramble(key: np.uint64, key_bits: np.uint64) -> np.uint64:
    """An invertible map of K-bit numbers: odd multiplications and xor-shifts are bijections."""
    mask = (U(1) << key_bits) - U(1) if key_bits < U(64) else ~U(0)
    half = key_bits >> U(1)
    x = (key * U(MULTIPLIER_1)) & mask
    return x ^ (x >> half)


@njit(cache=True, inline="always", error_model="numpy")
def locate(table: np.ndarray, key: np.uint64) -> tuple[int, np.uint64]:
    """The first word of ``key``'s bucket and the bits that identify it there."""
    index_bits = table[H_INDEX_BITS]
    x = scramble(key, table[H_KEY_BITS])
    bucket = x & ((U(1) << index_bits) - U(1))
    return HEADER + int(bucket) * WAYS, x >> index_bits


@njit(cache=True, inline="always", error_model="numpy")
def tag_shift(table: np.ndarray) -> np.uint64:
    return U(GEN_SHIFT) + table[H_GEN_BITS]


@njit(cache=True, inline="always", error_model="numpy")
def is_live(table: np.ndarray, word: np.uint64) -> bool:
    gen_bits = table[H_GEN_BITS]
    if word == U(0):
        return False
    if gen_bits == U(0):
        return True
    generation = (word >> U(GEN_SHIFT)) & ((U(1) << gen_bits) - U(1))
    return generation == table[H_GENERATION]


@njit(cache=True, error_model="numpy")
def probe(table: np.ndarray, key: np.uint64) -> np.uint64:
    """The live entry for ``key``, or 0."""
    first, tag = locate(table, key)
    shift = tag_shift(table)
    for way in range(WAYS):
        word = table[first + way]
        if (word >> shift) == tag and is_live(table, word):
            return word
    return U(0)


@njit(cache=True, error_model="numpy")
def store(table: np.ndarray, key: np.uint64, score: int, flag: int,
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
        deepest = -1
        for way in range(WAYS):
            stored = int((table[first + way] >> U(STONES_SHIFT)) & U(63))
            if stored > deepest:
                deepest = stored
                target = first + way
    table[target] = word


@njit(cache=True, inline="always", error_model="numpy")
def value_of(word: np.uint64) -> int:
    return int(word & U(127)) - VALUE_BIAS


@njit(cache=True, inline="always", error_model="numpy")
def flag_of(word: np.uint64) -> int:
    return int((word >> U(FLAG_SHIFT)) & U(3))


@njit(cache=True, inline="always", error_model="numpy")
def move_of(word: np.uint64) -> int:
    return int((word >> U(MOVE_SHIFT)) & U(15)) - 1

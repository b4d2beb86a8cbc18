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

The entry functions are compiled in kernel (numba caches a function by its own file
only, so code that is inlined into the search must live in the search's file); the layout
constants are there too. This module allocates and renews tables.

The table shares one array with the kernel's work area (kernel.TABLE_AT): eight header
words there hold the table's shape for the kernel: index bits, generation, key bits K, and
the generation's width in bits (0 when the key leaves it no room: the table is then cleared
for every solve instead), then masks derived from them (kernel.H_KEY_MASK...); the
entries follow.

Generations make "clear the table" cost nothing: an entry written by an earlier solve counts
as empty. Pons' benchmark clears its table before each position; so do we, in O(1), and the
node counts stay comparable. Every 4,095 solves the words are really zeroed.

Replacement policy (``store``), with two-entry buckets: the same position is overwritten in
place; otherwise an empty or stale entry is used; otherwise the entry nearer the leaves (more
stones on the board, a smaller subtree, cheaper to recompute) is replaced.
"""

from __future__ import annotations

import contextlib
import mmap

import numpy as np

from perfectplay.errors import BadOption
from perfectplay.games.connect4.kernel import (
    BYTES_PER_ENTRY,
    DATA_BITS,
    GEN_BITS,
    H_BUCKET_MASK,
    H_GEN_BITS,
    H_GENERATION,
    H_HALF,
    H_INDEX_BITS,
    H_KEY_BITS,
    H_KEY_MASK,
    HEADER,
    WAYS,
)

__all__ = ["BYTES_PER_ENTRY", "allocate", "new_generation"]


def allocate(entries: int, key_bits: int) -> np.ndarray:
    """The kernel's array: its work area, then a table of ``entries`` words (a power of
    two) for keys of ``key_bits`` bits."""
    index_bits = entries.bit_length() - 1 - (WAYS.bit_length() - 1)
    stored = max(0, key_bits - index_bits)
    gen_bits = GEN_BITS if DATA_BITS + GEN_BITS + stored <= 64 else 0
    if DATA_BITS + gen_bits + stored > 64:
        least = 1 << (key_bits - (64 - DATA_BITS) + WAYS.bit_length() - 1)
        raise BadOption(f"--tt-size: a table for this board needs at least {least:,} entries "
                        f"({least * BYTES_PER_ENTRY:,} bytes)")
    table = _huge_zeros(HEADER + entries)  # HEADER counts the work area
    # Touch every page now: the zeros are mapped lazily, and first touches inside a search
    # would be charged to whichever position happens to run first.
    table.fill(0)
    table[H_INDEX_BITS] = index_bits
    table[H_KEY_BITS] = key_bits
    table[H_GEN_BITS] = gen_bits
    table[H_KEY_MASK] = (1 << key_bits) - 1 if key_bits < 64 else (1 << 64) - 1
    table[H_HALF] = key_bits >> 1
    table[H_BUCKET_MASK] = (1 << index_bits) - 1
    return table


def _huge_zeros(words: int) -> np.ndarray:
    """A zeroed uint64 array in its own anonymous mapping, marked for transparent huge pages
    where the system allows them (Linux ``madvise``): the table is probed at random, and 2 MB
    pages make the processor's address translations hit far more often than 4 kB pages."""
    advice = getattr(mmap, "MADV_HUGEPAGE", None)
    if advice is None:
        return np.zeros(words, dtype=np.uint64)
    buffer = mmap.mmap(-1, words * 8, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    with contextlib.suppress(OSError):  # huge pages are off: ordinary pages work, a little slower
        buffer.madvise(advice)
    return np.frombuffer(buffer, dtype=np.uint64)


def new_generation(table: np.ndarray) -> None:
    """Start a solve: older entries now count as empty."""
    limit = (1 << int(table[H_GEN_BITS])) - 1
    generation = int(table[H_GENERATION]) + 1
    if generation > limit:
        table[HEADER:] = 0
        generation = 1 if limit else 0
    table[H_GENERATION] = generation

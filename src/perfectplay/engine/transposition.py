"""The engine's transposition table: fixed-size, 16 bytes an entry, shareable between
processes (Lazy SMP) because it lives in one flat buffer of 64-bit words.

Entry layout, two words at ``2 * (key & mask)``:

    word 0: key XOR data        word 1: data

    data bits  0-31  score + 2**31, rebased to the node (value.to_table)
              32-39  draft (depth searched below the node); PROVEN_DRAFT = the subtree met
                     no depth limit, so the score is exact and serves any depth
              40-41  bound flag: LOWER, UPPER or EXACT = LOWER | UPPER (as in Stockfish)
              42-56  1 + index of the best move in ``game.moves(position)``, 0 for none
                 57  written by a Lazy SMP helper process (counts cross-process hits)
              58-63  generation (the search that wrote it, modulo 64)

Storing ``key XOR data`` instead of the key is Hyatt and Mann's lockless hashing ("A
lock-less transposition table implementation for parallel search chess engines", ICGA
Journal 2002): two processes may write the two words of one slot at the same moment, and a
torn entry then fails the check ``word0 ^ word1 == key`` and reads as empty. No locks. The
full 64-bit key is kept, so a different position that lands in the same slot is detected
(the slot's index alone tells only the key's low bits), not just one with other low bits.

Replacement policy (written once, in :meth:`EngineTable.store`): a new result replaces the
slot when it holds the same position, was written by an earlier search, or was searched no
deeper than the new result; otherwise the deeper entry of this search stays.
"""

from __future__ import annotations

from multiprocessing import shared_memory

import numpy as np

from perfectplay import value as V

PROVEN_DRAFT = 255
MAX_DRAFT = 254
NO_MOVE = -1
# Moves past this index are stored as "no best move" (the search stays correct, only
# its ordering loses the hint); no built-in game comes near it (chess: at most 218 moves).
MAX_MOVE_INDEX = (1 << 15) - 2
HELPER_BIT = 1 << 57

_SCORE_OFFSET = 1 << 31
_MASK32 = (1 << 32) - 1
_MASK64 = (1 << 64) - 1
BYTES_PER_ENTRY = 16


def pack(score: int, draft: int, flag: int, move_index: int, generation: int, writer: int = 0) -> int:
    """One entry's data word; ``writer`` is 0 for the main search, HELPER_BIT for a helper."""
    if move_index > MAX_MOVE_INDEX:
        move_index = NO_MOVE
    return ((score + _SCORE_OFFSET) | draft << 32 | flag << 40 | (move_index + 1) << 42
            | writer | (generation & 63) << 58)


def unpack(data: int) -> tuple[int, int, int, int]:
    """(score, draft, flag, move_index) of a packed entry; move_index is NO_MOVE for none."""
    return ((data & _MASK32) - _SCORE_OFFSET, data >> 32 & 255, data >> 40 & 3,
            (data >> 42 & 0x7FFF) - 1)


class EngineTable:
    """A table of ``entries`` slots (a power of two) over a private or shared buffer."""

    def __init__(self, entries: int, *, shared: bool = False, name: str | None = None) -> None:
        entries = 1 << max(4, entries.bit_length() - 1)
        self.size = entries
        self.mask = entries - 1
        self.generation = 0
        # HELPER_BIT in a helper process's copy of this object (Lazy SMP), 0 in the main one.
        self.writer = 0
        self._shm: shared_memory.SharedMemory | None = None
        if shared or name is not None:
            if name is None:
                self._shm = shared_memory.SharedMemory(create=True, size=entries * BYTES_PER_ENTRY)
                self.owner = True
            else:
                self._shm = shared_memory.SharedMemory(name=name)
                self.owner = False
            self.array = np.ndarray((2 * entries,), dtype=np.uint64, buffer=self._shm.buf)
            if self.owner:
                self.array[:] = 0
        else:
            self.owner = True
            self.array = np.zeros(2 * entries, dtype=np.uint64)
        # Indexing a memoryview gives plain Python ints, several times faster than numpy
        # scalars in the search's inner loop.
        self.words = memoryview(self.array.data).cast("B").cast("Q")

    @property
    def name(self) -> str | None:
        return None if self._shm is None else self._shm.name

    def clear(self) -> None:
        self.array[:] = 0
        self.generation = 0

    def new_search(self) -> None:
        self.generation = (self.generation + 1) & 63

    def probe(self, key: int) -> int:
        """The packed data stored for ``key``, or 0 when the slot holds another position."""
        slot = (key & self.mask) << 1
        words = self.words
        data = words[slot + 1]
        if data and words[slot] ^ data == key:
            return data
        return 0

    def store(self, key: int, score: int, ply: int, draft: int, flag: int, move_index: int) -> None:
        slot = (key & self.mask) << 1
        words = self.words
        old = words[slot + 1]
        if old and words[slot] ^ old != key:
            if (old >> 58) == self.generation and (old >> 32 & 255) > draft:
                return  # a deeper entry of this search stays
        elif old and move_index == NO_MOVE:
            move_index = (old >> 42 & 0x7FFF) - 1  # keep the best move we knew
        data = pack(int(V.to_table(score, ply)), draft, flag, move_index, self.generation, self.writer)
        words[slot] = key ^ data
        words[slot + 1] = data

    def filled_permille(self) -> int:
        """Share of used slots in the first thousand, as UCI's ``hashfull`` reports it."""
        sample = min(1000, self.size)
        return int(np.count_nonzero(self.array[1:2 * sample:2])) * 1000 // sample

    def close(self) -> None:
        """Release the shared buffer (and remove it, in the process that created it)."""
        if self._shm is not None:
            self.words.release()
            del self.array
            self._shm.close()
            if self.owner:
                self._shm.unlink()
            self._shm = None

"""Every live position of a level at once: the book's levels and its back-up, with numpy.

The book's structure check enumerates every live position up to K stones (399,029 for K = 9)
and backs their scores up from the frontier. One position at a time in Python that took
half a minute; here each level is a few array operations per column, and children are found
among the next level's sorted keys by binary search.

Keys, mirror images and the canonical choice are those of :mod:`.positions`, on unsigned
64-bit arrays (a board of up to 64 bits, as the rules allow). numpy is imported lazily, so
the book's lookups stay free of it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from perfectplay.games.connect4.book.storage import BookError
from perfectplay.games.connect4.rules import ConnectFour

if TYPE_CHECKING:
    import numpy as np


def _u64(value: int) -> np.uint64:
    import numpy as np

    return np.uint64(value)


def has_four(stones: np.ndarray, height: int) -> np.ndarray:
    """Which entries of ``stones`` hold four in a row (the rules' shifts, element-wise)."""
    import numpy as np

    found = np.zeros(stones.shape, dtype=bool)
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> _u64(shift))
        found |= (pairs & (pairs >> _u64(2 * shift))) != 0
    return found


def decode(game: ConnectFour, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(mover, occupied)`` arrays from keys. A column's part of a key lies in
    [2^t - 1, 2^(t+1) - 2] for a stack of t stones, so t = floor(log2(part + 1))."""
    import numpy as np

    step = game.height + 1
    column = _u64((1 << step) - 1)
    mover = np.zeros_like(keys)
    occupied = np.zeros_like(keys)
    for c in range(game.width):
        shift = _u64(c * step)
        part = (keys >> shift) & column
        stack = (np.left_shift(_u64(1), np.log2(part + _u64(1)).astype(np.uint64))) - _u64(1)
        occupied |= stack << shift
        mover |= (part - stack) << shift
    return mover, occupied


def canonical(game: ConnectFour, keys: np.ndarray) -> np.ndarray:
    """The smaller of each key and its mirror image's (columns reversed)."""
    import numpy as np

    step = game.height + 1
    column = _u64((1 << step) - 1)
    mirrored = np.zeros_like(keys)
    for c in range(game.width):
        part = (keys >> _u64(c * step)) & column
        mirrored |= part << _u64((game.width - 1 - c) * step)
    return np.minimum(keys, mirrored)


Moves = tuple["np.ndarray", "np.ndarray", "np.ndarray", "np.ndarray"]


def _children(game: ConnectFour, keys: np.ndarray) -> Iterator[Moves]:
    """For each column: which keys can play it, whether that move makes four, whether it
    fills the board, and the child's canonical key (meaningful where the move is legal)."""
    mover, occupied = decode(game, keys)
    board = _u64(game.board)
    for c in range(game.width):
        legal = (occupied & _u64(game.tops[c])) == 0
        child_occupied = occupied | (occupied + _u64(game.bottoms[c]))
        child_mover = mover ^ occupied
        fours = has_four(child_mover ^ child_occupied, game.height)
        full = child_occupied == board
        yield legal, fours, full, canonical(game, child_mover + child_occupied)


def levels(game: ConnectFour, stones: int) -> list[np.ndarray]:
    """For n = 0..stones, the sorted canonical keys of the live positions with n stones
    reachable from the empty board (a position where someone has won is not live)."""
    import numpy as np

    found = [canonical(game, np.zeros(1, dtype=np.uint64))]
    for _ in range(stones):
        following = [child[legal & ~fours & ~full]
                     for legal, fours, full, child in _children(game, found[-1])]
        found.append(np.unique(np.concatenate(following)))
    return found


def back_up(game: ConnectFour, tiers: list[np.ndarray],
            frontier: Sequence[int] | np.ndarray) -> list[np.ndarray]:
    """The scores of every level of ``tiers`` (as :func:`levels` gives them), from the scores
    of its last level (``frontier``, in that level's key order), by one-ply negamax: a move
    that completes four scores ``(cells + 1 - stones) // 2``, a move that fills the board 0,
    any other move minus its child's score."""
    import numpy as np

    scores: list[np.ndarray] = [np.empty(0, dtype=np.int64) for _ in tiers]
    scores[-1] = np.asarray(frontier, dtype=np.int64)
    for depth in range(len(tiers) - 2, -1, -1):
        keys, below, below_scores = tiers[depth], tiers[depth + 1], scores[depth + 1]
        win_now = (game.cells + 1 - depth) // 2
        best = np.full(keys.shape, -game.cells, dtype=np.int64)
        for legal, fours, full, child in _children(game, keys):
            live = legal & ~fours & ~full
            wanted = child[live]
            at = np.minimum(np.searchsorted(below, wanted), max(below.size - 1, 0))
            if wanted.size and (below.size == 0 or not np.array_equal(below[at], wanted)):
                raise BookError(f"a position with {depth + 1} stones is missing from the "
                                f"level below {depth}")
            value = np.full(keys.shape, -game.cells, dtype=np.int64)
            value[live] = -below_scores[at]
            value[legal & full & ~fours] = 0
            value[legal & fours] = win_now
            best = np.maximum(best, value)
        scores[depth] = best
    return scores

"""Kalah's boards numbered: every way of putting seeds into 2m pits, those with fewer seeds
first, then in the combinatorial number system's order. The game's key, the endgame
databases' layout (endgame.py ranks the same way in numba) and the compiled builder's state
are this number. Plain Python: the rules import it without numba."""

from __future__ import annotations

from collections.abc import Sequence
from math import comb


def board_index(pits: Sequence[int]) -> int:
    """The board's number: the boards with fewer seeds come first (C(k + n - 1, n) of them
    for k seeds in n pits), then those whose first differing pit holds fewer seeds."""
    count = len(pits)
    left = sum(pits)
    columns = _columns(count, left)
    index = columns[count][left + count - 1] if left else 0
    # The boards whose pit i holds fewer seeds than this one's, with ``left`` seeds still
    # to place and ``after`` pits after it: C(left + after, after) - C(left - p + after, after).
    for i in range(count - 1):
        after = count - 1 - i
        column = columns[after]
        seeds = pits[i]
        index += column[left + after] - column[left - seeds + after]
        left -= seeds
    return index


def boards_up_to(pits: int, seeds: int) -> int:
    """How many boards of ``pits`` pits hold at most ``seeds`` seeds."""
    return comb(seeds + pits, pits)


_COLUMNS: dict[int, list[list[int]]] = {}


def _columns(pits: int, seeds: int) -> list[list[int]]:
    """C(n, r) as ``columns[r][n]``, for r up to ``pits`` and n up to ``seeds + pits`` at
    least (grown when a board holds more seeds than any before)."""
    columns = _COLUMNS.get(pits)
    if columns is None or len(columns[0]) <= seeds + pits:
        most = max(2 * (seeds + pits), 64)
        columns = _COLUMNS[pits] = [[comb(n, r) for n in range(most + 1)] for r in range(pits + 1)]
    return columns

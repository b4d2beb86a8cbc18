"""The bottom-up kernel for row games (crate line, coin row): values by length, O(n) memory.

f_L[l] is the value of the range of length L starting at l. A move taking ``a`` items from
the left and ``b`` from the right is worth ``gain - f_{L-a-b}[l+a]``, so length L needs only
the rows of the K = max(a+b) previous lengths: a ring of K + 1 rows of about n entries.
For each length, each legal take costs one numpy subtraction (two if it takes from both
ends) and one maximum, over every start at once; the Python loop runs n times, not n^2/2.

Speed. At n = 2,000 the loop is dominated by the cost of calling numpy, not by the
arithmetic, so the views each length needs are made once per block of BLOCK lengths: within
a block every length works on the same number of starts, the block's largest. The extra
"lanes" hold values of starts that run past the end of the row; they are never read by a
real lane (the range (l, L) only reads (l + a, L - a - b), which is real whenever (l, L) is),
so whatever they hold, even wrapped integers, cannot reach the answer.

Exactness. With S the sum of the values' sizes, every quantity the recurrence forms (sums
of taken items, options, values) lies in [-S, S]: an option is a gain minus the value of
what is left, and each is at most, in size, the sum of its own items. So the dtype is chosen up front
from S: int32 when S < 2^31 (half the memory traffic of int64), int64 when S < 2^63, and
numpy object arrays of Python ints beyond that, which are exact at any size and just slower.
No silent wrap-around is possible in a real lane.

The line of play needs every range's best move, not just the last rows: with ``line=True``
the kernel also keeps one byte per range (n(n+1)/2 bytes: 2 MB at n = 2,000), the index of
the first take, in the game's order, that reaches the range's value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

INT32_LIMIT = 2**31
INT64_LIMIT = 2**63
BLOCK = 128  # lengths per block: fewer views to make, at most BLOCK spare lanes per length

EndTake = tuple[int, int]


@dataclass
class RowTable:
    """What the kernel found for a whole row.

    ``move_values`` holds (take index, value for the mover) for every take legal at the
    start; ``line`` the take indices of the principal variation when asked for.
    """

    value: int
    move_values: list[tuple[int, int]]
    line: list[int] | None
    positions: int
    dtype: str
    line_bytes: int = 0


def pick_dtype(values: Sequence[int]) -> Any:
    """The narrowest exact dtype for the row (see the module docstring)."""
    bound = sum(map(abs, values))
    if bound < INT32_LIMIT:
        return np.int32
    if bound < INT64_LIMIT:
        return np.int64
    return object


def window_sums(values: Sequence[int], widths: set[int], size: int, dtype: Any) -> dict[int, Any]:
    """For each width w, the array s_w[j] = values[j] + ... + values[j + w - 1], padded with
    zeros to ``size`` entries (a take of w items from either end gains one of these)."""
    padded = np.zeros(size + max(widths, default=0), dtype=dtype)
    padded[:len(values)] = values
    sums = {}
    for width in widths:
        total = np.zeros(size, dtype=dtype)
        for shift in range(width):
            total += padded[shift:shift + size]
        sums[width] = total
    return sums


class _Ring:
    """The rows of the last K + 1 lengths; the row for length x is ``rows[x % (K + 1)]``.
    All rows start at zero, which is the value of every empty range (length 0)."""

    def __init__(self, depth: int, size: int, dtype: Any) -> None:
        self.rows = [np.zeros(size, dtype=dtype) for _ in range(depth + 1)]

    def row(self, length: int) -> Any:
        return self.rows[length % len(self.rows)]


def solve_row(values: Sequence[int], takes: Sequence[EndTake], *, line: bool = False,
              poll: Callable[[int], None] | None = None) -> RowTable:
    """Tabulate every range of the row by length; return the value of the whole row, the
    value of each first move, and (``line``) the principal variation."""
    n = len(values)
    positions = (n + 1) * (n + 2) // 2
    if n == 0:
        return RowTable(0, [], [] if line else None, positions, "none")
    dtype = pick_dtype(values)
    depth = max(left + right for left, right in takes)
    size = n + depth + BLOCK + 2
    sums = window_sums(values, {w for take in takes for w in take if w}, size, dtype)
    ring = _Ring(depth, size, dtype)
    choices = _Choices(n) if line else None
    done = 0
    for first in range(1, n + 1, BLOCK):
        last = min(n, first + BLOCK - 1)
        if choices is None:
            _fill_block(ring, sums, takes, first, last, n - first + 1, dtype)
        else:
            _fill_block_with_choices(ring, sums, takes, first, last, n - first + 1, dtype, choices)
        done += sum(n - length + 1 for length in range(first, last + 1))
        if poll is not None:
            poll(done)
    top = ring.row(n)
    move_values = _root_moves(values, takes, ring, n)
    path = choices.line(takes, n) if choices is not None else None
    return RowTable(int(top[0]), move_values, path, positions, np.dtype(dtype).name,
                    choices.bytes if choices is not None else 0)


def _fill_block(ring: _Ring, sums: dict[int, Any], takes: Sequence[EndTake], first: int,
                last: int, lanes: int, dtype: Any) -> None:
    """Lengths first..last, each over ``lanes`` starts (the block's widest length): the hot
    path. Only the value is wanted, so the order of the takes does not matter, and the
    takes from the left alone, whose operands are the same views for every length of a
    residue, run as a flat list of bound ufunc calls; only a take from the right needs a
    view that moves with the length."""
    subtract, add, fmax = np.subtract, np.add, np.fmax
    shifted = {id(row): [row[shift:shift + lanes] for shift in range(len(ring.rows))]
               for row in ring.rows}
    lefts = {width: array[:lanes] for width, array in sums.items()}
    scratch = np.empty(lanes, dtype=dtype)
    plans: dict[int, tuple[Any, list[tuple[Any, ...]], list[tuple[Any, ...]]]] = {}
    ring_size = len(ring.rows)
    for length in range(first, last + 1):
        # The steps depend only on the length's row in the ring and on which takes fit.
        key = length % ring_size if length > ring_size else -length
        plan = plans.get(key)
        if plan is None:
            plan = plans[key] = _fast_plan(ring, shifted, lefts, takes, length, scratch)
        out, fixed, moving = plan
        for ufunc, x, y, into in fixed:
            ufunc(x, y, into)
        for width, left_sum, child, target in moving:
            start = length - width
            window = sums[width][start:start + lanes]
            if left_sum is None:
                subtract(window, child, target)
            else:
                add(window, left_sum, target)
                subtract(target, child, target)
            if target is not out:
                fmax(out, target, out)


def _fast_plan(ring: _Ring, shifted: dict[int, list[Any]], lefts: dict[int, Any],
               takes: Sequence[EndTake], length: int,
               scratch: Any) -> tuple[Any, list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """For _fill_block: the output row, the bound calls of the left-only takes (the first
    writes straight into the output, the others into scratch and then a maximum), and the
    takes that need a window from the right end."""
    out = shifted[id(ring.row(length))][0]
    fitting = [take for take in takes if sum(take) <= length]
    fitting.sort(key=lambda take: take[1] > 0)          # left-only takes first
    fixed: list[tuple[Any, ...]] = []
    moving: list[tuple[Any, ...]] = []
    for number, (left, right) in enumerate(fitting):
        child = shifted[id(ring.row(length - left - right))][left]
        target = out if number == 0 else scratch
        if right:
            moving.append((right, lefts[left] if left else None, child, target))
            continue
        fixed.append((np.subtract, lefts[left], child, target))
        if number:
            fixed.append((np.fmax, out, scratch, out))
    return out, fixed, moving


def _fill_block_with_choices(ring: _Ring, sums: dict[int, Any], takes: Sequence[EndTake],
                             first: int, last: int, lanes: int, dtype: Any,
                             choices: _Choices) -> None:
    """As _fill_block, taking the takes in the game's order so that each range records the
    first take that reaches its value (the line then matches the search algorithms')."""
    subtract, add, fmax = np.subtract, np.add, np.fmax
    shifted = {id(row): [row[shift:shift + lanes] for shift in range(len(ring.rows))]
               for row in ring.rows}
    lefts = {width: array[:lanes] for width, array in sums.items()}
    scratch = np.empty(lanes, dtype=dtype)
    beats = np.empty(lanes, dtype=bool)
    greater, putmask = np.greater, np.putmask
    plans: dict[int, tuple[Any, list[tuple[Any, ...]]]] = {}
    for length in range(first, last + 1):
        # A length's steps depend only on its row in the ring and on which takes fit, so
        # they are built once per residue and reused.
        key = length % len(ring.rows) if length > len(ring.rows) else -length
        if key not in plans:
            plans[key] = _plan(ring, shifted, lefts, sums, takes, length, scratch)
        out, steps = plans[key]
        chosen = choices.row(length, lanes)
        for index, kind, left_sum, right_sums, right, child, target in steps:
            if kind == _LEFT:
                subtract(left_sum, child, target)
            elif kind == _RIGHT:
                start = length - right
                subtract(right_sums[start:start + lanes], child, target)
            else:
                start = length - right
                add(left_sum, right_sums[start:start + lanes], target)
                subtract(target, child, target)
            if target is out:
                chosen.fill(index)
            else:
                # Strictly better only: on a tie the earlier take keeps the range.
                greater(target, out, beats)
                putmask(chosen, beats, index)
                fmax(out, target, out)


_LEFT, _RIGHT, _BOTH = 0, 1, 2


def _plan(ring: _Ring, shifted: dict[int, list[Any]], lefts: dict[int, Any],
          sums: dict[int, Any], takes: Sequence[EndTake], length: int,
          scratch: Any) -> tuple[Any, list[tuple[Any, ...]]]:
    """The output row of ``length`` and one step per take that fits: which sums to use, the
    child's row shifted by the left take, and where to write (the first fitting take
    writes straight into the output, later ones into scratch and then a maximum)."""
    out = shifted[id(ring.row(length))][0]
    steps: list[tuple[Any, ...]] = []
    for index, (left, right) in enumerate(takes):
        if left + right > length:
            continue
        kind = _BOTH if left and right else _LEFT if left else _RIGHT
        child = shifted[id(ring.row(length - left - right))][left]
        target = scratch if steps else out
        steps.append((index, kind, lefts.get(left), sums.get(right), right, child, target))
    return out, steps


def _root_moves(values: Sequence[int], takes: Sequence[EndTake], ring: _Ring,
                n: int) -> list[tuple[int, int]]:
    """Each legal first move's value: its gain (exact, in Python ints) minus the value of
    what it leaves, read from the ring's last rows."""
    found = []
    for index, (left, right) in enumerate(takes):
        if left + right > n:
            continue
        gain = sum(values[:left]) + sum(values[n - right:])
        found.append((index, gain - int(ring.row(n - left - right)[left])))
    return found


class _Choices:
    """One byte per range: the index of the first take that reaches the range's value.

    Length L's n - L + 1 starts are stored from offset(L), lengths in order. A block
    computes more lanes than a length has starts; those extra bytes spill into the rows of
    longer lengths, which are always written later and in full, so they never survive
    (the array has a block of slack at the end for the last length's spill).
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.flat = np.zeros(n * (n + 1) // 2 + n + BLOCK, dtype=np.uint8)
        self.bytes = self.flat.nbytes

    def offset(self, length: int) -> int:
        # Lengths 1..length-1 hold n, n-1, ..., n-length+2 starts.
        return (length - 1) * self.n - (length - 1) * (length - 2) // 2

    def row(self, length: int, lanes: int) -> Any:
        start = self.offset(length)
        return self.flat[start:start + lanes]

    def line(self, takes: Sequence[EndTake], n: int) -> list[int]:
        left, length = 0, n
        path = []
        while length > 0:
            index = int(self.flat[self.offset(length) + left])
            path.append(index)
            taken_left, taken_right = takes[index]
            left += taken_left
            length -= taken_left + taken_right
        return path

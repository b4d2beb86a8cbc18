"""Long Grundy sequences of octal games by the rare/common value method.

The plain mex rule looks at every split of a heap, so n terms cost O(n^2). The "sparse space"
observation of the octal-game literature (Gangolli and Plambeck 1989; A. Flammenkamp's octal
game tables) is that for many games a mask C splits Grundy values into two classes: *rare*
values (even parity of g & C, a class closed under XOR) and *common* ones (odd parity), and
rare values occur at few heap sizes. Parities add under XOR, so a split a + b has a common
value exactly when one part is rare. With R rare heap sizes so far:

1. every common option of heap n comes from a (rare, any) pair: O(R) work finds them all,
   and with them the least common value c not among the options;
2. G(n) = c unless some rare value below c is missing from the options; the rare values come
   from (common, common) pairs, so those are scanned only until every rare value below c has
   been seen, which nearly always happens after a few pairs. A full scan is needed only when
   G(n) itself is rare.

The answer is exact for any mask; the mask decides only the speed. It is chosen from a plain
prefix: the mask leaving the fewest rare values in its second half.

The kernel is written for numba and runs as plain Python when numba is missing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from perfectplay.impartial.octal_code import LEAVE_ONE, LEAVE_TWO, TAKE_ALL, OctalCode, plain_sequence

try:  # numba is optional: the same functions run as plain Python without it
    from numba import njit
except ImportError:  # pragma: no cover - depends on the installation
    def njit(*_args: Any, **_kwargs: Any) -> Any:  # type: ignore[no-redef]
        return lambda function: function

PLAIN_PREFIX = 600  # plain mex computes this prefix, which also picks the mask
# Grundy values of octal games stay small (the largest in the published tables are a few
# hundred); the mex scratch array has room for any value below this.
VALUE_LIMIT = 1 << 15


@njit(cache=True)
def _extend(values: np.ndarray, start: int, takes: np.ndarray, digits: np.ndarray,
            common: np.ndarray, rare_at: np.ndarray, rare_count: int) -> int:
    """Fill values[start:] in place; rare_at[:rare_count] lists the heap sizes >= 1 whose
    value is rare. Returns -1 on success, else the heap size whose value overflowed."""
    seen = np.full(VALUE_LIMIT, -1, dtype=np.int64)
    for n in range(start, len(values)):
        # Options of the one-heap and no-heap kinds, and every split with a rare part.
        for index in range(len(takes)):
            take, digit = takes[index], digits[index]
            rest = n - take
            if rest < 0:
                continue
            if take > 0 and rest == 0 and digit & TAKE_ALL:
                seen[0] = n
            if take > 0 and rest > 0 and digit & LEAVE_ONE:
                seen[values[rest]] = n
            if digit & LEAVE_TWO:
                for k in range(rare_count):
                    part = rare_at[k]
                    if part >= rest:
                        break
                    seen[values[part] ^ values[rest - part]] = n
        # Step 1: the least common value that no option takes.
        candidate = 1
        while not common[candidate] or seen[candidate] == n:
            candidate += 1
            if candidate >= VALUE_LIMIT:
                return n
        # Step 2: rare values below it that no option has shown yet.
        missing = 0
        for value in range(candidate):
            if not common[value] and seen[value] != n:
                missing += 1
        if missing:
            missing = _scan_common_pairs(values, n, takes, digits, common, seen, candidate, missing)
        if missing:
            # Some rare value below the candidate is no option: the least one is G(n).
            candidate = 0
            while seen[candidate] == n:
                candidate += 1
        values[n] = candidate
        if not common[candidate]:
            rare_at[rare_count] = n
            rare_count += 1
    return -1


@njit(cache=True)
def _scan_common_pairs(values: np.ndarray, n: int, takes: np.ndarray, digits: np.ndarray,
                       common: np.ndarray, seen: np.ndarray, below: int, missing: int) -> int:
    """Mark (common, common) split values below ``below``; stop once none is missing."""
    for index in range(len(takes)):
        if not digits[index] & LEAVE_TWO:
            continue
        rest = n - takes[index]
        for part in range(1, rest // 2 + 1):
            value = values[part] ^ values[rest - part]
            if value < below and seen[value] != n:
                seen[value] = n
                missing -= 1
                if missing == 0:
                    return 0
    return missing


def _kernel(use_numba: bool) -> Any:
    """The compiled kernel, or its plain-Python original (for tests and without numba)."""
    return _extend if use_numba else getattr(_extend, "py_func", _extend)


def choose_mask(prefix: Sequence[int]) -> int:
    """The mask whose rare class is smallest over the second half of ``prefix``."""
    later = np.asarray(prefix[len(prefix) // 2:], dtype=np.int64)
    bits = max(int(later.max(initial=0)).bit_length(), 1)
    best_mask, best_count = 0, len(later) + 1
    for mask in range(1, 1 << bits):
        rare = int(np.count_nonzero(_parities(later & mask) == 0))
        if rare < best_count:
            best_mask, best_count = mask, rare
    return best_mask


def _parities(array: np.ndarray) -> np.ndarray:
    parity = np.zeros_like(array)
    work = array.copy()
    while work.any():
        parity ^= work & 1
        work >>= 1
    return parity


def sparse_sequence(code: OctalCode, terms: int, known: Sequence[int] | np.ndarray = (), *,
                    mask: int | None = None, use_numba: bool = True,
                    on_progress: Callable[[int], None] | None = None) -> np.ndarray:
    """G(0..terms-1), extending ``known``, by the rare/common method (exact for any mask).
    ``on_progress`` hears how many values are done after each slice of work."""
    prefix = plain_sequence(code, min(terms, PLAIN_PREFIX), list(known[:PLAIN_PREFIX]))
    values = np.zeros(terms, dtype=np.int64)
    values[:len(prefix)] = prefix
    start = len(prefix)
    if len(known) > start:
        values[start:len(known)] = np.asarray(known[start:terms], dtype=np.int64)
        start = min(len(known), terms)
    if start >= terms:
        return values
    mask = choose_mask(prefix) if mask is None else mask
    common = (_parities(np.arange(VALUE_LIMIT, dtype=np.int64) & mask) == 1)
    rare_at = np.zeros(terms, dtype=np.int64)
    rare_sizes = [n for n in range(1, start) if not common[values[n]]]
    rare_at[:len(rare_sizes)] = rare_sizes
    takes = np.array([take for take, _ in code.removals()], dtype=np.int64)
    digits = np.array([digit for _, digit in code.removals()], dtype=np.int64)
    _run_in_slices(_kernel(use_numba), values, start, takes, digits, common, rare_at,
                   len(rare_sizes), code, on_progress)
    return values


# The kernel runs in slices of about this many seconds: Ctrl-C (which Python sees only when
# compiled code returns) and a progress bar act between slices (one long call once took 4.9 s
# to stop).
SLICE_SECONDS = 0.05


def _run_in_slices(kernel: Any, values: np.ndarray, start: int, takes: np.ndarray,
                   digits: np.ndarray, common: np.ndarray, rare_at: np.ndarray, rare_count: int,
                   code: OctalCode, on_progress: Callable[[int], None] | None) -> None:
    """Fill values[start:] slice by slice, sizing each slice from the time the last took."""
    terms, size = len(values), 256
    while start < terms:
        end = min(terms, start + size)
        began = time.perf_counter()
        # A view of the first ``end`` values: the kernel fills values[start:end] in place.
        failed = kernel(values[:end], start, takes, digits, common, rare_at, rare_count)
        if failed >= 0:
            raise OverflowError(f"{code.text}: G({failed}) is at least {VALUE_LIMIT}")
        rare_count += int(np.count_nonzero(~common[values[start:end]]))
        spent = time.perf_counter() - began
        size = int(min(max(size * SLICE_SECONDS / max(spent, 1e-6), 16), 1 << 20))
        start = end
        if on_progress is not None:
            on_progress(end)

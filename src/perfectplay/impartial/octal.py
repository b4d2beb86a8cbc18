"""Octal games: codes, Grundy sequences, periods certified by the Guy-Smith theorem.

An octal code ``d0.d1d2...dt`` describes a heap game (Berlekamp, Conway and Guy, *Winning
Ways*, chapter 4). Digit ``dj`` (j >= 1) is a sum of bits saying what a move that removes
exactly ``j`` tokens from one heap may leave: 1 = no heap (it took the whole heap), 2 = one
non-empty heap, 4 = two non-empty heaps. ``d0`` may be 4: split a heap in two, removing none.

Sequences are computed by the plain mex rule (quadratic) for short runs and by the rare/common
value method of :mod:`perfectplay.impartial.sparse` for long ones. A period ``p`` with
preperiod ``e`` is *certified* by the periodicity theorem of Guy and Smith (1956): for a game
whose last non-zero digit is ``dt``, if G(n + p) = G(n) for every e <= n < 2e + p + t, then
G(n + p) = G(n) for every n >= e. Once certified, G(n) for any n (10^18 included) is a table
lookup.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from perfectplay.errors import BadOption
from perfectplay.impartial.grundy import mex

_CODE = re.compile(r"^([0-7]?)\.([0-7]*)$")
TAKE_ALL, LEAVE_ONE, LEAVE_TWO = 1, 2, 4

# Where period searches stop unless told otherwise: enough for every game in the published
# tables we test against, small enough to answer in about a second.
DEFAULT_MAX_TERMS = 1 << 14
# Up to this many terms the plain mex rule is quicker than compiling the faster kernel.
PLAIN_TERMS = 600


@dataclass(frozen=True)
class OctalCode:
    """A parsed octal code. ``digits[j]`` is the digit for removing ``j`` tokens."""

    digits: tuple[int, ...]

    @property
    def text(self) -> str:
        head = str(self.digits[0])
        tail = "".join(map(str, self.digits[1:])) or "0"
        return f"{head}.{tail}"

    @property
    def last(self) -> int:
        """``t``, the index of the last non-zero digit (the most tokens one move removes)."""
        return len(self.digits) - 1

    def removals(self) -> Iterator[tuple[int, int]]:
        """(j, digit) for every j whose digit allows some move; j = 0 only for splitting."""
        for j, digit in enumerate(self.digits):
            if digit:
                yield j, digit

    def heap_moves(self, n: int) -> Iterator[tuple[int, int, int]]:
        """Every move on a heap of ``n``: (take, left, right) with the heaps it leaves
        (0 for none). Splits list each unordered pair once, the smaller part on the left."""
        for take, digit in self.removals():
            rest = n - take
            if rest < 0:
                continue
            # d0 can only be 4 (parse_code checks), so take = 0 means a split.
            if take > 0 and rest == 0 and digit & TAKE_ALL:
                yield take, 0, 0
            if take > 0 and rest > 0 and digit & LEAVE_ONE:
                yield take, 0, rest
            if digit & LEAVE_TWO:
                for left in range(1, rest // 2 + 1):
                    yield take, left, rest - left

    def __str__(self) -> str:
        return self.text


def parse_code(text: str) -> OctalCode:
    """Read a code such as ``0.77``, ``0.137``, ``4.07`` or ``.6`` (d0 = 0 when omitted)."""
    cleaned = (text or "").strip()
    if not cleaned:
        raise BadOption("octal code is empty; write it like 0.77 (Kayles) or 0.137")
    match = _CODE.match(cleaned)
    if not match:
        raise BadOption(f"octal code {text!r}: write digits 0-7 around a point, e.g. 0.77, "
                        "0.137 or 4.07")
    head = int(match.group(1) or "0")
    if head not in (0, 4):
        raise BadOption(f"octal code {text!r}: the digit before the point must be 0 or 4 "
                        "(4 = split a heap in two without taking any)")
    digits = [head, *map(int, match.group(2))]
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    if not any(digits):
        raise BadOption(f"octal code {text!r} allows no move at all")
    return OctalCode(tuple(digits))


def subtraction_code(takes: Sequence[int]) -> OctalCode:
    """The subtraction game S as an octal code: digit 3 (take j, leaving 0 or 1 heap) at each
    j in S, 0 elsewhere."""
    if not takes or min(takes) < 1:
        raise BadOption(f"subtraction set {list(takes)!r} must hold positive amounts")
    digits = [0] * (max(takes) + 1)
    for take in takes:
        digits[take] = TAKE_ALL | LEAVE_ONE
    return OctalCode(tuple(digits))


def plain_sequence(code: OctalCode, terms: int, known: Sequence[int] = ()) -> list[int]:
    """G(0), ..., G(terms - 1) by the plain mex rule, extending ``known``: quadratic time,
    the reference every faster method is checked against."""
    values = list(known[:terms])
    for n in range(len(values), terms):
        options = set()
        for _take, left, right in code.heap_moves(n):
            options.add(values[left] ^ values[right])
        values.append(mex(options))
    return values


@dataclass(frozen=True)
class Periodicity:
    """G(n + period) = G(n) for every n >= preperiod; proved when ``certified``."""

    period: int
    preperiod: int
    certified: bool
    checked_to: int

    def as_dict(self) -> dict[str, int | bool]:
        return {"period": self.period, "preperiod": self.preperiod,
                "certified": self.certified, "checked_to": self.checked_to}


def terms_to_certify(period: int, preperiod: int, last: int) -> int:
    """How many terms G(0..N-1) the Guy-Smith check needs: n + p for n < 2e + p + t."""
    return 2 * preperiod + 2 * period + last


def find_period(values: Sequence[int], last: int) -> Periodicity | None:
    """The least period the data certifies through the Guy-Smith theorem, or None.

    Scanning periods upwards, the first certified one is the least eventual period (any
    other eventual period is a multiple of it), and its preperiod is the least one.
    Candidates are first filtered on the last terms, which nearly every wrong period fails.
    Plain Python lists: no numpy import on the way to a claim answer.
    """
    series = list(values)
    count = len(series)
    for period in _candidate_periods(series):
        preperiod = _last_mismatch(series, period) + 1
        if count >= terms_to_certify(period, preperiod, last):
            return Periodicity(period, preperiod, True, count)
    return None


def _last_mismatch(series: list[int], period: int) -> int:
    """The largest n with G(n) != G(n + period) in the data, or -1."""
    for n in range(len(series) - period - 1, -1, -1):
        if series[n] != series[n + period]:
            return n
    return -1


def _candidate_periods(series: list[int], window: int = 64) -> Iterator[int]:
    count = len(series)
    window = min(window, count // 2)
    if window == 0:
        return
    tail = series[count - window:]
    for period in range(1, count // 2 + 1):
        if series[count - window - period:count - period] == tail:
            yield period


@dataclass
class OctalAnalysis:
    """A game's computed Grundy values and, when found, its certified periodicity."""

    code: OctalCode
    values: list[int]
    periodicity: Periodicity | None

    def grundy(self, n: int) -> int:
        """G(n): a lookup below the computed length, by the certified period beyond it."""
        values = self.values
        if n < len(values):
            return values[n]
        if self.periodicity is None:
            raise BadOption(f"G({n}) of {self.code.text} is beyond the {len(values):,} "
                            "values computed, and no certified period covers it")
        e, p = self.periodicity.preperiod, self.periodicity.period
        return values[e + (n - e) % p]


def sequence(code: OctalCode, terms: int, known: Sequence[int] = ()) -> list[int]:
    """G(0..terms-1): plain mex for short runs, the rare/common method beyond."""
    if terms <= PLAIN_TERMS:
        return plain_sequence(code, terms, list(known))
    from perfectplay.impartial import sparse  # imports numpy and numba: only when it pays

    return sparse.sparse_sequence(code, terms, known).tolist()


def analyse(code: OctalCode, max_terms: int = DEFAULT_MAX_TERMS, at_least: int = 0) -> OctalAnalysis:
    """Compute values, doubling the run until a period is certified or ``max_terms`` is
    reached; at least ``at_least`` values are kept for the caller."""
    terms = max(256, at_least)
    values = sequence(code, min(terms, max(max_terms, at_least)))
    while True:
        found = find_period(values, code.last)
        if found is not None or len(values) >= max(max_terms, at_least):
            return OctalAnalysis(code, values, found)
        terms = min(2 * len(values), max(max_terms, at_least))
        values = sequence(code, terms, values)


@lru_cache(maxsize=64)
def analysed(code_text: str, max_terms: int = DEFAULT_MAX_TERMS) -> OctalAnalysis:
    """:func:`analyse` of a code, kept for the process (claim and octal games reuse it)."""
    return analyse(parse_code(code_text), max_terms)

"""Octal codes: what a move may take from a heap and what it may leave.

An octal code ``d0.d1d2...dt`` describes a heap game (Berlekamp, Conway and Guy, *Winning
Ways*, chapter 4). Digit ``dj`` (j >= 1) is a sum of bits saying what a move that removes
exactly ``j`` tokens from one heap may leave: 1 = no heap (it took the whole heap), 2 = one
non-empty heap, 4 = two non-empty heaps. ``d0`` may be 4: split a heap in two, removing none.

This module holds the code itself and the plain mex rule, the reference every faster method
is checked against; both perfectplay.impartial.octal (periods) and
perfectplay.impartial.sparse (the rare/common value method) build on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from perfectplay.errors import BadOption
from perfectplay.impartial.grundy import mex

_CODE = re.compile(r"^([0-7]?)\.([0-7]*)$")
TAKE_ALL, LEAVE_ONE, LEAVE_TWO = 1, 2, 4

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

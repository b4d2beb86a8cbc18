"""Octal games: codes, Grundy sequences, periods certified by the Guy-Smith theorem.

An octal code (perfectplay.impartial.octal_code) describes a heap game (Berlekamp, Conway
and Guy, *Winning Ways*, chapter 4).

Sequences are computed by the plain mex rule (quadratic) for short runs and by the rare/common
value method of :mod:`perfectplay.impartial.sparse` for long ones. A period ``p`` with
preperiod ``e`` is *certified* by the periodicity theorem of Guy and Smith (1956): for a game
whose last non-zero digit is ``dt``, if G(n + p) = G(n) for every e <= n < 2e + p + t, then
G(n + p) = G(n) for every n >= e. Once certified, G(n) for any n (10^18 included) is a table
lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from perfectplay.errors import BadOption
from perfectplay.impartial.octal_code import (
    OctalCode,
    parse_code,
    plain_sequence,
    subtraction_code,
)

# Where period searches stop unless told otherwise: enough for every game in the published
# tables we test against, small enough to answer in about a second.
DEFAULT_MAX_TERMS = 1 << 14
# Up to this many terms the plain mex rule is quicker than compiling the faster kernel.
PLAIN_TERMS = 600


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

    def values_between(self, first: int, last: int) -> list[int]:
        """G(first..last-1): the computed values, then the certified period's (no computing:
        `octal 0.77 --upto 10000000` needs 83 computed values, not ten million)."""
        values = self.values
        known = [int(v) for v in values[first:min(last, len(values))]]
        start = max(first, len(values))
        if start >= last:
            return known
        if self.periodicity is None:
            raise BadOption(f"G({start}) of {self.code.text} is beyond the {len(values):,} "
                            "values computed, and no certified period covers it")
        e, p = self.periodicity.preperiod, self.periodicity.period
        cycle = [int(v) for v in values[e:e + p]]
        return known + [cycle[(n - e) % p] for n in range(start, last)]


def sequence(code: OctalCode, terms: int, known: Sequence[int] = (),
             on_progress: Callable[[int], None] | None = None) -> list[int]:
    """G(0..terms-1): plain mex for short runs, the rare/common method beyond.
    ``on_progress`` hears how many values are done, now and then."""
    if terms <= PLAIN_TERMS:
        return plain_sequence(code, terms, list(known))
    from perfectplay.impartial import sparse  # imports numpy and numba: only when it pays

    return sparse.sparse_sequence(code, terms, known, on_progress=on_progress).tolist()


def analyse(code: OctalCode, max_terms: int = DEFAULT_MAX_TERMS, at_least: int = 0,
            on_progress: Callable[[int], None] | None = None) -> OctalAnalysis:
    """Compute values, doubling the run until a period is certified or ``max_terms`` is
    reached; at least ``at_least`` values are kept for the caller."""
    terms = max(256, at_least)
    values = sequence(code, min(terms, max(max_terms, at_least)), on_progress=on_progress)
    while True:
        found = find_period(values, code.last)
        if found is not None or len(values) >= max(max_terms, at_least):
            return OctalAnalysis(code, values, found)
        terms = min(2 * len(values), max(max_terms, at_least))
        values = sequence(code, terms, values, on_progress)


def extend(analysis: OctalAnalysis, terms: int,
           on_progress: Callable[[int], None] | None = None) -> None:
    """Compute G up to ``terms`` values when no certified period gives them, and look for a
    period again in the longer run."""
    if analysis.periodicity is not None or terms <= len(analysis.values):
        return
    analysis.values = sequence(analysis.code, terms, analysis.values, on_progress)
    analysis.periodicity = find_period(analysis.values, analysis.code.last)


# Values handed out at a time by stream_values (a thousand printed lines of twenty).
STREAM_CHUNK = 20_000


def stream_values(analysis: OctalAnalysis, upto: int,
                  on_progress: Callable[[int], None] | None = None) -> Iterator[list[int]]:
    """G(0..upto) in consecutive chunks, each handed out as soon as it is known, so a reader
    sees the first values at once and may stop early (`octal 0.77 --upto 1000000 | head -1`
    once computed for 136 s after its reader had gone). Values past the computed
    ones come from the certified period, else are computed in runs of doubling length."""
    done = 0
    while done <= upto:
        if analysis.periodicity is None and done >= len(analysis.values):
            extend(analysis, min(2 * len(analysis.values), upto + 1), on_progress)
        last = min(upto + 1, done + STREAM_CHUNK)
        if analysis.periodicity is None:
            last = min(last, len(analysis.values))
        yield analysis.values_between(done, last)
        done = last


@lru_cache(maxsize=64)
def analysed(code_text: str, max_terms: int = DEFAULT_MAX_TERMS) -> OctalAnalysis:
    """:func:`analyse` of a code, kept for the process (claim and octal games reuse it)."""
    return analyse(parse_code(code_text), max_terms)


# The code and the plain rule live in octal_code (sparse builds on them too); they are part of
# this module's interface.
__all__ = [
    "DEFAULT_MAX_TERMS", "OctalAnalysis", "OctalCode", "PLAIN_TERMS", "Periodicity", "STREAM_CHUNK",
    "analyse", "analysed", "extend", "find_period", "parse_code", "plain_sequence", "sequence",
    "stream_values", "subtraction_code", "terms_to_certify",
]

"""UCI's ``go`` command, every form the protocol defines (UCI, Meyer-Kahlen and Huber, 2006):

    go [searchmoves M1 M2 ...] [ponder] [wtime T] [btime T] [winc T] [binc T]
       [movestogo N] [depth D] [nodes N] [mate N] [movetime T] [infinite]

Times arrive in milliseconds and leave in seconds. Some GUIs send a clock that has run out
as a negative time, which reads as 0 (move at once); ``depth 0`` reads as depth 1, the
shallowest search there is (a negative depth is an error); ``movestogo 0`` as no count.
``searchmoves`` takes every word up to the next keyword; the session checks them against the
position. Anything else is a :class:`UciError` that quotes the word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfectplay.engine import MAX_DEPTH
from perfectplay.errors import BadOption, PerfectPlayError
from perfectplay.search.limits import Limits

CLOCKS = {"wtime", "btime", "winc", "binc"}
NUMBERS = CLOCKS | {"movetime", "movestogo", "depth", "nodes", "mate"}
FLAGS = {"infinite", "ponder"}
KEYWORDS = NUMBERS | FLAGS | {"searchmoves"}


class UciError(PerfectPlayError):
    """A malformed UCI command; reported as ``info string error`` without stopping."""


@dataclass(frozen=True)
class Go:
    """One ``go``: its limits (``mate`` among them), and what the session does around the
    search."""

    limits: Limits
    ponder: bool = False  # think on the opponent's time until ponderhit or stop
    infinite: bool = False  # answer only after stop
    searchmoves: tuple[str, ...] = ()  # as written; the session reads them in the position

    @property
    def mate(self) -> int | None:
        """Look for a forced mate within this many moves first (``go mate N``)."""
        return self.limits.mate


# What a malformed go gets: one shallow search, so that it still ends in a bestmove.
FALLBACK = Go(Limits(depth=1, time=1.0))


def parse_go(words: list[str], overhead_s: float = 0.0) -> Go:
    """The ``go`` that ``words`` (the arguments) describe; clocks lose ``overhead_s`` (the
    Move Overhead option: time the GUI and the pipes take, which the engine must not plan)."""
    numbers: dict[str, int] = {}
    flags: set[str] = set()
    searchmoves: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in FLAGS:
            flags.add(word)
        elif word == "searchmoves":
            while index < len(words) and words[index] not in KEYWORDS:
                searchmoves.append(words[index])
                index += 1
            if not searchmoves:
                raise UciError("go searchmoves: name at least one move")
        elif word in NUMBERS:
            if index >= len(words):
                raise UciError(f"go {word}: a number must follow")
            numbers[word] = _whole(word, words[index])
            index += 1
        else:
            raise UciError(f"go: unknown argument {word!r}")
    infinite = "infinite" in flags
    try:
        limits = _limits(numbers, infinite, overhead_s)
    except BadOption as error:  # what Limits refuses, quoted with the go that asked for it
        raise UciError(f"go {' '.join(words)}: {error}") from None
    return Go(limits, "ponder" in flags, infinite, tuple(searchmoves))


def _whole(word: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UciError(f"go {word} {text!r}: not a whole number") from None


def _limits(numbers: dict[str, int], infinite: bool, overhead_s: float) -> Limits:
    """The one Limits of a go, read leniently where GUIs differ (see above); Limits checks
    the rest (a mate in fewer than one move)."""
    fields: dict[str, Any] = {"infinite": infinite}
    for name in CLOCKS:
        if name in numbers:
            seconds = max(numbers[name], 0) / 1000
            fields[name] = max(seconds - overhead_s, 0.0) if name in ("wtime", "btime") else seconds
    if "movetime" in numbers:
        fields["time"] = max(numbers["movetime"], 1) / 1000
    if numbers.get("movestogo", 0) > 0:
        fields["movestogo"] = numbers["movestogo"]
    if numbers.get("depth", 0) < 0:
        raise UciError(f"go depth {numbers['depth']}: a depth cannot be negative")
    if "depth" in numbers:
        fields["depth"] = min(max(numbers["depth"], 1), MAX_DEPTH)
    if "nodes" in numbers:
        fields["nodes"] = max(numbers["nodes"], 1)
    if "mate" in numbers:
        fields["mate"] = numbers["mate"]
    return Limits(**fields)

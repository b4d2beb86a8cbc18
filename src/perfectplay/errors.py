"""Specific exceptions. Each is a ValueError whose message quotes the bad input.

The CLI turns every PerfectPlayError into one line on stderr and exit code 2.
"""

from __future__ import annotations


class PerfectPlayError(ValueError):
    """Base class for every error perfectplay reports about its input."""


class UnknownGame(PerfectPlayError):
    """A game name that is not in the registry."""


class BadOption(PerfectPlayError):
    """A game option that is unknown, malformed or out of range."""


class BadPosition(PerfectPlayError):
    """Position text that cannot be parsed, or describes an impossible position."""


class IllegalMove(PerfectPlayError):
    """A move that is malformed or not legal in the position."""


class UnsupportedSearch(PerfectPlayError):
    """An algorithm or mode that does not apply to this game."""


class RepeatedPosition(UnsupportedSearch):
    """A game that does not declare itself loopy repeated a position on a search path: search
    would recurse without end. Declare ``Properties(loopy=True)`` to solve it by retrograde
    analysis."""


class NotImpartial(UnsupportedSearch):
    """Grundy values asked of a game that does not declare itself impartial."""


class ComponentMismatch(PerfectPlayError):
    """A game's declared components whose Grundy values do not add up (XOR) to the whole."""


class BadDatabase(PerfectPlayError):
    """A file that is not a perfectplay database, is truncated or corrupted, or was built
    for another game or other options; the message names the file."""


class CorruptDatabase(BadDatabase):
    """A database whose stored checksum does not match its records: never served."""


class MissingExtra(PerfectPlayError):
    """An optional dependency (a pip extra) that the asked-for feature needs is not installed."""


class SearchInterrupted(Exception):
    """Raised inside a search when the caller asks it to stop (Ctrl-C, a hard limit)."""


class LimitReached(Exception):
    """An exact search ran out of its node or time budget before it finished."""


class TooLarge(UnsupportedSearch):
    """A request no machine could carry out (a move list of 10^30 moves), refused up front."""

"""What a stored record is: keys as SQLite can hold them, values as 16-bit records, and the
identity (game, options) every database file carries.

Values are perfectplay values relative to the stored position itself (perfectplay.value):
a win in ``r`` plies is ``WIN - r``, a loss ``r - WIN``, a draw 0, a score game's value its
score difference. The dense store packs a win/loss/draw value into 16 bits, two bits of
outcome and fourteen of remoteness, as Gamesman's array database packs value and
remoteness into one small record.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from perfectplay import value as V
from perfectplay.errors import BadOption
from perfectplay.game import Game
from perfectplay.search.results import FROM_DATABASE  # noqa: F401 - re-exported for the store

# Rows committed per transaction unless --batch says otherwise, and where work can run.
# Here, not in build.py and backends.py, so the CLI can offer them without importing numpy.
DEFAULT_BATCH = 50_000
BACKENDS = ("local", "ray")

FORMAT_VERSION = 1

# -- keys --------------------------------------------------------------------------------
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def encode_key(key: Hashable) -> int | str:
    """The SQLite form of a stable key: an int when it fits 64 bits, else its repr. Keys are
    built from ints, strings and tuples (Game.key), whose repr never changes between runs."""
    if type(key) is int and INT64_MIN <= key <= INT64_MAX:  # type() is: a bool is no key int
        return key
    return repr(key)


def key_order(encoded: int | str) -> tuple[int, int | str]:
    """A total order over encoded keys (ints before strings), for deterministic batches."""
    return (0, encoded) if isinstance(encoded, int) else (1, encoded)


# -- 16-bit records ----------------------------------------------------------------------
ABSENT, WIN, LOSS, DRAW = 0, 1, 2, 3
REMOTENESS_BITS = 14
MAX_REMOTENESS = (1 << REMOTENESS_BITS) - 1
SCORE_ABSENT = -(1 << 15)  # the int16 a score record holds when nothing is stored


def pack(value: int, score_game: bool) -> int:
    """The 16-bit record of a node-relative value (an unsigned int in 0..65535)."""
    if score_game:
        if not SCORE_ABSENT < value < 1 << 15:
            raise ValueError(f"score {value} does not fit a 16-bit record")
        return value & 0xFFFF
    if value == 0:
        return DRAW << REMOTENESS_BITS
    remoteness = V.remoteness(value)
    if remoteness > MAX_REMOTENESS:
        raise ValueError(f"remoteness {remoteness} does not fit {REMOTENESS_BITS} bits")
    return (WIN if value > 0 else LOSS) << REMOTENESS_BITS | remoteness


def unpack(record: int, score_game: bool) -> int | None:
    """The node-relative value of a 16-bit record, or None for an empty record."""
    if score_game:
        signed = record - (1 << 16) if record >= 1 << 15 else record
        return None if signed == SCORE_ABSENT else signed
    kind, remoteness = record >> REMOTENESS_BITS, record & MAX_REMOTENESS
    if kind == ABSENT:
        return None
    if kind == DRAW:
        return 0
    return V.win_in(remoteness) if kind == WIN else V.loss_in(remoteness)


def empty_record(score_game: bool) -> int:
    return SCORE_ABSENT & 0xFFFF if score_game else 0


# -- identity ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Identity:
    """Which game a database answers for: its name and options, as the header stores them."""

    game: str
    options: str  # canonical JSON, so two equal option sets compare equal as text

    @classmethod
    def of(cls, game: Game[Any, Any]) -> Identity:
        return cls(game.name, json.dumps(game.options(), sort_keys=True, default=repr))

    def describe(self) -> str:
        options = json.loads(self.options)
        shown = " ".join(f"--{name}={value}" for name, value in options.items())
        return f"{self.game} {shown}".strip()


# -- memory ------------------------------------------------------------------------------
def parse_memory(text: str | int | None) -> int:
    """Bytes from '2GB', '512MB', '100000' (bytes); None means a quarter of physical memory."""
    if text is None:
        return _physical_memory() // 4
    if isinstance(text, int):
        amount = text
    else:
        units = {"": 1, "B": 1, "KB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40,
                 "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
        cleaned = text.strip().upper().replace(" ", "")
        digits = cleaned.rstrip("KMGTB")
        unit = cleaned[len(digits):]
        try:
            amount = int(float(digits) * units[unit])
        except (ValueError, KeyError):
            raise BadOption(f"--memory {text!r}: give bytes or a size such as 512MB or 2GB") from None
    if isinstance(text, str) and amount < 1 << 20:
        raise BadOption(f"--memory {text!r}: at least 1MB, please")
    return amount


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 << 30

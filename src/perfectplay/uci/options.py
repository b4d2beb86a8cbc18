"""The options the engine declares after ``uci`` and reads from ``setoption``.

Option names are not case sensitive (the protocol says so) and may hold spaces, as may
string values; ``<empty>`` is the empty string, as Stockfish writes it. A value the option
cannot take is a :class:`UciError` quoting it, and the option keeps its value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfectplay.uci.go import UciError

MAX_HASH_MB = 1024  # tables have bounded memory
MAX_THREADS = 64
MAX_MULTIPV = 256  # more than any chess position's legal moves (218 at most)
EMPTY = "<empty>"


@dataclass(frozen=True)
class Option:
    """One option: ``kind`` is spin, check, button or string (the protocol's types)."""

    name: str
    kind: str
    default: Any = None
    low: int = 0
    high: int = 0

    def declaration(self) -> str:
        line = f"option name {self.name} type {self.kind}"
        if self.kind == "spin":
            return f"{line} default {self.default} min {self.low} max {self.high}"
        if self.kind == "check":
            return f"{line} default {'true' if self.default else 'false'}"
        if self.kind == "string":
            return f"{line} default {self.default or EMPTY}"
        return line

    def read(self, text: str) -> Any:
        """The value ``text`` gives this option."""
        if self.kind == "button":
            return True
        if self.kind == "string":
            return "" if text == EMPTY else text
        if self.kind == "check":
            if text.lower() not in ("true", "false"):
                raise UciError(f"setoption {self.name}: {text!r} is not true or false")
            return text.lower() == "true"
        try:
            number = int(text)
        except ValueError:
            raise UciError(f"setoption {self.name}: {text!r} is not a whole number") from None
        if not self.low <= number <= self.high:
            raise UciError(f"setoption {self.name}: {number} must be {self.low} to {self.high}")
        return number


# Every game's options: the engine's, then a game's own (perfectplay.uci.extras), then the
# strength's. UCI_Elo: the levels' nominal strengths live in perfectplay.uci.strength.
ENGINE_OPTIONS = (
    Option("Hash", "spin", 16, 1, MAX_HASH_MB),
    Option("Threads", "spin", 1, 1, MAX_THREADS),
    Option("MultiPV", "spin", 1, 1, MAX_MULTIPV),
    Option("Clear Hash", "button"),
    Option("Move Overhead", "spin", 10, 0, 5000),
    Option("Ponder", "check", False),
)
STRENGTH_OPTIONS = (
    Option("UCI_LimitStrength", "check", False),
    Option("UCI_Elo", "spin", 1350, 500, 2000),
)


class Options:
    """The current values, by the option's name in lower case; ``own`` are the game's."""

    def __init__(self, own: tuple[Option, ...] = ()) -> None:
        self.declared = [*ENGINE_OPTIONS, *own, *STRENGTH_OPTIONS]
        self.by_name = {option.name.lower(): option for option in self.declared}
        self.values = {option.name.lower(): option.default for option in self.declared}

    def set(self, arguments: list[str]) -> str:
        """Read ``setoption name NAME [value VALUE]`` (the words after setoption); return the
        option's lower-case name."""
        text = " ".join(arguments)
        if len(arguments) < 2 or arguments[0] != "name":
            raise UciError(f"setoption {text!r}: write 'setoption name NAME value VALUE'")
        at = arguments.index("value", 1) if "value" in arguments[1:] else len(arguments)
        option = self.by_name.get(" ".join(arguments[1:at]).lower())
        if option is None:
            known = ", ".join(option.name for option in self.declared)
            raise UciError(f"unknown option in {('setoption ' + text)!r}; options: {known}")
        if at == len(arguments) and option.kind != "button":
            raise UciError(f"setoption {option.name}: write 'setoption name {option.name} value VALUE'")
        key = option.name.lower()
        self.values[key] = option.read(" ".join(arguments[at + 1:]))
        return key

    def __getitem__(self, name: str) -> Any:
        return self.values[name.lower()]

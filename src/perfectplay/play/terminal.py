"""Where the game meets the person: a rich console that colours the board on a terminal and
prints plain text when the output is piped, and a scripted stand-in for tests."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

# Board characters worth a colour, by regular expression. Every built-in game draws with
# these; a user's game simply gets whichever of them it happens to use.
BOARD_COLOURS = (
    (r"\|", "bold yellow"),            # sticks (matchgame, nim, take-away)
    (r"(?<![A-Za-z])X(?![A-Za-z])", "bold red"),    # tic-tac-toe X, claimed items
    (r"(?<![A-Za-z])O(?![A-Za-z])", "bold cyan"),   # tic-tac-toe O
    (r"\[\d+\]", "bold green"),        # crates
)

Marks = Sequence[tuple[int, int, str]]  # (line, column, style) of characters to highlight


class Terminal(Protocol):
    def say(self, text: str, style: str = "") -> None: ...
    def board(self, text: str, marks: Marks = ()) -> None: ...
    def ask(self, prompt: str) -> str: ...
    def pause(self, seconds: float) -> None: ...
    def recover(self) -> None: ...


class ConsoleTerminal:
    """Standard input and output through rich; colour only when stdout is a terminal."""

    def __init__(self) -> None:
        self.console = self._new_console()

    @staticmethod
    def _new_console() -> Any:
        from rich.console import Console
        return Console(highlight=False, soft_wrap=True, file=sys.stdout)

    def recover(self) -> None:
        """After Ctrl-C, before the last lines: a print that the interrupt cut short can leave
        rich's console buffering for good (the interrupt may land inside Console.__enter__,
        after its buffer count went up and before the with-block that takes it down again),
        and then nothing more would appear. A fresh console starts clean."""
        self.console = self._new_console()

    def say(self, text: str, style: str = "") -> None:
        from rich.text import Text
        # Text, not markup: boards and moves contain brackets ("[3]") that markup would eat.
        # On a terminal sentences wrap between words at the screen's width (soft wrapping
        # lets the terminal cut them mid-word); piped output keeps one line per sentence.
        self.console.print(Text(text, style=style), soft_wrap=not self.console.is_terminal)

    def board(self, text: str, marks: Marks = ()) -> None:
        from rich.text import Text
        picture = Text(text)
        for pattern, style in BOARD_COLOURS:
            picture.highlight_regex(pattern, style)
        starts = [0]
        for line in text.split("\n"):
            starts.append(starts[-1] + len(line) + 1)
        for line_index, column, style in marks:
            offset = starts[line_index] + column
            picture.stylize(style, offset, offset + 1)
        self.console.print(picture)

    def ask(self, prompt: str) -> str:
        from rich.text import Text
        try:
            return self.console.input(Text(prompt, style="bold"))
        except (RuntimeError, OSError, ValueError):
            # Standard input closed (fd 0 shut: "lost sys.stdin") reads as its end.
            raise EOFError from None

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ScriptedTerminal:
    """Plays typed lines from a list and records everything said (library tests)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines = list(lines)
        self.output: list[str] = []

    def say(self, text: str, style: str = "") -> None:
        self.output.append(text)

    def board(self, text: str, marks: Marks = ()) -> None:
        self.output.append(text)

    def ask(self, prompt: str) -> str:
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.output.append(prompt + line)
        return line

    def pause(self, seconds: float) -> None:
        pass

    def recover(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "\n".join(self.output)

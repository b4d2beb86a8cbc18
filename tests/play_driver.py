"""Drive `perfectplay play` through a pseudo-terminal, as a person would: read the board,
type a line, read the answer. A mirror session follows the game from the moves the program
announces, so a test can check every board it prints and pick moves with the library."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import pexpect

from perfectplay.play import Analyst, Session

PROMPT = "your move> "
OVER = "game over> "
ANNOUNCED = re.compile(r"^I play (\S+?)(?: \(.*\))?\.$", re.M)


def environment(colour: bool = False) -> dict[str, str]:
    env = dict(os.environ, COLUMNS="120", LINES="50")
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color" if colour else "dumb"
    return env


def spawn(*args: str, colour: bool = False) -> pexpect.spawn:
    return pexpect.spawn(sys.executable, ["-m", "perfectplay", *args], env=environment(colour),
                         encoding="utf-8", timeout=15, dimensions=(50, 120))


class Person:
    """One person at the keyboard, with a mirror of the game in progress."""

    def __init__(self, game: Any, *args: str, start: Any = None) -> None:
        self.child = spawn("play", *args)
        self.mirror = Session(game, start)
        self.analyst = Analyst(game)
        self.seen = ""
        self.over = False

    def read(self) -> str:
        """Everything printed up to the next prompt ("your move" or "game over", which sets
        ``over``); follows the computer's moves."""
        self.over = self.child.expect_exact([PROMPT, OVER]) == 1
        text = self.child.before.replace("\r\n", "\n")
        for notation in ANNOUNCED.findall(text):
            self.mirror.play(self.mirror.parse(notation))
        self.seen += text
        return text

    def type(self, line: str) -> str:
        """Type a line and return the answer up to the next prompt."""
        self.child.sendline(line)
        return self.read()

    def move(self, notation: str) -> str:
        self.mirror.play(self.mirror.parse(notation))
        return self.type(notation)

    def play_best_to_the_end(self) -> str:
        """Play the best move each turn, checking each board shown; the last answer."""
        while True:
            answer = self.move(self.best_move())
            if self.over:
                assert self.mirror.is_over()
                return answer
            assert self.board() in answer

    def notations(self) -> list[str]:
        position = self.mirror.position
        return [self.mirror.game.format_move(position, move) for move in self.mirror.legal_moves()]

    def best_move(self) -> str:
        return self.analyst.analyze(self.mirror.position).best()[0].notation

    def board(self) -> str:
        return self.mirror.game.picture(self.mirror.position).text

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        self.child.expect(pexpect.EOF)
        self.seen += self.child.before.replace("\r\n", "\n")
        self.child.close()
        return self.child.exitstatus

"""Players for engine matches: the engine under some settings and limits, or an external
engine that speaks UCI over a pipe.

The UCI client is game-generic: a position goes out as ``position fen <text> moves ...`` with
the opening written by ``game.format_position`` and the moves by ``game.format_move`` (or
converters passed in, e.g. UCI long algebraic for chess), and ``bestmove`` comes back through
``game.parse_move``. A client that cannot start the program, or a program that dies, answers
too slowly or plays an illegal move, raises :class:`PlayerFailed` with one line that says so.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from perfectplay.engine.api import SearchLimits, Settings
from perfectplay.engine.core import Engine
from perfectplay.engine.spec import PlayerSpec
from perfectplay.errors import PerfectPlayError
from perfectplay.game import Game

# An external engine gets this long beyond its move time before it counts as hung.
UCI_GRACE_SECONDS = 10.0


class PlayerFailed(PerfectPlayError):
    """An external engine that cannot start, dies, hangs or plays an illegal move."""


class IllegalReply(PlayerFailed):
    """An engine that answered, but with no move or an illegal one (a forfeit in a match
    played with ``forfeit=True``; the engine is still running)."""


class Player(Protocol):
    name: str

    def new_game(self) -> None: ...

    def choose(self, opening: Any, moves: list[Any], position: Any) -> Any: ...

    def close(self) -> None: ...


def player_for(game: Game[Any, Any], spec: PlayerSpec, name: str) -> Player:
    """The player ``spec`` describes: an external UCI engine, or this engine."""
    if spec.uci:
        return UciPlayer(game, spec.uci, spec.limits, options=spec.uci_options)
    if spec.mcts:
        from perfectplay.mcts.player import MctsPlayer
        return MctsPlayer(game, spec.limits, name)
    return EnginePlayer(game, spec.settings, spec.limits, name)


@dataclass(frozen=True)
class PlayersFromSpecs:
    """Makes a match's two players where they will play (a parallel match's worker)."""

    game: Game[Any, Any]
    first: PlayerSpec
    second: PlayerSpec

    def __call__(self) -> tuple[Player, Player]:
        return player_for(self.game, self.first, "player 1"), player_for(self.game, self.second, "player 2")


class EnginePlayer:
    """perfectplay's engine with fixed settings and per-move limits."""

    def __init__(self, game: Game[Any, Any], settings: Settings, limits: SearchLimits, name: str) -> None:
        self.name = name
        self.engine = Engine(game, settings)
        self.limits = limits
        self.nodes = 0
        self.depths: list[int] = []

    def new_game(self) -> None:
        self.engine.new_game()

    def choose(self, opening: Any, moves: list[Any], position: Any) -> Any:
        result = self.engine.search(position, self.limits)
        self.nodes += result.nodes
        self.depths.append(result.depth)
        return result.best_move

    def close(self) -> None:
        self.engine.close()


class UciPlayer:
    """An external UCI engine, started once per match."""

    def __init__(self, game: Game[Any, Any], command: str, limits: SearchLimits, *,
                 move_text: Callable[[Any, Any], str] | None = None,
                 parse_text: Callable[[Any, str], Any] | None = None,
                 position_text: Callable[[Any], str] | None = None,
                 options: tuple[tuple[str, str], ...] = ()) -> None:
        self.game = game
        self.command = command
        self.limits = limits
        self.move_text = move_text or game.format_move
        self.parse_text = parse_text or game.parse_move
        self.position_text = position_text or game.format_position
        try:
            self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                            text=True, bufsize=1)
        except OSError as error:
            raise PlayerFailed(f"cannot start UCI engine {command!r}: {error.strerror}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = command
        self._send("uci")
        for line in self._until("uciok", UCI_GRACE_SECONDS):
            if line.startswith("id name "):
                self.name = line[len("id name "):].strip()
        for name, value in options:
            self._send(f"setoption name {name} value {value}")
        self._ready()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def _send(self, line: str) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise PlayerFailed(f"UCI engine {self.command!r} exited") from None

    def _until(self, prefix: str, seconds: float) -> list[str]:
        """Lines up to and including the first that starts with ``prefix``."""
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=seconds)
            except queue.Empty:
                raise PlayerFailed(f"UCI engine {self.command!r} sent no {prefix!r} "
                                   f"within {seconds:g} s") from None
            if line is None:
                raise PlayerFailed(f"UCI engine {self.command!r} exited before {prefix!r}")
            seen.append(line)
            if line.split(" ", 1)[0] == prefix:
                return seen

    def _ready(self) -> None:
        self._send("isready")
        self._until("readyok", UCI_GRACE_SECONDS)

    def new_game(self) -> None:
        self._send("ucinewgame")
        self._ready()

    def choose(self, opening: Any, moves: list[Any], position: Any) -> Any:
        written, here = [], opening
        for move in moves:
            written.append(self.move_text(here, move))
            here = self.game.play(here, move)
        tail = f" moves {' '.join(written)}" if written else ""
        start = "startpos" if opening == self.game.start() else f"fen {self.position_text(opening)}"
        self._send(f"position {start}{tail}")
        self._send(f"go {self._go_arguments()}")
        wait = (self.limits.time or 0) + UCI_GRACE_SECONDS
        answer = self._until("bestmove", wait if self.limits.time or self.limits.depth is None else 600)[-1]
        parts = answer.split()
        if len(parts) < 2:
            raise IllegalReply(f"UCI engine {self.command!r} sent {answer!r} without a move")
        try:
            return self.parse_text(position, parts[1])
        except PerfectPlayError:
            raise IllegalReply(f"UCI engine {self.command!r} played {parts[1]!r}, which is not legal "
                               f"in {self.game.format_position(position)!r}") from None

    def _go_arguments(self) -> str:
        limits = self.limits
        if limits.time is not None:
            return f"movetime {max(1, int(limits.time * 1000))}"
        if limits.nodes is not None:
            return f"nodes {limits.nodes}"
        return f"depth {limits.depth or 1}"

    def close(self) -> None:
        try:
            self._send("quit")
            self.process.wait(timeout=2)
        except (PlayerFailed, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()

"""The UCI loop: reads commands line by line, searches in a worker thread so that ``stop``,
``isready`` and ``quit`` are answered during a search, and writes ``info`` and ``bestmove``.

Commands: uci, isready, ucinewgame, setoption (Hash, Threads), position (startpos or fen,
then moves), go (wtime, btime, winc, binc, movestogo, movetime, depth, nodes, infinite),
stop, quit; debug, ponderhit and register are accepted and ignored. A malformed command or
an illegal move is answered with ``info string error: ...`` and the engine keeps running
(the position stays as it was before the bad command). ``go`` before any ``position``
searches the start position, as UCI engines do. A move the protocol cannot express, on a
finished game, is ``bestmove (none)``.

Protocol: the UCI specification (Stefan Meyer-Kahlen and Rudolf Huber, 2000, as updated
2006). Times arrive in milliseconds and go to the engine in seconds.
"""

from __future__ import annotations

import threading
from typing import IO, Any, Callable

from perfectplay.engine import Engine, Info, SearchLimits, Settings, mate_in
from perfectplay.errors import PerfectPlayError
from perfectplay.game import Game
from perfectplay.search.results import line_notation

NAME = "perfectplay"
GO_NUMBERS = {"wtime": "wtime", "btime": "btime", "winc": "winc", "binc": "binc",
              "movetime": "time", "depth": "depth", "nodes": "nodes", "movestogo": "movestogo"}
MILLISECONDS = {"wtime", "btime", "winc", "binc", "movetime"}
DEFAULT_HASH_MB = 16
MAX_HASH_MB = 1024  # tables have bounded memory
MAX_THREADS = 64
ENTRY_BYTES = 16  # the engine table's entry size (perfectplay.engine.table), for Hash in MB
IGNORED = {"debug", "ponderhit", "register"}


class UciError(PerfectPlayError):
    """A malformed UCI command; reported as ``info string error`` without stopping."""


class UciSession:
    """One engine talking UCI. ``write`` takes one line (no newline) and must flush."""

    def __init__(self, game: Game[Any, Any], write: Callable[[str], None]) -> None:
        self.game = game
        self._write = write
        self._lock = threading.Lock()
        self.hash_mb = DEFAULT_HASH_MB
        self.threads = 1
        self.engine = self._new_engine()
        self.position = game.start()
        self.stop = threading.Event()
        self.infinite = False  # whether the running search ends only by stop
        self.worker: threading.Thread | None = None

    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def _new_engine(self) -> Engine:
        entries = self.hash_mb * (1 << 20) // ENTRY_BYTES
        return Engine(self.game, Settings(tt_size=entries, threads=self.threads))

    # -- the loop -------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        handler = getattr(self, f"_cmd_{command}", None)
        if command in IGNORED:
            return True
        if handler is None:
            self.say(f"info string error: unknown command {line.strip()!r}")
            return True
        try:
            return handler(arguments) is not False
        except PerfectPlayError as error:
            self.say(f"info string error: {error}")
        except Exception as error:  # noqa: BLE001 - a UCI engine must answer and keep running
            self.say(f"info string error: {command} failed: {type(error).__name__}: {error}")
        return True

    def _cmd_uci(self, arguments: list[str]) -> None:
        self.say(f"id name {NAME}")
        self.say(f"id author the {NAME} authors")
        self.say(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}")
        self.say(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self.say("uciok")

    def _cmd_isready(self, arguments: list[str]) -> None:
        self.say("readyok")

    def _cmd_ucinewgame(self, arguments: list[str]) -> None:
        self.finish_search()
        self.engine.new_game()
        self.position = self.game.start()

    def _cmd_setoption(self, arguments: list[str]) -> None:
        text = " ".join(arguments)
        name, _, value = text.removeprefix("name ").partition(" value ")
        name = name.strip().lower()
        if name not in ("hash", "threads"):
            raise UciError(f"unknown option in {('setoption ' + text)!r}; options: Hash, Threads")
        try:
            number = int(value)
        except ValueError:
            raise UciError(f"setoption {name}: {value.strip()!r} is not a whole number") from None
        most = MAX_HASH_MB if name == "hash" else MAX_THREADS
        if not 1 <= number <= most:
            raise UciError(f"setoption {name}: {number} must be 1 to {most}")
        self.finish_search()
        if name == "hash":
            self.hash_mb = number
        else:
            self.threads = number
        self._close_engine()
        self.engine = self._new_engine()

    def _close_engine(self) -> None:
        """End the engine's helper processes (Lazy SMP) and free its shared table."""
        self.engine.close()

    def _cmd_position(self, arguments: list[str]) -> None:
        if not arguments or arguments[0] not in ("startpos", "fen"):
            raise UciError(f"position {' '.join(arguments)!r}: write 'position startpos [moves ...]' "
                           "or 'position fen FEN [moves ...]'")
        if arguments[0] == "startpos" and len(arguments) > 1 and arguments[1] != "moves":
            raise UciError(f"position {' '.join(arguments)!r}: after startpos only 'moves ...' may follow")
        if arguments[0] == "fen" and (len(arguments) < 2 or arguments[1] == "moves"):
            raise UciError(f"position {' '.join(arguments)!r}: a FEN must follow 'fen'")
        text = " ".join(arguments[1:]) if arguments[0] == "fen" else " ".join(arguments)
        self.finish_search()
        self.position = self.game.parse_position(text)

    def _cmd_go(self, arguments: list[str]) -> None:
        limits = self.parse_go(arguments)
        if self.worker is not None and self.worker.is_alive():
            raise UciError("go: a search is already running; send stop first")
        self.stop = threading.Event()
        self.infinite = limits.infinite
        self.worker = threading.Thread(target=self._search, args=(self.position, limits, self.stop),
                                       name="perfectplay-uci-search", daemon=True)
        self.worker.start()

    def _cmd_stop(self, arguments: list[str]) -> None:
        self.finish_search(stop=True)

    def _cmd_quit(self, arguments: list[str]) -> bool:
        self.finish_search(stop=True)
        self._close_engine()
        return False

    # -- searching ------------------------------------------------------------------------
    def parse_go(self, arguments: list[str]) -> SearchLimits:
        """SearchLimits from go's arguments; UciError quoting what it cannot read."""
        fields: dict[str, Any] = {}
        index = 0
        while index < len(arguments):
            word = arguments[index]
            if word == "infinite":
                fields["infinite"] = True
            elif word in GO_NUMBERS:
                if index + 1 >= len(arguments):
                    raise UciError(f"go {word}: a number must follow")
                text = arguments[index + 1]
                try:
                    number = int(text)
                except ValueError:
                    raise UciError(f"go {word} {text!r}: not a whole number") from None
                fields[GO_NUMBERS[word]] = number / 1000 if word in MILLISECONDS else number
                index += 1
            elif word == "ponder":
                pass  # searched as an ordinary go; ponderhit changes nothing
            else:
                raise UciError(f"go: unknown or unsupported argument {word!r}")
            index += 1
        if fields.get("time") == 0:
            fields["time"] = 0.001
        return SearchLimits(**fields)

    def _search(self, position: Any, limits: SearchLimits, stop: threading.Event) -> None:
        try:
            result = self.engine.search(position, limits, on_info=lambda info: self._info(position, info),
                                        stop=stop)
        except PerfectPlayError as error:
            self.say(f"info string error: {error}")
            self.say("bestmove (none)")
            return
        except Exception as error:  # noqa: BLE001 - a UCI engine must answer and keep running
            self.say(f"info string error: the search failed: {type(error).__name__}: {error}")
            self.say("bestmove (none)")
            return
        line = line_notation(self.game, position, result.pv[:2]) if result.pv else []
        best = self.game.format_move(position, result.best_move)
        ponder = f" ponder {line[1]}" if len(line) > 1 and line[0] == best else ""
        self.say(f"bestmove {best}{ponder}")

    def _info(self, position: Any, info: Info) -> None:
        moves = mate_in(info.score)
        score = f"cp {info.score}" if moves is None else f"mate {moves}"
        pv = " ".join(line_notation(self.game, position, list(info.pv)))
        self.say(f"info depth {info.depth} seldepth {info.seldepth} score {score} nodes {info.nodes} "
                 f"nps {info.nps} time {int(info.time_s * 1000)}" + (f" pv {pv}" if pv else ""))

    def finish_search(self, *, stop: bool = False) -> None:
        """Wait for a running search's bestmove; with ``stop``, end the search first. Commands
        that change the position let a bounded search finish, but stop an infinite one, which
        would otherwise wait for a ``stop`` that this loop could never read."""
        if self.worker is not None:
            if stop or self.infinite:
                self.stop.set()
            self.worker.join()
            self.worker = None


def run(game: Game[Any, Any], source: IO[str], sink: IO[str]) -> None:
    """Serve UCI on ``source``/``sink`` until ``quit`` or the end of the input."""
    def write(line: str) -> None:
        sink.write(line + "\n")
        sink.flush()

    session = UciSession(game, write)
    while True:
        line = source.readline()
        if not line:
            session.handle("quit")
            return
        if not session.handle(line):
            return

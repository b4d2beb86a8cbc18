"""The UCI loop: reads commands line by line, searches in a worker thread so that ``stop``,
``ponderhit``, ``isready`` and ``quit`` are answered during a search, and writes ``info`` and
``bestmove``.

Commands: uci, isready (which also pays the first search's one-off costs: the table's
memory, the Lazy SMP helpers, a game's own tables), ucinewgame, setoption (the options of
perfectplay.uci.options, and a game's own: perfectplay.uci.extras), position (startpos or
fen, then moves), go (every form, see perfectplay.uci.go), stop, ponderhit, quit; debug and
register are accepted and ignored.

The reader never waits for a search: ``isready`` is answered at once, searching or not, and
``stop``, ``ponderhit`` and ``quit`` act at once. A ``go`` (or ``position``, ``ucinewgame``,
``setoption``) during a search stops it, lets it send its ``bestmove`` (GUIs pair each go
with one), and is then handled. A ``go`` that gives no limit for the side to move (a bare
``go``, only the opponent's clock) searches until ``stop``.

Every ``go`` ends in exactly one ``bestmove``: after the search, or for ``go infinite`` and
an unanswered ``go ponder`` only once ``stop`` (or ``ponderhit``) has come, however soon the
search itself ended (a table position, a proved mate). A malformed ``go`` (an unknown word,
a negative depth, an illegal ``searchmoves`` move) gets ``info string error: ...`` and a
depth-1 search; ``searchmoves 0000`` (python-chess's empty list) means every move. A
``position`` with an illegal move (the null move ``0000`` among them) gets ``info string
error: ...`` and the position after the moves before it, as Stockfish plays; one the engine
cannot read at all (a bad FEN) leaves no position, and a ``go`` then answers ``bestmove
(none)`` after an ``info string error``, rather than searching the last game's board. Any other
malformed command gets ``info string error: ...`` and the engine keeps running. ``go``
before any ``position`` searches the start position, as UCI engines do. While a legal move
exists a ``bestmove`` names one, also where the rules have drawn the game but a GUI plays on
(chess: a claimable repetition, the fifty-move clock, bare kings): the search looks past the
claim, or any move is played, with the draw in ``info``; only a game with no move left is
answered ``bestmove (none)``.

How a go is answered is the decider's choice (perfectplay.deciding.route): a root whose
value and children's values the game knows (chess's endgame tables) is answered from them at
once, reported as an exact iteration; ``go mate N`` first runs the exact mate search
(perfectplay.search.mate) within the go's time and node limits: a mate it proves is played
with its line. Otherwise (none within N, proved, or the limits ran out) the engine searches
as for any go, with what time is left (``2N - 1`` plies when the go gave no other limit).

Protocol: the UCI specification (Stefan Meyer-Kahlen and Rudolf Huber, 2000, as updated
2006). Times arrive in milliseconds and go to the engine in seconds.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import IO, Any

from perfectplay import deciding
from perfectplay import value as V
from perfectplay.engine import Engine, Info, Line, SearchLimits, Settings, mate_in
from perfectplay.errors import BadPosition, LimitReached, PerfectPlayError
from perfectplay.game import Game
from perfectplay.search.results import line_notation
from perfectplay.uci import strength
from perfectplay.uci.extras import RootAdvice, UciExtras, extras_for
from perfectplay.uci.go import FALLBACK, Go, UciError, parse_go
from perfectplay.uci.options import Options
from perfectplay.uci.positions import position_text

NAME = "perfectplay"
ENTRY_BYTES = 16  # the engine table's entry size (perfectplay.engine.transposition), for Hash in MB
IGNORED = {"debug", "register"}
# A search reports the root move it is on (currmove) once it has run this long.
CURRMOVE_AFTER_S = 1.0
# What a go gets when its search cannot run (stopped during a mate search, its time spent).
QUICK = SearchLimits(depth=1, time=0.05)
# UCI's null move: in searchmoves it is python-chess's way of writing an empty list.
NULL_MOVE = "0000"
# How long quit waits for a search to send its bestmove before the process ends anyway.
QUIT_WAIT_S = 2.0
# A mate's PV cut short by the table is completed by the exact mate search within this.
MATE_LINE_LIMITS = (20_000, 0.05)  # nodes, seconds
MATE_LINE_TABLE = 1 << 12  # entries of that search's table (512 bytes each)

__all__ = ["UciError", "UciSession", "run"]


@dataclass
class Search:
    """A running ``go``: what it searches and what the session has learnt along the way."""

    go: Go
    position: Any
    root_moves: tuple[Any, ...] | None  # searchmoves, read in the position
    started: float
    advice: RootAdvice | None = None
    mate_lines: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)  # PVs completed


class UciSession:
    """One engine talking UCI. ``write`` takes one line (no newline) and must flush. What the
    game adds (its options and tables) are its ``extras``, found through its registry entry
    unless given."""

    def __init__(self, game: Game[Any, Any], write: Callable[[str], None],
                 extras: UciExtras | None = None) -> None:
        self.game = game
        self._write = write
        self._lock = threading.Lock()
        self.extras = extras_for(game) if extras is None else extras
        self.options = Options(self.extras.options)
        self.engine = self._new_engine()
        self.position = game.start()
        self.stop = threading.Event()
        self.release = threading.Event()  # set by stop or ponderhit: a held bestmove may go
        self.pondering = threading.Event()  # set while a go ponder waits for ponderhit
        self.current: Search | None = None
        self.worker: threading.Thread | None = None
        self.rng = random.Random()

    def say(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def _new_engine(self) -> Engine:
        entries = self.options["Hash"] * (1 << 20) // ENTRY_BYTES
        probe = self.extras.probe()
        return Engine(self.game, Settings(tt_size=entries, threads=self.options["Threads"]), probe)

    # -- the loop -------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Act on one command line; False after ``quit``."""
        words = line.split()
        if not words:
            return True
        command, arguments = words[0], words[1:]
        if command in IGNORED:
            return True
        handler = getattr(self, f"_cmd_{command}", None)
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
        for option in self.options.declared:
            self.say(option.declaration())
        self.say("uciok")

    def _cmd_isready(self, arguments: list[str]) -> None:
        if self.worker is None or not self.worker.is_alive():
            self._warm_up()
        self.say("readyok")

    def _warm_up(self) -> None:
        """The first search's one-off costs, paid now: the engine's (table memory, helper
        processes) and the game's (its own tables)."""
        self.engine.warm_up()
        self.extras.warm_up()

    def _cmd_ucinewgame(self, arguments: list[str]) -> None:
        self.finish_search()
        self.engine.new_game()
        self.position = self.game.start()

    def _cmd_setoption(self, arguments: list[str]) -> None:
        self.finish_search()
        before = dict(self.options.values)
        name = self.options.set(arguments)
        try:
            self._apply(name)
        except PerfectPlayError:
            self.options.values = before
            raise

    def _apply(self, name: str) -> None:
        if name in ("hash", "threads"):
            self._replace_engine()
        elif name == "clear hash":
            self.engine.clear_table()
        else:
            said = self.extras.apply(name, self.options)
            if said is not None:  # the game's option took effect: its probe may have changed
                self._replace_engine()
                for line in said:
                    self.say(line)

    def _replace_engine(self) -> None:
        self.engine.close()
        self.engine = self._new_engine()
        # Fork the Lazy SMP helpers now, in the reader's thread between two commands: forked
        # later from the search thread while this thread waits in readline, a helper would
        # inherit stdin's lock held and hang closing stdin (python-chess sends no isready).
        self.engine.warm_up()

    def _cmd_position(self, arguments: list[str]) -> None:
        self.finish_search()
        self.position = None  # a refused position leaves none: never the last game's board
        text = position_text(arguments)
        start, _, played = text.partition(" moves")
        read = self.extras.read_position(start, self.options)
        position = self.game.parse_position(start) if read is None else read
        self.position = position
        for number, written in enumerate(played.split()):
            try:
                move = self.game.parse_move(position, written)
            except PerfectPlayError as error:
                self.say(f"info string error: position: move {number + 1} {written!r} is illegal ({error}); "
                         f"using the position after the {number} moves before it")
                return
            position = self.game.play(position, move)
            self.position = position

    def _cmd_go(self, arguments: list[str]) -> None:
        self.finish_search()  # a go during a search: that search answers first, then this one
        if self.position is None:
            self.say("info string error: no position to search: the last position command was refused")
            self.say("bestmove (none)")
            return
        overhead = self.options["Move Overhead"] / 1000
        try:
            go = parse_go(arguments, overhead)
            root_moves = self._read_searchmoves(go.searchmoves)
        except PerfectPlayError as error:
            self.say(f"info string error: {error}; searching depth 1 instead")
            go, root_moves = FALLBACK, None
        self.stop, self.release, self.pondering = threading.Event(), threading.Event(), threading.Event()
        if go.ponder:
            self.pondering.set()
        self.current = Search(go, self.position, root_moves, time.perf_counter())
        self.worker = threading.Thread(target=self._run, name="perfectplay-uci-search", daemon=True,
                                       args=(self.current, self.stop, self.release, self.pondering))
        self.worker.start()

    def _read_searchmoves(self, written: tuple[str, ...]) -> tuple[Any, ...] | None:
        """The searchmoves read in the position; None for every move, also for python-chess's
        empty list, which it writes as the null move ``0000`` alone."""
        named = [text for text in written if text != NULL_MOVE]
        if not named:
            return None
        return tuple(self.game.parse_move(self.position, text) for text in named)

    def _cmd_stop(self, arguments: list[str]) -> None:
        self.finish_search(stop=True)

    def _cmd_ponderhit(self, arguments: list[str]) -> None:
        """The opponent played the expected move: the limits start counting now."""
        if self.current is not None and self.pondering.is_set():
            self.pondering.clear()
            if not self.current.go.infinite:
                self.release.set()

    def _cmd_quit(self, arguments: list[str]) -> bool:
        self.finish_search(stop=True, wait=QUIT_WAIT_S)
        self.engine.close()
        self.extras.close()
        return False

    def finish_search(self, *, stop: bool = True, wait: float | None = None) -> None:
        """End a running search (with ``stop`` False, let a bounded one end by itself) and
        wait, at most ``wait`` seconds, for its bestmove. A search polls its stop flag every
        few dozen nodes, so the wait is milliseconds: the reader is never held by a search."""
        if self.worker is None:
            return
        if stop:
            self.stop.set()
            self.release.set()
        self.worker.join(wait)
        self.worker = None

    # -- searching (in the worker thread) -------------------------------------------------
    def _run(self, search: Search, stop: threading.Event, release: threading.Event,
             pondering: threading.Event) -> None:
        line = None
        try:
            line = self._think(search, stop, pondering)
        except PerfectPlayError as error:
            self.say(f"info string error: {error}")
        except Exception as error:  # noqa: BLE001 - a UCI engine must answer and keep running
            self.say(f"info string error: the search failed: {type(error).__name__}: {error}")
        if search.go.infinite or search.go.ponder:
            release.wait()  # the protocol: no bestmove before stop (or ponderhit)
        self.say(self._bestmove(search, line))

    def _bestmove(self, search: Search, line: Line | None) -> str:
        position = search.position
        if line is None or not line.pv:
            # A search that failed answers with a legal move, the first of those it was
            # allowed: "(none)" tells a GUI there is no move, and it would stop the game.
            allowed = (search.advice.moves if search.advice is not None
                       else search.root_moves if search.root_moves is not None
                       else self.game.moves(position))
            if not allowed:
                return "bestmove (none)"
            return f"bestmove {line_notation(self.game, position, [allowed[0]])[0]}"
        written = line_notation(self.game, position, line.pv[:2])
        return f"bestmove {written[0]}" + (f" ponder {written[1]}" if len(written) > 1 else "")

    def _think(self, search: Search, stop: threading.Event, pondering: threading.Event) -> Line:
        game, go = self.game, search.go
        if not game.moves(search.position):
            raise BadPosition(f"{game.name}: the game is over in {game.format_position(search.position)!r}; "
                              "there is no move to search")
        if game.outcome(search.position) is not None:
            playable = self._play_on(search)
            if playable is None:
                return self._any_move(search)
        position = search.position
        limits = go.limits
        moves = self._root_moves(search)
        level = strength.level_for(self.options["UCI_Elo"] if self.options["UCI_LimitStrength"]
                                   else strength.FULL_STRENGTH_ELO)
        # The decider's choice: known values, then the exact mate search, then the engine.
        how = deciding.route(game, position, moves or game.moves(position), mate=go.mate)
        if how.how == deciding.THEORY:
            return self._known(search, how)
        if how.how == deciding.MATE:
            found, limits = self._mate(search, stop)
            if found is not None:
                return found
        else:
            limits = _charged(limits, time.perf_counter() - search.started)
        if stop.is_set():  # stopped already: a move at once, by a search that ignores stop
            limits, stop = QUICK, threading.Event()
        if moves is not None:
            limits = replace(limits, searchmoves=tuple(moves))
        if level.nodes is not None:
            limits = replace(limits, nodes=min(limits.nodes or level.nodes, level.nodes))
        lines = max(strength.LINES, self.options["MultiPV"]) if not level.full else self.options["MultiPV"]
        result = self.engine.search(position, limits, on_info=lambda info: self._heard(search, info, stop),
                                    stop=stop,
                                    hold=pondering if go.ponder else None, multipv=lines,
                                    on_root_move=lambda depth, move, number: self._currmove(
                                        search, depth, move, number))
        for said in self.extras.after_search():
            self.say(said)
        if not level.full and result.lines:
            return self._played(search, strength.choose(result.lines, level, self.rng), result)
        return Line(result.score, result.pv)

    def _heard(self, search: Search, info: Info, stop: threading.Event) -> None:
        """Report an iteration; end a search the game's tables have settled: at a root they
        hold, an iteration that never went past ply ``seldepth < depth`` found every leaf in
        the tables, and deeper ones repeat it (they ran to depth 100 in 70 ms, saying
        ``info depth 100 seldepth 1``)."""
        self._info(search, info)
        if search.advice is not None and info.bound is None and info.depth > 1 and info.seldepth < info.depth:
            stop.set()

    def _played(self, search: Search, line: Line, result: Any) -> Line:
        """Report the line a weakened level plays, last, so that a GUI shows the move made."""
        spent = max(result.elapsed_s, 1e-6)
        self._info(search, Info(depth=max(result.depth, 1), seldepth=max(result.seldepth, len(line.pv)),
                                score=line.score, nodes=result.nodes, nps=int(result.nodes / spent),
                                time_s=spent, pv=list(line.pv), tbhits=result.tb_hits))
        return line

    def _play_on(self, search: Search) -> Any | None:
        """A root the rules have drawn while moves remain (a GUI that does not claim the draw
        plays on): the position to search instead, the game's own (a draw not yet claimed),
        set as the search's; None where there is none to search."""
        playable = self.extras.play_on(search.position)
        self.say("info string the rules draw the game here, but moves remain: "
                 + ("searching on as if the draw were not yet claimed" if playable is not None
                    else "any move keeps the draw"))
        if playable is not None:
            search.position = playable
        return playable

    def _any_move(self, search: Search) -> Line:
        """The first allowed move of a root where every move is a draw, reported as one."""
        allowed = list(search.root_moves or self.game.moves(search.position))
        spent = max(time.perf_counter() - search.started, 1e-6)
        line = Line(V.DRAW, allowed[:1])
        self._info(search, Info(depth=1, seldepth=1, score=line.score, nodes=1, nps=int(1 / spent),
                                time_s=spent, pv=line.pv))
        return line

    def _known(self, search: Search, how: deciding.Route) -> Line:
        """The answer the game's known values give (chess's endgame tables hold the root and
        every child): reported as the engine reports an exact iteration, without a search."""
        assert how.value is not None
        line = Line(how.value, list(how.line))
        spent = max(time.perf_counter() - search.started, 1e-6)
        self._info(search, Info(depth=1, seldepth=len(line.pv), score=line.score, nodes=how.probes,
                                nps=int(how.probes / spent), time_s=spent, pv=line.pv,
                                tbhits=how.probes))
        return line

    def _root_moves(self, search: Search) -> list[Any] | None:
        """The moves the root may play: searchmoves, narrowed to those that keep the game's
        tables' result when the root is in them (chess's Syzygy tables); None for every move."""
        moves = list(search.root_moves) if search.root_moves is not None else None
        position = search.position
        every = moves if moves is not None else list(self.game.moves(position))
        advice = self.extras.root(position, every)
        if advice is None:
            return moves
        search.advice = advice
        self.say(f"info string {advice.describe(len(every))}")
        return advice.moves

    def _mate(self, search: Search, stop: threading.Event) -> tuple[Line | None, SearchLimits]:
        """A mate within ``go mate N`` proved by the exact mate search, else None and the
        limits left for the engine."""
        from perfectplay.engine.clock import budget as clock_budget
        from perfectplay.search.limits import Budget, Limits, OutOfBudget
        game, position, go = self.game, search.position, search.go
        assert go.mate is not None
        limits = go.limits
        seconds = None if limits.infinite else clock_budget(limits, game.player_to_move(position))[1]
        budget = Budget(Limits(time=seconds, nodes=limits.nodes))
        budget.stop = stop
        try:
            answer = deciding.mate_search(game, position, go.mate, budget)
        except OutOfBudget as reason:
            self.say(f"info string mate search stopped ({reason}) after {budget.elapsed():.2f} s")
            return None, QUICK
        spent = budget.elapsed()
        if answer.moves is None:
            self.say(f"info string no mate within {go.mate} moves (proved)")
        elif search.root_moves is None or answer.line[0] in search.root_moves:
            self.say(f"info depth {2 * answer.moves - 1} seldepth {len(answer.line)} score mate "
                     f"{answer.moves} nodes {answer.nodes} nps {int(answer.nodes / max(spent, 1e-6))} "
                     f"time {int(spent * 1000)} pv {' '.join(line_notation(game, position, answer.line))}")
            return Line(V.win_in(2 * answer.moves - 1), list(answer.line)), limits
        return None, _after(limits, spent, go.mate)

    # -- reports --------------------------------------------------------------------------
    def _info(self, search: Search, info: Info) -> None:
        if info.multipv > self.options["MultiPV"]:
            return  # searched for UCI_LimitStrength, not asked for
        moves = mate_in(info.score)
        pv_moves = list(info.pv)
        if moves is not None:
            score = f"mate {moves}"
            pv_moves = self._mate_line(search, pv_moves, 2 * moves - 1 if moves > 0 else -2 * moves)
        elif search.advice is not None:  # the tables' result, not the evaluation's guess
            score = f"cp {search.advice.score}"
        else:
            score = f"cp {info.score}"
        bound = {"lower": " lowerbound", "upper": " upperbound"}.get(info.bound or "", "")
        tbhits = info.tbhits + (search.advice.probes if search.advice is not None else 0)
        pv = " ".join(line_notation(self.game, search.position, pv_moves))
        self.say(f"info depth {info.depth} seldepth {info.seldepth} multipv {info.multipv} "
                 f"score {score}{bound} nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} "
                 f"tbhits {tbhits} time {int(info.time_s * 1000)}" + (f" pv {pv}" if pv else ""))

    def _mate_line(self, search: Search, pv: list[Any], plies: int) -> list[Any]:
        """``pv`` carried on to the mate ``plies`` long: a PV read from the table often stops
        early (``score mate 2 ... pv d5f6``); the exact mate search finds the rest within
        ``MATE_LINE_LIMITS``, or the PV stays as it was."""
        if not pv or len(pv) >= plies:
            return pv
        key = tuple(pv)
        if key not in search.mate_lines:
            search.mate_lines[key] = pv + self._mate_rest(search.position, pv, plies - len(pv))
        return search.mate_lines[key]

    def _mate_rest(self, position: Any, pv: list[Any], plies: int) -> list[Any]:
        from perfectplay.search.limits import Budget, Limits, OutOfBudget
        from perfectplay.search.mate import find_mate
        game = self.game
        for move in pv:
            position = game.play(position, move)
        nodes, seconds = MATE_LINE_LIMITS
        budget = Budget(Limits(nodes=nodes, time=seconds))
        try:
            if plies % 2:  # the winner is to move
                found = find_mate(game, position, (plies + 1) // 2, budget=budget,
                                  table_entries=MATE_LINE_TABLE)
                return list(found.line) if found.moves is not None else []
            longest: list[Any] = []  # the loser to move: the defence that lasts longest
            for move in game.moves(position):
                found = find_mate(game, game.play(position, move), plies // 2, budget=budget,
                                  table_entries=MATE_LINE_TABLE)
                if found.moves is None:
                    return []
                if len(found.line) + 1 > len(longest):
                    longest = [move, *found.line]
            return longest
        except (OutOfBudget, LimitReached):  # out of its budget, or its thread never ran in time
            return []

    def _currmove(self, search: Search, depth: int, move: Any, number: int) -> None:
        if time.perf_counter() - search.started >= CURRMOVE_AFTER_S:
            written = self.game.format_move(search.position, move)
            self.say(f"info depth {depth} currmove {written} currmovenumber {number}")


def _charged(limits: SearchLimits, spent: float) -> SearchLimits:
    """The limits with the ``spent`` seconds since the go arrived taken off its clocks, so
    that the move's share is planned from the clock the GUI is running."""
    if limits.time is not None:
        return replace(limits, time=max(limits.time - spent, 0.01))
    clocks = {name: max(value - spent, 0.0) for name in ("wtime", "btime")
              if (value := getattr(limits, name)) is not None}
    return replace(limits, **clocks) if clocks else limits


def _after(limits: SearchLimits, spent: float, mate: int) -> SearchLimits:
    """The engine's limits once a mate search has used ``spent`` seconds of them."""
    if limits.time is not None or limits.wtime is not None or limits.btime is not None:
        return _charged(limits, spent)
    if limits.infinite or limits.depth is not None or limits.nodes is not None:
        return limits
    return replace(limits, depth=max(2 * mate - 1, 1))


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

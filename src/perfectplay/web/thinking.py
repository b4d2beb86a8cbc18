"""The computer's thinking, watched live: perfectplay.deciding's exact methods first (a
game's kernel, the search) for half the think time, then, where none finished, its estimate
in a worker thread, one event per completed depth, until every move's value is exact, the
time is up, or the page cancels.

Each depth values every move to that depth (exact where the search saw the end), so the page
can colour moves as estimates while it waits. A game with a heuristic ``evaluate`` (chess,
Connect Four) is searched by the depth-limited engine (perfectplay.engine): one engine, its
table kept from depth to depth, searches the position for its best lines (MultiPV, 3 by
default) and their scores, then every other move's child one or two plies shallower; a game
too big to solve gets no exact try at all. Other games deepen with the library's ``id``
search, each depth followed by an exact try as long.

A cancel (the page closes the event stream) or the end of the time sets the search's stop
flag, which the search polls every few hundred nodes; the thread then ends and the best depth
so far is kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from perfectplay import deciding
from perfectplay import value as V
from perfectplay.deciding import Think
from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.game_faults import explain
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.results import MoveValue
from perfectplay.solving import analyze
from perfectplay.web.positions import (
    MAX_LINES,
    TABLE_ENTRIES,
    Analyses,
    Known,
    KnownLine,
    exact_within,
    is_over,
    line_text,
    quick_analysis,
)

DEFAULT_SECONDS = 5.0
MAX_SECONDS = 60.0
# At most this many searches think at once; more would only share the same 2 cores.
MAX_THINKERS = 4
# The engine's table for one thinking: 2^18 entries of 16 bytes (4 MB).
ENGINE_TABLE_ENTRIES = 1 << 18
# The deepest search asked for (the engine's own bound, perfectplay.engine.api.MAX_DEPTH).
MAX_DEPTH = 99
# Moves other than the best are searched this many plies shallower than the best line; with
# several best lines, the moves outside them this many (the extra lines are searched to the
# full depth, and this pays for them: the chess start to depth 6 took 160,398 nodes with one
# line, 198,758 with three and the others one ply behind, 137,424 with three and the others
# two plies behind; docs/web.md).
MOVE_LAG = 1
MOVE_LAG_BEHIND_LINES = 2
# A best line is shown to this many plies; a forced win's or loss's, to its end within
# MATE_LINE_PLIES (a mate in 15 is shown whole).
LINE_PLIES = 12
MATE_LINE_PLIES = 30
# Each move that continues a forced line is searched within this many nodes: the table
# mostly holds the answer; a long mate it does not hold is shown as far as it is sure.
MATE_LINE_NODES = 20_000
# The best lines searched and shown by default (MultiPV, as lichess's analysis board); a
# page may ask for 1 to MAX_LINES.
DEFAULT_LINES = 3


@dataclass
class Progress:
    """One completed depth, or the end."""

    depth: int
    known: Known | None
    elapsed_s: float
    done: bool = False
    reason: str = ""  # why it ended: "exact", "time", "cancelled"


@dataclass
class Thinker:
    """Deepens on ``position`` until exact, out of time or stopped; reports every depth."""

    game: Game[Any, Any]
    position: Any
    memory: Analyses
    seconds: float
    report: Callable[[Progress], None]
    # How a thinking process builds the same game and position (perfectplay.web.workers):
    # (game name, its options as a query, start position text or None, moves in notation).
    # None for a user's game, which thinks in a thread of the server's own process.
    recipe: tuple[str, dict[str, str], str | None, list[str]] | None = None
    # How many best lines the engine searches at full depth (MultiPV), 1 to MAX_LINES.
    lines: int = DEFAULT_LINES
    budget: Budget = field(init=False)
    left: float = field(init=False)
    # Set by cancel() alone: the think time's clock sets the same stop flag, and an end by
    # the clock is "time", not "cancelled".
    cancelled: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.budget = Budget(Limits(time=self.seconds))
        self.left = self.seconds  # the time the estimate has (Thinker._restart)
        if not 1 <= self.lines <= MAX_LINES:
            raise ValueError(f"lines={self.lines}: 1 to {MAX_LINES} best lines are searched")

    def _restart(self, seconds: float) -> None:
        """The estimate's budget: ``seconds`` from now, stopped by the same cancel."""
        stop = self.budget.stop
        self.left = seconds
        self.budget = Budget(Limits(time=seconds))
        self.budget.stop = stop

    def cancel(self) -> None:
        self.cancelled = True
        self.budget.stop.set()

    def run(self) -> None:
        try:
            self._run()
        except Exception as error:  # a user's game may raise anything: the page shows it
            self.report(Progress(0, None, self.budget.elapsed(), True, f"error: {explain(error) or error}"))

    def _run(self) -> None:
        started = time.perf_counter()
        known = quick_analysis(self.game, self.position, self.memory)
        if known is not None and known.exact:
            self.report(Progress(0, known, time.perf_counter() - started, True, "exact"))
            return
        # The decider's exact methods (a game's kernel, the search) within half the think
        # time of CPU, as play's; a cancel stops them.
        think = Think(seconds=self.seconds, stop=self.budget.stop, table_size=TABLE_ENTRIES)
        found = exact_within(self.game, self.position, think)
        if found is not None or self.budget.stop.is_set():
            if found is not None:
                self.memory.put(self.game, self.position, found)
            reason = "cancelled" if found is None else "exact"
            self.report(Progress(0, found or known, time.perf_counter() - started, True, reason))
            return
        # The estimate gets the rest of the think time, and at least its own share of it.
        spent = time.perf_counter() - started
        self._restart(max(self.seconds - spent, self.seconds * (1 - think.exact_share)))
        clock = threading.Timer(self.left, self.budget.stop.set)  # the engine polls only the flag
        clock.daemon = True
        clock.start()
        engine = EngineDepths(self) if uses_engine(self.game) else None
        try:
            self._deepen(known, started, self._depth if engine is None else engine)
        finally:
            clock.cancel()
            if engine is not None:
                engine.close()

    def _deepen(self, known: Known | None, started: float, search: Callable[[int], Known | None]) -> None:
        best: Known | None = known
        if deciding.estimator(self.game) == deciding.MCTS:
            self._sample(started)  # no evaluation to deepen with: Monte Carlo
            return
        max_depth = min(self.game.properties.max_length or MAX_DEPTH, MAX_DEPTH)
        reason = "time"
        for depth in range(1, max_depth + 1):
            found = search(depth)
            if found is None:
                reason = "cancelled" if self.cancelled else "time"
                break
            best = found
            self.memory.put(self.game, self.position, found)
            if found.exact:
                reason = "exact"
                break
            self.report(Progress(depth, found, time.perf_counter() - started))
        depth_reached = (best.depth or 0) if best is not None else 0
        self.report(Progress(depth_reached, best, time.perf_counter() - started, True, reason))

    def _sample(self, started: float) -> None:
        """Monte Carlo tree search for the whole think time (or until cancelled, or the
        root is proved), reported once at the end."""
        left = max(self.left - self.budget.elapsed(), 0.01)
        answer = deciding.estimate(self.game, self.position, Think(seconds=left, stop=self.budget.stop))
        exact = answer.exact
        found = Known(answer.moves, exact, answer.depth, answer.source) if answer.moves else None
        if found is not None:
            self.memory.put(self.game, self.position, found)
        reason = "exact" if exact else "cancelled" if self.cancelled else "time"
        self.report(Progress(0, found, time.perf_counter() - started, True, reason))

    def _depth(self, depth: int) -> Known | None:
        """Every move's value searched ``depth`` plies deep, or the exact analysis when a try
        as long as that depth took finds it; None if stopped first."""
        if self._stopped():
            return None
        began = time.perf_counter()
        try:
            moves = analyze(self.game, self.position, algorithm="id", limits=Limits(depth=depth),
                            budget=self.budget, table_size=TABLE_ENTRIES)
        except LimitReached:
            return None
        if self._stopped() or not moves:
            return None  # the last depth may be unfinished: keep the one before
        exact = self._exact_try(max(time.perf_counter() - began, 0.01))
        if exact is not None:
            return exact
        # A depth-limited value is proven only when it is a forced win or loss.
        return Known(tuple(replace(move, exact=V.is_decisive(move.value) and not move.score_game)
                           for move in moves), False, depth)

    def _exact_try(self, seconds: float) -> Known | None:
        """The exact analysis if it takes no longer than ``seconds`` (at most doubling the
        time spent, as each depth costs more than all before it)."""
        remaining = self.left - self.budget.elapsed()
        if remaining <= 0:
            return None
        think = Think(seconds=min(seconds, remaining), stop=self.budget.stop, exact_share=1.0,
                      table_size=TABLE_ENTRIES)  # a cancel stops this try too
        found = exact_within(self.game, self.position, think)
        return found if found is not None and found.moves and not self._stopped() else None

    def _stopped(self) -> bool:
        return self.budget.stop.is_set() or self.budget.elapsed() >= self.left


def one_ply(game: Game[Any, Any], position: Any) -> list[MoveValue]:
    """Every move's value one ply deep (the game's own evaluation of each child, or the end
    where a move ends the game): the computer's move when its search reported nothing in
    its think time (a machine too busy to give it the CPU). Milliseconds."""
    return analyze(game, position, algorithm=deciding.deepener(game), limits=Limits(depth=1),
                   table_size=TABLE_ENTRIES)


def uses_engine(game: Game[Any, Any]) -> bool:
    """Whether the depth-limited engine values ``game`` depth by depth (the decider's
    deepener), else plain iterative deepening."""
    return deciding.deepener(game) == deciding.ENGINE


class EngineDepths:
    """Every move's engine score at one depth after another, one engine and its table kept
    throughout: the position itself is searched ``depth`` plies for its ``thinker.lines``
    best lines (the engine's MultiPV, as the UCI front end's option asks for them: the best
    move, then the best of the others, and so on), then every other move's child shallower
    (_child_depth: the page shows every move's score at once and the best lines deepening
    fastest). Exact values (a mate or a forced end seen, the game's own known values) are
    proven and marked so, in the lines as in the moves."""

    def __init__(self, thinker: Thinker) -> None:
        self.thinker = thinker
        self.game = thinker.game
        self.nodes = 0

    def __call__(self, depth: int) -> Known | None:
        from perfectplay.engine.api import SearchLimits, Settings
        from perfectplay.engine.core import Engine
        thinker, game, position = self.thinker, self.game, self.thinker.position
        if thinker._stopped():
            return None
        if not hasattr(self, "engine"):
            self.engine = Engine(game, Settings(tt_size=ENGINE_TABLE_ENTRIES))
        began = time.perf_counter()
        root = self.engine.search(position, SearchLimits(depth=depth), stop=thinker.budget.stop,
                                  multipv=thinker.lines)
        self.nodes += root.nodes
        if thinker._stopped():
            return None
        searched = {game.format_move(position, line.pv[0]): line for line in root.lines if line.pv}
        floor = min((line.score for line in searched.values()), default=root.score)
        moves = []
        for move in game.moves(position):
            notation = game.format_move(position, move)
            line = searched.get(notation)
            valued = self._move_value(move, self._child_depth(line, depth))
            if line is not None and not valued.exact:
                valued = replace(valued, value=line.score, exact=root.exact)  # the root's view
            elif not valued.exact and valued.value > floor:
                # The deeper search bounds every other move by the last line's score (it
                # failed low against it): a shallower score above that is the horizon's.
                valued = replace(valued, value=floor)
            moves.append(valued)
        if thinker._stopped():
            return None
        lines = self._lines(root, moves, depth)
        # The best lines' moves first, in their order, then the others by their shallower scores.
        order = {line.moves[0]: index for index, line in enumerate(lines)}
        moves.sort(key=lambda move: (order.get(move.notation, len(order)), -move.value))
        proven = root.exact and all(move.exact for move in moves)
        if not proven and game.solvable(position):
            exact = thinker._exact_try(max(time.perf_counter() - began, 0.01))
            if exact is not None:
                return exact
        return Known(tuple(moves), proven, depth, source="engine", line=lines[0].moves if lines else (),
                     nodes=self.nodes, lines=tuple(lines))

    def _child_depth(self, line: Any, depth: int) -> int:
        """How deep a move's child is searched: MOVE_LAG plies below the best line (with
        several lines, MOVE_LAG_BEHIND_LINES), or for a line's own move not at all (the
        root's search valued it), unless the line's score is a win or loss, which a search
        of the child one ply below the root then proves where the end is in reach (table
        hits mostly: the root's search just saw it)."""
        if line is None:
            return depth - 1 - (MOVE_LAG if self.thinker.lines == 1 else MOVE_LAG_BEHIND_LINES)
        return depth - 1 if V.is_decisive(line.score) else 0

    def _lines(self, root: Any, moves: list[MoveValue], depth: int) -> list[KnownLine]:
        """The root's best lines in notation, each valued as its move is (a proven value
        where the move's own search proved one), best first."""
        game, position = self.game, self.thinker.position
        valued = {move.notation: move for move in moves}
        lines = []
        for line in root.lines:
            if not line.pv:
                continue
            pv = self._to_the_end(list(line.pv), line.score)[:MATE_LINE_PLIES]
            if not V.is_decisive(line.score):
                pv = pv[:LINE_PLIES]
            move = valued[game.format_move(position, pv[0])]
            lines.append(KnownLine(tuple(_notation_line(game, position, pv)), line_text(game, position, pv),
                                   move.value, move.exact, depth))
        return sorted(lines, key=lambda line: -line.value)

    def _to_the_end(self, pv: list[Any], score: int) -> list[Any]:
        """A forced win or loss's line, continued to the end where the search cut it short
        (a table hit at the root ends its principal variation): each missing move is the best
        of a search of the plies still to go, which the table mostly answers at once. Any
        other line as it is."""
        if not V.is_decisive(score):
            return pv
        from perfectplay.engine.api import SearchLimits
        game, position = self.game, self.thinker.position
        for move in pv:
            position = game.play(position, move)
        plies = V.remoteness(score)
        while len(pv) < min(plies, MATE_LINE_PLIES) and not is_over(game, position):
            if self.thinker._stopped():
                break
            found = self.engine.search(position, SearchLimits(depth=plies - len(pv), nodes=MATE_LINE_NODES),
                                       stop=self.thinker.budget.stop)
            self.nodes += found.nodes
            if found.best_move is None or not V.is_decisive(found.score):
                break  # the end not seen again within the nodes: the line stops where it is sure
            pv.append(found.best_move)
            position = game.play(position, found.best_move)
        return pv

    def _move_value(self, move: Any, depth: int) -> MoveValue:
        from perfectplay.engine.api import SearchLimits
        game, position = self.game, self.thinker.position
        child = game.play(position, move)
        notation = game.format_move(position, move)
        if is_over(game, child):
            finished = _finished_value(game, child)
            return MoveValue(move, notation, _one_ply_up(-finished), False, True)
        known = game.known_value(child)
        if known is not None:
            return MoveValue(move, notation, _one_ply_up(-known), False, True, source="known")
        if depth < 1:
            return MoveValue(move, notation, -game.evaluate(child), False, False)
        result = self.engine.search(child, SearchLimits(depth=depth), stop=self.thinker.budget.stop)
        self.nodes += result.nodes
        return MoveValue(move, notation, _one_ply_up(-result.score), False, result.exact)

    def close(self) -> None:
        if hasattr(self, "engine"):
            self.engine.close()


def _finished_value(game: Game[Any, Any], position: Any) -> int:
    from perfectplay.game import Outcome
    result = game.outcome(position)
    if result is None:  # no move left
        result = Outcome.WIN if game.properties.misere else Outcome.LOSS
    return {Outcome.WIN: V.WIN, Outcome.DRAW: 0, Outcome.LOSS: -V.WIN}[result]


def _one_ply_up(value: int) -> int:
    """A negated child value read one ply further from the end."""
    if V.is_win(value):
        return value - 1
    if V.is_loss(value):
        return value + 1
    return value


def _notation_line(game: Game[Any, Any], position: Any, line: list[Any]) -> list[str]:
    written = []
    for move in line:
        written.append(game.format_move(position, move))
        position = game.play(position, move)
    return written

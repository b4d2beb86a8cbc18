"""Connect Four through the compiled kernel, answered as perfectplay.search answers.

The kernel works in the test sets' scores; this module turns them into perfectplay values
(win or loss with its distance, via ConnectFour.value_of_score), finds every optimal move
and the principal variation with null-window tests, and counts nodes as the Python engine
does (every call of the search function).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from perfectplay.compiled import c4_kernel as K
from perfectplay.compiled import c4_table as T
from perfectplay.errors import LimitReached
from perfectplay.game import Outcome
from perfectplay.games.connect4 import ConnectFour, Position
from perfectplay.search.limits import Budget
from perfectplay.search.results import MoveValue, Solution, Stats, line_notation
from perfectplay.search.tables import parse_table_size

_ARRAYS: dict[tuple[int, int, int], np.ndarray] = {}


# Positions with at least this many empty squares are searched in a worker thread (Engine._run).
THREADED_FROM_EMPTY = 20


class Engine:
    """One board size, one array (kept for the process: generations make reuse free)."""

    def __init__(self, game: ConnectFour, table_size: str | int | None = None) -> None:
        self.game = game
        entries = parse_table_size(table_size, T.BYTES_PER_ENTRY)
        shape = (entries, game.width, game.height)
        if shape not in _ARRAYS:
            _ARRAYS[shape] = T.allocate(entries, (game.height + 1) * game.width)
            write_geometry(_ARRAYS[shape], game)
            _ARRAYS[shape][K.NODE_LIMIT] = K.NO_LIMIT
        # One array holds the work area and the table (see c4_kernel.TABLE_AT).
        self.work = _ARRAYS[shape]
        self.budget: Budget | None = None

    def new_solve(self, node_limit: int | None = None, warm: bool = False,
                  budget: Budget | None = None) -> None:
        """Start a search: a fresh table (or, ``warm``, the one the last search left; see
        perfectplay.methods.Request.warm), zero counters, this node budget. ``budget``'s
        deadline and stop flag are watched while a long search runs (``_run``)."""
        if not warm:
            T.new_generation(self.work)
        self.reset_counters(node_limit)
        self.budget = budget

    def reset_counters(self, node_limit: int | None = None) -> None:
        """Zero the statistics and set the node budget (None: unlimited), table untouched."""
        self.work[K.NODES:K.MAX_PLY + 1] = 0
        self.work[K.NODE_LIMIT] = K.NO_LIMIT if node_limit is None else node_limit

    def _check_budget(self) -> None:
        if self.work[K.NODES] > self.work[K.NODE_LIMIT]:
            T.new_generation(self.work)  # the stopped search left bounds that are not true
            raise LimitReached(f"the compiled search used its budget of "
                               f"{int(self.work[K.NODE_LIMIT]):,} nodes")

    def _args(self, position: Position) -> tuple[Any, ...]:
        mover, occupied, _ = position
        return np.uint64(mover), np.uint64(occupied), self.game.stones(position)

    def score(self, position: Position, weak: bool = False,
              on_probe: Callable[[int, int], None] | None = None, floor: int | None = None) -> int:
        """The test sets' score of a live position (its sign only when ``weak``).
        ``on_probe(low, high)`` hears the bounds after each null-window search; ``floor`` is
        a score the position is known to reach (fewer null-window searches)."""
        mover, occupied, stones = self._args(position)
        low, high = (-1, 1) if weak else (-self.game.cells, self.game.cells)
        if floor is not None and not weak:
            low = max(low, floor)
        probes = 1 if on_probe is not None else self.game.cells
        while True:
            low, high = self._run(K.narrow, stones, mover, occupied, stones, low, high, probes,
                                  self.work)
            self._check_budget()
            if on_probe is not None:
                on_probe(int(low), int(high))
            if low >= high:
                return int(low)

    def at_least(self, position: Position, target: int) -> bool:
        mover, occupied, stones = self._args(position)
        found = bool(self._run(K.at_least, stones, mover, occupied, stones, target, self.work))
        self._check_budget()
        return found

    def _run(self, kernel: Any, stones: int, *args: Any) -> Any:
        """Call a kernel entry point; a position with many empty squares runs in a worker
        thread (the kernel releases the GIL), so that Ctrl-C, which Python handles only in
        the main thread, stops it within milliseconds instead of seconds (issue 13). Short
        searches run directly: a thread would cost more than they do."""
        if self.game.cells - stones < THREADED_FROM_EMPTY:
            return kernel(*args)
        answer: list[Any] = []
        worker = threading.Thread(target=lambda: answer.append(kernel(*args)), daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.05)
                if self._out_of_time():
                    self._stop(worker)
                    raise LimitReached("the compiled search was stopped by its time limit")
        except KeyboardInterrupt:
            self._stop(worker)
            raise
        return answer[0]

    def _out_of_time(self) -> bool:
        budget = self.budget
        if budget is None:
            return False
        return budget.stop.is_set() or \
            (budget.deadline is not None and time.perf_counter() > budget.deadline)

    def _stop(self, worker: threading.Thread) -> None:
        self.work[K.STOP] = 1
        worker.join()
        self.work[K.STOP] = 0
        T.new_generation(self.work)  # the stopped search left bounds that are not true

    def move_score(self, position: Position, column: int, weak: bool = False,
                   ceiling: int | None = None) -> int:
        """The score of playing ``column``, for its player; ``ceiling`` is a score no move
        can beat (the position's own, when known)."""
        child = self.game.play(position, column)
        if self.game.outcome(child) is not None:
            return -self.terminal_score(child)
        return -self.score(child, weak, floor=None if ceiling is None else -ceiling)

    def move_at_least(self, position: Position, column: int, target: int) -> bool:
        """Whether playing ``column`` scores at least ``target`` for its player."""
        child = self.game.play(position, column)
        if self.game.outcome(child) is not None:
            return -self.terminal_score(child) >= target
        return not self.at_least(child, 1 - target)

    def terminal_score(self, position: Position) -> int:
        """A finished game's score for the side to move: 0 for a draw, else a loss."""
        if self.game.outcome(position) is Outcome.DRAW:
            return 0
        return -((self.game.cells + 2 - self.game.stones(position)) // 2)

    def counters(self) -> tuple[int, int, int, int]:
        work = self.work
        return int(work[K.NODES]), int(work[K.HITS]), int(work[K.CUTOFFS]), int(work[K.MAX_PLY])


ALGORITHM = "compiled null-window"


@dataclass(frozen=True)
class Probe:
    """Progress after one null-window search, for the CLI's progress lines."""

    low: int
    high: int
    nodes: int
    seconds: float

    @property
    def progress_line(self) -> str:
        bounds = f"score = {self.low:+d}" if self.low == self.high else \
            f"score in [{self.low:+d}, {self.high:+d}]"
        return f"{bounds} after {self.nodes:,} nodes, {self.seconds:.1f} s"


def solve(game: ConnectFour, position: Position, *, outcome_only: bool = False,
          table_size: str | int | None = None, pv_limit: int = 1000,
          on_depth: Callable[[Probe], None] | None = None, book: Any = None,
          node_limit: int | None = None, warm: bool = False, budget: Budget | None = None,
          **_: Any) -> Solution:
    """Like perfectplay.solve, by the kernel: value with remoteness, every optimal
    move, the principal variation. ``stats.nodes`` counts the kernel's calls to find the
    value (as Pons counts explored positions); ``extra_nodes`` the rest. Past ``node_limit``
    nodes in all (when given) it raises LimitReached.

    ``book`` (a perfectplay.book.lookup.Book, or None) answers a position it holds without
    a search for the value (``_solve_from_book``). ``warm`` keeps the table of the last
    search in this process (Request.warm); past ``budget``'s deadline or on its stop flag
    a long search raises LimitReached."""
    started = time.perf_counter()
    engine = Engine(game, table_size)
    engine.new_solve(node_limit, warm, budget)
    if book is not None and book.covers(game, position):
        return _solve_from_book(engine, position, book, outcome_only, pv_limit, started)
    if game.outcome(position) is not None:
        score = engine.terminal_score(position)
        return _solution(game, position, score, outcome_only, [], [], Stats(elapsed_s=0.0))
    report = None
    if on_depth is not None:
        def report(low: int, high: int) -> None:
            on_depth(Probe(low, high, engine.counters()[0], time.perf_counter() - started))
    score = engine.score(position, weak=outcome_only, on_probe=report)
    nodes, hits, cutoffs, deepest = engine.counters()
    target = _target(game, score, outcome_only)
    best = [c for c in game.moves(position) if engine.move_at_least(position, c, target)]
    line = principal_line(engine, position, score, outcome_only, pv_limit)
    all_nodes, hits, cutoffs, deepest = engine.counters()
    stats = Stats(nodes=nodes, table_hits=hits, cutoffs=cutoffs,
                  max_ply=max(0, deepest - game.stones(position)),
                  elapsed_s=time.perf_counter() - started, extra_nodes=all_nodes - nodes)
    return _solution(game, position, score, outcome_only, best, line, stats)


BOOK_ALGORITHM = "from the opening book"


def _solve_from_book(engine: Engine, position: Position, book: Any, weak: bool, pv_limit: int,
                     started: float) -> Solution:
    """Solve a position the book holds: its value read there; every optimal move from the
    children's book scores (or, on the book's last level, by null-window tests of each
    column at the known score); the line through the book, then by search to the end.
    The search nodes spent count as ``extra_nodes``; the value itself costs none."""
    game = engine.game
    score = book.score(game, position)
    if weak:
        score = _sign(score)  # outcome only: what the kernel's weak search would give
    target = _target(game, score, weak)
    scores = book.move_scores(game, position)
    if scores is not None:
        best = [c for c in game.moves(position) if scores[c] >= target]
    else:
        best = [c for c in game.moves(position) if engine.move_at_least(position, c, target)]
    line = book.line(game, position)[:pv_limit]
    end = position
    for column in line:
        end = game.play(end, column)
    if len(line) < pv_limit and game.outcome(end) is None:
        end_score = score if len(line) % 2 == 0 else -score
        line += principal_line(engine, end, end_score, weak, pv_limit - len(line))
    nodes, hits, cutoffs, deepest = engine.counters()
    stats = Stats(nodes=0, table_hits=hits, cutoffs=cutoffs,
                  max_ply=max(0, deepest - game.stones(position)),
                  elapsed_s=time.perf_counter() - started, extra_nodes=nodes)
    solution = _solution(game, position, score, weak, best, line, stats)
    solution.algorithm = f"{BOOK_ALGORITHM} (every position {book.reach})"
    return solution


def _target(game: ConnectFour, score: int, weak: bool) -> int:
    """The least score a move needs to be optimal: the score itself, or in outcome-only mode
    the least score with the same sign."""
    if not weak:
        return score
    return score if score >= 0 else -game.cells


def principal_line(engine: Engine, position: Position, score: int, weak: bool,
                   limit: int) -> list[int]:
    """Follow the first optimal move (in the game's move order) until the game ends."""
    game = engine.game
    line: list[int] = []
    while len(line) < limit and game.outcome(position) is None:
        target = _target(game, score, weak)
        for column in game.moves(position):
            if engine.move_at_least(position, column, target):
                break
        else:  # cannot happen with exact scores; stop rather than print a wrong move
            break
        line.append(column)
        position = game.play(position, column)
        score = -score
    return line


def _solution(game: ConnectFour, position: Position, score: int, weak: bool, best: list[int],
              line: list[int], stats: Stats) -> Solution:
    value = _sign(score) if weak else game.value_of_score(position, score)
    notation = game.format_move
    pv = line_notation(game, position, line)
    return Solution(game=game.name, position=game.format_position(position),
                    algorithm=ALGORITHM, value=value, score_game=False, exact=True,
                    best_moves=[notation(position, c) for c in best], pv=pv, stats=stats,
                    outcome_only=weak)


def analyze(game: ConnectFour, position: Position, *, outcome_only: bool = False,
            table_size: str | int | None = None, book: Any = None, node_limit: int | None = None,
            warm: bool = False, budget: Budget | None = None, **_: Any) -> list[MoveValue]:
    """The value of every legal column for the player who would play it, best first; read
    from ``book`` (see solve) when it holds the position and its children. Past
    ``node_limit`` nodes in all it raises LimitReached; ``warm`` and ``budget`` as for solve."""
    engine = Engine(game, table_size)
    engine.new_solve(node_limit, warm, budget)
    if game.outcome(position) is not None:
        return []
    from_book = book.move_scores(game, position) if book is not None else None
    # On the book's last level the children are not in it, but the position's own score
    # bounds theirs: no move scores more (a quarter fewer nodes on three of four positions
    # tried, docs/book.md).
    ceiling = book.score(game, position) if book is not None and from_book is None else None
    valued = []
    for column in game.moves(position):
        if from_book is not None:
            score = _sign(from_book[column]) if outcome_only else from_book[column]
        else:
            score = engine.move_score(position, column, weak=outcome_only, ceiling=ceiling)
        if outcome_only:
            value = _sign(score)
        else:
            # The move's value read at the root: its score seen from the position it is
            # played in is the mover's score there, as if it were the only move.
            value = game.value_of_score(position, score)
        source = None if from_book is None else \
            f"{BOOK_ALGORITHM} (every position {book.reach})"
        valued.append(MoveValue(column, game.format_move(position, column), value, False, True,
                                source))
    return sorted(valued, key=lambda move: -move.value)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def write_geometry(geo: np.ndarray, game: ConnectFour) -> None:
    geo[K.GEO_HEIGHT] = game.height
    geo[K.GEO_WIDTH] = game.width
    geo[K.GEO_BOARD] = game.board
    geo[K.GEO_BOTTOM] = game.bottom_row
    geo[K.GEO_CELLS] = game.cells
    geo[K.GEO_ORDER:K.GEO_ORDER + game.width] = game.order

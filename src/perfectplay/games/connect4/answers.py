"""Answers from a Connect Four score engine: the value, every optimal move, the line, and
every move's value, as perfectplay.search answers.

An engine scores positions in the test sets' convention (``score``: iterative null-window
searches; ``at_least``: one of them). Two engines do: the compiled kernel
(perfectplay.games.connect4.kernel_engine.Engine) and its pure-Python mirror
(perfectplay.games.connect4.python_engine.Engine). This module turns their scores into perfectplay
values (win or loss with its distance, via ConnectFour.value_of_score), finds every optimal
move and the principal variation with null-window tests, and reads an opening book when
given one. It imports neither numpy nor numba.
"""

from __future__ import annotations

import contextlib
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import LimitReached
from perfectplay.game import Outcome
from perfectplay.games.connect4.rules import ConnectFour, Position
from perfectplay.search.results import MoveValue, OwnProgress, Solution, Stats


class ScoreEngine(ABC):
    """Scores positions in the test sets' convention with a table that ``new_solve`` empties;
    ``narrow`` and ``at_least`` are the kernel's entry points of the same names."""

    game: ConnectFour

    @abstractmethod
    def new_solve(self, node_limit: int | None = None) -> None:
        """Empty the table and the counters; past ``node_limit`` nodes raise LimitReached."""

    @abstractmethod
    def narrow(self, position: Position, low: int, high: int, probes: int) -> tuple[int, int]:
        """Bounds on a live position's score after at most ``probes`` null-window searches."""

    @abstractmethod
    def at_least(self, position: Position, target: int) -> bool:
        """Whether a live position's score is at least ``target`` (one null-window search)."""

    @abstractmethod
    def counters(self) -> tuple[int, int, int, int]:
        """Nodes, table hits, cutoffs and the most stones seen, since ``new_solve``."""

    def score(self, position: Position, weak: bool = False,
              on_probe: Callable[[int, int], None] | None = None, floor: int | None = None) -> int:
        """The test sets' score of a live position (its sign only when ``weak``).
        ``on_probe(low, high)`` hears the bounds after each null-window search; ``floor`` is
        a score the position is known to reach (fewer null-window searches)."""
        low, high = (-1, 1) if weak else (-self.game.cells, self.game.cells)
        if floor is not None and not weak:
            low = max(low, floor)
        probes = 1 if on_probe is not None else self.game.cells
        while True:
            low, high = self.narrow(position, low, high, probes)
            if on_probe is not None:
                on_probe(low, high)
            if low >= high:
                return low

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


@dataclass(frozen=True)
class Probe(OwnProgress):
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


@dataclass(frozen=True)
class ColumnTest(OwnProgress):
    """Progress while the optimal moves are proved: the null-window test of one column (the
    ``index``-th of ``count``) begins. The value is known by then."""

    value_known = True

    column: str  # in the game's notation
    index: int
    count: int
    nodes: int
    seconds: float

    @property
    def progress_line(self) -> str:
        return (f"proving column {self.column} (move {self.index} of {self.count}) after "
                f"{self.nodes:,} nodes, {self.seconds:.1f} s")

    def still_proving(self, seconds: float) -> str:
        return (f"Still proving: column {self.column} (move {self.index} of {self.count}), "
                f"{seconds:.1f} s of CPU so far...")


def solve(engine: ScoreEngine, position: Position, algorithm: str, *, outcome_only: bool = False,
          pv_limit: int = 1000, on_depth: Callable[[Any], None] | None = None,
          book: Any = None, on_optimal: Callable[[int, int], None] | None = None) -> Solution:
    """Like perfectplay.solve, by ``engine`` (fresh from ``new_solve``), named ``algorithm``
    in the answer: value with remoteness, every optimal move, the principal variation.
    ``stats.nodes`` counts the search's calls to find the value (as Pons counts explored
    positions); ``extra_nodes`` the rest.

    ``book`` (a perfectplay.games.connect4.book.lookup.Book, or None) answers a position it holds without
    a search for the value (``_solve_from_book``). ``on_optimal`` hears each optimal column
    (and the position's value) as a null-window test proves it; ``on_depth`` hears a Probe
    after each null-window search for the value, then a ColumnTest as each column's test
    begins."""
    started = time.perf_counter()
    game = engine.game
    on_test = None if on_depth is None else _column_reporter(engine, position, started, on_depth)
    if book is not None and book.covers(game, position):
        return _solve_from_book(engine, position, book, outcome_only, pv_limit, started,
                                on_optimal, on_test)
    if game.outcome(position) is not None:
        score = engine.terminal_score(position)
        return _solution(game, position, score, outcome_only, [], [], Stats(elapsed_s=0.0),
                         algorithm)
    report = None
    if on_depth is not None:
        def report(low: int, high: int) -> None:
            on_depth(Probe(low, high, engine.counters()[0], time.perf_counter() - started))
    floor = None if book is None or outcome_only else _floor_from_parent(game, position, book)
    if floor is not None and not engine.at_least(position, floor + 1):
        # The floor is the score when the parent's player played well, as usual: one test
        # above it settles that, a quarter to a half faster than narrowing up from it.
        score = floor
    else:
        score = engine.score(position, weak=outcome_only, on_probe=report,
                             floor=None if floor is None else floor + 1)
    nodes, hits, cutoffs, deepest = engine.counters()
    best = optimal_columns(engine, position, score, outcome_only, on_optimal, on_test)
    line = principal_line(engine, position, score, outcome_only, pv_limit)
    all_nodes, hits, cutoffs, deepest = engine.counters()
    stats = Stats(nodes=nodes, table_hits=hits, cutoffs=cutoffs,
                  max_ply=max(0, deepest - game.stones(position)),
                  elapsed_s=time.perf_counter() - started, extra_nodes=all_nodes - nodes)
    return _solution(game, position, score, outcome_only, best, line, stats, algorithm)


def _column_reporter(engine: ScoreEngine, position: Position, started: float,
                     on_depth: Callable[[Any], None]) -> Callable[[int, int, int], None]:
    def report(column: int, index: int, count: int) -> None:
        on_depth(ColumnTest(engine.game.format_move(position, column), index, count,
                            engine.counters()[0], time.perf_counter() - started))
    return report


BOOK_ALGORITHM = "from the opening book"


def _solve_from_book(engine: ScoreEngine, position: Position, book: Any, weak: bool, pv_limit: int,
                     started: float, on_optimal: Callable[[int, int], None] | None,
                     on_test: Callable[[int, int, int], None] | None = None) -> Solution:
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
        best = optimal_columns(engine, position, score, weak, on_optimal, on_test)
    line = book.line(game, position)[:pv_limit]
    end = position
    for column in line:
        end = game.play(end, column)
    if len(line) < pv_limit and game.outcome(end) is None:
        end_score = score if len(line) % 2 == 0 else -score
        # The book's answer holds under any limit: past the book, the line is searched
        # only as far as the limit lets it (every move on it proved).
        principal_line(engine, end, end_score, weak, pv_limit - len(line), line)
    nodes, hits, cutoffs, deepest = engine.counters()
    stats = Stats(nodes=0, table_hits=hits, cutoffs=cutoffs,
                  max_ply=max(0, deepest - game.stones(position)),
                  elapsed_s=time.perf_counter() - started, extra_nodes=nodes)
    return _solution(game, position, score, weak, best, line, stats,
                     f"{BOOK_ALGORITHM} (every position {book.reach})")


def optimal_columns(engine: ScoreEngine, position: Position, score: int, weak: bool,
                    on_optimal: Callable[[int, int], None] | None,
                    on_test: Callable[[int, int, int], None] | None = None) -> list[int]:
    """The columns that keep the position's ``score``, one null-window test each, told to
    ``on_optimal`` with the position's value as they are found; ``on_test(column, index,
    count)`` hears each test begin."""
    game = engine.game
    target = _target(game, score, weak)
    value = _sign(score) if weak else game.value_of_score(position, score)
    best = []
    columns = game.moves(position)
    for index, column in enumerate(columns, 1):
        if on_test is not None:
            on_test(column, index, len(columns))
        if engine.move_at_least(position, column, target):
            best.append(column)
            if on_optimal is not None:
                on_optimal(column, value)
    return best


def _floor_from_parent(game: ConnectFour, position: Position, book: Any) -> int | None:
    """A score ``position`` is known to reach, when it is one stone past the book: minus
    its parent's score, read in the book (whatever the parent's player did, the side to move
    here can still do at least that well)."""
    history = position[2]
    if game.stones(position) != book.stones + 1 or len(history) != book.stones + 1:
        return None  # not just past the book, or built without its moves
    parent_score = book.score(game, game.parse_position(history[:-1]))
    return None if parent_score is None else -parent_score


def _target(game: ConnectFour, score: int, weak: bool) -> int:
    """The least score a move needs to be optimal: the score itself, or in outcome-only mode
    the least score with the same sign."""
    if not weak:
        return score
    return score if score >= 0 else -game.cells


def principal_line(engine: ScoreEngine, position: Position, score: int, weak: bool,
                   limit: int, partial: list[int] | None = None) -> list[int]:
    """Follow the first optimal move (in the game's move order) until the game ends.
    Given ``partial``, append the moves to it and stop quietly where a limit strikes."""
    if partial is None:
        return _follow(engine, position, score, weak, limit, [])
    found: list[int] = []
    with contextlib.suppress(LimitReached):
        _follow(engine, position, score, weak, limit, found)
    partial += found
    return found


def _follow(engine: ScoreEngine, position: Position, score: int, weak: bool, limit: int,
            line: list[int]) -> list[int]:
    """Append to ``line`` the moves from ``position`` on (``limit`` at most)."""
    game = engine.game
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
              line: list[int], stats: Stats, algorithm: str) -> Solution:
    value = _sign(score) if weak else game.value_of_score(position, score)
    return Solution.of(game, position, algorithm, value, best, line, stats, score_game=False,
                       outcome_only=weak)


def analyze(engine: ScoreEngine, position: Position, *, outcome_only: bool = False,
            book: Any = None) -> list[MoveValue]:
    """The value of every legal column for the player who would play it, best first, by
    ``engine`` (fresh from ``new_solve``); read from ``book`` (see solve) when it holds the
    position and its children."""
    game = engine.game
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
        if outcome_only:  # noqa: SIM108 - the other branch needs its comment
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


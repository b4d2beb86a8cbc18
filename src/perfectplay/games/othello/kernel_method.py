"""Othello's compiled endgame search (perfectplay.games.othello.kernel) as a solving method:
``--engine compiled``, and ``auto`` from 6x6 up when numba imports (4x4 is solved by the
Python search faster than numba loads). Boards up to 8x8; ``--nodes`` and ``--time`` stop it
(its stop word and node budget), ``--depth`` is refused (it solves to the end).

Values are the game's (perfectplay.games.othello.rules): the disc margin still to come for
the side to move. The kernel counts the final disc difference; the two differ by the margin
on the board now. Only light imports here: numba and numpy load when a solve runs."""

from __future__ import annotations

import os
import time
from typing import Any

from perfectplay.compiled.method import kernel_budget, kernel_node_limit, kernel_warm_up, objection
from perfectplay.errors import LimitReached
from perfectplay.finish import line_totals
from perfectplay.games.othello.rules import KERNEL_MAX_SIZE
from perfectplay.methods import Method, Request, register
from perfectplay.search.limits import OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.transposition import parse_table_size

NAME = "othello-kernel"
ALGORITHMS = ("auto",)
PREFERRED_FROM_SIZE = 6
# A time limit beyond the kernel's reach from which loading it is worth its second or two.
LOADING_PAYS_S = 10.0
PASS = -1  # the rules' and the kernel's pass
# Nodes per slice of a long search: a second or two, between which Ctrl-C is heard.
SLICE_NODES = 20_000_000
WIDE = 127
MAX_THREADS = 2
# One table per board and size, kept for the process: its bounds are true for ever.
_SEARCHERS: dict[tuple[int, int], Any] = {}


def _is_othello(game: Any) -> bool:
    from perfectplay.games.othello.rules import Othello
    return isinstance(game, Othello)


def searcher_for(size: int, entries: int) -> Any:
    """The table for this board, searched by as many threads as the machine has cores (at
    most two, splitting the top of the tree, in a search without a limit; docs/othello.md
    has the speed-up)."""
    from perfectplay.games.othello.searcher import Searcher
    shape = (size, entries)
    if shape not in _SEARCHERS:
        _SEARCHERS.clear()  # one table at a time
        _SEARCHERS[shape] = Searcher(size, entries, threads=min(MAX_THREADS, os.cpu_count() or 1))
    return _SEARCHERS[shape]


def to_words(game: Any, position: Any) -> tuple[int, int]:
    """The mover's and the opponent's discs as the kernel's words (bit r * 8 + c)."""
    from perfectplay.games.othello.bitboard import to_words as words
    return words(game.size, game.stride, position[0], position[1])


def to_cell(game: Any, square: int) -> int:
    """The rules' cell (or pass) of a kernel square."""
    return PASS if square == PASS else square // 8 * game.stride + square % 8


class _Run:
    """One solve or analysis: the table, the budget, the watch that sets the kernel's stop
    word at the deadline or on a stop request."""

    def __init__(self, game: Any, request: Request) -> None:
        # The clock starts before numba loads: on a busy machine loading takes a second or
        # two, which a time limit must count
        self.budget = kernel_budget(request)
        from perfectplay.games.othello.kernel import BYTES_PER_ENTRY, STOP
        from perfectplay.search.worker import Watch
        entries = parse_table_size(request.table_size, BYTES_PER_ENTRY)
        self.game = game
        self.searcher = searcher_for(game.size, entries)
        self.budget.allow_memory(entries * BYTES_PER_ENTRY)
        self.node_cap = kernel_node_limit(request, self.budget)
        # A second thread only without a limit: a think time counts the process's CPU, which
        # a second thread would spend too, on a machine whose other core may be busy
        self.helped = not request.bounded and request.budget is None
        self.watch = Watch(self.budget, self.searcher.counters, STOP)
        self.searcher.counters[:] = 0  # this run's nodes, hits and cutoffs
        self.searcher.helper_nodes = 0
        self.started = 0

    def nodes(self) -> int:
        """This run's nodes: both threads' (a node cap counts only the first's: no second
        thread joins a capped search)."""
        return int(self.searcher.counters[0]) + self.searcher.helper_nodes - self.started

    def value(self, position: Any, alpha: int = -WIDE, beta: int = WIDE) -> tuple[int, int | None]:
        """The margin still to come for the mover (fail-soft within alpha, beta) and the
        kernel's best move (None at the end of the game)."""
        game = self.game
        moves = game.moves(position)
        if not moves:
            return 0, None
        if moves == [PASS] and position[3] == 1:
            return game.gain(position, PASS), PASS  # this pass ends the game
        margin = game.margin(position)
        mine, theirs = to_words(game, position)
        cap = None if self.node_cap is None else self.started + self.node_cap
        try:
            self.budget.poll(self.nodes())  # a limit spent already: no search, no compiled code loaded
            found = self.searcher.score(mine, theirs, alpha + margin, beta + margin, SLICE_NODES,
                                        self.budget.poll, cap, self.helped)
        except OutOfBudget as stop:
            raise self._stopped(str(stop)) from None
        if found is None:
            raise self._stopped(self.watch.reason or "nodes")
        score, square = found
        return score - margin, to_cell(game, square)

    def _stopped(self, reason: str) -> LimitReached:
        return LimitReached(f"{NAME} stopped ({reason}) after {self.nodes():,} nodes without an "
                            "answer; use --algorithm mcts for an estimate under a limit")

    def move_value(self, position: Any, move: int) -> int:
        game = self.game
        return game.gain(position, move) - self.value(game.play(position, move))[0]

    def is_optimal(self, position: Any, move: int, value: int) -> bool:
        """Whether ``move`` earns ``value``, the position's, by a null-window search."""
        game = self.game
        target = game.gain(position, move) - value
        found, _ = self.value(game.play(position, move), target, target + 1)
        return found <= target

    def line(self, position: Any, limit: int) -> list[int]:
        """The kernel's best moves from ``position`` to the end (or ``limit`` plies)."""
        moves: list[int] = []
        while len(moves) < limit:
            _, best = self.value(position)
            if best is None:
                break
            moves.append(best)
            position = self.game.play(position, best)
        return moves

    def stats(self, main_nodes: int, started: float) -> Stats:
        counters = self.searcher.counters
        return Stats(nodes=main_nodes, table_hits=int(counters[1]), cutoffs=int(counters[2]),
                     elapsed_s=time.perf_counter() - started, extra_nodes=self.nodes() - main_nodes)


def solve(game: Any, position: Any, request: Request) -> Solution:
    started = time.perf_counter()
    run = _Run(game, request)
    with run.watch:
        value, best = run.value(position)
        main_nodes = run.nodes()
        optimal = [move for move in game.moves(position)
                   if move == best or run.is_optimal(position, move, value)]
        line = run.line(position, request.pv_limit)
    return Solution.of(game, position, NAME, value, optimal, line, run.stats(main_nodes, started),
                       score_game=True, totals=line_totals(game, position, line, value))


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    run = _Run(game, request)
    with run.watch:
        valued = [MoveValue(move, game.format_move(position, move), run.move_value(position, move), True)
                  for move in game.moves(position)]
    return sorted(valued, key=lambda move_value: -move_value.value)


def _applies(game: Any, request: Request) -> str | None:
    if game.size > KERNEL_MAX_SIZE:
        return f"the Othello kernel takes boards up to {KERNEL_MAX_SIZE}x{KERNEL_MAX_SIZE}"
    return objection(ALGORITHMS)(game, request)


def _pays(game: Any, request: Request) -> bool:
    """From 6x6 up; beyond the kernel's reach (Game.solvable) only under no time limit or a
    long one: a short one would go to loading numba, a second or two on a busy machine, and
    the estimate that follows the exact try would start late."""
    if game.size < PREFERRED_FROM_SIZE:
        return False
    position, seconds = request.position, request.limits.time
    return position is None or game.solvable(position) or seconds is None or seconds >= LOADING_PAYS_S


def _board(size: int) -> Any:
    from perfectplay.games.othello.rules import Othello
    return Othello(size)


register(Method(NAME, "Othello endgames: null-window alpha-beta over bitboards, fastest-first and "
                "parity ordering, a table of bounds with enhanced transposition cutoffs; in numba",
                solve, analyze, engine="compiled", answers=ALGORITHMS, handles=_is_othello,
                applies=_applies, preferred=_pays, priority=10, proves_optimal_moves=True,
                warm_up=kernel_warm_up(lambda: _board(4), solve)))

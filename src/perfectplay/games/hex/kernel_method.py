"""Hex's compiled search (perfectplay.games.hex.kernel) as a solving method: ``--engine
compiled``, and ``auto`` from 4x4 up when numba imports. It answers as ``--algorithm pns``
does: win or loss without a distance, every optimal move, a line. ``--nodes`` and ``--time``
stop it (exit 1, as pns); ``--depth`` is refused (a proof goes to the end).

Boards up to 5x5 are solved without a limit (the whole 5x5 map of first moves takes minutes,
docs/pns.md); 6x6 and 7x7 only under a limit. Only light imports here: numba and numpy load
when a solve runs."""

from __future__ import annotations

import time
from typing import Any

from perfectplay import value as V
from perfectplay.compiled import numba_available
from perfectplay.compiled.method import kernel_warm_up
from perfectplay.errors import LimitReached
from perfectplay.game import Outcome
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search.limits import Budget, OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.transposition import parse_table_size

ALGORITHMS = ("auto",)
NAME = "hex-kernel"
PREFERRED_FROM_SIZE = 4
SOLVED_WITHOUT_LIMIT = 5
KERNEL_MAX_SIZE = 7  # perfectplay.games.hex.kernel.MAX_SIZE, without importing numba here
# One table per board and size, kept for the process: its entries are proofs, true for ever.
_SEARCHERS: dict[tuple[str, int, int], Any] = {}


def _is_hex(game: Any) -> bool:
    from perfectplay.games.hex.rules import Hex
    return isinstance(game, Hex)


class KernelRun:
    """One solve or analysis: the table, the budget, the node count at the start. ``name``
    and ``searcher_class`` say which search: this module's, or the connection solver's
    (perfectplay.games.hex.solver_method), which shares the rest."""

    def __init__(self, game: Any, request: Request, name: str = NAME,
                 searcher_class: Any = None) -> None:
        from perfectplay.games.hex.kernel import NODES, Searcher
        searcher_class = searcher_class or Searcher
        entry_bytes = searcher_class.bytes_per_entry
        entries = parse_table_size(request.table_size, entry_bytes)
        shape = (name, game.size, entries)
        if shape not in _SEARCHERS:
            _SEARCHERS.clear()  # one table at a time
            _SEARCHERS[shape] = searcher_class(game, entries)
        self.name = name
        self.game = game
        self.searcher = _SEARCHERS[shape]
        self.budget = request.budget or Budget(request.limits)
        self.budget.allow_memory(entries * entry_bytes)
        self.nodes_slot = NODES
        self.started = int(self.searcher.counters[NODES])

    def nodes(self) -> int:
        return int(self.searcher.counters[self.nodes_slot]) - self.started

    def mover_wins(self, position: Any) -> tuple[bool, int | None]:
        """Whether the mover wins, and a winning move (in a loss: any move); a finished
        position is a loss with no move."""
        ended = self.game.outcome(position)
        if ended is not None:  # a board given as text may hold the mover's own chain
            return ended is Outcome.WIN, None
        cap = self.budget.node_limit
        found = self.searcher.mover_wins(position, self._should_stop,
                                         None if cap is None else self.started + cap)
        if found is not None:
            return found
        try:
            self.budget.poll(self.nodes())  # raises with the reason: time, stopped or nodes
            raise OutOfBudget("stopped")
        except OutOfBudget as stop:
            raise LimitReached(f"{self.name} stopped ({stop}) after {self.nodes():,} nodes without an "
                               "answer; use --algorithm mcts for an estimate under a limit") from None

    def _should_stop(self) -> bool:
        budget = self.budget
        return budget.stop.is_set() or \
            (budget.deadline is not None and time.perf_counter() >= budget.deadline)

    def move_wins(self, position: Any, move: int) -> bool:
        return not self.mover_wins(self.game.play(position, move))[0]

    def line(self, position: Any, limit: int) -> list[int]:
        """The kernel's moves from ``position`` to the end (or ``limit`` plies)."""
        moves: list[int] = []
        while len(moves) < limit:
            _, move = self.mover_wins(position)
            if move is None:
                break
            moves.append(move)
            position = self.game.play(position, move)
        return moves


def solve(game: Any, position: Any, request: Request) -> Solution:
    return solve_by(KernelRun(game, request), game, position, request)


def solve_by(run: KernelRun, game: Any, position: Any, request: Request) -> Solution:
    """The solve, by ``run``'s search: the value, every optimal move, a line."""
    won, _ = run.mover_wins(position)
    main_nodes = run.nodes()
    moves = game.moves(position) if game.outcome(position) is None else []
    optimal = [move for move in moves if run.move_wins(position, move)] if won else moves
    line = run.line(position, request.pv_limit)
    stats = Stats(nodes=main_nodes, table_hits=int(run.searcher.counters[1]),
                  cutoffs=int(run.searcher.counters[2]), max_ply=int(run.searcher.counters[6]),
                  elapsed_s=run.budget.elapsed(), extra_nodes=run.nodes() - main_nodes)
    return Solution.of(game, position, run.name, V.WIN_ONLY if won else -V.WIN_ONLY, optimal, line,
                       stats, score_game=False, outcome_only=True)


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    run = KernelRun(game, request)
    if game.outcome(position) is not None:
        return []
    valued = [MoveValue(move, game.format_move(position, move),
                        V.WIN_ONLY if run.move_wins(position, move) else -V.WIN_ONLY, False)
              for move in game.moves(position)]
    return sorted(valued, key=lambda move_value: -move_value.value)


def _applies(game: Any, request: Request) -> str | None:
    if not numba_available():
        return "numba is not installed (pip install 'perfectplay[fast]')"
    if game.size > KERNEL_MAX_SIZE:
        return f"the Hex kernel takes boards up to {KERNEL_MAX_SIZE}x{KERNEL_MAX_SIZE}"
    if request.algorithm not in ALGORITHMS:
        return f"the hex kernel runs --algorithm {', '.join(ALGORITHMS)}, not {request.algorithm!r}"
    if request.limits.depth is not None:
        return "the Hex kernel proves to the end of the game: drop --depth (use --nodes or --time)"
    if game.size <= SOLVED_WITHOUT_LIMIT:
        return None
    return too_big_without_limit(game, request)


def _pays(game: Any, request: Request) -> bool:
    """From 4x4 up: there it loads faster than df-pn in Python solves (3x3 takes df-pn
    milliseconds, less than loading numba)."""
    return bool(game.size >= PREFERRED_FROM_SIZE)



def _board(size: int) -> Any:
    from perfectplay.games.hex.rules import Hex
    return Hex(size)


register(Method(NAME, "Hex: does the mover win? An AND/OR search over bit sets with a table, "
                "killers and history, forced blocks; in numba", solve, analyze, engine="compiled",
                answers=ALGORITHMS, handles=_is_hex, applies=_applies,
                preferred=_pays, priority=10, proves_optimal_moves=True,
                warm_up=kernel_warm_up(lambda: _board(3), solve)))

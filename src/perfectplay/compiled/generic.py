"""The generic compiled engine: perfectplay's minimax, alpha-beta and tt searches, compiled
by numba over a game written as a few ``@njit`` functions of an integer state.

A game opts in with a ``compiled_spec()`` method returning a :class:`Spec` (docs/compiled.md
has a complete example; tic-tac-toe's is in perfectplay.games.tictactoe.compiled). The kernels
repeat the Python algorithms step for step (same move order, same mate-distance pruning,
same table policy), so values, best moves and even node counts agree with
perfectplay.search. The root is shared too: perfectplay.search.root drives a compiled
:class:`Searcher`, so only the nodes below the root run compiled.

The kernels' text is perfectplay.compiled.kernel_source; perfectplay.compiled.kernel_cache
binds it to one game's functions in a module of its own, which numba caches on disk, so only
the first process compiles (one to two seconds) and later ones load the machine code.

Table: one int64 array of shape (entries, 4), a row per slot, ``index = key & (entries-1)``
(Python's hash of a small int is the int, so the slots match perfectplay.search.transposition):

    row = (key + 1 (0: empty), node-relative value, flag | draft << 2, best move)

Replacement policy (as perfectplay.search.transposition): a new result replaces the slot when it is
empty, holds the same key, or was searched no deeper; a deeper old entry stays.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from perfectplay import value as V
from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.search.limits import UNLIMITED_DEPTH, Budget, OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.root import best_moves, principal_variation, terminal_value, value_moves
from perfectplay.search.rules import Counters, Rules, Searcher
from perfectplay.search.transposition import parse_table_size

# What a spec's outcome() returns.
ONGOING, WIN, DRAW, LOSS = 2, 1, 0, -1
# Statistics slots, then the stop word (set by a Watch), the node budget (a node past it is
# refused) and whether a search was refused a node (it then unwinds storing nothing).
NODES, HITS, CUTOFFS, MAX_PLY, HORIZON = 0, 1, 2, 3, 4
STOP, NODE_CAP, ABORTED = 5, 6, 7
NO_NODE_CAP = (1 << 62)
BYTES_PER_ENTRY = 32
FULL_DRAFT = (1 << 61) - 1  # "searched to the end"; fits beside the flag in an int64
DEPTH_CAP = 1 << 60
BIG = V.WIN + 1  # stands for infinity: every value lies within [-WIN, WIN]
DECISIVE = V.DECISIVE  # numba reads it as a constant when compiling


@njit(cache=True)
def identity_key(state: int) -> int:
    return state


@njit(cache=True)
def no_evaluation(state: int) -> int:
    return 0


@dataclass(frozen=True)
class Spec:
    """A game as ``@njit`` functions of an int64 state, always from the side to move.

    ``moves(state, out)`` writes the legal moves (ints), best-looking first, into the int64
    array ``out`` and returns how many; ``play(state, move)`` returns the next state;
    ``outcome(state)`` returns ONGOING, or WIN, DRAW or LOSS for the side to move when a
    rule other than "no legal move" has ended the game. ``encode`` and ``decode_move`` are
    plain Python: the protocol position to its state, an int move to the protocol's move.
    ``tier(state)``, when given, is the game's :meth:`Game.tier` of the state (a number every
    move increases); with it, ``perfectplay db build`` runs compiled (store.compiled_build).
    A score game's builder spec gives ``gain(state, move)`` (the points the move takes) and
    ``keeps_turn(state, move)`` (whether its player moves again), as Game.gain and
    Game.keeps_turn. ``rank(state)``, when given, is the game's :meth:`Game.rank` of the
    state, so the builder can write a dense record file itself (store.dense_build).
    """

    moves: Any
    play: Any
    outcome: Any
    max_moves: int
    max_length: int
    key: Any = identity_key
    evaluate: Any = no_evaluation
    misere: bool = False
    encode: Callable[[Any], int] = int
    decode_move: Callable[[int], Any] = int
    tier: Any = None
    gain: Any = None
    keeps_turn: Any = None
    rank: Any = None


def build_kernels(spec: Spec, distance: bool) -> dict[str, Any]:
    """The kernels for one spec: {'minimax': f, 'alphabeta': f, 'tt': f}, each
    ``f(state, alpha, beta, ply, depth, buffer, stats, table) -> value``, loaded from numba's
    disk cache when an earlier process compiled them (perfectplay.compiled.kernel_cache)."""
    from perfectplay.compiled.kernel_cache import load_kernels
    functions = (spec.moves, spec.play, spec.outcome, spec.key, spec.evaluate)
    return load_kernels(functions, distance, WIN if spec.misere else LOSS)


_KERNELS: dict[tuple[int, bool], dict[str, Any]] = {}


def kernels(spec: Spec, distance: bool) -> dict[str, Any]:
    """The spec's kernels, built once per process."""
    cache_key = (id(spec), distance)
    if cache_key not in _KERNELS:
        _KERNELS[cache_key] = build_kernels(spec, distance)
    return _KERNELS[cache_key]


def searcher(game: Game[Any, Any], spec: Spec, rules: Rules, algorithm: str,
             table_size: str | int | None, node_cap: int | None = None,
             stats: np.ndarray | None = None) -> Searcher:
    """A perfectplay.search Searcher whose nodes below the root run compiled. It enters
    ``node_cap`` nodes at most (the last one refused), and stops when ``stats[STOP]`` is set
    (``stats``: an int64 array of 8, for a Watch); stopped, ``search`` raises OutOfBudget."""
    kernel = kernels(spec, rules.distance)[algorithm]
    buffer = np.zeros((spec.max_length + 2, spec.max_moves), dtype=np.int64)
    stats = np.zeros(8, dtype=np.int64) if stats is None else stats
    # The node past the cap is counted, then refused: stop one short of it.
    stats[NODE_CAP] = NO_NODE_CAP if node_cap is None else node_cap - 1
    table = np.zeros((parse_table_size(table_size, BYTES_PER_ENTRY) if algorithm == "tt" else 1, 4),
                     dtype=np.int64)
    encode = spec.encode

    def search(position: Any, alpha: float, beta: float, ply: int, depth: int) -> float:
        low, high = max(alpha, -BIG), min(beta, BIG)
        # Depths are capped below FULL_DRAFT so that "searched to the end" outranks them all;
        # only differences between depths matter, and the cap keeps those.
        found = int(kernel(encode(position), int(low), int(high), ply, min(depth, DEPTH_CAP),
                           buffer, stats, table))
        if stats[ABORTED]:
            raise OutOfBudget("stopped" if stats[STOP] else "nodes")
        return found

    def counters() -> Counters:
        return Counters(nodes=int(stats[NODES]), table_hits=int(stats[HITS]),
                        cutoffs=int(stats[CUTOFFS]), max_ply=int(stats[MAX_PLY]),
                        horizon=int(stats[HORIZON]))

    return Searcher(f"compiled {algorithm}", search, counters, windowed=algorithm != "minimax")


def _resolve(game: Game[Any, Any], algorithm: str) -> str:
    return game.default_algorithm if algorithm == "auto" else algorithm


class _Stop:
    """One solve's limits: the stats array the kernels poll, and the watch that sets its stop
    word at the budget's deadline or on its stop flag."""

    def __init__(self, budget: Budget | None) -> None:
        from perfectplay.search.worker import Watch
        self.budget = budget or Budget()
        self.stats = np.zeros(8, dtype=np.int64)
        self.watch = Watch(self.budget, self.stats, STOP)

    def stopped(self, name: str, stop: OutOfBudget) -> LimitReached:
        reason = self.watch.reason if str(stop) == "stopped" and self.watch.reason else str(stop)
        return LimitReached(f"{name} stopped ({reason}) after {int(self.stats[NODES]):,} nodes "
                            "without an answer")


def solve(game: Game[Any, Any], spec: Spec, position: Any, *, algorithm: str = "auto",
          outcome_only: bool = False, table_size: str | int | None = None,
          pv_limit: int = 1000, budget: Budget | None = None, node_limit: int | None = None,
          **_: Any) -> Solution:
    """perfectplay.solve for a game with a compiled spec (exact searches only); past
    ``node_limit`` nodes, ``budget``'s deadline or on its stop flag, LimitReached."""
    started = time.perf_counter()
    name = _resolve(game, algorithm)
    rules = Rules(game, outcome_only)
    stop = _Stop(budget)
    found = searcher(game, spec, rules, name, table_size, node_limit, stop.stats)
    finished = terminal_value(rules, position)
    if finished is not None:
        value, optimal, line, main_nodes = finished, list[Any](), list[Any](), 0
    else:
        try:
            with stop.watch:
                results = value_moves(rules, found, position, UNLIMITED_DEPTH,
                                      list(rules.moves(position)))
                main_nodes = found.counters().nodes
                value, optimal = best_moves(rules, found, position, UNLIMITED_DEPTH, results)
                line = principal_variation(rules, found, position, value, UNLIMITED_DEPTH,
                                           pv_limit)
        except OutOfBudget as reason:
            raise stop.stopped(found.name, reason) from None
    counts = found.counters()
    stats = Stats(nodes=main_nodes + 1, table_hits=counts.table_hits, cutoffs=counts.cutoffs,
                  max_ply=counts.max_ply, elapsed_s=time.perf_counter() - started,
                  extra_nodes=counts.nodes - main_nodes)
    return Solution.of(game, position, found.name, int(value), optimal, line, stats,
                       score_game=False, outcome_only=outcome_only)


def analyze(game: Game[Any, Any], spec: Spec, position: Any, *, algorithm: str = "auto",
            outcome_only: bool = False, table_size: str | int | None = None,
            budget: Budget | None = None, node_limit: int | None = None,
            **_: Any) -> list[MoveValue]:
    """perfectplay.analyze for a game with a compiled spec; limits as for solve."""
    rules = Rules(game, outcome_only)
    stop = _Stop(budget)
    found = searcher(game, spec, rules, _resolve(game, algorithm), table_size, node_limit,
                     stop.stats)
    if terminal_value(rules, position) is not None:
        return []
    try:
        with stop.watch:
            results = value_moves(rules, found, position, UNLIMITED_DEPTH,
                                  list(rules.moves(position)), full_window=True)
    except OutOfBudget as reason:
        raise stop.stopped(found.name, reason) from None
    valued = [MoveValue(r.move, game.format_move(position, r.move), int(r.value), False, True)
              for r in results if r.value is not None]
    return sorted(valued, key=lambda move: -move.value)

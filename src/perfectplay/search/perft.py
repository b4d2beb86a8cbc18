"""Perft: count the move sequences of a given length, the standard check of a move
generator (Stockfish's and every chess engine's). Games that end earlier are not extended;
they are counted as finished games instead, when asked (``finished=True``).

Without ``finished``, the last ply is counted in bulk: a node one move from the end adds its
number of legal moves (``Game.count_moves``) without making them, which is how every chess
engine's perft runs (python-chess's own test suite does the same). Moves come from
``Game.legal_moves``, the generator's plain order: ordering them for search is no use here.
``divide`` gives the count under each root move, to find a move generator's bug by
comparing with another engine's divide.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget, OutOfBudget

# A random walk of the estimate stops here: a game still going after this many plies is
# longer than any perft a person means (a loopy game, or one that never ends).
PROBE_PLIES = 100_000


@dataclass(frozen=True)
class PerftResult:
    depth: int
    count: int
    # Sequences of at most ``depth`` moves that end the game; None when not counted (the
    # last ply was counted in bulk, without visiting its positions).
    finished_games: int | None


@dataclass(frozen=True)
class PerftEstimate:
    """What a perft to some depth would cost, from random walks before any of the work.

    ``nodes`` is the mean of Knuth's estimator over the walks (each walk counts 1 + b1 +
    b1 b2 + ... for the branching factors b met on the way; D. E. Knuth, "Estimating the
    efficiency of backtrack programs", 1975), or ``None`` when it passed ``cap`` or a walk
    went past PROBE_PLIES plies; ``seconds_per_node`` is the time the walks took per step,
    close to a perft's time per node (both ask the game for moves and play them).
    """

    nodes: float | None
    seconds_per_node: float
    cap: float
    endless: bool = False  # a walk went past PROBE_PLIES plies without the game ending

    @property
    def seconds(self) -> float | None:
        return None if self.nodes is None else self.nodes * self.seconds_per_node


def estimate_perft(game: Game[Any, Any], position: Any, depth: int, cap: float,
                   probes: int = 64, seed: int = 0) -> PerftEstimate:
    """The nodes a perft to ``depth`` would visit, estimated by ``probes`` random walks."""
    rng = random.Random(seed)
    total = 0.0
    steps = 0
    started = time.perf_counter()
    for probe in range(probes):
        if probe == 1:  # the time per step leaves out the first walk's one-off set-up costs
            steps, started = 0, time.perf_counter()
        node, product, estimate = position, 1.0, 1.0
        for ply in range(depth):
            if ply >= PROBE_PLIES or estimate > cap * probes:
                return PerftEstimate(None, _per_step(started, steps), cap, ply >= PROBE_PLIES)
            if game.outcome(node) is not None:
                break
            moves = game.moves(node)
            if not moves:
                break
            product *= len(moves)
            estimate += product
            node = game.play(node, moves[rng.randrange(len(moves))])
            steps += 1
        total += estimate
        if total > cap * probes:
            return PerftEstimate(None, _per_step(started, steps), cap)
    return PerftEstimate(total / probes, _per_step(started, steps), cap)


def _per_step(started: float, steps: int) -> float:
    return (time.perf_counter() - started) / max(steps, 1)


class _Counter:
    """One perft walk: the counts, the nodes visited, and the budget polled on the way."""

    def __init__(self, game: Game[Any, Any], budget: Budget, finished: bool,
                 on_nodes: Callable[[int], None] | None = None) -> None:
        self.game = game
        self.poll = budget.poll
        self.on_nodes = on_nodes
        self.bulk = not finished
        self.finished = 0
        self.nodes = 0

    def count(self, node: Any, left: int) -> int:
        self.nodes += 1
        if not self.nodes & 4095:
            self.poll(self.nodes)
            if self.on_nodes is not None:
                self.on_nodes(self.nodes)
        game = self.game
        if left == 1 and self.bulk:
            # Counted first: a game whose count keeps the move list (chess) then finds the
            # end of the game from it. No move means the game is over, and counts 0.
            counted = game.count_moves(node)
            return counted if counted and game.outcome(node) is None else 0
        if game.outcome(node) is not None:
            self.finished += 1
            return 1 if left == 0 else 0
        if left == 0:
            self.finished += not game.has_moves(node)
            return 1
        moves = game.legal_moves(node)
        if not moves:
            self.finished += 1
            return 0
        play, count = game.play, self.count
        return sum(count(play(node, move), left - 1) for move in moves)


def perft(game: Game[Any, Any], position: Any, depth: int, budget: Budget | None = None, *,
          finished: bool = False, on_nodes: Callable[[int], None] | None = None) -> PerftResult:
    """The number of move sequences of length ``depth`` from ``position``; with ``finished``,
    also the games ended within ``depth`` moves (every leaf is then visited: slower).
    ``on_nodes`` hears the nodes visited so far every few thousand nodes (a progress bar). A
    budget that runs out (time, nodes, the memory bound, a stop request) raises LimitReached
    saying how far the count got."""
    budget = budget or Budget()
    counter = _Counter(game, budget, finished, on_nodes)

    def task() -> PerftResult:
        total = counter.count(position, depth)
        return PerftResult(depth, total, counter.finished if finished else None)

    return _counted(task, budget, depth, counter)


def _counted(task: Callable[[], Any], budget: Budget, depth: int, counter: _Counter) -> Any:
    try:
        return run_deep(task, budget)
    except OutOfBudget as reason:
        raise LimitReached(f"perft to depth {depth} stopped by its {reason} after {counter.nodes:,} "
                           "nodes, before the count was complete") from None


def divide(game: Game[Any, Any], position: Any, depth: int,
           budget: Budget | None = None) -> list[tuple[Any, int]]:
    """(move, perft count of depth - 1 after it) for every legal move at ``position``, in the
    generator's order; the counts add up to ``perft(depth)``. ``depth`` must be 1 or more."""
    budget = budget or Budget()
    counter = _Counter(game, budget, finished=False)

    def task() -> list[tuple[Any, int]]:
        if game.outcome(position) is not None:
            return []
        return [(move, counter.count(game.play(position, move), depth - 1))
                for move in game.legal_moves(position)]

    return _counted(task, budget, depth, counter)


def reachable_positions(game: Game[Any, Any], position: Any) -> set[Any]:
    """Every position reachable from ``position`` (itself included), by an explicit-stack
    walk that does not go past finished games. Tic-tac-toe has 5,478 from the empty board."""
    seen = {position}
    frontier = [position]
    while frontier:
        node = frontier.pop()
        if game.outcome(node) is not None:
            continue
        for move in game.moves(node):
            child = game.play(node, move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen

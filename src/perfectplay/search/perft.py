"""Perft: count the move sequences of a given length, the standard check of a move
generator (Stockfish's and every chess engine's). Games that end earlier are not extended;
they are counted as finished games instead."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable

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
    finished_games: int  # sequences of at most ``depth`` moves that end the game


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


def perft(game: Game[Any, Any], position: Any, depth: int, budget: Budget | None = None,
          on_nodes: Callable[[int], None] | None = None) -> PerftResult:
    """Count the move sequences of length ``depth``; ``on_nodes`` hears the nodes visited so
    far every few thousand nodes (a progress bar). A budget that runs out (time, nodes, the
    memory bound, a stop request) raises LimitReached saying how far the count got."""
    budget = budget or Budget()
    moves_of, play, outcome_of = game.moves, game.play, game.outcome
    poll = budget.poll
    finished = nodes = 0

    def count(node: Any, left: int) -> int:
        nonlocal finished, nodes
        nodes += 1
        if not nodes & 4095:
            poll(nodes)
            if on_nodes is not None:
                on_nodes(nodes)
        over = outcome_of(node) is not None or not moves_of(node)
        if over:
            finished += 1
        if left == 0:
            return 1
        if over:
            return 0
        return sum(count(play(node, move), left - 1) for move in moves_of(node))

    def task() -> PerftResult:
        total = count(position, depth)
        return PerftResult(depth, total, finished)

    try:
        return run_deep(task, budget)
    except OutOfBudget as reason:
        raise LimitReached(f"perft to depth {depth} stopped by its {reason} after {nodes:,} "
                           "nodes, before the count was complete") from None


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

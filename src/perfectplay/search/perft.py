"""Perft: count the move sequences of a given length, the standard check of a move
generator (Stockfish's and every chess engine's). Games that end earlier are not extended;
they are counted as finished games instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfectplay.game import Game
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget


@dataclass(frozen=True)
class PerftResult:
    depth: int
    count: int
    finished_games: int  # sequences of at most ``depth`` moves that end the game


def perft(game: Game[Any, Any], position: Any, depth: int, budget: Budget | None = None) -> PerftResult:
    budget = budget or Budget()
    moves_of, play, outcome_of = game.moves, game.play, game.outcome
    poll = budget.poll
    finished = nodes = 0

    def count(node: Any, left: int) -> int:
        nonlocal finished, nodes
        nodes += 1
        if not nodes & 4095:
            poll(nodes)
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

    return run_deep(task, budget)


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

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

from dataclasses import dataclass
from typing import Any

from perfectplay.game import Game
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget


@dataclass(frozen=True)
class PerftResult:
    depth: int
    count: int
    # Sequences of at most ``depth`` moves that end the game; None when not counted (the
    # last ply was counted in bulk, without visiting its positions).
    finished_games: int | None


class _Counter:
    """One perft walk: the counts, the nodes visited, and the budget polled on the way."""

    def __init__(self, game: Game[Any, Any], budget: Budget, finished: bool) -> None:
        self.game = game
        self.poll = budget.poll
        self.bulk = not finished
        self.finished = 0
        self.nodes = 0

    def count(self, node: Any, left: int) -> int:
        self.nodes += 1
        if not self.nodes & 4095:
            self.poll(self.nodes)
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
          finished: bool = False) -> PerftResult:
    """The number of move sequences of length ``depth`` from ``position``; with ``finished``,
    also the games ended within ``depth`` moves (every leaf is then visited: slower)."""
    budget = budget or Budget()
    counter = _Counter(game, budget, finished)

    def task() -> PerftResult:
        total = counter.count(position, depth)
        return PerftResult(depth, total, counter.finished if finished else None)

    return run_deep(task, budget)


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

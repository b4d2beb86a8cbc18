"""The root of a search: the value of every root move, every optimal move, the principal
variation. One procedure serves every algorithm; the algorithms differ only below the root."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from perfectplay.search.rules import Rules, Searcher


@dataclass(frozen=True)
class RootMove:
    """A root move's value for the player who plays it. ``exact`` is False when the window
    only proved an upper bound (the move is no better than ``value``) or the move was never
    searched (``value`` is then None)."""

    move: Any
    value: float | None
    exact: bool


def value_moves(rules: Rules, searcher: Searcher, position: Any, depth: int,
                moves: list[Any], *, full_window: bool = False) -> list[RootMove]:
    """Search each root move, narrowing the window as alpha-beta does unless ``full_window``
    (used by analysis, which wants every move's exact value)."""
    low, high = rules.root_window()
    alpha = low
    results: list[RootMove] = []
    for index, move in enumerate(moves):
        low_child, high_child = rules.child_window(position, move, alpha, high)
        child_value = searcher.search(rules.play(position, move), low_child, high_child, 1, depth - 1)
        value = rules.move_value(position, move, child_value)
        exact = full_window or not searcher.windowed or value > alpha or alpha == low
        results.append(RootMove(move, value, exact))
        if not full_window and value > alpha:
            alpha = value
            if alpha >= high:
                # Outcome-only: nothing beats a win; the rest stay unsearched.
                results.extend(RootMove(later, None, False) for later in moves[index + 1:])
                break
    return results


def child_has_value(rules: Rules, searcher: Searcher, position: Any, move: Any,
                    target: float, ply: int, depth: int) -> bool:
    """Whether ``move`` is worth exactly ``target`` to its player, by a narrow-window search
    (t - 1, t + 1) of the child: with integer values a result inside means equality."""
    gain = rules.gain(position, move) if rules.is_score else 0
    # The child's value that makes the move worth ``target`` (its inverse of move_value).
    wanted = target - gain if rules.same_mover(position, move) else gain - target
    if not searcher.windowed:
        return searcher.search(rules.play(position, move), 0, 0, ply + 1, depth - 1) == wanted
    found = searcher.search(rules.play(position, move), wanted - 1, wanted + 1, ply + 1, depth - 1)
    return found == wanted


def best_moves(rules: Rules, searcher: Searcher, position: Any, depth: int,
               results: list[RootMove]) -> tuple[float, list[Any]]:
    """The root value and every move that attains it, checking each move whose value the
    window left as a bound that could still equal the best."""
    best = max(result.value for result in results if result.exact and result.value is not None)
    optimal = []
    for result in results:
        if result.exact:
            if result.value == best:
                optimal.append(result.move)
        elif (result.value is None or result.value >= best) and \
                child_has_value(rules, searcher, position, result.move, best, 0, depth):
            optimal.append(result.move)
    return best, optimal


def principal_variation(rules: Rules, searcher: Searcher, position: Any, value: float,
                        depth: int, limit: int) -> list[Any]:
    """Follow optimal moves from ``position`` (worth ``value``) until the game ends or
    ``limit`` plies; each step takes the first move proven to keep the value."""
    line: list[Any] = []
    ply = 0
    while len(line) < limit and depth - ply > 0:
        if rules.outcome(position) is not None:
            break
        moves = rules.moves(position)
        if not moves:
            break
        for move in moves:
            if child_has_value(rules, searcher, position, move, value, ply, depth - ply):
                break
        else:  # a bounded table lost an entry mid-way and values drifted; stop honestly
            break
        gain = rules.gain(position, move) if rules.is_score else 0
        line.append(move)
        value = value - gain if rules.same_mover(position, move) else gain - value
        position = rules.play(position, move)
        ply += 1
    return line


def terminal_value(rules: Rules, position: Any) -> float | None:
    """The value of a root that is already finished, else None."""
    result = rules.outcome(position)
    if result is not None:
        return rules.end_value(result, 0)
    if not rules.moves(position):
        return rules.no_move_value(0)
    return None


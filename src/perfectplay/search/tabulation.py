"""``--algorithm table``: bottom-up tabulation, for games that declare an order in which every
move leads to an earlier position (Game.tabulation). No recursion, so no depth limit: the
value of each position is computed once, from values already in the table, in the declared
order. ``nodes`` counts the positions given a value, finished ones included.

Two ways to fill the table:

* any game with Game.tabulation: a dict of node-relative values, keyed by Game.key, filled
  through the game's own moves/play/gain; the root's moves, every optimal move and the
  principal variation then come from the shared root procedure (search/root.py) reading
  that dict, exactly as for memo.
* row games (perfectplay.scoring.rows): the numpy kernel of perfectplay.scoring.kernel,
  which keeps only the last few lengths (O(n) memory) and is what solves the contest's crate
  line at n = 2,000 and beyond. It gives the same values as the dict (tests check both).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from perfectplay import value as V
from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.game import Game
from perfectplay.scoring.rows import RowGame
from perfectplay.search.limits import UNLIMITED_DEPTH, Budget, OutOfBudget
from perfectplay.search.results import Stats
from perfectplay.search.root import (
    RootMove,
    best_moves,
    principal_variation,
    terminal_value,
    value_moves,
)
from perfectplay.search.rules import Counters, Rules, Searcher


@dataclass
class Tabulated:
    """What solve() found: the value, every optimal first move, the line, the statistics."""

    value: int
    optimal: list[Any]
    line: list[Any]
    stats: Stats


def supports(game: Game[Any, Any], position: Any) -> bool:
    return isinstance(game, RowGame) or game.tabulation(position) is not None


def _order(game: Game[Any, Any], position: Any) -> Iterable[Any]:
    order = game.tabulation(position)
    if order is None:
        raise UnsupportedSearch(
            f"--algorithm table needs a game that declares an order in which every move leads "
            f"to an earlier position; {game.name} does not (try memo or tt)")
    return order


def solve(game: Game[Any, Any], rules: Rules, position: Any, budget: Budget,
          pv_limit: int) -> Tabulated:
    """The value of ``position``, every optimal move and the principal variation."""
    try:
        if isinstance(game, RowGame):
            return _solve_row(game, position, budget, pv_limit)
        return _solve_generic(game, rules, position, budget, pv_limit)
    except OutOfBudget as stop:
        raise LimitReached(f"table stopped ({stop}) before the table was full") from None


def move_values(game: Game[Any, Any], rules: Rules, position: Any,
                budget: Budget) -> list[RootMove]:
    """Every legal move's exact value for its player (for analyze)."""
    try:
        if isinstance(game, RowGame):
            names = game.names
            found = _run_kernel(game, position, budget, line=False)
            return [RootMove(names[index], value, True) for index, value in found.move_values]
        if terminal_value(rules, position) is not None:
            return []
        searcher = build(game, rules, budget, position)
        return value_moves(rules, searcher, position, UNLIMITED_DEPTH,
                           list(rules.moves(position)), full_window=True)
    except OutOfBudget as stop:
        raise LimitReached(f"table stopped ({stop}) before the table was full") from None


# -- any game that declares an order ------------------------------------------------------
def build(game: Game[Any, Any], rules: Rules, budget: Budget, root: Any) -> Searcher:
    """A searcher that answers from a table filled bottom-up from ``root``.

    ``search`` never recurses: a position missing from the table (one not reachable from
    ``root``) has its own tabulation added first.
    """
    values: dict[Any, Any] = {}
    key_of = rules.key
    filled = [0]

    def fill(start: Any) -> None:
        filled[0] += tabulate(rules, _order(game, start), values, budget, filled[0])

    def search(position: Any, alpha: float, beta: float, ply: int, depth: int) -> float:
        key = key_of(position)
        if key not in values:
            fill(position)
        stored = values[key]
        return stored if rules.is_score else V.from_table(stored, ply)

    def counters() -> Counters:
        return Counters(nodes=filled[0])

    fill(root)
    return Searcher("table", search, counters, windowed=False)


def tabulate(rules: Rules, order: Iterable[Any], values: dict[Any, Any], budget: Budget,
             done: int = 0) -> int:
    """Give every position of ``order`` a node-relative value in ``values``; return how many
    were new. Each move must lead to a position already valued: the order guarantees it."""
    key_of, poll, mask = rules.key, budget.poll, budget.poll_mask
    added = 0
    for position in order:
        key = key_of(position)
        if key in values:
            continue
        values[key] = _value_from_children(rules, position, values)
        added += 1
        if not (done + added) & mask or done + added >= budget.node_cap:
            poll(done + added)
    return added


def _value_from_children(rules: Rules, position: Any, values: dict[Any, Any]) -> Any:
    result = rules.outcome(position)
    if result is not None:
        return rules.end_value(result, 0)
    moves = rules.moves(position)
    if not moves:
        return rules.no_move_value(0)
    best: Any = None
    for move in moves:
        child_key = rules.key(rules.play(position, move))
        if child_key not in values:
            raise UnsupportedSearch(
                f"{rules.game.name}: its tabulation order gives {position!r} before the "
                f"position its move {move!r} leads to; the order must list successors first")
        child = values[child_key]
        gain = rules.gain(position, move) if rules.is_score else 0
        value = V.move_worth(child, gain, rules.same_mover(position, move), rules.is_score)
        if best is None or value > best:
            best = value
    return best


def _solve_generic(game: Game[Any, Any], rules: Rules, position: Any, budget: Budget,
                   pv_limit: int) -> Tabulated:
    searcher = build(game, rules, budget, position)
    finished = terminal_value(rules, position)
    if finished is not None:
        return Tabulated(int(finished), [], [], _stats(searcher.counters().nodes, budget))
    results = value_moves(rules, searcher, position, UNLIMITED_DEPTH, list(rules.moves(position)))
    value, optimal = best_moves(rules, searcher, position, UNLIMITED_DEPTH, results)
    line = principal_variation(rules, searcher, position, value, UNLIMITED_DEPTH, pv_limit)
    return Tabulated(int(value), optimal, line, _stats(searcher.counters().nodes, budget))


# -- row games: the O(n)-memory kernel ----------------------------------------------------
def _run_kernel(game: RowGame, position: Any, budget: Budget, *, line: bool) -> Any:
    from perfectplay.scoring.kernel import solve_row  # numpy loads only when a row is solved

    left, right = position
    return solve_row(game.values[left:right], game.takes, line=line, poll=budget.poll)


def _solve_row(game: RowGame, position: Any, budget: Budget, pv_limit: int) -> Tabulated:
    found = _run_kernel(game, position, budget, line=pv_limit > 0)
    names = game.names
    optimal = [names[index] for index, value in found.move_values if value == found.value]
    line = [names[index] for index in (found.line or [])[:pv_limit]]
    return Tabulated(found.value, optimal, line, _stats(found.positions, budget))


def _stats(positions: int, budget: Budget) -> Stats:
    return Stats(nodes=positions, elapsed_s=budget.elapsed())

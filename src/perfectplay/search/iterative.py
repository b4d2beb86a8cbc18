"""Iterative deepening over the transposition-table search (Slate and Atkin 1977, Chess 4.5).

Depth 1, 2, 3, ... each seeded by the table the last one filled, the previous best move
searched first. ``deepen`` is a generator: it yields a DepthResult after every completed depth
and the caller decides when to stop (as sunfish's search does). A time or node budget aborts
the depth in progress; the caller keeps the last completed result. A depth during which no
node met the depth limit has solved the position exactly, and deepening stops there.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from perfectplay.search.limits import OutOfBudget
from perfectplay.search.root import RootMove, terminal_value, value_moves
from perfectplay.search.rules import Rules, Searcher


@dataclass(frozen=True)
class DepthResult:
    depth: int
    value: float
    best_move: Any
    moves: list[RootMove]
    exact: bool
    nodes: int


def deepen(rules: Rules, searcher: Searcher, position: Any, max_depth: int,
           *, full_window: bool = False) -> Iterator[DepthResult]:
    """Nothing at all for a finished position: it has no move to value (its moves were once
    generated again with no end-of-game check, listing moves after a win)."""
    if terminal_value(rules, position) is not None:
        return
    moves = list(rules.moves(position))
    for depth in range(1, max_depth + 1):
        horizon_before = searcher.counters().horizon
        if searcher.table is not None:
            searcher.table.new_search()
        try:
            results = value_moves(rules, searcher, position, depth, moves, full_window=full_window)
        except OutOfBudget:
            return
        valued = [result for result in results if result.exact and result.value is not None]
        best = max(valued, key=lambda result: result.value)  # type: ignore[arg-type, return-value]
        exact = searcher.counters().horizon == horizon_before
        yield DepthResult(depth, best.value, best.move, results, exact,  # type: ignore[arg-type]
                          searcher.counters().nodes)
        if exact:
            return
        # The best move so far goes first next time: it sets the window that prunes the rest.
        moves = [best.move, *(move for move in moves if move != best.move)]


def table_line(rules: Rules, searcher: Searcher, position: Any, first: Any, limit: int) -> list[Any]:
    """The principal variation of a depth-limited search: the root's best move, then the
    table's best move at each position while the table remembers one that is legal."""
    line = [first]
    position = rules.play(position, first)
    while len(line) < limit and searcher.table is not None:
        entry = searcher.table.probe(rules.key(position))
        if entry is None or entry[4] is None or rules.outcome(position) is not None:
            break
        legal = rules.moves(position)
        if entry[4] not in legal:
            break
        line.append(entry[4])
        position = rules.play(position, entry[4])
    return line

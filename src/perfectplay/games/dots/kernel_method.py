"""The Dots and Boxes table (perfectplay.games.dots.kernel) as a solving method: ``--engine
compiled``, and ``auto`` on boards of 13 to 25 lines (smaller ones search faster than numba
compiles; larger ones are chains_method.py's). It answers every position of the board from
one table. Only light imports here: numba and numpy load when a solve runs."""

from __future__ import annotations

import time
from typing import Any

from perfectplay.compiled.method import kernel_budget, kernel_node_limit, kernel_warm_up, objection
from perfectplay.errors import LimitReached
from perfectplay.finish import line_totals
from perfectplay.games.dots import is_dots
from perfectplay.methods import Method, Request, register
from perfectplay.search.limits import OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats

ALGORITHMS = ("auto",)
# Below this many lines tt answers before numba has compiled the kernel.
PREFERRED_FROM = 13


def _values(game: Any, request: Request) -> tuple[Any, int]:
    """The board's table and the masks valued to make it (0: this process had it). Under a
    node limit below the table's size, nothing is filled (never more nodes than asked);
    a time limit or a stop is polled as the fill goes."""
    from perfectplay.games.dots.kernel import cached, table
    found = cached(game)
    if found is not None:
        return found, 0  # a lookup: it answers under any limit
    budget = kernel_budget(request)
    cap, size = kernel_node_limit(request, budget), 1 << game.edges
    if cap is not None and cap < size:
        raise LimitReached(f"dots-table stopped (nodes) after 0 nodes without an answer: "
                           f"its table of {game.height}x{game.width} boxes values {size:,} "
                           "positions")
    done = [0]

    def poll(masks: int) -> None:
        done[0] = masks
        budget.poll(0)  # the masks are no node budget's concern: checked above

    try:
        values, _ = table(game, poll)
    except OutOfBudget as stop:
        raise LimitReached(f"dots-table stopped ({stop}) after {done[0]:,} nodes without an "
                           "answer") from None
    return values, size


def _move_values(game: Any, position: Any, values: Any) -> list[tuple[int, int]]:
    drawn = position[0]
    found = []
    for line in game.moves(position):
        taken = game.completed(drawn, line)
        child = int(values[drawn | 1 << line])
        found.append((line, taken + child if taken else -child))
    return found


def solve(game: Any, position: Any, request: Request) -> Solution:
    started = time.perf_counter()
    values, filled = _values(game, request)
    value = int(values[position[0]])
    optimal = [line for line, worth in _move_values(game, position, values) if worth == value]
    line: list[int] = []
    node = position
    while len(line) < request.pv_limit and game.legal_moves(node):
        best = max(_move_values(game, node, values), key=lambda pair: pair[1])[0]
        line.append(best)
        node = game.play(node, best)
    stats = Stats(nodes=filled, elapsed_s=time.perf_counter() - started)
    return Solution.of(game, position, "dots-table", value, optimal, line, stats, score_game=True,
                       totals=line_totals(game, position, line, value))


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    values, _ = _values(game, request)
    valued = [MoveValue(line, game.format_move(position, line), worth, True)
              for line, worth in _move_values(game, position, values)]
    return sorted(valued, key=lambda move_value: -move_value.value)


def _tabled(game: Any) -> bool:
    """Boards the table holds; past it, games/dots/chains_method.py answers."""
    from perfectplay.games.dots.rules import TABLED_LINES
    return is_dots(game) and int(game.edges) <= TABLED_LINES


def _preferred(game: Any, request: Request) -> bool:
    return int(game.edges) >= PREFERRED_FROM


def _applies(game: Any, request: Request) -> str | None:
    return objection(ALGORITHMS)(game, request)


def _board(width: int, height: int) -> Any:
    from perfectplay.games.dots.rules import DotsAndBoxes
    return DotsAndBoxes(width, height)


register(Method("dots-table", "Dots and Boxes: every set of lines of a board of up to 25 "
                "valued in one numba pass", solve, analyze, engine="compiled",
                answers=ALGORITHMS, handles=_tabled, applies=_applies,
                preferred=_preferred, priority=10, proves_optimal_moves=True,
                warm_up=kernel_warm_up(lambda: _board(1, 1), solve)))

"""Dots and Boxes past the table's 25 lines (perfectplay.games.dots.chains, and the book of
solved openings) as a solving method: ``--engine compiled``, and ``auto``. The empty board of
a board the book holds (4x4 boxes) is answered from the book; any other position is searched
by the kernel (its game's ``solvable`` says which are small enough to search without a
limit). Only light imports here: numba and numpy load when a search runs."""

from __future__ import annotations

import time
from typing import Any

from perfectplay.compiled.method import KernelRun, kernel_warm_up, objection
from perfectplay.finish import line_totals
from perfectplay.games.dots import is_dots
from perfectplay.games.dots.book import Opening, answers
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution, Stats

ALGORITHMS = ("auto",)
# Nodes per slice of a long search: a few seconds, between which Ctrl-C is heard.
SLICE_NODES = 5_000_000
# The kernel's table for a user's search: 2^22 entries, 40 MB with the best lines.
TABLE_BITS = 22
_SEARCHERS: dict[tuple[int, int], Any] = {}
BOOK_NOTE = "from the Dots and Boxes book (solved by benchmarks/dots_solve.py: {source})"


def _past_the_table(game: Any) -> bool:
    from perfectplay.games.dots.rules import TABLED_LINES
    return is_dots(game) and int(game.edges) > TABLED_LINES


def _searcher(game: Any) -> Any:
    from perfectplay.games.dots.chains import Searcher
    shape = (game.width, game.height)
    if shape not in _SEARCHERS:
        _SEARCHERS.clear()  # one board's table at a time
        _SEARCHERS[shape] = Searcher(game, table_bits=TABLE_BITS)
    return _SEARCHERS[shape]


class _Run(KernelRun):
    method = "dots-chains"

    def __init__(self, game: Any, request: Request) -> None:
        from perfectplay.games.dots.chains import STOP
        super().__init__(game, _searcher(game), request, STOP)

    def value(self, drawn: int) -> int:
        return self.answer(lambda: self.searcher.value(drawn, SLICE_NODES, self.budget.poll,
                                                       self.node_cap))

    def move_values(self, position: Any) -> list[tuple[int, int]]:
        """(line, value for the mover) for every legal line, in the game's order."""
        drawn = position[0]
        found = []
        for line in self.game.moves(position):
            taken = self.game.completed(drawn, line)
            child = self.value(drawn | 1 << line)
            found.append((line, taken + child if taken else -child))
        return found


def _from_book(game: Any, position: Any, opening: Opening, request: Request) -> Solution:
    optimal = sorted(line for line, worth in opening.lines.items() if worth == opening.value)
    line = optimal[:1] if request.pv_limit else []
    return Solution.of(game, position, "dots-book", opening.value, optimal, line, Stats(),
                       score_game=True, note=BOOK_NOTE.format(source=opening.source))


def solve(game: Any, position: Any, request: Request) -> Solution:
    opening = answers(game, position)
    if opening is not None:
        return _from_book(game, position, opening, request)
    started = time.perf_counter()
    run = _Run(game, request)
    searcher = run.searcher
    searcher.counters[:] = 0
    with run.watch:
        valued = run.move_values(position)
        value = max((worth for _, worth in valued), default=0)  # the full board: nothing left
        optimal = [line for line, worth in valued if worth == value]
        main_nodes = int(searcher.counters[0])
        line = _principal_line(game, run, position, value, request.pv_limit)
    stats = Stats(nodes=main_nodes, table_hits=int(searcher.counters[1]),
                  elapsed_s=time.perf_counter() - started,
                  extra_nodes=int(searcher.counters[0]) - main_nodes)
    return Solution.of(game, position, "dots-chains", value, optimal, line, stats, score_game=True,
                       totals=line_totals(game, position, line, value))


def _principal_line(game: Any, run: _Run, position: Any, value: int, limit: int) -> list[int]:
    """An optimal line from ``position`` (worth ``value``): at each step the first line whose
    value is the position's (the table answers most of them at once)."""
    line: list[int] = []
    node = position
    while len(line) < limit and game.legal_moves(node):
        drawn = node[0]
        for move in game.moves(node):
            taken = game.completed(drawn, move)
            after = drawn | 1 << move
            worth = taken + run.value(after) if taken else -run.value(after)
            if worth == value:
                break
        line.append(move)
        value = value - taken if taken else -value
        node = game.play(node, move)
    return line


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    opening = answers(game, position)
    if opening is not None:
        valued = [MoveValue(line, game.format_move(position, line), worth, True)
                  for line, worth in opening.lines.items()]
    else:
        run = _Run(game, request)
        run.searcher.counters[:] = 0
        with run.watch:
            valued = [MoveValue(line, game.format_move(position, line), worth, True)
                      for line, worth in run.move_values(position)]
    return sorted(valued, key=lambda move_value: -move_value.value)


def _applies(game: Any, request: Request) -> str | None:
    if answers(game, request.position) is not None and request.algorithm in ALGORITHMS:
        return None  # the book needs neither numba nor a limit
    return objection(ALGORITHMS)(game, request)


def _board(width: int, height: int) -> Any:
    from perfectplay.games.dots.rules import DotsAndBoxes
    return DotsAndBoxes(width, height)


register(Method("dots-chains", "Dots and Boxes past 25 lines: the book of solved openings, then "
                "alpha-beta with chain rules, symmetry and a table of bounds, in numba",
                solve, analyze, engine="compiled", answers=ALGORITHMS, handles=_past_the_table,
                applies=_applies, preferred=lambda game, request: True, priority=10,
                proves_optimal_moves=True, warm_up=kernel_warm_up(lambda: _board(4, 2), solve)))

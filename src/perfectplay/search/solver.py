"""The negamax family as solving methods: minimax, memo, alphabeta, tt, id and table.

Each algorithm registers itself with perfectplay.methods; perfectplay.solving chooses among
every registered method (theory, kernels and these). Searches run through run_deep, so deep
games never meet Python's recursion limit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search import alphabeta, iterative, memo, minimax, tabulation, tt
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget, Limits, OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.root import (
    best_moves,
    principal_variation,
    terminal_value,
    value_moves,
)
from perfectplay.search.rules import Rules, Searcher, final_points
from perfectplay.search.transposition import TranspositionTable, parse_table_size


def make_searcher(name: str, rules: Rules, budget: Budget, table_size: str | int | None) -> Searcher:
    if name == "minimax":
        return minimax.build(rules, budget)
    if name == "alphabeta":
        return alphabeta.build(rules, budget)
    entries = parse_table_size(table_size)
    if name == "memo":
        return memo.build(rules, budget, entries)
    return tt.build(rules, budget, TranspositionTable(entries))


def _stats(searcher: Searcher, budget: Budget, extra: int = 0) -> Stats:
    counters = searcher.counters()
    return Stats(nodes=counters.nodes + 1, table_hits=counters.table_hits,
                 cutoffs=counters.cutoffs, max_ply=counters.max_ply,
                 elapsed_s=budget.elapsed(), extra_nodes=extra)


def _finish(game: Game[Any, Any], rules: Rules, position: Any, name: str, value: float,
            exact: bool, optimal: list[Any], line: list[Any], stats: Stats) -> Solution:
    totals = None
    if rules.is_score:
        totals = final_points(game, rules, position, int(value), line)
    return Solution.of(game, position, name, int(value), optimal, line, stats, exact=exact,
                       score_game=rules.is_score, totals=totals, outcome_only=rules.outcome_only)


def _solve_exact(game: Game[Any, Any], rules: Rules, position: Any, name: str, limits: Limits,
                 budget: Budget, table_size: str | int | None, pv_limit: int,
                 on_depth: Any) -> Solution:
    searcher = make_searcher(name, rules, budget, table_size)
    depth = limits.search_depth
    finished = terminal_value(rules, position)
    if finished is not None:
        return _finish(game, rules, position, name, finished, True, [], [], _stats(searcher, budget))
    try:
        results = value_moves(rules, searcher, position, depth, list(rules.moves(position)))
        main_nodes = searcher.counters().nodes
        exact = searcher.counters().horizon == 0
        value, optimal = best_moves(rules, searcher, position, depth, results)
        line = principal_variation(rules, searcher, position, value, depth, pv_limit)
    except OutOfBudget as stop:
        raise LimitReached(
            f"{name} stopped ({stop}) after {searcher.counters().nodes:,} nodes without an "
            "answer; use --algorithm id for a best-effort move under a limit") from None
    stats = _stats(searcher, budget, searcher.counters().nodes - main_nodes)
    stats.nodes = main_nodes + 1
    stats.depth = limits.depth
    return _finish(game, rules, position, name, value, exact, optimal, line, stats)


def _solve_table(game: Game[Any, Any], rules: Rules, position: Any, name: str, limits: Limits,
                 budget: Budget, table_size: str | int | None, pv_limit: int,
                 on_depth: Any) -> Solution:
    """--algorithm table: filled bottom-up by search/tabulation.py, never recursing."""
    found = tabulation.solve(game, rules, position, budget, pv_limit)
    return _finish(game, rules, position, name, found.value, True, found.optimal, found.line,
                   found.stats)


def _solve_deepening(game: Game[Any, Any], rules: Rules, position: Any, name: str,
                     limits: Limits, budget: Budget, table_size: str | int | None,
                     pv_limit: int, on_depth: Any) -> Solution:
    searcher = make_searcher("tt", rules, budget, table_size)
    finished = terminal_value(rules, position)
    if finished is not None:
        return _finish(game, rules, position, name, finished, True, [], [], _stats(searcher, budget))
    last = None
    for result in iterative.deepen(rules, searcher, position, limits.search_depth):
        last = result
        budget.answer_so_far = partial(_depth_answer, game, rules, position, name, result,
                                       searcher, budget)
        if on_depth is not None:
            on_depth(result)
    if last is None:
        # Not even depth 1 finished: any legal move beats returning nothing.
        first = rules.moves(position)[0]
        last = iterative.DepthResult(0, 0, first, [], False, searcher.counters().nodes)
    main_nodes = searcher.counters().nodes
    optimal = _optimal_at(last)
    line: list[Any] | None = None
    if last.exact:
        # Solved within this depth: prove every optimal move as an exact search would, if
        # the budget allows; otherwise report what the last depth proved.
        try:
            _, optimal = best_moves(rules, searcher, position, last.depth, last.moves)
            line = principal_variation(rules, searcher, position, last.value, last.depth, pv_limit)
        except OutOfBudget:
            pass
    if line is None:
        line = iterative.table_line(rules, searcher, position, last.best_move,
                                    min(pv_limit, max(last.depth, 1)))
    stats = _stats(searcher, budget, searcher.counters().nodes - main_nodes)
    stats.nodes = main_nodes + 1
    stats.depth = last.depth
    return _finish(game, rules, position, name, last.value, last.exact, optimal, line, stats)


def _optimal_at(result: iterative.DepthResult) -> list[Any]:
    return [r.move for r in result.moves if r.exact and r.value == result.value] or [result.best_move]


def _depth_answer(game: Game[Any, Any], rules: Rules, position: Any, name: str,
                  result: iterative.DepthResult, searcher: Searcher, budget: Budget) -> Solution:
    """What a finished depth says on its own, for a search left behind before it could say
    more (search/deep.py): its value, its best moves and the first move of the line."""
    stats = _stats(searcher, budget)
    stats.depth = result.depth
    return _finish(game, rules, position, name, result.value, result.exact, _optimal_at(result),
                   [result.best_move], stats)


def _valued(game: Game[Any, Any], rules: Rules, position: Any, results: list[Any]) -> list[MoveValue]:
    valued = [MoveValue(r.move, game.format_move(position, r.move), int(r.value),
                        rules.is_score, r.exact) for r in results if r.value is not None]
    return sorted(valued, key=lambda mv: -mv.value)


# -- registration -------------------------------------------------------------------------

Runner = Callable[..., Solution]


def _searching(name: str, runner: Runner) -> Callable[[Game[Any, Any], Any, Request], Solution]:
    def solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
        budget = request.budget or Budget(request.limits)
        rules = Rules(game, request.outcome_only)
        return run_deep(lambda: runner(game, rules, position, name, request.limits, budget,
                                       request.table_size, request.pv_limit, request.on_depth),
                        budget)
    return solve


def _valuing(name: str) -> Callable[[Game[Any, Any], Any, Request], list[MoveValue]]:
    def analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
        budget = request.budget or Budget(request.limits)
        rules = Rules(game, request.outcome_only)
        return run_deep(lambda: _move_values(game, rules, position, name, request, budget), budget)
    return analyze


def _move_values(game: Game[Any, Any], rules: Rules, position: Any, name: str, request: Request,
                 budget: Budget) -> list[MoveValue]:
    limits = request.limits
    if name == "table":
        return _valued(game, rules, position, tabulation.move_values(game, rules, position, budget))
    searcher = make_searcher("tt" if name == "id" else name, rules, budget, request.table_size)
    moves = list(rules.moves(position)) if terminal_value(rules, position) is None else []
    if name == "id":
        results: list[Any] = []
        exact = True
        for depth_result in iterative.deepen(rules, searcher, position, limits.search_depth,
                                             full_window=True):
            results, exact = depth_result.moves, depth_result.exact
            budget.answer_so_far = partial(_values_at_depth, game, rules, position, results, exact)
            if request.on_depth is not None:
                request.on_depth(depth_result)
    else:
        try:
            results = value_moves(rules, searcher, position, limits.search_depth, moves,
                                  full_window=True)
        except OutOfBudget as stop:
            raise LimitReached(f"{name} stopped ({stop}) before every move was valued") from None
        exact = searcher.counters().horizon == 0
    return _values_at_depth(game, rules, position, results, exact)


def _values_at_depth(game: Game[Any, Any], rules: Rules, position: Any, results: list[Any],
                     exact: bool) -> list[MoveValue]:
    valued = _valued(game, rules, position, results)
    # A search that met its depth limit anywhere valued the moves by the game's evaluation
    # there: estimates, whatever the window made of each root move (`analyze chess
    # --algorithm id` once called +20 a win, and Connect Four's empty board a draw at depth 3).
    return valued if exact else [replace(move, exact=False) for move in valued]


def _objection(name: str) -> Callable[[Game[Any, Any], Request], str | None]:
    def applies(game: Game[Any, Any], request: Request) -> str | None:
        if request.outcome_only and game.properties.is_score:
            return f"--outcome-only applies to win/loss/draw games; {game.name} is a score game"
        if name in ("memo", "table") and request.limits.depth is not None:
            return f"{name} stores exact values only; use --algorithm id with --depth"
        return too_big_without_limit(game, request)
    return applies


def _game_default(name: str) -> Callable[[Game[Any, Any], Request], bool]:
    """auto prefers the algorithm a game names as its default (crates: table; takeaway: memo)."""
    return lambda game, request: game.default_algorithm == name


SEARCHES = (
    ("minimax", "plain negamax, no table, no pruning: the reference", _solve_exact),
    ("memo", "negamax with a table of exact values", _solve_exact),
    ("alphabeta", "negamax with alpha-beta and the bound swap (Knuth and Moore 1975)", _solve_exact),
    ("tt", "alpha-beta with a transposition table: bound flags, draft, best move first",
     _solve_exact),
    ("id", "iterative deepening over tt, under depth, node and time limits", _solve_deepening),
    ("table", "bottom-up tabulation, no recursion, for games that declare an order", _solve_table),
)
# auto takes the game's declared default among these (tt when it declares none), after
# any method of lower priority that prefers the game (theory, for impartial sums).
DEFAULT_PRIORITY = 50

for _name, _summary, _runner in SEARCHES:
    register(Method(_name, _summary, _searching(_name, _runner), _valuing(_name),
                    applies=_objection(_name), preferred=_game_default(_name),
                    priority=DEFAULT_PRIORITY))

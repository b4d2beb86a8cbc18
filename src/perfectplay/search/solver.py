"""The library's entry points: solve a position, analyse every move, compare algorithms."""

from __future__ import annotations

from typing import Any, Callable

from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.game import Game
from perfectplay.search import alphabeta, iterative, memo, minimax, table, tt
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget, Limits, OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats, line_notation
from perfectplay.search.root import (
    best_moves,
    principal_variation,
    terminal_value,
    value_moves,
)
from perfectplay.search.rules import Rules, Searcher
from perfectplay.search.tables import TranspositionTable, parse_table_size

ALGORITHMS: dict[str, str] = {
    "minimax": "plain negamax, no table, no pruning: the reference",
    "memo": "negamax with a table of exact values (seed 000)",
    "alphabeta": "negamax with alpha-beta and the bound swap (seed 004)",
    "tt": "alpha-beta with a transposition table: bound flags, draft, best move first",
    "id": "iterative deepening over tt, under depth, node and time limits",
    "table": "bottom-up tabulation, no recursion, for games that declare an order (issue 6)",
    "grundy": "impartial games: XOR of component Grundy values (misère Nim by its rule); no remoteness",
}
DEFAULT_PV_LIMIT = 1000


def resolve_algorithm(game: Game[Any, Any], name: str) -> str:
    """The algorithm a name stands for; 'auto' is the fastest exact one for this game."""
    if name == "auto":
        if _theory_applies(game):
            return "grundy"
        return getattr(game, "default_algorithm", "tt")
    if name not in ALGORITHMS:
        known = ", ".join(["auto", *ALGORITHMS])
        raise UnsupportedSearch(f"unknown algorithm {name!r}; choose one of: {known}")
    return name


# -- impartial games (issue 3): theory instead of search; the logic is in perfectplay.impartial

def _theory_applies(game: Game[Any, Any]) -> bool:
    if not game.properties.impartial:
        return False
    from perfectplay.impartial import theory
    return theory.applies(game)


def _choose(game: Game[Any, Any], algorithm: str, limits: Limits) -> str:
    """resolve_algorithm, except that 'auto' with a depth, node or time limit searches: a
    caller who budgets a search wants what only a search gives (remoteness)."""
    name = resolve_algorithm(game, algorithm)
    bounded = (limits.depth, limits.nodes, limits.time) != (None, None, None)
    if name == "grundy" and algorithm == "auto" and bounded:
        return getattr(game, "default_algorithm", "tt")
    return name


def _solve_by_theory(game: Game[Any, Any], position: Any, pv_limit: int) -> Solution:
    from perfectplay.impartial import theory
    return theory.solve(game, position, pv_limit=pv_limit)


def _analyze_by_theory(game: Game[Any, Any], position: Any) -> list[MoveValue]:
    from perfectplay.impartial import theory
    return theory.analyze(game, position)


def make_searcher(name: str, rules: Rules, budget: Budget, table_size: str | int | None) -> Searcher:
    if name == "minimax":
        return minimax.build(rules, budget)
    if name == "alphabeta":
        return alphabeta.build(rules, budget)
    entries = parse_table_size(table_size)
    if name == "memo":
        return memo.build(rules, budget, entries)
    return tt.build(rules, budget, TranspositionTable(entries))


def _compiled_kernel(game: Game[Any, Any], engine: str, algorithm: str, limits: Limits) -> Any:
    """The compiled kernel to run instead of this module (issue 5), or None. numba is
    imported only inside perfectplay.compiled, and only once a kernel runs."""
    if engine == "python":
        return None
    from perfectplay.compiled.dispatch import choose
    return choose(game, engine, algorithm, limits)


def _check_mode(game: Game[Any, Any], algorithm: str, limits: Limits, outcome_only: bool) -> None:
    if outcome_only and game.properties.is_score:
        raise UnsupportedSearch(
            f"--outcome-only applies to win/loss/draw games; {game.name} is a score game")
    if algorithm in ("memo", "table") and limits.depth is not None:
        raise UnsupportedSearch(
            f"{algorithm} stores exact values only; use --algorithm id with --depth")


def _stats(searcher: Searcher, budget: Budget, extra: int = 0) -> Stats:
    counters = searcher.counters()
    return Stats(nodes=counters.nodes + 1, table_hits=counters.table_hits,
                 cutoffs=counters.cutoffs, max_ply=counters.max_ply,
                 elapsed_s=budget.elapsed(), extra_nodes=extra)


def solve(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
          limits: Limits | None = None, outcome_only: bool = False,
          table_size: str | int | None = None, pv_limit: int = DEFAULT_PV_LIMIT,
          on_depth: Callable[[iterative.DepthResult], None] | None = None,
          budget: Budget | None = None, engine: str = "python") -> Solution:
    """Solve ``position`` (the start position when None): its value from the side to move,
    every optimal move, the principal variation and the statistics of the search.
    ``engine`` is 'python', 'compiled' or 'auto' (see perfectplay.compiled.dispatch)."""
    limits = limits or Limits()
    parse_table_size(table_size)  # reject a bad size whichever algorithm runs
    position = game.start() if position is None else position
    kernel = _compiled_kernel(game, engine, algorithm, limits)
    if kernel is not None:
        return kernel.solve(game, position, algorithm=algorithm, outcome_only=outcome_only,
                            table_size=table_size, pv_limit=pv_limit, on_depth=on_depth,
                            node_limit=limits.nodes)
    name = _choose(game, algorithm, limits)
    if name == "grundy":
        return _solve_by_theory(game, position, pv_limit)
    _check_mode(game, name, limits, outcome_only)
    budget = budget or Budget(limits)
    rules = Rules(game, outcome_only)
    solver = {"id": _solve_deepening, "table": _solve_table}.get(name, _solve_exact)
    return run_deep(lambda: solver(game, rules, position, name, limits, budget,
                                   table_size, pv_limit, on_depth), budget)


def _finish(game: Game[Any, Any], rules: Rules, position: Any, name: str, value: float,
            exact: bool, optimal: list[Any], line: list[Any], stats: Stats) -> Solution:
    notation = game.format_move
    totals = None
    if rules.is_score:
        totals = _totals(game, rules, position, int(value), line)
    return Solution(game=game.name, position=game.format_position(position), algorithm=name,
                    value=int(value), score_game=rules.is_score, exact=exact,
                    best_moves=[notation(position, move) for move in optimal],
                    pv=line_notation(game, position, line), stats=stats, totals=totals,
                    outcome_only=rules.outcome_only)


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
    """--algorithm table: filled bottom-up by search/table.py, never recursing."""
    found = table.solve(game, rules, position, budget, pv_limit)
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
        if on_depth is not None:
            on_depth(result)
    if last is None:
        # Not even depth 1 finished: any legal move beats returning nothing.
        first = rules.moves(position)[0]
        last = iterative.DepthResult(0, 0, first, [], False, searcher.counters().nodes)
    main_nodes = searcher.counters().nodes
    optimal = [r.move for r in last.moves if r.exact and r.value == last.value] or [last.best_move]
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


def analyze(game: Game[Any, Any], position: Any = None, *, algorithm: str = "auto",
            limits: Limits | None = None, outcome_only: bool = False,
            table_size: str | int | None = None, budget: Budget | None = None,
            engine: str = "python") -> list[MoveValue]:
    """The value of every legal move for the player who would play it, best first."""
    limits = limits or Limits()
    parse_table_size(table_size)  # reject a bad size whichever algorithm runs
    position = game.start() if position is None else position
    kernel = _compiled_kernel(game, engine, algorithm, limits)
    if kernel is not None:
        return kernel.analyze(game, position, algorithm=algorithm, outcome_only=outcome_only,
                              table_size=table_size, node_limit=limits.nodes)
    name = _choose(game, algorithm, limits)
    if name == "grundy":
        return _analyze_by_theory(game, position)
    _check_mode(game, name, limits, outcome_only)
    budget = budget or Budget(limits)
    rules = Rules(game, outcome_only)

    def task() -> list[MoveValue]:
        if name == "table":
            return _valued(game, rules, position, table.move_values(game, rules, position, budget))
        searcher = make_searcher("tt" if name == "id" else name, rules, budget, table_size)
        moves = list(rules.moves(position)) if terminal_value(rules, position) is None else []
        if name == "id":
            results: list[Any] = []
            for depth_result in iterative.deepen(rules, searcher, position, limits.search_depth,
                                                 full_window=True):
                results = depth_result.moves
        else:
            try:
                results = value_moves(rules, searcher, position, limits.search_depth, moves,
                                      full_window=True)
            except OutOfBudget as stop:
                raise LimitReached(f"{name} stopped ({stop}) before every move was valued") from None
        return _valued(game, rules, position, results)

    return run_deep(task, budget)


def _valued(game: Game[Any, Any], rules: Rules, position: Any, results: list[Any]) -> list[MoveValue]:
    valued = [MoveValue(r.move, game.format_move(position, r.move), int(r.value),
                        rules.is_score, r.exact) for r in results if r.value is not None]
    return sorted(valued, key=lambda mv: -mv.value)


def _totals(game: Game[Any, Any], rules: Rules, position: Any, difference: int,
            line: list[Any]) -> tuple[int, int] | None:
    """Points each player ends with from ``position`` (mover, other) with optimal play."""
    total = game.total_points(position) if hasattr(game, "total_points") else None
    if total is None:
        earned = [0, 0]
        for ply, move in enumerate(line):
            earned[ply % 2] += rules.gain(position, move)
            position = rules.play(position, move)
        if earned[0] - earned[1] != difference:
            return None  # the line was cut short; totals unknown
        return earned[0], earned[1]
    return (total + difference) // 2, (total - difference) // 2


__all__ = ["ALGORITHMS", "analyze", "make_searcher", "resolve_algorithm", "solve"]

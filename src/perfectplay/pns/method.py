"""``--algorithm pns``: exact answers by depth-first proof-number search (docs/pns.md).

df-pn proves or disproves one yes/no question at a time, so a value takes several:

* a win/loss/draw game: "does the mover win?"; if not, and a draw was met anywhere in the
  search (or the game declares draws), "does the mover at least draw?". The answer is win,
  draw or loss without the distance (as ``--outcome-only``): proof numbers count leaves,
  not plies.
* a score game: "can the mover reach at least t?" for t found by bisection between the
  game's declared bounds (or bounds found by doubling), one table shared by every question.

Every optimal move is then checked one by one, and the line follows them.
"""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.errors import LimitReached
from perfectplay.game import Game
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search.limits import Budget, OutOfBudget
from perfectplay.search.results import MoveValue, Solution, Stats


def _objection(game: Game[Any, Any], request: Request) -> str | None:
    if request.limits.depth is not None:
        return "pns proves to the end of the game: drop --depth (use --nodes or --time to bound it)"
    if game.properties.loopy:
        return f"{game.name} is loopy (positions can repeat): use --algorithm retro"
    return too_big_without_limit(game, request)


def _searcher(game: Game[Any, Any], budget: Budget) -> Any:
    from perfectplay.pns.dfpn import ProofSearch
    return ProofSearch(game, budget)


def value_of(search: Any, position: Any) -> int:
    """The exact value of ``position`` for its mover: 1, 0, -1 in a win/loss/draw game, the
    score in a score game."""
    if search.is_score:
        return _bisect(search, position)
    if search.prove(position, 1):
        return 1
    if search.game.properties.can_draw or search.counters.draws_seen:
        return 0 if search.prove(position, 0) else -1
    return -1  # no draw anywhere in the disproof: every refutation ends in a loss


def _bisect(search: Any, position: Any) -> int:
    """The largest t with "mover reaches t" proved: bisection inside bounds."""
    bound = search.game.properties.value_bound
    if bound is None:
        low, high = _bracket(search, position)
    else:
        low, high = -bound, bound
    while low < high:  # the value lies in [low, high]
        middle = (low + high + 1) // 2
        if search.prove(position, middle):
            low = middle
        else:
            high = middle - 1
    return low


def _bracket(search: Any, position: Any) -> tuple[int, int]:
    """Bounds around the value by doubling steps from 0, for games that declare none."""
    step = 1
    if search.prove(position, 0):
        while search.prove(position, step):
            step *= 2
        return step // 2, step - 1
    while not search.prove(position, -step):
        step *= 2
    return -step, -(step // 2) - 1


def reaches(search: Any, position: Any, move: Any, target: int) -> bool:
    """Whether ``move`` gives its player a value of at least ``target``."""
    game = search.game
    gain = game.gain(position, move) if search.is_score else 0
    child = game.play(position, move)
    if search.extra_turns and game.keeps_turn(position, move):
        return bool(search.prove(child, target - gain))
    return not search.prove(child, gain - target + 1)


def _finished(search: Any, position: Any) -> int | None:
    numbers = search.leaf_numbers(position, 1)
    if numbers == (1, 1):
        return None
    return value_of(search, position)


def _line(search: Any, position: Any, value: int, limit: int) -> list[Any]:
    """Follow the first move that keeps the value until the game ends or ``limit`` plies;
    stops quietly when the budget runs out (the line so far is still right)."""
    game = search.game
    line: list[Any] = []
    try:
        while len(line) < limit and _finished(search, position) is None:
            move = next((m for m in game.moves(position) if reaches(search, position, m, value)), None)
            if move is None:
                break
            gain = game.gain(position, move) if search.is_score else 0
            same = search.extra_turns and game.keeps_turn(position, move)
            value = value - gain if same else gain - value
            line.append(move)
            position = game.play(position, move)
    except OutOfBudget:
        pass
    return line


def _stats(search: Any, budget: Budget) -> Stats:
    counters = search.counters
    return Stats(nodes=counters.nodes, max_ply=counters.max_ply, elapsed_s=budget.elapsed(),
                 extra_nodes=0)


def _stopped(search: Any, stop: OutOfBudget) -> LimitReached:
    return LimitReached(f"pns stopped ({stop}) after {search.counters.nodes:,} nodes without an "
                        "answer; use --algorithm mcts or engine for an estimate under a limit")


def solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    from perfectplay.search.deep import run_deep
    budget = request.budget or Budget(request.limits)
    search = _searcher(game, budget)
    return run_deep(lambda: _solve(search, position, request, budget), budget)


def _solve(search: Any, position: Any, request: Request, budget: Budget) -> Solution:
    game = search.game
    try:
        value = value_of(search, position)
        main_nodes = search.counters.nodes
        finished = _finished(search, position) is not None
        optimal = [] if finished else [m for m in game.moves(position) if reaches(search, position, m, value)]
    except OutOfBudget as stop:
        raise _stopped(search, stop) from None
    line = _line(search, position, value, request.pv_limit)
    stats = _stats(search, budget)
    stats.extra_nodes, stats.nodes = stats.nodes - main_nodes, main_nodes
    score = search.is_score
    return Solution.of(game, position, "pns", value if score else value * V.WIN_ONLY, optimal, line,
                       stats, score_game=score, outcome_only=not score)


def _positions(game: Game[Any, Any], position: Any, line: list[Any]) -> list[tuple[Any, Any]]:
    pairs = []
    for move in line:
        pairs.append((position, move))
        position = game.play(position, move)
    return pairs


def analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    from perfectplay.search.deep import run_deep
    budget = request.budget or Budget(request.limits)
    search = _searcher(game, budget)
    return run_deep(lambda: _analyze(search, position), budget)


def _analyze(search: Any, position: Any) -> list[MoveValue]:
    game = search.game
    if _finished(search, position) is not None:
        return []
    valued = []
    try:
        for move in game.moves(position):
            gain = game.gain(position, move) if search.is_score else 0
            child = game.play(position, move)
            child_value = value_of(search, child)
            same = search.extra_turns and game.keeps_turn(position, move)
            mine = gain + child_value if same else gain - child_value
            valued.append(MoveValue(move, game.format_move(position, move),
                                    mine if search.is_score else mine * V.WIN_ONLY, search.is_score))
    except OutOfBudget as stop:
        raise _stopped(search, stop) from None
    return sorted(valued, key=lambda move_value: -move_value.value)


def _game_default(game: Game[Any, Any], request: Request) -> bool:
    """auto chooses pns for a game that names it its default (Hex)."""
    return game.default_algorithm == "pns"


register(Method("pns", "depth-first proof-number search (df-pn, Nagai 2002) with a table: win, "
                "draw or loss by two proofs, scores by bisection; no distances", solve, analyze,
                applies=_objection, preferred=_game_default, priority=50))

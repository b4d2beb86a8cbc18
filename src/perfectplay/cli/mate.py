"""`solve GAME POSITION --mate N`: the exact mate (forced win) search of search/mate.py."""

from __future__ import annotations

from typing import Any

from perfectplay.cli.common import console, emit_json
from perfectplay.errors import LimitReached
from perfectplay.search.limits import Budget, Limits, OutOfBudget
from perfectplay.search.mate import find_mate
from perfectplay.search.results import line_notation


def _line_text(game: Any, position: Any, line: list[Any]) -> str:
    """The line in the game's own notation for lines (chess: SAN with move numbers)."""
    if hasattr(game, "describe_line"):
        return str(game.describe_line(position, line))
    return " ".join(line_notation(game, position, line))


def solve_mate(game: Any, position: Any, limit: int, limits: Limits, as_json: bool) -> None:
    budget = Budget(limits)
    try:
        result = find_mate(game, position, limit, budget=budget)
    except OutOfBudget as stop:
        raise LimitReached(f"mate search stopped ({stop}) after {budget.elapsed():.1f} s "
                           f"without an answer within {limit} moves") from None
    moves = line_notation(game, position, result.line)
    if as_json:
        emit_json({"game": game.name, "position": game.format_position(position), "limit": limit,
                   "mate_in": result.moves, "game_over": result.game_over, "line": moves,
                   "nodes": result.nodes, "elapsed_s": round(result.elapsed_s, 6)})
        return
    out = console()
    out.print(f"[bold]{game.name}[/bold] {game.format_position(position)}")
    if result.game_over:
        out.print("the game is already over: there is no move to search")
    elif result.moves is None:
        out.print(f"no mate within {limit} move{'s' * (limit != 1)} for the side to move (proved)")
    else:
        shorter = "" if result.moves == 1 else ", none shorter"
        out.print(f"[bold]mate in {result.moves}[/bold] for the side to move (proved{shorter})")
        out.print(f"line: {_line_text(game, position, result.line)}")
        out.print(f"moves: {' '.join(moves)}")
    out.print(f"[dim]mate search: {result.nodes:,} nodes, {result.elapsed_s * 1000:.1f} ms[/dim]")

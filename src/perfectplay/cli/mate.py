"""How `solve GAME POSITION --mate N` prints what the mate search (the method ``mate``,
perfectplay.search.mate) proved."""

from __future__ import annotations

from typing import Any

import click

from perfectplay.game import Game
from perfectplay.search.results import Solution


def _line_text(game: Game[Any, Any], solution: Solution) -> str:
    """The line in the game's own notation for lines (chess: SAN with move numbers)."""
    described = game.describe_line(solution.root, solution.line)
    return " ".join(solution.pv) if described is None else described


def print_mate(game: Game[Any, Any], position: Any, solution: Solution) -> None:
    answer = solution.mate
    assert answer is not None  # only the mate method's solutions come here
    echo, style = click.echo, click.style
    echo(f"{style(game.name, bold=True)} {game.format_position(position)}")
    if answer.game_over:
        echo("the game is already over: there is no move to search")
    elif answer.moves is None:
        echo(f"no mate within {answer.limit} move{'s' * (answer.limit != 1)} for the side to move (proved)")
    else:
        shorter = "" if answer.moves == 1 else ", none shorter"
        echo(style(f"mate in {answer.moves}", bold=True) + f" for the side to move (proved{shorter})")
        echo(f"line: {_line_text(game, solution)}")
        echo(f"moves: {' '.join(solution.pv)}")
    stats = solution.stats
    echo(style(f"mate search: {stats.nodes:,} nodes, {stats.elapsed_s * 1000:.1f} ms", dim=True))

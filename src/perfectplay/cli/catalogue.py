"""games and tour: what perfectplay knows, and a short run through each game's classic
examples (each game's own, Entry.tour)."""

from __future__ import annotations

import time
from typing import Any

import click

from perfectplay import registry
from perfectplay.cli.common import console, emit_json, json_option


@click.command("games")
@json_option
def games_command(as_json: bool) -> None:
    """The built-in games, their options and position syntax."""
    rows: list[dict[str, Any]] = [{"name": e.name, "aliases": list(e.aliases), "summary": e.summary,
             "position": e.position_help, "options": [f"--{o}" for o in e.options]}
            for e in registry.entries()]
    if as_json:
        emit_json({"games": rows})
        return
    from rich.table import Table
    table = Table(title="built-in games")
    for column in ("game", "rules", "position", "options"):
        table.add_column(column)
    for row in rows:
        name = row["name"] + (f" ({', '.join(row['aliases'])})" if row["aliases"] else "")
        table.add_row(name, row["summary"], row["position"], " ".join(row["options"]) or "-")
    console().print(table)


@click.command("tour")
def tour_command() -> None:
    """Solve each game's classic examples and print their results (what `make run` shows)."""
    from perfectplay.solving import solve

    started = time.perf_counter()

    def solved(game: Any, position: Any, **kwargs: Any) -> Any:
        return solve(game, position, **{"pv_limit": 40, **kwargs})

    click.echo("perfectplay tour: each game's classic examples, solved now\n")
    suggestions = []
    for stop in registry.tour_stops():  # each game's examples, in their places
        if stop.lines is not None:
            for line in registry.attribute(stop.lines)(solved):
                click.echo(line)
        if stop.suggestion is not None:
            suggestions.append(stop.suggestion)
    tries = ", ".join(f"perfectplay {command}" for command in [*suggestions, "games"])
    click.echo(f"tour done in {time.perf_counter() - started:.2f} s. Try: {tries}")

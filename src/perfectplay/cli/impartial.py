"""grundy: the Grundy value of an impartial position, by Sprague-Grundy theory."""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import (
    PositionCommand,
    emit_json,
    game_options,
    json_option,
    load,
    pick_options,
)

SHOWN_COMPONENTS = 1_000


@click.command("grundy", cls=PositionCommand)
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@json_option
def grundy_command(game: str, position: tuple[str, ...], as_json: bool, **options: Any) -> None:
    """The Grundy value of an impartial position (0: the player to move loses)."""
    from perfectplay.impartial.theory import grundy_of

    loaded, start = load(game, position, pick_options(options))
    value, parts = grundy_of(loaded, start)
    if as_json:
        emit_json({"game": loaded.name, "position": loaded.format_position(start), "grundy": value,
                   "components": parts if len(parts) <= SHOWN_COMPONENTS else None,
                   "outcome": "win" if value else "loss"})
        return
    click.echo(f"{loaded.name} {loaded.format_position(start)}: Grundy value {value} "
               f"({'the player to move wins' if value else 'the player to move loses'})")
    if 1 < len(parts) <= 20:
        click.echo("components: " + " ^ ".join(map(str, parts)) + f" = {value}")

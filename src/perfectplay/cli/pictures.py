"""perfectplay tree: a game tree drawn as SVG (compare --plot draws the growth chart)."""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import PositionCommand, game_options, load, pick_options
from perfectplay.errors import BadOption


@click.command("tree", cls=PositionCommand,
               short_help="The game tree below a position as an SVG picture.")
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@click.option("--depth", type=int, default=2, show_default=True, help="plies drawn below the position")
@click.option("--svg", "svg_path", required=True, metavar="FILE", help="write the picture here")
def tree_command(game: str, position: tuple[str, ...], depth: int, svg_path: str, **options: Any) -> None:
    """The game tree below POSITION as an SVG picture: nodes coloured by exact value,
    alpha-beta's pruned branches greyed (e.g. `perfectplay tree tictactoe X........ --depth 2
    --svg tree.svg`)."""
    from perfectplay.pictures.tree import tree_svg
    loaded, start = load(game, position, pick_options(options))
    picture = tree_svg(loaded, start, depth)
    try:
        with open(svg_path, "w", encoding="utf-8") as out:
            out.write(picture)
    except OSError as error:
        raise BadOption(f"--svg {svg_path!r}: cannot write it ({error.strerror or error})") from None
    click.echo(f"wrote {svg_path}")

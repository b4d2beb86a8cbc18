"""perfectplay tree: a game tree drawn as SVG (compare --plot draws the growth chart)."""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import PositionCommand, check_writable, game_options, load, pick_options
from perfectplay.errors import BadOption, UnsupportedSearch


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
    if loaded.properties.loopy:
        # The picture is alpha-beta's search, which cannot run on a game whose positions
        # repeat (the refusal once named solve's --algorithm, which tree does not take).
        raise UnsupportedSearch(f"{loaded.name} is loopy (positions can repeat): tree draws "
                                "alpha-beta's search, which cannot solve it; `perfectplay solve "
                                f"{loaded.name}` solves it by retrograde analysis")
    if not loaded.solvable(start):
        raise UnsupportedSearch(f"{loaded.name} is too big to solve: tree colours every node by "
                                "its exact value, which no search here can find")
    check_writable(svg_path, "--svg")  # before the work, not after it
    picture = tree_svg(loaded, start, depth)
    try:
        with open(svg_path, "w", encoding="utf-8") as out:
            out.write(picture)
    except OSError as error:
        raise BadOption(f"--svg {svg_path!r}: cannot write it ({error.strerror or error})") from None
    click.echo(f"wrote {svg_path}")

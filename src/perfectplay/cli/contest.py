"""`perfectplay contest ...`: contest problems (the crate line, claim queries), in their exact
input and output formats (standard input to standard output). Each problem is a game's (Entry.contest), named
by the game, and imported only when it runs or the help lists them."""

from __future__ import annotations

import click

from perfectplay import registry


class ContestGroup(click.Group):
    """The problems every installed game declares."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(registry.contest_commands())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        where = registry.contest_commands().get(cmd_name)
        if where is None:
            return None
        command: click.Command = registry.attribute(where)
        return command


@click.group("contest", cls=ContestGroup)
def contest_group() -> None:
    """Contest problems: read the problem's input on stdin, print its exact output."""

"""`perfectplay contest crates`: the crate line, in its contest's exact input and output formats.

A command of the crate line's own (``Entry.contest``): it sits in the cli layer beside
perfectplay's commands, importing perfectplay.cli, and the registry adds it to
`perfectplay contest`.
"""

from __future__ import annotations

import click

from perfectplay.cli.common import read_stdin
from perfectplay.cli.rows import PV_HELP, answer


@click.command("crates")
@click.option("--pv", is_flag=True, default=False, help=PV_HELP)
def crates_command(pv: bool) -> None:
    """The crate line: n then n values on stdin; prints `diff D` and `mover M other O`
    (the first player's lead and both totals; solved bottom-up, O(n) memory)."""
    from perfectplay import registry
    answer(registry.resolve("crates"), read_stdin("the crate line on stdin"), "<stdin>", pv=pv)

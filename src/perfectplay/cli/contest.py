"""`perfectplay contest ...`: contest problems from the seeds, in their exact input and output
formats (standard input to standard output)."""

from __future__ import annotations

import click

from perfectplay.cli.impartial import claim_contest_command
from perfectplay.cli.rows import crates_command


@click.group("contest")
def contest_group() -> None:
    """Seed contest problems: read the problem's input on stdin, print its exact output."""


# Each problem is one command module; add it here.
PROBLEMS: tuple[click.Command, ...] = (claim_contest_command, crates_command)

for problem in PROBLEMS:
    contest_group.add_command(problem)

"""The command-line interface: thin commands over the library.

Every PerfectPlayError becomes one line on stderr and exit code 2; Ctrl-C ends a search with
one line and exit code 130; an exact search that runs out of budget exits with code 1.
"""

from __future__ import annotations

import sys

import click

from perfectplay.cli.catalogue import games_command, tour_command
from perfectplay.cli.checking import perft_command, verify_command
from perfectplay.cli.contest import contest_group
from perfectplay.cli.database import db_group
from perfectplay.cli.impartial import grundy_command, octal_command
from perfectplay.cli.match import match_command
from perfectplay.cli.pictures import tree_command
from perfectplay.cli.play import play_command
from perfectplay.cli.serve import serve_command
from perfectplay.cli.solving import analyze_command, compare_command, solve_command, table_command
from perfectplay.cli.uci import uci_command
from perfectplay.errors import LimitReached, PerfectPlayError

COMMANDS = (
    games_command, solve_command, analyze_command, table_command, compare_command,
    perft_command, verify_command, tour_command, contest_group, play_command,
    grundy_command, octal_command,
    serve_command, tree_command, match_command,
    db_group, uci_command,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="perfectplay")
def cli() -> None:
    """perfectplay: solve two-player zero-sum games exactly and play them perfectly."""


for command in COMMANDS:
    cli.add_command(command)


def main(argv: list[str] | None = None) -> None:
    try:
        cli.main(args=argv, prog_name="perfectplay", standalone_mode=False)
    except PerfectPlayError as error:
        click.echo(f"error: {error}", err=True)
        sys.exit(2)
    except LimitReached as error:
        click.echo(f"stopped: {error}", err=True)
        sys.exit(1)
    except (click.exceptions.Abort, KeyboardInterrupt):
        # click turns Ctrl-C into Abort; either way the search has already stopped.
        click.echo("interrupted: stopped by Ctrl-C", err=True)
        sys.exit(130)
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "perfectplay"
        click.echo(f"error: {error.format_message()} (see: {command} --help)", err=True)
        sys.exit(2)
    except click.ClickException as error:
        click.echo(f"error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)

"""The command-line interface: thin commands over the library.

Every PerfectPlayError becomes one line on stderr and exit code 2; Ctrl-C ends a search with
one line and exit code 130; an exact search that runs out of budget exits with code 1.
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

import click

from perfectplay import __version__
from perfectplay.errors import LimitReached, PerfectPlayError

# Each command, in the order the help lists them, and where it lives. A command's module is
# imported only when that command runs (or the help lists them all), so `perfectplay solve`
# never loads play, rich or the impartial commands (start-up time). A game's own
# commands (an opening book's, endgame tables') are its entry's (Entry.commands), added by
# the registry, so no line here names a game.
COMMANDS = {
    "games": "catalogue:games_command", "solve": "solving:solve_command",
    "analyze": "solving:analyze_command", "table": "solving:table_command",
    "compare": "solving:compare_command", "perft": "checking:perft_command",
    "verify": "checking:verify_command", "tour": "catalogue:tour_command",
    "contest": "contest:contest_group", "play": "play:play_command",
    "grundy": "impartial:grundy_command",
    "serve": "serve:serve_command", "tree": "pictures:tree_command",
    "match": "match:match_command", "db": "database:db_group",
    "uci": "uci:uci_command",
}


class LazyGroup(click.Group):
    """A group whose commands, perfectplay's and every game's, are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from perfectplay import registry
        return sorted(set(COMMANDS) | set(registry.game_commands()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from perfectplay import registry
        where = COMMANDS.get(cmd_name)
        if where is not None:
            where = f"perfectplay.cli.{where}"
        else:  # a game's own command: the registry is read only for a name not of ours
            where = registry.game_commands().get(cmd_name)
            if where is None:
                return None
        command: click.Command = registry.attribute(where)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(version=__version__, package_name="perfectplay")
@click.pass_context
def cli(context: click.Context) -> None:
    """perfectplay: solve two-player zero-sum games exactly and play them perfectly."""
    if context.invoked_subcommand is None:  # bare `perfectplay`: the help, not an error
        click.echo(context.get_help())


def main(argv: list[str] | None = None) -> None:
    """Run the command in ``argv`` (the process's arguments when None) and exit with its code.

    Run as the program itself (``argv`` None: the console script, ``python -m perfectplay``),
    a process that loaded numba, or was stopped by Ctrl-C or a limit, leaves without the
    interpreter's teardown, which took 0.7-0.9 s after numba (freeing LLVM's and numba's
    objects one by one), 2 s after a time limit left a search unwinding deep in a game that
    never ends, and once the answer is printed serves nobody (Ctrl-C must end the process
    within 0.5 s; the compiled engine's second run within 0.6 s; --time T within
    T + 0.5 s + T/10)."""
    try:
        _run(argv)
        code: int | str | None = 0
    except SystemExit as done:
        code = done.code
    if argv is None and isinstance(code, int) and (code in (1, 130) or "numba" in sys.modules):
        _leave_at_once(code)
    sys.exit(code)


def _leave_at_once(code: int) -> None:
    """Exit with ``code`` after what a normal exit does that matters outside this process:
    the atexit handlers (multiprocessing pools, Ray, weakref finalizers, temporary files) and
    the flush of stdout and stderr. Files are closed by the commands' own ``with`` blocks and
    SQLite commits explicitly, so nothing written is lost; only the freeing of memory is
    skipped, which the operating system does at once."""
    import atexit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream: nothing to say
            stream.flush()
    os._exit(code)


def _run(argv: list[str] | None) -> None:
    common = sys.modules.get("perfectplay.cli.common")
    if common is not None:  # an earlier command in this process may have set it
        common.JSON_WANTED.set(False)
    try:
        try:
            cli.main(args=argv, prog_name="perfectplay", standalone_mode=False)
        except SystemExit as stop:
            # click answers a closed stdout pipe (EPIPE) with exit 1, our code for "stopped by
            # a limit"; it has then wrapped stdout to silence the last flush.
            if stop.code == 1 and type(sys.stdout).__name__.endswith("PacifyFlushWrapper"):
                raise BrokenPipeError from None
            raise
    except PerfectPlayError as error:
        _say("error", str(error), 2)
    except LimitReached as error:
        _say("stopped", str(error), 1)
    except (click.exceptions.Abort, KeyboardInterrupt):
        # click turns Ctrl-C into Abort; either way the search has already stopped.
        _say("interrupted", "stopped by Ctrl-C", 130)
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx else "perfectplay"
        click.echo(f"error: {error.format_message()} (see: {command} --help)", err=True)
        sys.exit(2)
    except click.ClickException as error:
        click.echo(f"error: {error.format_message()}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except BrokenPipeError:
        # The reader went away (`perfectplay ... | head`): nothing is wrong, so exit quietly
        # with 0, and point stdout at /dev/null so the final flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
    except Exception as error:  # noqa: BLE001 - no input may end in a traceback
        sys.exit(_unexpected(error))


def _say(kind: str, message: str, code: int) -> NoReturn:
    """One line on stderr and the exit code; with --json also the JSON object on stdout."""
    click.echo(f"{kind}: {message}", err=True)
    common = sys.modules.get("perfectplay.cli.common")
    if common is not None and common.JSON_WANTED.get():
        import json
        click.echo(json.dumps({kind: message, "exit_code": code}, indent=2))
    sys.exit(code)


# Exit codes: 0 done, 1 stopped by a limit, 2 bad input (a user's game's bug included),
# 3 a bug of perfectplay's own, 130 Ctrl-C.
INTERNAL_ERROR = 3


def _unexpected(error: Exception) -> int:
    """A user's game that raised gets one line naming its method, position and line (exit
    2); anything else is perfectplay's own bug: one line, and the traceback on request."""
    from perfectplay.game_faults import explain
    found = explain(error)
    if found is not None:
        click.echo(f"error: {found}", err=True)
        return 2
    import traceback  # only for perfectplay's own bugs: kept off the start-up path
    if os.environ.get("PERFECTPLAY_TRACEBACK"):
        traceback.print_exception(error)
    last = traceback.extract_tb(error.__traceback__)[-1:] if error.__traceback__ else []
    where = f" at {last[0].filename}:{last[0].lineno}" if last else ""
    click.echo(f"internal error: {type(error).__name__}: {error}{where}. Please report it; "
               "PERFECTPLAY_TRACEBACK=1 shows the traceback", err=True)
    return INTERNAL_ERROR

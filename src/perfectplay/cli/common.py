"""What every command shares: game options, search options, loading, output."""

from __future__ import annotations

import contextlib
import contextvars
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from perfectplay import registry
from perfectplay.cli.watchdog import arm_time_limit
from perfectplay.errors import BadOption
from perfectplay.search.limits import Limits

F = Callable[..., Any]
# A negative number or range in a position ("-1", "-5..5", or several in one quoted
# argument: "-8 -15"): text for the position, not an option.
NEGATIVE = re.compile(r"^-\d[\d.,]*(\s+-?\d[\d.,]*)*\s*$")


class PositionCommand(click.Command):
    """A command whose positional arguments may be negative numbers (`solve nim -1 2` once
    answered "No such option '-1'"; it should say what is wrong with the position). Every
    argument that is neither an option nor an option's value is moved after a "--", in order,
    so click reads it as position text and the game's parser can quote it."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        valued = {name for param in self.params if isinstance(param, click.Option)
                  and not param.is_flag and not param.count for name in param.opts}
        options: list[str] = []
        positional: list[str] = []
        index = 0
        while index < len(args):
            arg = args[index]
            if arg == "--":
                positional += args[index + 1:]
                break
            if arg in valued:
                options += args[index:index + 2]
                index += 2
                continue
            # A bare "-" is text, not an option: FEN writes "no castling" and "no en passant" so.
            is_option = arg.startswith("-") and arg != "-" and not NEGATIVE.match(arg)
            (options if is_option else positional).append(arg)
            index += 1
        return super().parse_args(ctx, options + ["--", *positional] if positional else options)


def game_options(function: F) -> F:
    """The options of the built-in games (each game takes some; registry.check_options
    rejects the others)."""
    function = click.option("--height", type=int, default=None, help=registry.OPTION_HELP["height"])(function)
    function = click.option("--pits", type=int, default=None, help=registry.OPTION_HELP["pits"])(function)
    function = click.option("--seeds", type=int, default=None, help=registry.OPTION_HELP["seeds"])(function)
    function = click.option("--size", type=int, default=None, help=registry.OPTION_HELP["size"])(function)
    function = click.option("--width", type=int, default=None, help=registry.OPTION_HELP["width"])(function)
    function = click.option("--code", default=None, help=registry.OPTION_HELP["code"])(function)
    function = click.option("--capture", type=click.Choice(["empty", "standard"]), default=None,
                            help=registry.OPTION_HELP["capture"])(function)
    function = click.option("--block", type=click.Choice(["both", "right"]), default=None,
                            help=registry.OPTION_HELP["block"])(function)
    function = click.option("--take", default=None, help=registry.OPTION_HELP["take"])(function)
    function = click.option("--misere", is_flag=True, default=False,
                            help=registry.OPTION_HELP["misere"])(function)
    return function


def search_options(function: F) -> F:
    options = [
        algorithm_option(),
        click.option("--depth", type=int, default=None, help="search at most this many plies"),
        click.option("--time", "time_limit", type=float, default=None, callback=arm_time_limit,
                     help="seconds the search may take (with --algorithm id: best move so far); "
                          "the whole command is cut off (exit 1) 0.5 s + 10% later, even "
                          "inside a slow call of a game's own code"),
        click.option("--nodes", "node_limit", type=int, default=None,
                     help="node budget: the search never enters more nodes than this"),
        click.option("--tt-size", default=None,
                     help="table size: entries (100000) or bytes (64MB); default 64MB. A search "
                          "stops (exit 1) if memory grows past the table plus 512 MB"),
        click.option("--outcome-only", is_flag=True, default=False,
                     help="win/loss/draw without distance: stop at the first winning move"),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def algorithm_option(**extra: Any) -> Callable[[F], F]:
    """--algorithm, its help listing the names the registry of solving methods knows."""
    from perfectplay.solving import algorithm_names
    names = ", ".join(algorithm_names())
    return click.option("--algorithm", "-a", default="auto", show_default=True,
                        help=f"{names}, or auto (the fastest exact one)", **extra)


def engine_option(function: F) -> F:
    """--engine for solve and analyze; kept apart from search_options so that
    commands which do not take it are unchanged."""
    return click.option("--engine", type=click.Choice(["auto", "compiled", "python"]),
                        default="auto", show_default=True,
                        help="compiled numba kernel, the Python engine, or auto (the kernel "
                             "when the game has one worth compiling and numba imports)")(function)


def book_option(function: F) -> F:
    """--book for solve and analyze: the opening book of a game that has one."""
    return click.option("--book", default=None, metavar="PATH|none",
                        help="opening book file to consult, for a game that has one (see "
                             "`perfectplay games`) [default: the one shipped with perfectplay]; "
                             "'none' searches without a book")(function)


# Whether the running command was given --json: then a command that fails or is stopped
# prints its one line as a JSON object on stdout too (`--nodes 1 --json` once printed no
# JSON), read by the CLI's error handler.
JSON_WANTED: contextvars.ContextVar[bool] = contextvars.ContextVar("json_wanted", default=False)


def json_option(function: F) -> F:
    def remember(context: click.Context, param: click.Parameter, value: bool) -> bool:
        JSON_WANTED.set(bool(value))
        return value
    return click.option("--json", "as_json", is_flag=True, default=False, callback=remember,
                        help="print one JSON object (also when the command fails or is "
                             "stopped: {\"error\": ...} or {\"stopped\": ...})")(function)


def pick_options(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Pull the game options out of a command's keyword arguments."""
    return {name: kwargs.pop(name) for name in registry.OPTION_HELP if name in kwargs}


def resolve(game_name: str, options: dict[str, Any]) -> registry.GameChoice:
    """The game a command names (built-in or ``file.py:Class``), resolved once, here."""
    return registry.resolve(game_name, options)


def load(game_name: str, position: tuple[str, ...], options: dict[str, Any]) -> registry.Loaded:
    """The game and the position a command names: resolved once, here, then passed down."""
    return resolve(game_name, options).load(position_text(position))


def position_text(position: tuple[str, ...]) -> str | None:
    return " ".join(position) if position else None


def read_stdin(what: str) -> str:
    """Standard input as UTF-8 text, whatever the locale: input that is not UTF-8 gets one
    line naming the first bad byte and where it is (`contest crates` with such bytes once
    ended in UnicodeDecodeError, or read them as other characters in a C locale)."""
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream put in place by a caller (the tests, an embedding program)
        return sys.stdin.read()
    return _decoded(binary.read(), what)


def read_text(path: str, what: str) -> str:
    """A file's UTF-8 text; a file that cannot be read or is not UTF-8 text is one line
    naming ``what`` (e.g. "--openings 'x.txt'")."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise BadOption(f"{what}: cannot read it ({error.strerror or error})") from None
    return _decoded(data, what)


def _decoded(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadOption(f"{what}: byte {data[error.start]:#04x} at offset {error.start:,} is not "
                        "UTF-8 text; give text (numbers and letters)") from None


def check_writable(path: str, option: str) -> None:
    """Open ``path`` for writing once, before any work, so that a path that cannot be written
    fails at once in one line; a file this made is removed again."""
    import os
    existed = os.path.lexists(path)
    try:
        with open(path, "ab"):
            pass
    except OSError as error:
        raise BadOption(f"{option} {path!r}: cannot write it ({error.strerror or error})") from None
    if not existed:
        os.remove(path)


def make_limits(depth: int | None, time_limit: float | None, node_limit: int | None) -> Limits:
    return Limits(depth=depth, time=time_limit, nodes=node_limit)


def duration(seconds: float) -> str:
    """A rough length of time for a person: "40 s", "12 min", "5 h", "3 days", "2e+04 years"."""
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * size:
            amount = seconds / size
            return f"{amount:.0f} {unit}" if amount < 1e6 else f"{amount:.1g} {unit}"
    return f"{seconds:.0f} s"


def emit_json(payload: Any) -> None:
    import json  # only --json output needs it: kept off the start-up path
    click.echo(json.dumps(payload, indent=2, default=str))


@contextlib.contextmanager
def progress(total: int, what: str, quiet: bool = False) -> Iterator[Callable[..., None]]:
    """A rich progress bar on standard error for long work, shown only when standard error
    is a terminal and ``quiet`` (--json) is off. Yields ``step(done=None)``: one step more,
    or ``done`` steps in all."""
    if quiet or total < 2 or not sys.stderr.isatty():
        yield lambda done=None: None
        return
    from rich.progress import Progress
    with Progress(console=_stderr_console(), transient=True) as bar:
        task = bar.add_task(what, total=total)

        def step(done: int | None = None) -> None:
            if done is None:
                bar.advance(task)
            else:
                bar.update(task, completed=done)
        yield step


def _stderr_console() -> Any:
    from rich.console import Console
    return Console(file=sys.stderr)


def console() -> Any:
    """A rich console: colour on a terminal, plain text when piped."""
    from rich.console import Console

    class Piped(Console):
        def on_broken_pipe(self) -> None:
            # rich exits with 1 when the reader has gone (`| head -1`); every command exits
            # 0 quietly then (perfectplay.cli.main), so hand it the pipe's own error.
            raise BrokenPipeError

    # No markup: text from games and users is printed as it is ("the extra
    # perfectplay[chess]" once lost its "[chess]" to rich's markup); styles are given as Text.
    return Piped(highlight=False, soft_wrap=True, file=sys.stdout, markup=False)


def folder_to_write(path: str, option: str) -> Path:
    """``path`` as a folder a command may create and write in, or BadOption naming the part
    of it that is a file (``--dir notes.txt/tables``), not a NotADirectoryError later."""
    folder = Path(path)
    for part in (folder, *folder.parents):
        if part.exists():
            if not part.is_dir():
                raise BadOption(f"{option} {path!r}: {str(part)!r} is a file, not a folder")
            break
    return folder


def database_option(function: Any) -> Any:
    """--db for solve, analyze and play (here, not in cli/database.py, whose many commands
    cost every solve milliseconds to build)."""
    return click.option("--db", "database", default=None, metavar="PATH",
                        help="answer from this database when the position is stored there "
                             "(built by `perfectplay db build`); other positions are searched")(function)


def source_note(path: str | None, from_database: bool) -> str:
    """The line that says where an answer came from."""
    if from_database:
        return f"from database {path}"
    return f"not in database {path}: answered by search"

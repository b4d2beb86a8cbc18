"""What every command shares: game options, search options, loading, output."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

import click

from perfectplay import registry
from perfectplay.search.limits import Limits

F = Callable[..., Any]


def game_options(function: F) -> F:
    """The options of the built-in games (each game takes some; registry.check_options
    rejects the others)."""
    function = click.option("--height", type=int, default=None, help=registry.OPTION_HELP["height"])(function)
    function = click.option("--width", type=int, default=None, help=registry.OPTION_HELP["width"])(function)
    function = click.option("--code", default=None, help=registry.OPTION_HELP["code"])(function)
    function = click.option("--block", default=None, help=registry.OPTION_HELP["block"])(function)
    function = click.option("--take", default=None, help=registry.OPTION_HELP["take"])(function)
    function = click.option("--misere", is_flag=True, default=False,
                            help=registry.OPTION_HELP["misere"])(function)
    return function


def search_options(function: F) -> F:
    options = [
        algorithm_option(),
        click.option("--depth", type=int, default=None, help="search at most this many plies"),
        click.option("--time", "time_limit", type=float, default=None,
                     help="seconds the search may take (with --algorithm id: best move so far)"),
        click.option("--nodes", "node_limit", type=int, default=None, help="node budget"),
        click.option("--tt-size", default=None,
                     help="table size: entries (100000) or bytes (64MB); default 64MB"),
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
    """--engine for solve and analyze (issue 5); kept apart from search_options so that
    commands which do not take it are unchanged."""
    return click.option("--engine", type=click.Choice(["auto", "compiled", "python"]),
                        default="auto", show_default=True,
                        help="compiled numba kernel, the Python engine, or auto (the kernel "
                             "when the game has one worth compiling and numba imports)")(function)


def json_option(function: F) -> F:
    return click.option("--json", "as_json", is_flag=True, default=False,
                        help="print one JSON object")(function)


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


def make_limits(depth: int | None, time_limit: float | None, node_limit: int | None) -> Limits:
    return Limits(depth=depth, time=time_limit, nodes=node_limit)


def emit_json(payload: Any) -> None:
    click.echo(json.dumps(payload, indent=2, default=str))


def console() -> Any:
    """A rich console: colour on a terminal, plain text when piped."""
    from rich.console import Console
    return Console(highlight=False, soft_wrap=True, file=sys.stdout)

"""perfectplay tablebase build | info: the chess endgame tables KQK, KRK, KPK (docs/tablebase.md).

A command of chess's own (``Entry.commands``): it sits in the cli layer beside perfectplay's
commands, importing perfectplay.cli.common, and the registry adds it to ``perfectplay``'s
commands.
"""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import console, emit_json, folder_to_write, json_option
from perfectplay.errors import BadOption

TABLE_NAMES = ("KQK", "KRK", "KPK")


def _tables(part: str | None = None) -> Any:
    """The endgame table package, or its module ``part`` (files, index), imported when a
    subcommand needs it."""
    import importlib
    return importlib.import_module("perfectplay.games.chess.tablebase" + ("" if part is None else f".{part}"))


def _names(names: tuple[str, ...]) -> list[str]:
    chosen = [name.upper() for name in names] or list(TABLE_NAMES)
    for name in chosen:
        if name not in TABLE_NAMES:
            raise BadOption(f"unknown table {name!r}; the tables are {', '.join(TABLE_NAMES)}")
    return chosen


@click.group("tablebase")
def tablebase_group() -> None:
    """Chess endgame tables by retrograde analysis: KQK, KRK, KPK (distance to mate)."""


@tablebase_group.command("build")
@click.argument("names", nargs=-1)
@click.option("--dir", "directory", required=True,
              help="where to write NAME.npz (KPK reads KQK and KRK from here, built first if missing)")
def build_command(names: tuple[str, ...], directory: str) -> None:
    """Build the tables NAMES (all three when none is named)."""
    from perfectplay.compiled import numba_available
    folder_to_write(directory, "--dir")
    build_tables = _tables().build_tables
    path_of = _tables("files").path_of

    if not numba_available():
        raise BadOption("building tables needs numba (pip install 'perfectplay[fast]'); "
                        "the shipped tables need nothing")

    def report(table: Any) -> None:
        click.echo(f"{table.name}: {table.positions:,} legal positions, {table.edges:,} moves, "
                   f"{table.seconds:.2f} s -> {path_of(table.name, directory)}")

    build_tables(_names(names), directory, report)


@tablebase_group.command("info")
@click.argument("names", nargs=-1)
@click.option("--dir", "directory", default=None,
              help="read the tables from here [default: the tables shipped with perfectplay]")
@json_option
def info_command(names: tuple[str, ...], directory: str | None, as_json: bool) -> None:
    """Counts by value and the longest mates of each table, read from its file."""
    files, index = _tables("files"), _tables("index")
    load, path_of, moves_to_mate, summary = files.load, files.path_of, index.moves_to_mate, index.summary

    rows: dict[str, dict[str, Any]] = {}
    for name in _names(names):
        path = path_of(name, directory)
        rows[name] = {"file": str(path), "bytes": path.stat().st_size if path.exists() else 0,
                      **summary(load(name, directory))}
    if as_json:
        emit_json(rows)
        return
    from rich.table import Table
    table = Table(title="endgame tables (value for the side to move; no fifty-move rule)")
    for column in ("table", "to move", "positions", "wins", "draws", "losses", "longest mate"):
        words = column in ("table", "to move", "longest mate")
        table.add_column(column, justify="left" if words else "right")
    for name, row in rows.items():
        for side in ("strong", "weak"):
            counts = row[side]
            kind = "win" if side == "strong" else "loss"
            plies, count = counts[f"longest_{kind}"], counts[f"longest_{kind}_count"]
            table.add_row(name if side == "strong" else "", side, f"{counts['positions']:,}",
                          f"{counts['wins']:,}", f"{counts['draws']:,}", f"{counts['losses']:,}",
                          f"{moves_to_mate(plies)} moves ({plies} plies) x{count}")
    out = console()
    out.print(table)
    for name, row in rows.items():
        out.print(f"{name}: {row['file']} ({row['bytes']:,} bytes)")

"""perfectplay book build | info | verify: the Connect Four opening book (docs/book.md).

A command of Connect Four's own (``Entry.commands``): it sits in the cli layer beside
perfectplay's commands, importing perfectplay.cli.common, and the registry adds it to
``perfectplay``'s commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from perfectplay.cli.common import console, emit_json, json_option
from perfectplay.errors import BadOption

DEFAULT_DIR = "book-build"


def _book(part: str) -> Any:
    """A module of the opening book package (lookup, storage, build, verify), imported when
    a subcommand needs it: `book info` never loads the kernel that `build` runs."""
    import importlib
    return importlib.import_module(f"perfectplay.games.connect4.book.{part}")


def _open(path: str | None) -> Any:
    lookup = _book("lookup")
    if path is not None:
        return lookup.Book.open(path)
    book = lookup.shipped_book()
    if book is None:
        raise _book("storage").BookError("this install ships no opening book; pass a book file's path")
    return book


@click.group("book")
def book_group() -> None:
    """The Connect Four opening book: exact scores of every position up to K stones."""


@book_group.command("build")
@click.option("--stones", "-k", type=int, required=True,
              help="K: solve every position with K stones, then back up to the start")
@click.option("--dir", "directory", default=DEFAULT_DIR, show_default=True,
              help="where finished batches are kept (a rerun skips them)")
@click.option("--workers", type=int, default=1, show_default=True, help="solving processes")
@click.option("--tt-size", default="512M", show_default=True,
              help="each worker's transposition table (bytes, K/M/G suffixes)")
@click.option("--output", "-o", default=None,
              help="book file to write once the level is complete "
                   "[default: DIR/connect4-WxH-K.book]")
@click.option("--width", type=int, default=7, show_default=True, help="board width of the book's positions")
@click.option("--height", type=int, default=6, show_default=True, help="board height of the book's positions")
def build_command(stones: int, directory: str, workers: int, tt_size: str, output: str | None,
                  width: int, height: int) -> None:
    """Solve the frontier in resumable batches, then write the book file."""
    from perfectplay.search.transposition import parse_table_size
    build = _book("build")

    if not 0 <= stones <= width * height:
        raise BadOption(f"--stones {stones}: must be 0 to {width * height}")
    if workers < 1:
        raise BadOption(f"--workers {workers}: needs at least 1 worker")
    parse_table_size(tt_size)
    from perfectplay.games.connect4 import ENTRY
    game, _ = ENTRY.load({"width": width, "height": height}, None)
    root = Path(directory)
    target = Path(output) if output else root / f"connect4-{width}x{height}-{stones}.book"
    if output and not target.parent.is_dir():
        raise BadOption(f"--output {output}: the folder {target.parent} does not exist")
    solved = build.build_level(game, root, stones, workers=workers, table_size=tt_size,
                         on_batch=lambda progress: click.echo(progress.line, err=True))
    header = build.assemble(game, root, stones, target)
    console().print(f"solved {solved} batches in this run; wrote {target}: "
                    f"{header['positions']:,} positions with at most {stones} stones, "
                    f"{target.stat().st_size:,} bytes")


@book_group.command("info")
@click.argument("path", required=False)
@json_option
def info_command(path: str | None, as_json: bool) -> None:
    """What a book holds (the shipped one when no PATH is given)."""
    book = _open(path)
    header = dict(book.header)
    header["file"] = str(book.path)
    header["bytes"] = book.path.stat().st_size
    if as_json:
        emit_json(header)
        return
    out = console()
    out.print(f"{book.path}: Connect Four {book.width}x{book.height}, every position "
              f"{book.reach} ({len(book):,} positions, mirror images folded), "
              f"{header['bytes']:,} bytes")
    cpu = float(header.get("frontier_cpu_seconds", 0.0))
    out.print(f"frontier: {header.get('frontier_positions', 0):,} positions solved, "
              f"{header.get('frontier_nodes', 0):,} nodes, {cpu / 3600:.2f} core-hours")
    out.print(f"rebuild: {header.get('command', '?')}")


@book_group.command("verify")
@click.argument("path", required=False)
@click.option("--sample", type=int, default=10, show_default=True,
              help="positions to re-solve by search")
@click.option("--stones", type=int, default=None, help="sample only positions with this many stones")
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the random sample")
@json_option
def verify_command(path: str | None, sample: int, stones: int | None, seed: int,
                   as_json: bool) -> None:
    """Check a book's structure, then re-solve a sample with the kernel; any mismatch is an error (exit 2)."""
    verify = _book("verify")
    if sample < 0:
        raise BadOption(f"--sample {sample}: must be 0 or more")
    book = _open(path)
    entries = verify.check_structure(book)
    report = None if as_json else (lambda c: click.echo(
        f"  {c.key:x} ({c.stones} stones): book {c.book:+d}, search {c.search:+d}, "
        f"{c.seconds:.2f} s{'' if c.agrees else '  MISMATCH'}", err=True))
    checked = verify.resolve_sample(book, verify.sample_keys(book, sample, seed, stones), on_checked=report)
    wrong = [c for c in checked if not c.agrees]
    if as_json:
        emit_json({"file": str(book.path), "structure_checked": entries,
                   "sampled": len(checked), "mismatches": [c.key for c in wrong]})
    else:
        console().print(f"{book.path}: structure sound ({entries:,} entries); "
                        f"{len(checked)} sampled positions re-solved, {len(wrong)} mismatches")
    if wrong:
        raise _book("storage").BookError(f"{book.path}: {len(wrong)} of {len(checked)} sampled "
                                         "positions disagree with the search")

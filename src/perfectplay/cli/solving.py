"""solve, analyze, table, compare: the commands that ask the engine for values."""

from __future__ import annotations

import contextlib
import re
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import click

from perfectplay import registry
from perfectplay.cli.common import (
    PositionCommand,
    algorithm_option,
    book_option,
    check_writable,
    console,
    database_option,
    duration,
    emit_json,
    engine_option,
    game_options,
    json_option,
    make_limits,
    pick_options,
    position_text,
    progress,
    resolve,
    search_options,
    source_note,
)
from perfectplay.cli.mate import print_mate
from perfectplay.cli.rows import PV_HELP
from perfectplay.errors import BadOption, PerfectPlayError, UnsupportedSearch
from perfectplay.game import Game, ValueNote
from perfectplay.search.results import FROM_DATABASE, OwnProgress, Progress, Solution
from perfectplay.search.transposition import parse_table_size
from perfectplay.solving import analyze, solve

mate_option = click.option(
    "--mate", type=click.IntRange(min=1), default=None, metavar="N",
    help="prove the shortest forced win (a mate) within N moves, or that none exists "
         "(the method 'mate'; --nodes and --time bound it)")


@click.command("solve", cls=PositionCommand)
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@search_options
@engine_option
@book_option
@click.option("--pv-limit", type=click.IntRange(min=0), default=1000, show_default=True,
              help="longest principal variation to print (0: none)")
@click.option("--file", "input_file", default=None, metavar="INPUT",
              help="read a row game's contest input (n, then n values) and print "
                   "its contest answer: diff D, mover M other O")
@click.option("--pv", is_flag=True, default=False, help="with --file: " + PV_HELP)
@mate_option
@database_option
@json_option
def solve_command(game: str, position: tuple[str, ...], algorithm: str, depth: int | None,
                  time_limit: float | None, node_limit: int | None, tt_size: str | None,
                  outcome_only: bool, engine: str, book: str | None, pv_limit: int,
                  input_file: str | None, pv: bool, mate: int | None, database: str | None,
                  as_json: bool, **options: Any) -> None:
    """Value, remoteness, optimal moves and principal variation of a position."""
    if mate is not None and input_file is not None:
        raise BadOption("--mate searches one position; --file reads a row game's contest input: drop one")
    if pv and input_file is None:
        raise BadOption("--pv prints the contest answer's line; it needs --file INPUT "
                        "(without --file, the principal variation is always printed)")
    choice = resolve(game, pick_options(options))
    if input_file is not None:
        from perfectplay.cli.rows import solve_file
        solve_file(choice, input_file, position, algorithm,
                   make_limits(depth, time_limit, node_limit), pv, as_json)
        return
    loaded, start = choice.load(position_text(position))
    _check_book(choice, book)
    # Depth by depth on a terminal only: piped or redirected, a solve prints its answer alone.
    progress = None if as_json or not sys.stderr.isatty() else _depth_printer()
    limits = make_limits(depth, time_limit, node_limit)
    with _note_a_faster_way(f"solve {choice.name}", loaded, start, algorithm, engine,
                            (depth, time_limit, node_limit, mate, database) != (None,) * 5):
        solution = solve(loaded, start, algorithm=algorithm, outcome_only=outcome_only,
                         limits=limits, table_size=tt_size, pv_limit=pv_limit, on_depth=progress,
                         engine=engine, database=database, book=book, mate=mate)
    if solution.mate is not None:
        emit_json(solution.as_dict()) if as_json else print_mate(loaded, start, solution)
        return
    note = _value_note(loaded, start, solution.value, solution.exact and not outcome_only)
    source = source_note(database, solution.algorithm == FROM_DATABASE)
    if as_json:
        emit_json(solution.as_dict() | ({} if note is None else {note.field: note.number})
                  | ({} if database is None else {"source": source}))
    else:
        print_solution(solution, loaded)
        if note is not None:
            click.echo(f"{note.field}: {note.number:+d} ({note.convention})")
        if database is not None:
            console().print(source)


# An unbounded search by a method asked for by name that is still going after this long
# says so once, where the game's compiled method would answer the position instead.
FASTER_WAY_NOTE_SECONDS = 10.0


@contextlib.contextmanager
def _note_a_faster_way(asked: str, game: Game[Any, Any], position: Any, algorithm: str, engine: str,
                       bounded: bool) -> Iterator[None]:
    """`solve connect4 --algorithm pns` (pure-Python df-pn of the empty board) ran on for
    hours with no word, where auto's kernel solves it in minutes."""
    if bounded or algorithm == "auto":
        yield
        return
    from perfectplay.deciding import faster_way
    if faster_way(game, position, algorithm, engine) is None:
        yield
        return

    def say() -> None:
        click.echo(f"{asked} --algorithm {algorithm}: still searching after "
                   f"{FASTER_WAY_NOTE_SECONDS:g} s with no limit; without --algorithm, the game's "
                   "compiled method answers this position, usually far faster (--time T or "
                   "--nodes N bound this search; Ctrl-C stops it)", err=True)
    timer = threading.Timer(FASTER_WAY_NOTE_SECONDS, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _holds(database: str, game: Any, position: Any) -> bool:
    from perfectplay.store.method import holds  # registers the database method: only with --db
    return holds(database, game, position)


def _check_book(choice: registry.GameChoice, book: str | None) -> None:
    """--book names a file only for a game whose entry declares an opening book."""
    if book in (None, "none") or (choice.entry is not None and choice.entry.opening_book):
        return
    having = [entry.title or entry.name for entry in registry.entries() if entry.opening_book]
    which = (f"only {' and '.join(having)} {'has' if len(having) == 1 else 'have'}" if having
             else "no game has")
    raise BadOption(f"--book {book}: {which} an opening book, not {choice.name}")


def _value_note(game: Game[Any, Any], position: Any, value: int, exact: bool) -> ValueNote | None:
    """An exact value in the game's own convention (Game.value_note), when it has one."""
    return game.value_note(position, value) if exact else None


def _depth_printer() -> Callable[[Progress], None]:
    def report(result: Progress) -> None:
        if isinstance(result, OwnProgress):  # a game's own method in its own words
            click.echo(f"  {result.progress_line}", err=True)
            return
        click.echo(f"  depth {result.depth}: {result.value:+} after {result.nodes:,} nodes"
                   + (" (exact)" if result.exact else ""), err=True)
    return report


def print_solution(solution: Solution, game: Game[Any, Any] | None = None) -> None:
    # click.style, not rich: a solve's output is a few lines, and rich would cost the start-up
    # a third of its time; click drops the colour when output is piped.
    echo, style = click.echo, click.style
    echo(f"{style(solution.game, bold=True)} {solution.position or '(empty)'}")
    echo(f"value: {style(solution.describe(), bold=True)} for the player to move")
    if solution.totals is not None:
        echo(f"totals: mover {solution.totals[0]} other {solution.totals[1]}")
    echo("best moves: " + (" ".join(solution.best_moves) or "none (the game is over)"))
    echo("principal variation: " + (" ".join(solution.pv) or "-"))
    stats = solution.stats
    if solution.algorithm == FROM_DATABASE:
        echo(style(f"database: {stats.nodes:,} lookups, {stats.elapsed_s * 1000:.1f} ms", dim=True))
        return
    own = None if game is None else game.source_line(solution)
    if own is not None:  # a source of the game's own (chess's endgame tables)
        echo(style(own, dim=True))
        return
    if solution.algorithm == "retro":  # no search tree: every reachable position was valued
        echo(style(f"retro: {stats.nodes:,} positions valued by retrograde analysis, "
                   f"{stats.elapsed_s * 1000:.1f} ms", dim=True))
        return
    if stats.nodes == 0:
        echo(style(_looked_up(solution.algorithm, stats), dim=True))
        return
    # The kernels and the tabulation do not count the deepest ply: no "max ply 0" for them.
    deepest = f"max ply {stats.max_ply}, " if stats.max_ply or stats.nodes <= 1 else ""
    echo(style(f"{solution.algorithm}: {stats.nodes:,} nodes, {stats.table_hits:,} table hits, "
               f"{stats.cutoffs:,} cutoffs, {deepest}"
               f"{stats.elapsed_s * 1000:.1f} ms; {stats.extra_nodes:,} more nodes to find "
               "every optimal move and the line", dim=True))


def _looked_up(source: str, stats: Any) -> str:
    """The work line of an answer whose value cost no search (read in the opening book,
    found by theory): the searching that found the moves and the line is counted as such,
    not beside "0 nodes" (`solve connect4 4453` once printed "0 nodes" next to 1.45 M
    cutoffs)."""
    took = f"{stats.elapsed_s * 1000:.1f} ms"
    if not stats.extra_nodes:
        return f"{source}: answered without a search; {took}"
    return (f"{source}: the value without a search; {stats.extra_nodes:,} nodes "
            f"({stats.table_hits:,} table hits, {stats.cutoffs:,} cutoffs, max ply {stats.max_ply}) "
            f"to find every optimal move and the line; {took}")


@click.command("analyze", cls=PositionCommand)
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@search_options
@engine_option
@book_option
@mate_option
@database_option
@json_option
def analyze_command(game: str, position: tuple[str, ...], algorithm: str, depth: int | None,
                    time_limit: float | None, node_limit: int | None, tt_size: str | None,
                    outcome_only: bool, engine: str, book: str | None, mate: int | None,
                    database: str | None, as_json: bool, **options: Any) -> None:
    """The value of every legal move for the player who would play it."""
    choice = resolve(game, pick_options(options))
    loaded, start = choice.load(position_text(position))
    _check_book(choice, book)
    moves = analyze(loaded, start, algorithm=algorithm, outcome_only=outcome_only,
                    limits=make_limits(depth, time_limit, node_limit), table_size=tt_size,
                    engine=engine, database=database, book=book, mate=mate)
    source = source_note(database, database is not None and _holds(database, loaded, start))
    if database is not None and not as_json:
        console().print(source)
    notes = [_value_note(loaded, start, move.value, move.exact and not outcome_only)
             for move in moves]
    if as_json:
        rows = [move.as_dict() | ({} if note is None else {note.field: note.number})
                for move, note in zip(moves, notes, strict=True)]
        note = source if database is not None else (moves[0].source if moves else None)
        emit_json({"game": loaded.name, "position": loaded.format_position(start), "moves": rows}
                  | ({} if note is None else {"source": note}))
        return
    from rich.table import Table
    table = Table(title=f"{loaded.name} {loaded.format_position(start)}")
    table.add_column("move")
    table.add_column("value for its player")
    noted = next((note for note in notes if note is not None), None)
    if noted is not None:
        table.add_column(noted.field)
    for move, beside in zip(moves, notes, strict=True):
        cells = [move.notation, move.describe()]
        table.add_row(*cells, *([] if beside is None else [f"{beside.number:+d}"]))
    if not moves:
        click.echo("no legal moves: the game is over")
        return
    console().print(table)
    if moves[0].source:
        from rich.text import Text
        console().print(Text(moves[0].source, style="dim"))


_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$")
# Sizes one `table` run may cover: each is a solve of its own.
TABLE_ROWS_MAX = 100_000


@click.command("table", cls=PositionCommand, short_help="Outcomes over a range of sizes FROM..TO.")
@click.argument("game")
@click.argument("sizes")
@game_options
@algorithm_option()
@json_option
def table_command(game: str, sizes: str, algorithm: str, as_json: bool, **options: Any) -> None:
    """Outcomes over sizes FROM..TO, e.g. `perfectplay table takeaway 1..8`."""
    first, last = _size_range(sizes)
    choice = resolve(game, pick_options(options))

    def row(n: int) -> dict[str, Any]:
        loaded, position = choice.sized(n)
        solution = solve(loaded, position, algorithm=algorithm, pv_limit=0)
        word = {"win": "win", "loss": "lose", "draw": "draw"}[solution.outcome or "draw"]
        return {"n": n, "outcome": word, "remoteness": solution.remoteness}

    # Each row is written as it is solved, so a reader sees the first ones at once and a
    # closed pipe (`| head`) ends the work; on a terminal the rows are the progress shown.
    rows = _table_rows(f"table {choice.name} {sizes}", first, last, row,
                       quiet=as_json or sys.stdout.isatty())
    if as_json:
        _stream_json_rows({"game": choice.name}, "rows", rows)
    else:
        for index, done in enumerate(rows):
            click.echo(("" if index == 0 else " ") + f"{done['n']}:{done['outcome']}", nl=False)
            sys.stdout.flush()
        click.echo()


def _stream_json_rows(head: dict[str, Any], key: str, rows: Iterator[dict[str, Any]]) -> None:
    """The same text as ``emit_json({**head, key: list(rows)})``, written a row at a time."""
    import json
    opening = json.dumps({**head, key: []}, indent=2)
    assert opening.endswith(f'"{key}": []\n}}')
    click.echo(opening[:-len("]\n}")] + "\n", nl=False)  # up to and including '['
    for index, done in enumerate(rows):
        text = json.dumps(done, indent=2, default=str).replace("\n", "\n    ")
        click.echo(("" if index == 0 else ",\n") + "    " + text, nl=False)
        sys.stdout.flush()
    click.echo("\n  ]\n}")


# A table estimated to take longer than this says so before it starts (`table
# claim 1..100000` took 69 s with no word when not on a terminal).
TABLE_NOTE_SECONDS = 10


def _table_rows(asked: str, first: int, last: int, row: Callable[[int], dict[str, Any]],
                quiet: bool) -> Iterator[dict[str, Any]]:
    """Every size's row, in order, as each is solved. The first size is solved first (it
    pays the one-off costs), then the second and the last, timed: their mean times the
    number of sizes estimates the whole (sizes in between cost in between), and a long
    table says so before the rest; a progress bar shows the rest on a terminal."""
    import time
    count = last - first + 1
    done = {first: row(first)}
    if count > 2:
        took = []
        for n in (first + 1, last):
            started = time.perf_counter()
            done[n] = row(n)
            took.append(time.perf_counter() - started)
        estimate = sum(took) / 2 * count
        if estimate > TABLE_NOTE_SECONDS:
            click.echo(f"{asked}: about {duration(estimate)} for {count:,} sizes here (from the "
                       "second and the last); Ctrl-C stops it", err=True)
    with progress(count, asked, quiet=quiet) as step:
        for n in range(first, last + 1):
            yield done.pop(n) if n in done else row(n)
            step()


def _size_range(sizes: str) -> tuple[int, int]:
    match = _RANGE.match(sizes)
    if not match:
        raise BadOption(f"sizes {sizes!r}: write FROM..TO with FROM <= TO, e.g. 1..8")
    first, last = int(match.group(1)), int(match.group(2))
    if first < 0:
        raise BadOption(f"sizes {sizes!r}: FROM {first} is below 0")
    if first > last:
        raise BadOption(f"sizes {sizes!r}: FROM {first} is above TO {last}; write FROM..TO, e.g. 1..8")
    if last - first + 1 > TABLE_ROWS_MAX:
        raise BadOption(f"sizes {sizes!r}: {last - first + 1:,} sizes, more than the "
                        f"{TABLE_ROWS_MAX:,} one table may hold")
    return first, last


# Nodes each algorithm of `compare` may search before its row says "stopped" (minimax on
# Connect Four once ran on for ever): a few seconds of the slowest Python search.
COMPARE_NODE_CAP = 500_000


@click.command("compare", cls=PositionCommand)
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@click.option("--algorithms", default="minimax,memo,alphabeta,tt", show_default=True,
              help="the algorithms to run, comma-separated; the first is the reference")
@click.option("--tt-size", default=None,
              help="table size for memo and tt: entries (100000) or bytes (64MB); default 64MB")
@click.option("--plot", "plot_path", default=None, metavar="FILE",
              help="with sizes FROM..TO for POSITION (e.g. 1..25): draw nodes against "
                   "size, log scale, one curve per algorithm, to FILE (.png, .svg or .pdf)")
@click.option("--node-cap", type=int, default=None,
              help=f"each algorithm stops past this many nodes and its row says so [default: "
                   f"{COMPARE_NODE_CAP:,}; with --plot: none]; with --plot a curve stops at the "
                   "first size that needs more")
@json_option
def compare_command(game: str, position: tuple[str, ...], algorithms: str, tt_size: str | None,
                    plot_path: str | None, node_cap: int | None, as_json: bool, **options: Any) -> None:
    """Value, nodes and time per algorithm, and the calls each saves against the first.

    Each algorithm stops past --node-cap nodes (an algorithm that cannot finish, such as
    minimax on Connect Four, then says where it stopped)."""
    parse_table_size(tt_size)  # a bad size is the user's error, not a row of the table
    if node_cap is not None and node_cap < 1:
        raise BadOption(f"--node-cap {node_cap}: give 1 or more")
    if plot_path is not None:
        _plot_growth(game, position, algorithms, plot_path, node_cap, as_json, pick_options(options))
        return
    from perfectplay.pictures.growth import parse_algorithms
    names = parse_algorithms(algorithms)
    loaded, start = resolve(game, pick_options(options)).load(position_text(position))
    if not loaded.solvable(start):
        raise UnsupportedSearch(f"{loaded.name} is too big to solve: compare times exact searches, "
                                "and every one would only reach its node cap")
    cap = COMPARE_NODE_CAP if node_cap is None else node_cap
    rows: list[dict[str, Any]] = []
    with progress(len(names), f"compare {game}", quiet=as_json) as step:
        for name in names:
            rows.append(_compared(loaded, start, name, tt_size, cap))
            step()
    reference = rows[0]["nodes"] if rows and not rows[0]["capped"] else None
    for row in rows:
        if reference and not row["capped"]:
            row["saved_vs_first"] = reference - row["nodes"]
    if as_json:
        emit_json({"game": loaded.name, "position": loaded.format_position(start),
                   "node_cap": cap, "rows": rows})
        return
    _print_comparison(loaded.name, loaded.format_position(start), rows)


def _compared(game: Any, position: Any, name: str, tt_size: str | None, cap: int) -> dict[str, Any]:
    """One algorithm's row, stopped past ``cap`` nodes. An algorithm that cannot solve this
    game is an error of the request (compare once hid it in a table cell and exited 0)."""
    from perfectplay.errors import LimitReached
    from perfectplay.search.limits import Budget, Limits
    try:
        # A budget, not limits: a method that answers by theory (grundy) or tabulation refuses
        # limits it has no use for, while every search stops by the budget it is handed.
        solution = solve(game, position, algorithm=name, table_size=tt_size, pv_limit=0,
                         budget=Budget(Limits(nodes=cap)))
    except PerfectPlayError as error:
        # The searches' advice names solve's --algorithm; here the option is --algorithms.
        advice = re.sub(r"--algorithm\b", "--algorithms", str(error))
        raise BadOption(f"--algorithms: {name}: {advice}") from None
    except LimitReached:
        return {"algorithm": name, "value": None, "nodes": cap, "capped": True,
                "stopped": f"stopped past {cap:,} nodes (--node-cap)"}
    return {"algorithm": name, "value": solution.describe(), "nodes": solution.stats.nodes,
            "capped": False, "table_hits": solution.stats.table_hits,
            "cutoffs": solution.stats.cutoffs, "elapsed_s": round(solution.stats.elapsed_s, 6)}


def _print_comparison(game: str, position: str, rows: list[dict[str, Any]]) -> None:
    from rich.table import Table
    table = Table(title=f"{game} {position}")
    for column in ("algorithm", "value", "nodes", "table hits", "cutoffs", "ms", "calls saved"):
        table.add_column(column, justify="left" if column in ("algorithm", "value") else "right")
    first = rows[0]["algorithm"]
    for row in rows:
        if row["capped"]:
            table.add_row(row["algorithm"], "stopped", f"> {row['nodes']:,}", "", "", "", "")
            continue
        saved = row.get("saved_vs_first", 0)
        share = f"{saved:,} ({saved / max(rows[0].get('nodes', 1), 1):.1%} of {first})" if saved else "-"
        table.add_row(row["algorithm"], row["value"], f"{row['nodes']:,}", f"{row['table_hits']:,}",
                      f"{row['cutoffs']:,}", f"{row['elapsed_s'] * 1000:.1f}", share)
    console().print(table)
    capped = [row for row in rows if row["capped"]]
    if capped:
        click.echo(f"stopped: {', '.join(row['algorithm'] for row in capped)} passed the node cap "
                   f"of {capped[0]['nodes']:,} without an answer (--node-cap)")


def _plot_growth(game: str, sizes: tuple[str, ...], algorithms: str, path: str, node_cap: int | None,
                 as_json: bool, options: dict[str, Any]) -> None:
    """compare --plot: nodes against size for each algorithm (exponential against linear
    growth, in a picture)."""
    from perfectplay.pictures.growth import measure, parse_algorithms, parse_sizes
    from perfectplay.pictures.plot import check_path, plot_growth
    check_path(path)
    check_writable(path, "--plot")  # before the work, not after it
    growth = measure(game, parse_sizes(" ".join(sizes)), parse_algorithms(algorithms), options, node_cap)
    plot_growth(growth, path)
    if as_json:
        emit_json(growth.as_dict() | {"plot": path})
        return
    for name, counts in growth.nodes.items():
        shown = [f"{n}:{count:,}" for n, count in zip(growth.sizes, counts, strict=True) if count is not None]
        click.echo(f"{name}: {' '.join(shown[-3:])}" + ("" if None not in counts else
                                                        f" (stopped past {node_cap:,} nodes)"))
    click.echo(f"wrote {path}")

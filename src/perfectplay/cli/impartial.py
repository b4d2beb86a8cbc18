"""grundy, octal and `contest claim`: the commands of impartial game theory."""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import (
    PositionCommand,
    duration,
    emit_json,
    game_options,
    json_option,
    load,
    pick_options,
    progress,
    read_stdin,
)
from perfectplay.errors import BadOption, BadPosition, TooLarge

# The claim-queries problem (seed 002) allows n <= 20; theory answers far beyond.
CLAIM_N_MAX = 10**18
# The most values `octal --upto` prints (and so computes): ten million take about 80 MB.
UPTO_MAX = 10_000_000
SHOWN_COMPONENTS = 1_000


@click.command("grundy", cls=PositionCommand)
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@json_option
def grundy_command(game: str, position: tuple[str, ...], as_json: bool, **options: Any) -> None:
    """The Grundy value of an impartial position (0: the player to move loses)."""
    from perfectplay.impartial.theory import grundy_of

    loaded, start = load(game, position, pick_options(options))
    value, parts = grundy_of(loaded, start)
    if as_json:
        emit_json({"game": loaded.name, "position": loaded.format_position(start), "grundy": value,
                   "components": parts if len(parts) <= SHOWN_COMPONENTS else None,
                   "outcome": "win" if value else "loss"})
        return
    click.echo(f"{loaded.name} {loaded.format_position(start)}: Grundy value {value} "
               f"({'the player to move wins' if value else 'the player to move loses'})")
    if 1 < len(parts) <= 20:
        click.echo("components: " + " ^ ".join(map(str, parts)) + f" = {value}")


# Past this estimate of computing time `octal` refuses; past OCTAL_NOTE_SECONDS it says how
# long first (issue 26: `octal 0.77 --upto 1000000` took 136 s with no word).
OCTAL_SECONDS_MAX = 6 * 3600
OCTAL_NOTE_SECONDS = 10


@click.command("octal", short_help="Grundy sequence of an octal game, with its certified period.")
@click.argument("code")
@click.option("--upto", type=click.IntRange(min=0, max=UPTO_MAX), default=100, show_default=True,
              help=f"print G(0) .. G(UPTO), UPTO at most {UPTO_MAX:,}")
@click.option("--at", "at", type=click.IntRange(min=0), default=None,
              help="also the value of one heap size (any size once the period is certified)")
@click.option("--max-terms", type=click.IntRange(min=16), default=1 << 14, show_default=True,
              help="compute at most this many values while looking for a certified period")
@json_option
def octal_command(code: str, upto: int, at: int | None, max_terms: int, as_json: bool) -> None:
    """Grundy sequence of an octal game, e.g. 0.77 (Kayles), with its certified period.

    Values past a certified period are read from it; without one they are computed, and a
    run estimated at more than six hours is refused. Values are printed as they come."""
    from perfectplay.impartial.octal import analyse, parse_code, stream_values

    parsed = parse_code(code)
    with progress(max_terms, f"octal {parsed.text}", quiet=as_json) as step:
        analysis = analyse(parsed, max_terms, on_progress=step)
    if analysis.periodicity is None and upto >= len(analysis.values):
        _check_octal_work(analysis, upto)
    with progress(upto + 1, f"octal {parsed.text} to {upto:,}", quiet=as_json) as step:
        chunks = stream_values(analysis, upto, on_progress=lambda done: step(done=done))
        if as_json:
            _stream_json(analysis, chunks, upto, at, step)
        else:
            _stream_text(analysis, chunks, upto, at, step)


def _check_octal_work(analysis: Any, upto: int) -> None:
    """Time one more doubling of the computed values, and from it (the work grows about as
    the square of the length) refuse a run past six hours or say how long it will be."""
    import time

    from perfectplay.impartial.octal import extend
    before = len(analysis.values)
    started = time.perf_counter()
    extend(analysis, min(2 * before, upto + 1))
    after = len(analysis.values)
    if analysis.periodicity is not None or after > upto:
        return
    per_square = (time.perf_counter() - started) / (after * after - before * before)
    seconds = per_square * ((upto + 1) ** 2 - after * after)
    asked = f"octal {analysis.code.text} --upto {upto:,}"
    work = (f"no period certified within {after:,} values, so every value to {upto:,} is "
            f"computed: about {duration(seconds)} here (estimated from the last {after - before:,})")
    if seconds > OCTAL_SECONDS_MAX:
        raise TooLarge(f"{asked}: {work}; octal refuses more than {duration(OCTAL_SECONDS_MAX)} "
                       "of work: give a smaller --upto")
    if seconds > OCTAL_NOTE_SECONDS:
        click.echo(f"{asked}: {work}; Ctrl-C stops it", err=True)


def _stream_text(analysis: Any, chunks: Any, upto: int, at: int | None, step: Any) -> None:
    click.echo(f"octal game {analysis.code.text}: G(0..{upto})")
    row: list[int] = []
    first = 0
    for chunk in chunks:
        for value in chunk:
            row.append(value)
            if len(row) == 20:
                click.echo(f"{first:>8}: " + " ".join(f"{v:>2}" for v in row))
                first += 20
                row = []
        step(done=first + len(row))
    if row:
        click.echo(f"{first:>8}: " + " ".join(f"{v:>2}" for v in row))
    found = analysis.periodicity
    if found is None:
        click.echo(f"no period certified within {len(analysis.values):,} values (try --max-terms)")
    else:
        click.echo(f"period {found.period}, preperiod {found.preperiod} (last exception "
                   f"n = {found.preperiod - 1}); certified by the Guy-Smith theorem from "
                   f"{found.checked_to:,} values")
    if at is not None:
        click.echo(f"G({at}) = {analysis.grundy(at)}")


def _stream_json(analysis: Any, chunks: Any, upto: int, at: int | None, step: Any) -> None:
    """The JSON object written as the values come: the sequence twenty to a line."""
    import json
    click.echo("{\n" + f'  "code": {json.dumps(analysis.code.text)},\n  "sequence": [')
    done = 0
    for chunk in chunks:
        for first in range(0, len(chunk), 20):
            done += len(chunk[first:first + 20])
            tail = "," if done <= upto else ""
            click.echo("    " + ", ".join(map(str, chunk[first:first + 20])) + tail)
        step(done=done)
    found = analysis.periodicity
    rest = {"period": found.period if found else None,
            "preperiod": found.preperiod if found else None,
            "certified": bool(found and found.certified),
            "checked_to": found.checked_to if found else len(analysis.values)}
    if at is not None:
        rest["at"] = {"n": at, "grundy": analysis.grundy(at)}
    fields = json.dumps(rest, indent=2)[1:]  # '\n  "period": ...\n}' without its opening brace
    click.echo("  ]," + fields)


@click.command("claim")
@click.option("--block", type=click.Choice(["both", "right"]), default="both", show_default=True,
              help="a claimed item blocks both neighbours, or only the right one")
@click.option("--n-max", type=click.IntRange(min=1), default=CLAIM_N_MAX, show_default=True,
              help="largest n accepted (the seed's problem says 20)")
def claim_contest_command(block: str, n_max: int) -> None:
    """Claim queries (seed 002): T, then T lines of n; prints WIN or LOSE for each n."""
    from perfectplay.impartial.octal import analysed

    analysis = analysed("0.137" if block == "both" else "0.37", 256)
    sizes = read_queries(read_stdin("claim queries on stdin"), n_max)
    if block == "right" and max(sizes, default=0) > 100_000 and analysis.periodicity is None:
        raise BadOption("--block right is the octal game 0.37, which has no known period; "
                        "n up to 100,000 is supported")
    from perfectplay.impartial.sums import heap_value
    click.echo("\n".join("WIN" if heap_value(analysis, n) else "LOSE" for n in sizes))


def read_queries(text: str, n_max: int) -> list[int]:
    """The seed's input: T, then T values of n with 1 <= n <= n_max."""
    tokens = text.split()
    if not tokens:
        raise BadPosition("claim queries: empty input; expected T, then T lines of n")
    numbers = []
    for token in tokens:
        try:
            numbers.append(int(token))
        except ValueError:
            raise BadPosition(f"claim queries: {token!r} is not a whole number") from None
    count, sizes = numbers[0], numbers[1:]
    if count < 1:
        raise BadPosition(f"claim queries: T = {count}; T counts the queries, so it is at least 1")
    if len(sizes) != count:
        raise BadPosition(f"claim queries: T = {count} but {len(sizes)} values of n follow")
    for n in sizes:
        if not 1 <= n <= n_max:
            raise BadPosition(f"claim queries: n = {n} is outside 1..{n_max}")
    return sizes

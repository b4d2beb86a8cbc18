"""`perfectplay octal CODE`: the Grundy sequence of an octal game, with its certified period.

A command of the octal game's own (``Entry.commands``): it sits in the cli layer beside
perfectplay's commands, importing perfectplay.cli.common, and the registry adds it to
``perfectplay``'s commands.
"""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import duration, json_option, progress
from perfectplay.errors import TooLarge

# The most values `octal --upto` prints (and so computes): ten million take about 80 MB.
UPTO_MAX = 10_000_000
# Past this estimate of computing time `octal` refuses; past OCTAL_NOTE_SECONDS it says how
# long first (`octal 0.77 --upto 1000000` once took 136 s with no word).
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

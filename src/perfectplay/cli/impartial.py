"""grundy, octal and `contest claim`: the commands of impartial game theory."""

from __future__ import annotations

from typing import Any

import click

from perfectplay.cli.common import (
    PositionCommand,
    emit_json,
    game_options,
    json_option,
    load,
    pick_options,
    progress,
    read_stdin,
)
from perfectplay.errors import BadOption, BadPosition

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
    """Grundy sequence of an octal game, e.g. 0.77 (Kayles), with its certified period."""
    from perfectplay.impartial.octal import analyse, parse_code

    parsed = parse_code(code)
    with progress(max(max_terms, upto + 1), f"octal {parsed.text}", quiet=as_json) as step:
        analysis = analyse(parsed, max_terms, at_least=upto + 1, on_progress=step)
    values = [int(v) for v in analysis.values[:upto + 1]]
    found = analysis.periodicity
    payload: dict[str, Any] = {
        "code": parsed.text, "sequence": values,
        "period": found.period if found else None, "preperiod": found.preperiod if found else None,
        "certified": bool(found and found.certified),
        "checked_to": found.checked_to if found else len(analysis.values),
    }
    if at is not None:
        payload["at"] = {"n": at, "grundy": analysis.grundy(at)}
    if as_json:
        emit_json(payload)
        return
    _print_octal(payload)


def _print_octal(payload: dict[str, Any]) -> None:
    values = payload["sequence"]
    click.echo(f"octal game {payload['code']}: G(0..{len(values) - 1})")
    for first in range(0, len(values), 20):
        click.echo(f"{first:>8}: " + " ".join(f"{v:>2}" for v in values[first:first + 20]))
    if payload["period"] is None:
        click.echo(f"no period certified within {payload['checked_to']:,} values (try --max-terms)")
    else:
        click.echo(f"period {payload['period']}, preperiod {payload['preperiod']} (last exception "
                   f"n = {payload['preperiod'] - 1}); certified by the Guy-Smith theorem from "
                   f"{payload['checked_to']:,} values")
    if "at" in payload:
        click.echo(f"G({payload['at']['n']}) = {payload['at']['grundy']}")


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

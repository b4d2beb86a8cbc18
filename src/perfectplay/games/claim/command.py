"""`perfectplay contest claim`: the claim-queries contest problem, answered by the claim line's
period.

A command of the claim line game's own (``Entry.contest``): it sits in the cli layer beside
perfectplay's commands, importing perfectplay.cli.common, and the registry adds it to
`perfectplay contest`.
"""

from __future__ import annotations

import click

from perfectplay.cli.common import read_stdin
from perfectplay.errors import BadOption, BadPosition

# The claim-queries contest problem allows n <= 20; theory answers far beyond.
CLAIM_N_MAX = 10**18


@click.command("claim")
@click.option("--block", type=click.Choice(["both", "right"]), default="both", show_default=True,
              help="a claimed item blocks both neighbours, or only the right one")
@click.option("--n-max", type=click.IntRange(min=1), default=CLAIM_N_MAX, show_default=True,
              help="largest n accepted (the contest problem's limit is 20)")
def claim_contest_command(block: str, n_max: int) -> None:
    """Claim queries: T, then T lines of n; prints WIN or LOSE for each n (first player)."""
    from perfectplay.impartial.octal import analysed

    analysis = analysed("0.137" if block == "both" else "0.37", 256)
    sizes = read_queries(read_stdin("claim queries on stdin"), n_max)
    if block == "right" and max(sizes, default=0) > 100_000 and analysis.periodicity is None:
        raise BadOption("--block right is the octal game 0.37, which has no known period; "
                        "n up to 100,000 is supported")
    from perfectplay.impartial.sums import heap_value
    click.echo("\n".join("WIN" if heap_value(analysis, n) else "LOSE" for n in sizes))


def read_queries(text: str, n_max: int) -> list[int]:
    """The contest's input: T, then T values of n with 1 <= n <= n_max."""
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

"""perft and verify: the commands that check the engine."""

from __future__ import annotations

import sys
from typing import Any

import click

from perfectplay.cli.common import (
    PositionCommand,
    console,
    duration,
    emit_json,
    game_options,
    json_option,
    load,
    pick_options,
    progress,
    resolve,
)
from perfectplay.errors import BadOption, TooLarge
from perfectplay.search.perft import PROBE_PLIES, estimate_perft, perft
from perfectplay.search.perft import divide as perft_divide
from perfectplay.verify import REFERENCE_NODES, verify

# perft refuses a count estimated at more than six hours' work, and says how long it will be
# when that is more than PERFT_NOTE_SECONDS (`perft connect4 --depth 12` and `--depth 10^30`
# once ran on with no word). The estimate stops counting at PERFT_NODES_CAP.
PERFT_SECONDS_MAX = 6 * 3600
PERFT_NOTE_SECONDS = 10
PERFT_NODES_CAP = 1e13


@click.command("perft", cls=PositionCommand)
@click.argument("game")
@click.argument("position", nargs=-1)
@click.option("--depth", type=int, required=True, help="length of the move sequences")
@click.option("--divide", is_flag=True, default=False,
              help="also the count under each first move (to compare with another engine's)")
@click.option("--finished", is_flag=True, default=False,
              help="also count the games that end within DEPTH moves (visits every last move: slower)")
@game_options
@json_option
def perft_command(game: str, position: tuple[str, ...], depth: int, divide: bool, finished: bool,
                  as_json: bool, **options: Any) -> None:
    """Count the move sequences of length DEPTH (games that end sooner are not extended).

    A count estimated at more than six hours' work is refused; a long one says so first and
    shows a progress bar on a terminal."""
    if depth < 0:
        raise BadOption(f"--depth {depth}: must be 0 or more")
    if divide and depth < 1:
        raise BadOption(f"--divide --depth {depth}: dividing needs a first move, so --depth 1 or more")
    loaded, start = load(game, position, pick_options(options))
    # Counted in bulk, the last ply's positions are not visited (perfectplay.search.perft).
    nodes = _perft_nodes(loaded, start, depth, visited=depth if finished else max(depth - 1, 0))
    with progress(int(nodes), f"perft {loaded.name} depth {depth}", quiet=as_json) as step:
        split = [(loaded.format_move(start, move), count)
                 for move, count in perft_divide(loaded, start, depth)] if divide else None
        result = perft(loaded, start, depth, finished=finished, on_nodes=lambda done: step(done=done)) \
            if finished or not divide else None
    total = result.count if result is not None else sum(count for _, count in split or [])
    if as_json:
        emit_json({"depth": depth, "count": total}
                  | ({} if result is None or result.finished_games is None
                     else {"finished_games": result.finished_games})
                  | ({} if split is None else {"divide": dict(split)}))
        return
    for notation, count in split or []:
        click.echo(f"{notation}: {count:,}")
    ended = "" if result is None or result.finished_games is None else \
        f" ({result.finished_games:,} games ended within {depth} moves)"
    click.echo(f"perft {depth}: {total:,} move sequences{ended}")


def _perft_nodes(game: Any, position: Any, depth: int, visited: int) -> float:
    """The estimated nodes the count visits (to depth ``visited``); refused (TooLarge) past
    six hours' work."""
    estimate = estimate_perft(game, position, visited, cap=PERFT_NODES_CAP)
    asked = f"perft {game.name} --depth {depth}"
    if estimate.endless:
        raise TooLarge(f"{asked}: random games from here go on past {PROBE_PLIES:,} plies "
                       f"without ending; give --depth {PROBE_PLIES:,} or less")
    seconds = estimate.seconds
    if estimate.nodes is None or seconds is None:
        raise TooLarge(f"{asked}: more than {PERFT_NODES_CAP:.0e} positions to visit (estimated "
                       "from random games), far beyond six hours' work; give a smaller --depth")
    work = f"about {estimate.nodes:,.0f} positions to visit, about {duration(seconds)} here"
    if seconds > PERFT_SECONDS_MAX:
        raise TooLarge(f"{asked}: {work} (estimated from random games); perft refuses more than "
                       f"{duration(PERFT_SECONDS_MAX)} of work: give a smaller --depth")
    if seconds > PERFT_NOTE_SECONDS:
        click.echo(f"{asked}: {work} (estimated from random games); Ctrl-C stops it", err=True)
    return estimate.nodes


# Cases one verify run may check: about an hour of the slowest game's checks.
MAX_CASES = 100_000


@click.command("verify")
@click.argument("game")
@click.option("--cases", type=click.IntRange(min=1, max=MAX_CASES), default=200, show_default=True,
              help=f"random positions to check (at most {MAX_CASES:,})")
@click.option("--seed", type=int, default=1, show_default=True,
              help="seed of the random positions: the same seed checks the same positions")
@game_options
@json_option
def verify_command(game: str, cases: int, seed: int, as_json: bool, **options: Any) -> None:
    """Random small positions: every algorithm checked against minimax (and brute force)."""
    with progress(cases, f"verify {game}", quiet=as_json) as step:
        report = verify(resolve(game, pick_options(options)), cases, seed, on_case=step)
    if as_json:
        emit_json({"game": report.game, "cases": report.cases, "checks": report.checks,
                   "too_large_for_minimax": report.too_large,
                   "mismatches": [vars(m) for m in report.mismatches]})
    else:
        out = console()
        out.print(f"{report.game}: {report.cases} random positions, {report.checks} checks, "
                  f"{len(report.mismatches)} mismatches")
        if report.too_large:
            out.print(f"({report.too_large} random positions set aside: minimax, the reference, "
                      f"could not value them within {REFERENCE_NODES:,} nodes)")
        for mismatch in report.mismatches[:20]:
            out.print(f"  {mismatch.position!r} {mismatch.check}: expected {mismatch.expected}, "
                      f"got {mismatch.got}")
    if report.mismatches:
        sys.exit(1)

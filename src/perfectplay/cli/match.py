"""`perfectplay match GAME`: two players (engine settings or UCI engines) play game pairs
from a set of openings until the SPRT decides (perfectplay.engine.match)."""

from __future__ import annotations

import math
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from perfectplay.cli.common import game_options, load, pick_options, read_text
from perfectplay.deciding import MCTS, estimator
from perfectplay.engine.api import SearchLimits, Settings, within_reach
from perfectplay.engine.match import (
    DEFAULT_MAX_PLIES,
    MatchState,
    random_openings,
    read_openings,
    run_match,
    run_parallel_match,
)
from perfectplay.engine.players import PlayersFromSpecs
from perfectplay.engine.spec import MAX_THREADS, describe, parse_spec
from perfectplay.engine.sprt import SprtTest
from perfectplay.errors import BadOption

# Random games played to find the longest when --opening-plies is past every game's end.
RANDOM_GAMES = 200
# The longest game a match plays before it adjudicates a draw.
LONGEST_GAME = 10_000


@click.command("match")
@click.argument("game_name", metavar="GAME")
@game_options
@click.option("--first", "first_text", default="", help="first player: e.g. 'time=0.1' or 'uci=stockfish'")
@click.option("--second", "second_text", default="", help="second player, e.g. 'null-move=off'")
@click.option("--time", "time_limit", type=float, default=None, help="seconds per move for both players")
@click.option("--depth", type=int, default=None, help="plies per move for both players")
@click.option("--nodes", "node_limit", type=int, default=None, help="nodes per move for both players")
@click.option("--threads", type=int, default=1, show_default=True,
              help=f"Lazy SMP processes per engine (at most {MAX_THREADS})")
@click.option("--pairs", type=int, default=100, show_default=True, help="most game pairs to play")
@click.option("--openings", "openings_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="file of opening positions, one a line (default: random ones)")
@click.option("--opening-plies", type=int, default=2, show_default=True,
              help="random moves from the start in each random opening")
@click.option("--seed", type=int, default=1, show_default=True, help="seed of the random openings")
@click.option("--elo0", type=float, default=0.0, show_default=True, help="SPRT: Elo under H0")
@click.option("--elo1", type=float, default=10.0, show_default=True, help="SPRT: Elo under H1")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="SPRT: false-positive rate")
@click.option("--beta", type=float, default=0.05, show_default=True, help="SPRT: false-negative rate")
@click.option("--max-plies", type=int, default=DEFAULT_MAX_PLIES, show_default=True,
              help=f"adjudicate a longer game as a draw (at most {LONGEST_GAME:,})")
@click.option("--forfeit", is_flag=True, default=False,
              help="a player that answers with no move or an illegal one loses that game "
                   "(default: the match stops with the error)")
@click.option("--concurrency", type=int, default=1, show_default=True,
              help="game pairs played at once, each in its own process (one per core); "
                   f"pairs at once times threads per engine at most {MAX_THREADS}")
@click.option("--quiet", is_flag=True, default=False, help="print only the summary")
def match_command(game_name: str, first_text: str, second_text: str, time_limit: float | None,
                  depth: int | None, node_limit: int | None, threads: int, pairs: int,
                  openings_file: Path | None, opening_plies: int, seed: int, elo0: float, elo1: float,
                  alpha: float, beta: float, max_plies: int, forfeit: bool, concurrency: int,
                  quiet: bool,
                  **kwargs: Any) -> None:
    """Play two engines against each other in colour-swapped game pairs and stop by SPRT.

    Each player is a comma-separated list of changes to the default engine: layer switches
    (pvs, aspiration, killers, history, quiescence, null-move, verify, lmr, tt = on/off), limits
    (depth, nodes, time), threads, tt-size, window, reduction, lmr-from; or uci=COMMAND for an
    external UCI engine, with option.NAME=VALUE for its setoption commands; or mcts for Monte
    Carlo tree search (nodes = simulations per move), the default for a game too big to solve
    that has no evaluation function (engine: the engine there). Results are from the first
    player's view.
    """
    if pairs < 1 or max_plies < 1 or opening_plies < 0:
        raise BadOption(f"--pairs {pairs}, --max-plies {max_plies} and --opening-plies "
                        f"{opening_plies} must be positive")
    if concurrency < 1:
        raise BadOption(f"--concurrency {concurrency}: at least one game pair at a time is needed")
    if max_plies > LONGEST_GAME:
        # A game that never ends (a user's, or a loopy one between two cautious players) would
        # otherwise play on for ever (the fuzz harness: --max-plies 10^30).
        raise BadOption(f"--max-plies {max_plies}: give at most {LONGEST_GAME:,} plies")
    if threads > MAX_THREADS:
        raise BadOption(f"--threads {threads}: give 1 to {MAX_THREADS} search processes per engine")
    game, _ = load(game_name, (), pick_options(kwargs))
    settings = Settings(threads=threads)
    # A game too big to solve with no evaluation: Monte Carlo by default ("engine" for the engine).
    mcts = estimator(game, searched=False) == MCTS
    if (time_limit, depth, node_limit) == (None, None, None):
        # A quick default that every game can afford (Monte Carlo: simulations per move).
        node_limit, depth = (1000, None) if mcts else (None, 4)
    limits = within_reach(SearchLimits(depth=depth, nodes=node_limit, time=time_limit))
    specs = parse_spec(first_text, settings, limits, mcts), parse_spec(second_text, settings, limits, mcts)
    _check_processes(specs, concurrency)
    test = SprtTest(elo0, elo1, alpha, beta)
    if openings_file is not None:
        text = read_text(str(openings_file), f"--openings {str(openings_file)!r}")
        openings = read_openings(game, text, str(openings_file))
    else:
        openings = random_openings(game, pairs, opening_plies, seed)
        if not openings:
            raise BadOption(_too_many_plies(game, opening_plies, seed))
    click.echo(f"first:  {describe(specs[0])}\nsecond: {describe(specs[1])}")
    plural = "s" if len(openings) != 1 else ""
    click.echo(f"{len(openings)} opening{plural}; SPRT H0 Elo {elo0:g} vs H1 Elo {elo1:g}, "
               f"alpha {alpha:g}, beta {beta:g}"
               + (f"; {concurrency} pairs at a time" if concurrency > 1 else ""))
    make_players = PlayersFromSpecs(game, *specs)
    players = make_players()  # with concurrency too: a bad UCI command fails here, at once
    progress = None if quiet else _progress(test)
    with _sigterm_as_interrupt():
        if concurrency > 1:
            for player in players:  # each worker makes its own
                player.close()
            state, verdict = run_parallel_match(game, make_players, openings, workers=concurrency,
                                                test=test, max_pairs=pairs, max_plies=max_plies,
                                                forfeit=forfeit, on_pair=progress)
        else:
            try:
                state, verdict = run_match(game, *players, openings, test=test, max_pairs=pairs,
                                           max_plies=max_plies, forfeit=forfeit, on_pair=progress)
            finally:
                for player in players:
                    player.close()
    for line in summary(state, verdict, test, pairs):
        click.echo(line)
    if state.interrupted:
        raise SystemExit(130)  # as every command ends on Ctrl-C, after the summary here


def _check_processes(specs: tuple[Any, ...], concurrency: int) -> None:
    """Each pair at once runs both players' Lazy SMP processes: keep the total within
    MAX_THREADS (1,000 processes once drove the load average to 86 on 2 cores)."""
    threads = max(spec.settings.threads for spec in specs)
    if concurrency * threads > MAX_THREADS:
        raise BadOption(f"--concurrency {concurrency} with {threads} threads per engine would run "
                        f"{concurrency * threads:,} searches at once; at most {MAX_THREADS} are allowed")


def _too_many_plies(game: Any, plies: int, seed: int) -> str:
    """Why no random opening of ``plies`` plies is left, with the limit a user can act on:
    the longest of a sample of random games from the start, and the game's declared bound."""
    import random
    rng = random.Random(seed)
    longest = 0
    for _ in range(RANDOM_GAMES):
        position, length = game.start(), 0
        while length < plies and game.outcome(position) is None and game.moves(position):
            position = game.play(position, rng.choice(list(game.moves(position))))
            length += 1
        longest = max(longest, length)
    bound = game.properties.max_length
    declared = f"; {game.name} games last at most {bound} plies" if bound is not None else ""
    return (f"--opening-plies {plies}: every random game of {game.name} had ended by then (the "
            f"longest of {RANDOM_GAMES} lasted {longest} plies{declared}); give --opening-plies "
            f"{max(longest - 1, 0)} or fewer")


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """A match stopped by SIGTERM (a long run in the background, where Ctrl-C cannot reach)
    still prints what it played, as after Ctrl-C."""
    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _progress(test: SprtTest) -> Any:
    lower, upper = test.bounds

    def show(state: MatchState, ratio: float) -> None:
        # The thinking times so far, so a long run shows whether the time per move is equal.
        thinking = state.thinking
        seconds = (f"  s/move {thinking.mean(0):.3f} / {thinking.mean(1):.3f}"
                   if thinking.moves[0] and thinking.moves[1] else "")
        click.echo(f"pair {state.pairs}: W {state.wins} D {state.draws} L {state.losses}  "
                   f"LLR {ratio:+.2f} [{lower:+.2f}, {upper:+.2f}]{seconds}")
    return show


def summary(state: MatchState, verdict: str | None, test: SprtTest, max_pairs: int) -> list[str]:
    from perfectplay.engine.sprt import llr
    lower, upper = test.bounds
    ratio = llr(state.pentanomial, test.elo0, test.elo1)
    elo = state.elo()
    lines = [f"games {2 * state.pairs} ({state.pairs} pairs): W {state.wins} D {state.draws} "
             f"L {state.losses} (first player's view)",
             f"pentanomial [LL, LD+DL, LW+DD+WL, DW+WD, WW]: {state.pentanomial}"]
    if state.adjudicated:
        lines.append(f"{state.adjudicated} games adjudicated drawn at the ply limit")
    if state.forfeits:
        lines.append(f"{len(state.forfeits)} games lost by forfeit; the first: {state.forfeits[0]}")
    thinking = state.thinking
    if thinking.moves[0] and thinking.moves[1]:
        lines.append("seconds per move (wall clock, mean / longest): "
                     f"first {thinking.mean(0):.3f} / {thinking.longest[0]:.3f}, "
                     f"second {thinking.mean(1):.3f} / {thinking.longest[1]:.3f}")
    if elo is not None:
        lines.append(f"Elo {_elo_text(elo.elo)} (95% interval {_elo_text(elo.low)} to {_elo_text(elo.high)})")
    outcome = {"H1": f"H1 accepted: the first player is stronger (Elo >= {test.elo1:g} favoured)",
               "H0": f"H0 accepted: no gain of {test.elo1:g} Elo (Elo <= {test.elo0:g} favoured)",
               None: f"inconclusive after {max_pairs} pairs"}[verdict]
    if state.interrupted:
        outcome = f"stopped after {state.pairs} pairs, before the SPRT decided"
    lines.append(f"LLR {ratio:+.2f} (bounds {lower:+.2f}, {upper:+.2f}): {outcome}")
    return lines


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}" if abs(value) >= 0.05 else "0.0"

"""play: a game against the computer in the terminal, or two computers against each other."""

from __future__ import annotations

import random
import sys
from typing import Any

import click

from perfectplay import registry
from perfectplay.cli.common import PositionCommand, database_option, game_options, pick_options, resolve
from perfectplay.cli.watchdog import arm_call_limit
from perfectplay.errors import BadOption, PerfectPlayError
from perfectplay.play.analyst import DEFAULT_THINK_TIME, VALUE_PROBE_CPU, Analyst
from perfectplay.play.game_loop import Computer, HumanMatch, watch
from perfectplay.play.levels import DEFAULT_LEVEL, LEVELS, level_named, levels_help
from perfectplay.play.session import Session
from perfectplay.play.terminal import ConsoleTerminal
from perfectplay.store.method import store_for

LEVEL_CHOICE = click.Choice(list(LEVELS), case_sensitive=False)


EPILOG = f"Levels, as the chance per move of a deliberate mistake: {levels_help()}."


# The longest think time or delay between moves: a day.
LONGEST_WAIT = 24 * 3600.0


@click.command("play", epilog=EPILOG, cls=PositionCommand)
@click.argument("game", required=False)
@click.argument("position", nargs=-1)
@game_options
@click.option("--first", type=click.Choice(["human", "computer"]), default="human",
              show_default=True, help="who moves first")
@click.option("--level", type=LEVEL_CHOICE, default=DEFAULT_LEVEL, show_default=True,
              help="the computer's strength")
@click.option("--seed", type=int, default=None, help="make the computer's choices reproducible")
@click.option("--quiet", is_flag=True, default=False, help="the computer keeps its view to itself")
@click.option("--think-time", type=float, default=DEFAULT_THINK_TIME, show_default=True,
              help="seconds per move for games too big to solve exactly")
@click.option("--computer-vs-computer", "versus", is_flag=True, default=False,
              help="watch two computers play a whole game")
@click.option("--level-a", type=LEVEL_CHOICE, default=None,
              help="first computer's level (default --level)")
@click.option("--level-b", type=LEVEL_CHOICE, default=None,
              help="second computer's level (default --level)")
@click.option("--delay", type=float, default=0.5, show_default=True,
              help="seconds between moves with --computer-vs-computer")
@click.option("--load", "load_file", default=None, metavar="FILE",
              help="go on with a game written by the save command (its game, position and moves)")
@database_option
def play_command(game: str | None, position: tuple[str, ...], first: str, level: str,
                 seed: int | None, quiet: bool, think_time: float, versus: bool,
                 level_a: str | None, level_b: str | None, delay: float, load_file: str | None,
                 database: str | None,
                 **options: Any) -> None:
    """Play GAME against the computer: can you beat it?

    Type moves in the game's notation (e.g. `1 3` takes 3 sticks from row 1 in the
    matchgame); hint, moves, undo, help and quit are commands. GAME may also be your own
    Game subclass, written module:Class or file.py:Class. Without GAME, lists the games.
    """
    if think_time <= 0 or delay < 0:
        raise BadOption("--think-time must be positive and --delay not negative")
    if not (think_time <= LONGEST_WAIT and delay <= LONGEST_WAIT):  # nan too
        # Timers and sleeps refuse what a platform's time_t cannot hold (1e308 overflowed).
        raise BadOption(f"--think-time {think_time:g} and --delay {delay:g}: give at most "
                        f"{LONGEST_WAIT:,.0f} seconds (a day)")
    if (level_a or level_b) and not versus:
        raise BadOption("--level-a and --level-b set the two computers of --computer-vs-computer; "
                        "against you the computer plays at --level")
    chosen = pick_options(options)
    saved = None
    if load_file is not None:
        if game is not None:
            raise BadOption(f"--load {load_file!r} names its own game; give no GAME with it")
        saved = read_saved(load_file)
        game, chosen, position = saved["game"], saved["options"], tuple(saved["position"].split())
    if game is None:
        game = pick_game()
        if game is None:
            return
    text = " ".join(position) if position else None
    # A search stops at the think time by itself, but not inside one slow call of a user's
    # game code (a moves() that never returns, from the first check of the game on): that
    # is cut off a little after it. Built-in games' code is never counted.
    arm_call_limit(click.get_current_context(), think_time, f"--think-time {think_time:g}")
    loaded, start = resolve(game, chosen).load(text)
    session = Session(loaded, start)
    human = 0 if first == "human" else 1
    if saved is not None:
        replay(session, saved["moves"], load_file or "")
        human = saved["human_side"]
    origin = {"game": game, "options": {k: v for k, v in chosen.items() if v not in (None, False)},
              "position": loaded.format_position(start)}
    if database is not None:
        store_for(database, loaded)  # a bad file is refused before the game starts
    # The perfect level looks longer for the start position's value (VALUE_PROBE_CPU), so
    # that it proves its moves wherever exact play is in reach.
    levels = (level_a or level, level_b or level) if versus else (level,)
    perfect = any(level_named(name).mistake_rate == 0 for name in levels)
    analyst = Analyst(loaded, think_time=think_time, database=database,
                      value_probe=VALUE_PROBE_CPU if perfect else None)
    if database is not None:
        click.echo(f"Answers come from database {database} for the positions it holds, "
                   "instantly; other positions are searched.")
    rng = random.Random(seed)
    terminal = ConsoleTerminal()
    if versus:
        computers = (Computer(level_named(level_a or level), rng),
                     Computer(level_named(level_b or level), rng))
        watch(session, analyst, computers, terminal, delay=delay, quiet=quiet)
    else:
        computer = Computer(level_named(level), rng)
        HumanMatch(session, analyst, computer, human, terminal, quiet, origin).run()
    if database is not None:
        click.echo(f"{analyst.from_database} positions were answered from database {database}.")


def read_saved(path: str) -> dict[str, Any]:
    """A game written by the save command, checked field by field."""
    import json
    try:
        with open(path, encoding="utf-8") as file:
            record = json.load(file)
    except OSError as problem:
        raise BadOption(f"--load {path!r}: {problem.strerror or problem}") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise BadOption(f"--load {path!r}: not a game saved by perfectplay (not JSON)") from None
    fields = {"game": str, "options": dict, "position": str, "moves": list, "human_side": int}
    if not isinstance(record, dict) or any(not isinstance(record.get(name), kind)
                                           for name, kind in fields.items()):
        raise BadOption(f"--load {path!r}: not a game saved by perfectplay (it needs "
                        f"{', '.join(fields)})")
    if record["human_side"] not in (0, 1):
        raise BadOption(f"--load {path!r}: human_side must be 0 or 1")
    return record


def replay(session: Session, moves: list[Any], path: str) -> None:
    """Play the saved moves again, each checked as if typed."""
    for number, text in enumerate(moves, start=1):
        move = session.parse(str(text))
        if not session.is_legal(move):
            raise BadOption(f"--load {path!r}: move {number} ({text!r}) is not legal there")
        session.play(move)


def pick_game() -> str | None:
    """List the games; on a terminal, ask which one to play."""
    click.echo("Games you can play:")
    for number, entry in enumerate(registry.entries(), start=1):
        click.echo(f"  {number}. {entry.name:<10} {entry.summary}")
    if not sys.stdin.isatty():
        example = registry.entries()[0].name  # the first listed, so that no line names a game
        click.echo(f"Start one with: perfectplay play GAME, e.g. perfectplay play {example}")
        return None
    while True:
        try:
            answer = input("Which game? (number or name; Enter to leave) ").strip()
        except (EOFError, KeyboardInterrupt):
            click.echo("\nBye.")
            return None
        if not answer:
            return None
        chosen = _entry_for(answer)
        if chosen is not None:
            return chosen
        click.echo(f"{answer!r} is not one of the games: give a number from 1 to "
                   f"{len(registry.entries())} or a name.")


def _entry_for(answer: str) -> str | None:
    if answer.isdigit() and 1 <= int(answer) <= len(registry.entries()):
        return registry.entries()[int(answer) - 1].name
    try:
        return registry.find(answer).name
    except PerfectPlayError:
        return None

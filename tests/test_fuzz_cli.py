"""The fuzz harness (issue 13, "Done when"): a few hundred bad and extreme inputs across every
command, run in-process through ``perfectplay.cli.main``. None may print a traceback or an
internal error, none may run past 10 s, and none may pass a node or time limit it was given.

The cases are built from fixed lists and a seeded sample of their combinations, so a failure
replays exactly; each failure names the command line."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Ran, run_main

BIG = "1" + "0" * 30
GAMES = ["takeaway", "nim", "matchgame", "crates", "coins", "claim", "tictactoe", "octal", "connect4"]
# Position text: negative, not a number, empty, huge, malformed boards, odd characters.
POSITIONS = ["-1", "-5", "abc", "", " ", "0", "00", BIG, "3 -9 1", "1.5", "1e5", "X", "XXX/OOO/XXX",
             "ZZZ/.../...", "1212121", "8", "9" * 40, "x..x", "..x....", "\u00e9", "1,2,,3", "--",
             "0 0", "2 2"]
GAME_OPTIONS: list[tuple[str, ...]] = [
    ("--take", ""), ("--take", "0"), ("--take", BIG), ("--take", "a,b"), ("--take", "-1"),
    ("--block", ""), ("--block", "up"), ("--block", "right"), ("--code", ""), ("--code", "0.9z"),
    ("--code", "0.77"), ("--code", "4.0"), ("--width", "0"), ("--width", "100"), ("--height", "-1"),
    ("--width", "3", "--height", "3"), ("--misere",),
]
SEARCH_OPTIONS: list[tuple[str, ...]] = [
    ("--depth", "0"), ("--depth", "-1"), ("--depth", BIG), ("--nodes", "0"), ("--nodes", "-5"),
    ("--nodes", BIG), ("--time", "0"), ("--time", "-1"), ("--time", "nan"), ("--time", "inf"),
    ("--tt-size", "-5"), ("--tt-size", "0"), ("--tt-size", ""), ("--tt-size", BIG),
    ("--tt-size", "abc"), ("--algorithm", "bogus"), ("--algorithm", "grundy"),
    ("--algorithm", "table"), ("--algorithm", "minimax", "--nodes", "2000"),
    ("--algorithm", "grundy", "--depth", "3"), ("--outcome-only",), ("--engine", "python"),
]
# Limits whose keeping is checked from the JSON the command prints.
NODE_LIMITS = ["1", "3", "100", "4097"]
TIME_LIMITS = ["0.01", "0.3"]
HANG_SECONDS = 10


def cases() -> Iterator[tuple[str, ...]]:
    yield ()
    yield ("--version",)
    yield ("--help",)
    yield ("bogus-command",)
    for command in ("solve", "analyze", "table", "compare", "perft", "verify", "grundy", "octal",
                    "play", "games", "tour", "contest", "serve", "tree", "match", "db"):
        yield (command, "--help")
    for args in (("db", "info", "/nonexistent/x.db"), ("db", "info", os.devnull), ("match", "bogus"),
                 ("solve", "tictactoe", "--db", "/nonexistent/x.db"), ("db", "bogus")):
        yield args
    for game, position in (("tictactoe", "-1"), ("nim", BIG), ("crates", "3 -9"), ("claim", "")):
        yield ("tree", game, position, "--svg", os.devnull)
    yield ("tree", "tictactoe", "--depth", BIG, "--svg", os.devnull)
    yield ("serve", "--port", "-1")
    for game in GAMES:
        # Solving Connect Four from near the start is real work of minutes, not a hang.
        bounded = ("--algorithm", "id", "--time", "1") if game == "connect4" else ()
        yield ("solve", game, *bounded)
        yield ("grundy", game)
        for position in POSITIONS:
            yield ("solve", game, position, *bounded)
    rng = random.Random(13)
    for _ in range(120):
        command = rng.choice(["solve", "analyze", "compare", "grundy", "perft"])
        extra = rng.choice(GAME_OPTIONS) + (rng.choice(SEARCH_OPTIONS) if command in
                                            ("solve", "analyze") else ())
        depth = ("--depth", rng.choice(["0", "1", "2", "-3", BIG])) if command == "perft" else ()
        yield (command, rng.choice(GAMES), rng.choice(POSITIONS), *extra, *depth)
    for sizes in ("1..5", "5..1", "a..b", "-5..5", f"1..{BIG}", "", "1..", "0..0"):
        yield ("table", "takeaway", sizes)
    yield ("table", "tictactoe", "1..3")
    for code, upto in (("0.77", BIG), ("0.77", "-1"), ("", "5"), ("0.9", "5"), ("abc", "5"),
                       ("0.137", "50"), ("4.0", "10"), ("0." + "7" * 40, "-3")):
        yield ("octal", code, "--upto", upto)
    # A long code is real work (minutes to 16,384 values; a progress bar shows it and Ctrl-C
    # stops it at once): here bounded by --max-terms.
    yield ("octal", "0." + "7" * 12, "--upto", "20", "--max-terms", "1024")
    for cases_given in ("-1", "0", BIG, "x"):
        yield ("verify", "nim", "--cases", cases_given)
    yield ("verify", "bogus")
    yield ("compare", "tictactoe", "--algorithms", "grundy")
    yield ("compare", "nim", "3", "--tt-size", "-5")
    yield ("compare", "nim", "3", "--algorithms", "")
    yield ("solve", "crates", "3", "9", "1", "--pv-limit", "-1")
    yield ("solve", "crates", "--pv")
    yield ("play", "matchgame", "--level-a", "easy")
    yield ("play", "nim", "-1")
    yield ("play", ":")
    yield ("play", "nosuchfile.py:Game")
    yield ("play", "bogus")
    yield ("play", "tictactoe", "--think-time", "0")
    yield ("play", "tictactoe", "--think-time", "-1")
    yield ("play", "tictactoe", "--delay", "-1", "--computer-vs-computer")


def limit_cases() -> Iterator[tuple[str, ...]]:
    for limit in NODE_LIMITS:
        for game, position in (("tictactoe", ""), ("nim", "3 4 5"), ("connect4", "44")):
            yield ("solve", game, *([position] if position else []), "--algorithm", "id",
                   "--engine", "python", "--nodes", limit, "--json")
    for seconds in TIME_LIMITS:
        yield ("solve", "connect4", "--algorithm", "id", "--engine", "python", "--time", seconds,
               "--json")
        yield ("analyze", "connect4", "--algorithm", "id", "--engine", "python", "--time", seconds,
               "--json")


PLAY_SCRIPTS = [
    "\n".join(["", "garbage", "1 7", "hint", "undo", "moves", "board", "help", "9 9", "-1",
               "new", "quit"]),
    "\x00\n\u00e9\n" + "1 " * 500 + "\nquit\n",
    "",
]


class Hang(Exception):
    """Raised by the watchdog when one case runs past HANG_SECONDS."""


def run_guarded(args: tuple[str, ...], stdin: str = "") -> tuple[Ran, float]:
    def alarm(signum: int, frame: Any) -> None:
        raise Hang(" ".join(args))

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, HANG_SECONDS)
    started = time.perf_counter()
    try:
        ran = run_main(*args, stdin=stdin)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return ran, time.perf_counter() - started


def check(ran: Ran, args: tuple[str, ...]) -> None:
    printed = ran.stdout + ran.stderr
    assert "Traceback" not in printed, args
    assert "internal error" not in ran.stderr, (args, ran.stderr)
    assert ran.code in (0, 1, 2), (args, ran.code, ran.stderr)
    if ran.code == 2:
        assert ran.stderr.startswith("error: ") and ran.stderr.count("\n") == 1, (args, ran.stderr)


ALL_CASES = list(dict.fromkeys(cases()))


def test_the_harness_has_a_few_hundred_cases() -> None:
    assert len(ALL_CASES) + len(list(limit_cases())) + len(PLAY_SCRIPTS) * 3 >= 300


@pytest.mark.parametrize("chunk", range(4))
def test_no_input_ends_in_a_traceback_or_a_hang(chunk: int) -> None:
    for args in ALL_CASES[chunk::4]:
        ran, _ = run_guarded(args)
        check(ran, args)


@pytest.mark.parametrize("game", ["matchgame", "tictactoe", "crates"])
def test_no_typed_line_ends_a_game_in_a_traceback(game: str) -> None:
    for script in PLAY_SCRIPTS:
        ran, _ = run_guarded(("play", game), stdin=script)
        check(ran, ("play", game, repr(script)))
        assert ran.code == 0


def test_no_limit_is_ignored() -> None:
    for args in limit_cases():
        ran, elapsed = run_guarded(args)
        check(ran, args)
        assert ran.code == 0, (args, ran.stderr)
        stats = json.loads(ran.stdout).get("stats")
        if "--nodes" in args:
            limit = int(args[args.index("--nodes") + 1])
            assert stats["nodes"] + stats["extra_nodes"] <= limit + 1, (args, stats)
        if "--time" in args:
            seconds = float(args[args.index("--time") + 1])
            assert elapsed < seconds + 1.0, (args, elapsed)  # a generous guard, not a benchmark

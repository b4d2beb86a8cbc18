"""The fuzz harness: bad and extreme inputs for every command and every
game, run in-process through ``perfectplay.cli.main``. None may print a traceback or an
internal error, none may run past HANG_SECONDS, and none may pass a node or time limit it
was given; a bad input is one line and exit 2.

The inputs are the ones users give and tests rarely do: relative paths, run from another
working directory (with files beside it, under it and above it), binary bytes on standard
input and in files, user games that raise, loop, exit or return wrong types, extreme numbers.

The full list (every command with every game and every bad input: 3,327 commands, 3 min on
an idle machine) runs on demand with `make fuzz` (PERFECTPLAY_FUZZ=full); the tests run the
fixed cases and a seeded sample of the rest, so a failure replays exactly; each failure names
its command line."""

from __future__ import annotations

import json
import os
import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import Ran, run_main

from perfectplay import registry

BIG = "1" + "0" * 30
FULL = os.environ.get("PERFECTPLAY_FUZZ") == "full"
# Cases of the generated list the tests run (all of them under `make fuzz`).
SAMPLE = 240
HANG_SECONDS = 20  # generous: the machine running the tests may be busy on both cores

BUILT_IN = [entry.name for entry in registry.entries()]
# Games from files, named as a user would: relative to the working directory, below it,
# above it, missing, broken.
USER_GAMES = ["buggy.py:ListKey", "buggy.py:OutcomeWord", "buggy.py:MovesRaise",
              "games/buggy.py:DeepListKey", "../outside.py:Sticks", "endless.py:Endless",
              "quits.py:Game", "raises.py:Game", "binary.py:Game", "missing.py:Game",
              "buggy.py:Missing", "buggy.py:"]
# OpenSpiel's games by name, good and bad (the full list only, so that the sample `make test`
# draws stays the same; fixed_cases() runs a few of them every time).
OPENSPIEL_GAMES = ["openspiel:tic_tac_toe", "openspiel:kuhn_poker", "openspiel:bogus",
                   "openspiel:breakthrough(rows=4,columns=4)", "openspiel:breakthrough(rows=x"]
if FULL:
    USER_GAMES += OPENSPIEL_GAMES
# Games where exact work from the start can be long: their commands get a bound.
LONG = {"connect4", "chess", "kalah", "dots", "hex", "othello", "endless.py:Endless",
        "openspiel:breakthrough(rows=4,columns=4)"}

POSITIONS = ["-1", "-8 -15", "abc", "", " ", "0", BIG, "9" * 40, "1.5", "XXX/OOO/XXX", "1212121",
             "\u00e9", "1,2,,3", "--", "\x00"]
SEARCH_INPUTS: list[tuple[str, ...]] = [
    ("--depth", BIG), ("--depth", "0"), ("--nodes", "1", "--json"), ("--nodes", "-5"),
    ("--time", "1e308"), ("--time", "nan"), ("--time", "0"), ("--tt-size", BIG), ("--tt-size", "abc"),
    ("--algorithm", "bogus"), ("--algorithm", "engine"), ("--algorithm", "retro"),
    ("--algorithm", "grundy"), ("--algorithm", "table"), ("--outcome-only",), ("--engine", "compiled"),
    ("--db", "missing/x.db"), ("--db", "binary.bin"), ("--db", "buggy.py/x.db"), ("--mate", "0"),
]
if FULL:  # df-pn and Monte Carlo on every game (the full list only, as above)
    SEARCH_INPUTS += [("--algorithm", "pns"), ("--algorithm", "mcts"),
                      ("--algorithm", "mcts", "--nodes", "50")]
COMMAND_INPUTS: dict[str, list[tuple[str, ...]]] = {
    "solve": [()] + [(p,) for p in POSITIONS] + SEARCH_INPUTS
             + [("--book", "binary.bin"), ("--file", "binary.bin"), ("--file", "missing.txt")],
    "analyze": [()] + [(p,) for p in POSITIONS[:8]] + SEARCH_INPUTS,
    "compare": [(), ("-1",), (BIG,), ("--algorithms", "minimax"), ("--algorithms", "bogus"),
                ("--algorithms", ""), ("--node-cap", "-1"), ("--node-cap", "1"), ("--tt-size", "-5"),
                ("1..5", "--plot", "missing/x.svg"), ("1..5", "--plot", "x.txt"),
                ("1..3", "--plot", "out.svg", "--node-cap", "5000")],
    "perft": [("--depth", depth) for depth in ("0", "-1", "2", "x")] + [("-1", "--depth", "1")],
    "verify": [("--cases", cases) for cases in ("1", "0", "-1", BIG, "x")]
              + [("--cases", "1", "--seed", BIG)],
    "play": [(), ("-1",), ("--first", "computer", "--level", "easy"), ("--think-time", "1e308"),
             ("--load", "binary.bin"), ("--load", "missing/x.json"), ("--level", "bogus")],
    "grundy": [(), ("-1",), (BIG,), ("abc",), ("3 -9",)],
    "tree": [("--svg", "out.svg"), ("--svg", "missing/out.svg"), ("--depth", BIG, "--svg", "out.svg"),
             ("-1", "--svg", "out.svg"), ("--svg", "buggy.py/out.svg")],
    "match": [("--second", "threads=1000"), ("--second", "pvs=on,pvs=off"), ("--opening-plies", "100"),
              ("--openings", "binary.bin"), ("--openings", "missing.txt"), ("--concurrency", "1000"),
              ("--pairs", "0"), ("--max-plies", BIG),
              ("--second", "time=nan"), ("--threads", "0")],
    "table": [("1..5",), ("5..1",), (f"1..{BIG}",), ("a..b",), ("",), ("0..0",)],
}
# Depths whose count no machine finishes, in games whose perft refuses them (in a game that
# ends, a huge depth is the whole game tree: minutes of announced work for Nim, not a bad input).
ENDLESS_PERFT = {"connect4", "chess", "dodgem", "chopsticks", "morris3", "tapatan", "endless.py:Endless"}
# A bound for the games in LONG: legitimate work, but not a test's (half a second: a case
# checks for a clean end, not for the answer). compare's goes to every
# game (a huge take-away pile is minutes of capped searches), before the case's own options.
BOUNDS: dict[str, tuple[str, ...]] = {"solve": ("--time", "0.5"), "analyze": ("--time", "0.5")}
COMPARE_BOUND = ("--node-cap", "20000")
MATCH_BOUND = ("--pairs", "1", "--max-plies", "40", "--depth", "1", "--quiet")
# Typed at `play`, and read by the commands that read standard input.
SCRIPTS: list[bytes] = [
    b"quit\n",
    b"\n".join([b"", b"garbage", b"1 7", b"hint", b"undo", b"moves", b"board", b"help", b"9 9", b"-1",
                b"new", b"quit"]),
    b"\x00\n\xc3\xa9\n" + b"1 " * 500 + b"\nquit\n",
    b"\xff\xfe\x80 binary \x00\xfe\n" * 3 + b"quit\n",
    b"",
]


def generated_cases() -> Iterator[tuple[tuple[str, ...], bytes]]:
    """Every command with every game and every bad input (the full list)."""
    for command, inputs in COMMAND_INPUTS.items():
        for game in BUILT_IN + USER_GAMES:
            for given in inputs:
                if command == "play" and game in LONG and "computer" in given:
                    continue  # a computer's move there is real thinking, not a bad input
                if command == "perft" and given == ("--depth", "x") and game in ENDLESS_PERFT:
                    given = ("--depth", BIG)
                bound = BOUNDS.get(command, ()) if game in LONG else ()
                first = {"compare": COMPARE_BOUND, "match": MATCH_BOUND}.get(command, ())
                stdin = SCRIPTS[len(given) % len(SCRIPTS)] if command == "play" else b""
                yield (command, game, *first, *given, *bound), stdin


def fixed_cases() -> Iterator[tuple[tuple[str, ...], bytes]]:
    """Commands without a game, and the cases every run keeps."""
    for args in [(), ("--version",), ("--help",), ("bogus-command",), ("serve", "--port", "-1"),
                 ("db", "info", "binary.bin"), ("db", "info", "missing/x.db"), ("db", "bogus"),
                 ("book", "info", "binary.bin"), ("book", "info", "missing.book"),
                 ("games", "--json"), ("play",), ("play", ":"), ("match", "bogus")]:
        yield args, b""
    for command in ["solve", "analyze", "table", "compare", "perft", "verify", "grundy", "octal",
                    "play", "games", "tour", "contest", "serve", "tree", "match", "db", "uci", "book",
                    "tablebase"]:
        yield (command, "--help"), b""
    for script in SCRIPTS:
        for args in (("contest", "crates"), ("contest", "claim"), ("uci", "chess"),
                     ("play", "tictactoe"), ("play", "matchgame"), ("play", "crates")):
            yield args, script
    for code, upto in (("0.77", BIG), ("0.77", "-1"), ("", "5"), ("0.9", "5"), ("abc", "5"),
                       ("0.137", "50"), ("4.0", "10"), ("0." + "7" * 40, "-3"), ("0.77", "200000"),
                       ("0.37", "10000000"), ("\u00e9", "5")):
        yield ("octal", code, "--upto", upto), b""
    yield ("octal", "0." + "7" * 12, "--upto", "20", "--max-terms", "1024"), b""
    yield ("solve", "crates", "3", "9", "1", "--pv-limit", "-1"), b""
    yield ("solve", "crates", "--file", "binary.bin"), b""
    yield ("solve", "crates", "--file", "games/crates.txt"), b""
    yield ("play", "tictactoe", "--think-time", "-1"), b""
    for game in OPENSPIEL_GAMES:
        yield ("solve", game, "--time", "0.5"), b""
    yield ("play", "openspiel:tic_tac_toe", "--first", "computer"), SCRIPTS[1]
    yield ("solve", "connect4", "--algorithm", "pns", "--time", "0.5"), b""
    yield ("analyze", "othello", "--algorithm", "mcts", "--nodes", "50", "--json"), b""
    yield ("play", "tictactoe", "--delay", "-1", "--computer-vs-computer"), b""


def chosen_cases() -> list[tuple[tuple[str, ...], bytes]]:
    generated = list(dict.fromkeys(generated_cases()))
    if not FULL:
        generated = random.Random(26).sample(generated, SAMPLE)
    return list(dict.fromkeys(fixed_cases())) + generated


ALL_CASES = chosen_cases()

BUGGY_GAMES = (Path(__file__).parent / "fixtures" / "buggy_games.py").read_text()
FILES = {
    "buggy.py": BUGGY_GAMES,
    "games/buggy.py": BUGGY_GAMES,
    "endless.py": "from perfectplay import Game\n\nclass Endless(Game):\n    def start(self): return 0\n"
                  "    def moves(self, count): return [1, 2]\n"
                  "    def play(self, count, step): return count + step\n",
    "quits.py": "import sys\nsys.exit(5)\n",
    "raises.py": "raise RuntimeError('not ready')\n",
    "games/crates.txt": "3\n3 9 1\n",
}
OUTSIDE = ("from perfectplay import Game\n\nclass Sticks(Game):\n    def start(self): return 12\n"
           "    def moves(self, pile): return [take for take in (1, 2, 3) if take <= pile]\n"
           "    def play(self, pile, take): return pile - take\n")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working directory with the files the cases name by relative paths: beside it,
    under it (games/) and above it (../outside.py), and binary ones."""
    root = tmp_path_factory.mktemp("fuzz")
    (root / "outside.py").write_text(OUTSIDE)
    work = root / "work"
    (work / "games").mkdir(parents=True)
    for name, text in FILES.items():
        (work / name).write_text(text)
    rng = random.Random(21)
    binary = bytes(rng.randrange(256) for _ in range(4096))
    (work / "binary.bin").write_bytes(binary)
    (work / "binary.py").write_bytes(b"\x00\xff" + binary)
    return work


class Hang(Exception):
    """Raised by the watchdog when one case runs past HANG_SECONDS."""


def run_guarded(args: tuple[str, ...], stdin: bytes | str = b"") -> tuple[Ran, float]:
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
    if "internal error: Hang:" in ran.stderr and "; Ctrl-C stops it" in ran.stderr:
        return  # long work said so before it began (how long depends on the machine): no hang
    printed = ran.stdout + ran.stderr
    assert "Traceback" not in printed, args
    assert "internal error" not in ran.stderr, (args, ran.stderr)
    assert ran.code in (0, 1, 2), (args, ran.code, ran.stderr)
    if ran.code == 2:
        last = ran.stderr.splitlines()[-1] if ran.stderr else ""
        assert last.startswith("error: "), (args, ran.stderr)
        assert ran.stderr.count("error: ") == 1, (args, ran.stderr)


def test_the_harness_covers_every_command_and_every_game() -> None:
    from perfectplay.cli import COMMANDS
    everything = list(dict.fromkeys(generated_cases())) + list(fixed_cases())
    assert len(everything) >= 2500
    assert {args[0] for args, _ in everything if args} >= set(COMMANDS)
    named = {part for args, _ in everything for part in args}
    assert set(BUILT_IN) <= named and set(USER_GAMES) <= named
    assert any(b"\xff" in stdin for _, stdin in everything)
    assert len(ALL_CASES) >= 300 or FULL


@pytest.mark.parametrize("chunk", range(4))
def test_no_input_ends_in_a_traceback_or_a_hang(chunk: int, workdir: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)  # relative paths, from another working directory
    for args, stdin in ALL_CASES[chunk::4]:
        ran, _ = run_guarded(args, stdin)
        check(ran, args)


# Limits whose keeping is checked from the JSON the command prints.
NODE_LIMITS = ["1", "3", "100", "4097"]
TIME_LIMITS = ["0.01", "0.3"]


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


def test_no_limit_is_ignored() -> None:
    for args in limit_cases():
        ran, elapsed = run_guarded(args, "")
        check(ran, args)
        assert ran.code == 0, (args, ran.stderr)
        stats = json.loads(ran.stdout).get("stats")
        if "--nodes" in args:
            limit = int(args[args.index("--nodes") + 1])
            assert stats["nodes"] + stats["extra_nodes"] <= limit + 1, (args, stats)
        if "--time" in args:
            seconds = float(args[args.index("--time") + 1])
            assert elapsed < seconds + 1.0, (args, elapsed)  # a generous guard, not a benchmark


@pytest.mark.parametrize("game", ["matchgame", "tictactoe", "crates"])
def test_no_typed_line_ends_a_game_in_a_traceback(game: str) -> None:
    for script in SCRIPTS:
        ran, _ = run_guarded(("play", game), script)
        check(ran, ("play", game, repr(script)))
        assert ran.code == 0

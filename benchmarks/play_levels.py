"""Playing strength by level: a perfect computer against each level.

For every game and level, GAMES seeded games, the perfect player moving first in half of
them. Printed per row: the perfect player's wins, draws and losses, and how often the level
let a won position go (stood on a win at one of its turns and did not win).

    .venv/bin/python benchmarks/play_levels.py [--games 200] [--seed 1]
    .venv/bin/python benchmarks/play_levels.py --connect4-perfect 6 [--seed 1] [--busy 2]

``--connect4-perfect N``: instead, N games of Connect Four 7x6 from the empty board, the
perfect level on both sides (think time 2 s), each move's CPU time (this process) and wall
time: the speed target "no move over 3 s on an idle machine", read in CPU time where the
machine is not idle, and whether any move was an estimate (never, while called
perfect). ``--busy K`` runs K CPU-bound processes beside it.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from perfectplay import registry
from perfectplay.games.crates import CrateLine
from perfectplay.play import LEVELS, Analyst, Computer, Session, play_out

# A CPU-bound process that ends by itself when this one does.
BURNER = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"

# Crate rows change every game (8 to 11 crates valued 0 to 20), so the
# score game is not decided by one memorised line.
GAMES: dict[str, Callable[[random.Random], Any]] = {
    "matchgame 7 5 3 1": lambda rng: registry.load("matchgame"),
    "nim 3 4 5": lambda rng: registry.load("nim", {}, "3 4 5"),
    "tictactoe": lambda rng: registry.load("tictactoe"),
    "claim 12": lambda rng: registry.load("claim", {}, "12"),
    "crates (random rows)": lambda rng: _crates(rng),
}

FRESH_EACH_GAME = {"crates (random rows)"}


def _crates(rng: random.Random) -> Any:
    game = CrateLine([rng.randint(0, 20) for _ in range(rng.randint(8, 11))])
    return game, game.start()


def measure(name: str, level: str, games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    game, start = GAMES[name](rng)
    analyst = Analyst(game)  # one per game, so its cache serves every game of the row
    wins = draws = losses = stood = let_go = 0
    for number in range(games):
        if name in FRESH_EACH_GAME and number:
            game, start = GAMES[name](rng)
            analyst = Analyst(game)
        perfect_side = number % 2
        players = [Computer(LEVELS["perfect"], rng), Computer(LEVELS[level], rng)]
        if perfect_side == 1:
            players.reverse()
        record = play_out(Session(game, start), analyst, (players[0], players[1]))
        winner = record.result.winner
        wins += winner == perfect_side
        draws += winner is None
        losses += winner == 1 - perfect_side
        stood += record.best_stood[1 - perfect_side] > 0
        let_go += record.let_go(1 - perfect_side)
    return {"win": wins / games, "draw": draws / games, "loss": losses / games,
            "stood": stood, "let_go": let_go}


def cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown cpu"


SLOW_MOVE = 3.0


def connect4_perfect(games: int, seed: int) -> None:
    """Perfect against perfect on Connect Four 7x6; every move timed (see the docstring)."""
    game, start = registry.load("connect4")
    cpu_times: list[float] = []
    wall_times: list[float] = []
    estimates = 0
    for number in range(games):
        analyst = Analyst(game)
        rng = random.Random(seed + number)
        computers = (Computer(LEVELS["perfect"], rng), Computer(LEVELS["perfect"], rng))
        session, line = Session(game, start), ""
        while not session.is_over():
            cpu, wall = time.process_time(), time.perf_counter()
            choice, analysis = computers[session.side_to_move].move(analyst, session.position)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            cpu_times.append(cpu)
            wall_times.append(wall)
            estimates += not analysis.exact
            if cpu > SLOW_MOVE or not analysis.exact:
                kind = "slow" if analysis.exact else "ESTIMATE"
                print(f"  {kind} move at {line or 'the empty board'}: {cpu:.2f} s CPU, "
                      f"{wall:.2f} s wall", flush=True)
            line += game.format_move(session.position, choice.move.move)
            session.play(choice.move.move)
        result = session.result()
        assert result is not None
        print(f"game {number + 1}: {len(line)} moves, winner "
              f"{'none' if result.winner is None else result.winner}", flush=True)
    print(f"{len(cpu_times)} moves: CPU mean {statistics.mean(cpu_times):.2f} s, max "
          f"{max(cpu_times):.2f} s, over {SLOW_MOVE:g} s {sum(t > SLOW_MOVE for t in cpu_times)}; "
          f"wall mean {statistics.mean(wall_times):.2f} s, max {max(wall_times):.2f} s, over "
          f"{SLOW_MOVE:g} s {sum(t > SLOW_MOVE for t in wall_times)}; estimates {estimates}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--connect4-perfect", type=int, metavar="GAMES")
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes beside it")
    args = parser.parse_args()
    if args.connect4_perfect:
        burners = [subprocess.Popen([sys.executable, "-c", BURNER])
                   for _ in range(args.busy)]
        try:
            connect4_perfect(args.connect4_perfect, args.seed)
        finally:
            for burner in burners:
                burner.kill()
                burner.wait()
        return
    print(f"machine: {cpu_name()} ({platform.machine()}, {os.cpu_count()} cores), "
          f"Python {platform.python_version()}; {args.games} games per row, seed {args.seed}")
    print()
    print("| game | level | perfect wins | draws | perfect losses | level let a won position go |")
    print("|---|---|---:|---:|---:|---:|")
    started = time.perf_counter()
    for name in GAMES:
        for level in LEVELS:
            row = measure(name, level, args.games, args.seed)
            went = "never stood on a win"
            if row["stood"]:
                share = row["let_go"] / row["stood"]
                went = f"{row['let_go']:.0f} of {row['stood']:.0f} ({share:.0%})"
            print(f"| {name} | {level} | {row['win']:.1%} | {row['draw']:.1%} | "
                  f"{row['loss']:.1%} | {went} |")
    print()
    print(f"total {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

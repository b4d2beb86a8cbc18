"""Connect Four opening book figures.

    .venv/bin/python benchmarks/book.py kernel --stones 5,6,8 --sample 12
        CPU time of an exact score per position, by stones: a seeded random sample of the
        level, each position with a fresh table; then a run of consecutive positions in key
        order (as the build takes them), solved fresh and then with the table kept warm. The
        estimate for a whole level is the sample's mean x positions x the run's warm/fresh
        ratio. This is what chooses K.
    .venv/bin/python benchmarks/book.py progress [--stones 8] [--dir book-build]
        how far a build has got: batches and positions done, their CPU time and nodes, and
        the remaining core-hours at the mean so far (an estimate: batches differ 2-3x).
    .venv/bin/python benchmarks/book.py solve [--repeat 3] [POSITION]
        wall time of a whole `perfectplay solve connect4 POSITION` process (default 4453).
    .venv/bin/python benchmarks/book.py play [--games 2] [--seed 1] [--think-time 2]
            [--opponent LEVEL]
        perfect against perfect (or against a weaker level, colours alternating) from the
        empty board: per-move time (analysis and choice, as
        `perfectplay play` does them) over whole games, whether each move was exact, and
        whether a side let a won or drawn position go; every inexact move and every move over
        3 s is listed with its position.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from perfectplay.games.connect4.book.lookup import shipped_book
from perfectplay.games.connect4.book.positions import level, position_of
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.play import LEVELS, Analyst, Computer, Session
from perfectplay.play.analyst import outcome_class

# The target bound on a move of the perfect level: longer moves are listed.
SLOW_MOVE = 3.0
# A weaker opponent's think time: how well it plays past the book does not matter here.
OPPONENT_THINK_TIME = 0.5


def kernel(stones: list[int], sample: int, seed: int, table_size: str) -> None:
    from perfectplay.games.connect4.kernel_engine import Engine

    game = ConnectFour()
    engine = Engine(game, table_size)
    print("| stones | positions (mirror folded) | random sample: mean s | max s | mean nodes | "
          "key-order run: fresh mean s | warm mean s | warm/fresh | core-hours (sample mean x "
          "positions x warm/fresh) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for count in stones:
        keys = level(game, count)
        rng = random.Random(seed)
        fresh, nodes = [], []
        for key in rng.sample(keys, min(sample, len(keys))):
            engine.new_solve()
            fresh.append(_timed(engine, game, key))
            nodes.append(engine.counters()[0])
        start = rng.randrange(max(1, len(keys) - sample))
        run = keys[start:start + sample]
        run_fresh = []
        for key in run:
            engine.new_solve()
            run_fresh.append(_timed(engine, game, key))
        engine.new_solve()
        run_warm = []
        for key in run:
            engine.reset_counters()  # the table stays warm, as in the build
            run_warm.append(_timed(engine, game, key))
        ratio = sum(run_warm) / sum(run_fresh)
        hours = statistics.mean(fresh) * len(keys) * ratio / 3600
        print(f"| {count} | {len(keys):,} | {statistics.mean(fresh):.3f} | {max(fresh):.2f} | "
              f"{statistics.mean(nodes):,.0f} | {statistics.mean(run_fresh):.3f} | "
              f"{statistics.mean(run_warm):.3f} | {ratio:.2f} | {hours:.1f} |", flush=True)


def _timed(engine, game: ConnectFour, key: int) -> float:  # type: ignore[no-untyped-def]
    """CPU seconds of one exact score (the caller has reset the counters)."""
    started = time.process_time()
    engine.score(position_of(game, key))
    return time.process_time() - started


def progress(stones: int, directory: str) -> None:
    from perfectplay.games.connect4.book.build import batch_path, plan
    from perfectplay.games.connect4.book.storage import batch_header, read_batch

    game = ConnectFour()
    batches = plan(game, stones)
    done, finished = [], 0
    for index in range(len(batches)):
        path = batch_path(Path(directory), game, stones, index)
        if path.exists():
            done += read_batch(path, batch_header(game.width, game.height, stones, index))
            finished += 1
    total = sum(len(keys) for keys in batches)
    if not done:
        print(f"stones {stones}: 0 of {len(batches):,} batches done")
        return
    seconds = sum(r.seconds for r in done)
    nodes = sum(r.nodes for r in done)
    mean = seconds / len(done)
    print(f"stones {stones}: {len(done):,} of {total:,} positions done "
          f"({finished:,} of {len(batches):,} batches); {seconds / 3600:.2f} core-hours, {nodes:,} nodes "
          f"({nodes / seconds / 1e6:.1f} M nodes/s), {mean:.3f} s a position; estimated "
          f"{mean * (total - len(done)) / 3600:.1f} core-hours to go at that mean")


def solve(position: str, repeat: int) -> None:
    command = [str(Path(sys.executable).with_name("perfectplay")), "solve", "connect4", position]
    subprocess.run(command, capture_output=True, check=True)  # warm the numba cache
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - started)
    print(done.stdout.strip())
    print(f"whole process, {repeat} runs: min {min(times):.2f} s, mean "
          f"{statistics.mean(times):.2f} s, max {max(times):.2f} s")


def play(games: int, seed: int, think_time: float, opponent: str) -> None:
    """Perfect against perfect, or (``opponent`` a weaker level) perfect against that level
    with colours alternating, the perfect side first in even games; only the perfect side's
    moves are timed and checked."""
    game = ConnectFour()
    perfect = LEVELS["perfect"]
    all_times: list[float] = []
    for number in range(games):
        analyst = Analyst(game, think_time=think_time)
        computers = [Computer(perfect, random.Random(seed + 2 * number)),
                     Computer(perfect, random.Random(seed + 2 * number + 1))]
        analysts = [analyst, analyst]
        perfect_sides: tuple[int, ...] = (0, 1)
        if opponent != "perfect":
            weak = number % 2 == 0  # the side the weaker level plays: second, then first
            computers[weak] = Computer(LEVELS[opponent], random.Random(seed + 2 * number + 1))
            analysts[weak] = Analyst(game, think_time=OPPONENT_THINK_TIME)
            perfect_sides = (1 - weak,)
        session = Session(game, game.start())
        times, inexact, stood, line = [], 0, [-1, -1], ""
        while not session.is_over():
            side = session.side_to_move
            started = time.perf_counter()
            choice, analysis = computers[side].move(analysts[side], session.position)
            seconds = time.perf_counter() - started
            line_before, line = line, line + game.format_move(session.position, choice.move.move)
            session.play(choice.move.move)
            if side not in perfect_sides:
                continue
            times.append(seconds)
            if not analysis.exact or seconds > SLOW_MOVE:
                inexact += not analysis.exact
                kind = "inexact" if not analysis.exact else "slow"
                print(f"  {kind} move at {line_before or 'the empty board'} ({len(line_before)} "
                      f"stones, {seconds:.2f} s)", flush=True)
            if analysis.exact:  # an estimate says nothing sure about what the side stood on
                stood[side] = max(stood[side], outcome_class(analysis.best_value))
        result = session.result()
        assert result is not None  # the loop ends only when the game does
        winner = "draw" if result.winner is None else f"side {result.winner}"
        let_go = [side for side in perfect_sides if _let_go(stood[side], side, result.winner)]
        playing = "both sides perfect" if len(perfect_sides) == 2 else f"perfect is side {perfect_sides[0]}"
        print(f"game {number + 1} ({playing}): {len(line)} moves, winner {winner}; perfect moves: "
              f"{len(times)}, mean {statistics.mean(times):.2f} s, max {max(times):.2f} s; "
              f"{inexact} inexact; sides that let a result go: {let_go or 'none'}", flush=True)
        all_times += times
    print(f"all games: {len(all_times)} perfect moves, mean {statistics.mean(all_times):.2f} s, "
          f"max {max(all_times):.2f} s, over {SLOW_MOVE:g} s: "
          f"{sum(seconds > SLOW_MOVE for seconds in all_times)}")


def _let_go(stood: int, side: int, winner: int | None) -> bool:
    """Whether a side that stood on ``stood`` (+1 win, 0 draw) at some turn did worse."""
    achieved = 0 if winner is None else (1 if winner == side else -1)
    return achieved < stood


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    k = commands.add_parser("kernel")
    k.add_argument("--stones", default="5,6,8")
    k.add_argument("--sample", type=int, default=12)
    k.add_argument("--seed", type=int, default=1)
    k.add_argument("--tt-size", default="512M")
    g = commands.add_parser("progress")
    g.add_argument("--stones", type=int, default=8)
    g.add_argument("--dir", default="book-build")
    s = commands.add_parser("solve")
    s.add_argument("position", nargs="?", default="4453")
    s.add_argument("--repeat", type=int, default=3)
    p = commands.add_parser("play")
    p.add_argument("--games", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--think-time", type=float, default=2.0)
    p.add_argument("--opponent", choices=sorted(LEVELS), default="perfect",
                   help="the level the perfect side plays against (colours alternate)")
    args = parser.parse_args()
    book = shipped_book()
    print(f"book: {'none' if book is None else f'{book.path.name}, every position {book.reach}'}")
    if args.command == "kernel":
        kernel([int(n) for n in args.stones.split(",")], args.sample, args.seed, args.tt_size)
    elif args.command == "progress":
        progress(args.stones, args.dir)
    elif args.command == "solve":
        solve(args.position, args.repeat)
    else:
        play(args.games, args.seed, args.think_time, args.opponent)


if __name__ == "__main__":
    main()

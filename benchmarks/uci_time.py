"""How much of its time the chess engine uses, and what the first move costs.

    .venv/bin/python benchmarks/uci_time.py                  # 20 Win at Chess positions
    .venv/bin/python benchmarks/uci_time.py --limit 10 --time 0.1
    nice -n 10 .venv/bin/python benchmarks/uci_time.py --selfplay   # 10+0.1 and 2+0.05

Three measurements, each printed as one table row:

* ``engine --time T``: ``Engine.search(position, SearchLimits(time=T))`` on each position,
  timed around the call (what ``match``, ``solve --algorithm engine --time`` and ``play`` use);
* ``uci movetime``: ``perfectplay uci chess`` driven by python-chess's ``engine.play`` with
  ``Limit(time=T)`` (``go movetime``), timed around the call as a GUI sees it;
* the first move: a fresh ``perfectplay uci chess`` answers ``uci`` and ``isready``, then
  ``go depth`` twice on the start position and twice on a KRK position (in an endgame
  table); the wall time of ``isready`` and of each ``go``, for a few fresh engines (the first
  move after start-up used to pay the engine's warm-up: the table's memory, loading the
  endgame tables).

With ``--selfplay``: two ``perfectplay uci chess`` processes play each other through
python-chess's ``engine.play`` with clocks (``wtime``/``btime``/``winc``/``binc``), as a
GUI runs them: each side's clock loses the wall time of its ``play`` call and gains the
increment, for 100 moves (or the game's end) at 10+0.1 and 2+0.05. One row per game: flags,
the lowest clock, each clock after move 40, and the longest move against its planned share.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import sys
import time
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from wac import DEFAULT_EPD, PERFECTPLAY, read_suite  # noqa: E402

from perfectplay.engine import Engine, SearchLimits  # noqa: E402
from perfectplay.games.chess.rules import Chess, position_from_board  # noqa: E402

KRK = "8/8/8/4k3/8/8/3RK3/8 w - - 0 1"
OPENING_PLIES = 4  # random plies before a self-play game, so that games differ


def row(label: str, seconds: list[float], limit: float) -> str:
    mean = statistics.mean(seconds)
    return (f"| {label} | {len(seconds)} | {mean:.3f} | {statistics.median(seconds):.3f} | "
            f"{min(seconds):.3f} | {max(seconds):.3f} | {mean / limit:.2f} |")


def engine_times(boards: list[chess.Board], limit: float) -> list[float]:
    game = Chess()
    times = []
    with Engine(game) as engine:
        for board in boards:
            engine.new_game()
            started = time.perf_counter()
            engine.search(position_from_board(board), SearchLimits(time=limit))
            times.append(time.perf_counter() - started)
    return times


def uci_times(command: str, boards: list[chess.Board], limit: float) -> list[float]:
    times = []
    with chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=60) as engine:
        engine.play(chess.Board(), chess.engine.Limit(time=limit))  # warm, as a game would be
        for board in boards:
            started = time.perf_counter()
            engine.play(board, chess.engine.Limit(time=limit), game=object())
            times.append(time.perf_counter() - started)
    return times


def first_moves(command: str, runs: int) -> list[tuple[float, ...]]:
    """Wall seconds of isready, then ``go depth 3`` twice on the start position and ``go
    depth 2`` twice on a KRK position (each a new game, so no search profits from the last's
    table), for ``runs`` fresh engines."""
    found = []
    for _ in range(runs):
        engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=60)
        try:
            started = time.perf_counter()
            engine.ping()  # isready ... readyok
            times = [time.perf_counter() - started]
            for board, depth in ((chess.Board(), 3), (chess.Board(), 3), (chess.Board(KRK), 2),
                                 (chess.Board(KRK), 2)):
                started = time.perf_counter()
                engine.play(board, chess.engine.Limit(depth=depth), game=object())
                times.append(time.perf_counter() - started)
            found.append(tuple(times))
        finally:
            engine.quit()
    return found


def self_play(base: float, increment: float, moves: int, command: str, seed: int) -> str:
    """One game of ``moves`` moves (both sides) at ``base`` + ``increment``, as a table row,
    from ``OPENING_PLIES`` random moves; claimable draws are played on, as a GUI that does
    not claim them would (the engines must still move)."""
    from perfectplay.engine.clock import clock_share
    engines = [chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=60) for _ in range(2)]
    board, clocks, rng = chess.Board(), [base, base], random.Random(seed)
    for _ in range(OPENING_PLIES):
        board.push(rng.choice(list(board.legal_moves)))
    lowest, after_40, worst, over, flags = base, "", 0.0, 0, 0
    try:
        for engine in engines:
            engine.ping()
        while len(board.move_stack) < 2 * moves and not board.is_game_over():
            side = 0 if board.turn == chess.WHITE else 1
            share, _ = clock_share(clocks[side], increment, None)
            started = time.perf_counter()
            result = engines[side].play(board, chess.engine.Limit(
                white_clock=clocks[0], black_clock=clocks[1], white_inc=increment,
                black_inc=increment), game=board)
            took = time.perf_counter() - started
            worst = max(worst, took / share)
            if took > 2 * share:
                over += 1
                print(f"  move {len(board.move_stack) // 2 + 1}: {took:.3f} s, share {share:.3f} s "
                      f"with {clocks[side]:.3f} s left", file=sys.stderr, flush=True)
            clocks[side] -= took
            if clocks[side] <= 0:
                flags += 1
                break
            clocks[side] += increment
            lowest = min(lowest, clocks[side])
            board.push(result.move)
            if len(board.move_stack) == 80:
                after_40 = f"{clocks[0]:.2f} / {clocks[1]:.2f}"
    finally:
        for engine in engines:
            engine.quit()
    played = (len(board.move_stack) + 1) // 2
    end = board.result() if board.is_game_over() else "-"
    return (f"| {base:g}+{increment:g} | {seed} | {played} | {end} | {flags} | {lowest:.3f} | "
            f"{after_40 or '-'} | {clocks[0]:.2f} / {clocks[1]:.2f} | {worst:.2f} | {over} |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--limit", type=int, default=20, help="Win at Chess positions")
    parser.add_argument("--runs", type=int, default=3, help="fresh engines for the first move")
    parser.add_argument("--command", default=PERFECTPLAY, help="the UCI engine's command line")
    parser.add_argument("--selfplay", action="store_true", help="clocked self-play instead")
    parser.add_argument("--moves", type=int, default=100, help="moves a side in self-play")
    parser.add_argument("--games", type=int, default=1, help="self-play games per time control")
    args = parser.parse_args()
    if args.selfplay:
        print("| clock | seed | moves | result | flags | lowest clock s | clocks after move 40 s | "
              "clocks at the end s | longest move / share | moves over 2 shares |")
        print("|---|---:|---:|---|---:|---:|---|---|---:|---:|")
        for base, increment in ((10.0, 0.1), (2.0, 0.05)):
            for seed in range(1, args.games + 1):
                print(self_play(base, increment, args.moves, args.command, seed), flush=True)
        return
    boards = [board for _, board, _ in read_suite(DEFAULT_EPD)[:args.limit]]
    print(f"| measured | moves | mean s | median s | min s | max s | mean / limit ({args.time:g} s) |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    print(row(f"engine --time {args.time:g}", engine_times(boards, args.time), args.time), flush=True)
    print(row(f"uci movetime {int(args.time * 1000)}", uci_times(args.command, boards, args.time),
              args.time), flush=True)
    print()
    print("| fresh engine | isready s | start depth 3, first s | again s | KRK depth 2, first s | again s |")
    print("|---|---:|---:|---:|---:|---:|")
    for number, times in enumerate(first_moves(args.command, args.runs), 1):
        print(f"| {number} | " + " | ".join(f"{seconds:.3f}" for seconds in times) + " |", flush=True)


if __name__ == "__main__":
    main()

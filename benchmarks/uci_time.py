"""How much of its time the chess engine uses, and what the first move costs.

    .venv/bin/python benchmarks/uci_time.py                  # 20 Win at Chess positions
    .venv/bin/python benchmarks/uci_time.py --limit 10 --time 0.1

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
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time", type=float, default=0.1, help="seconds per move")
    parser.add_argument("--limit", type=int, default=20, help="Win at Chess positions")
    parser.add_argument("--runs", type=int, default=3, help="fresh engines for the first move")
    parser.add_argument("--command", default=PERFECTPLAY, help="the UCI engine's command line")
    args = parser.parse_args()
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

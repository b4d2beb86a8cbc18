"""What each layer of the depth-limited engine is worth, how it keeps time, and Lazy SMP.

    .venv/bin/python benchmarks/engine.py nodes [--depth 8] [--positions 40]
    .venv/bin/python benchmarks/engine.py nodes --epd tests/fixtures/wac_head.epd --depth 4
    .venv/bin/python benchmarks/engine.py time [--moves 300] [--time 0.05]
    .venv/bin/python benchmarks/engine.py smp [--depth 10] [--positions 12]

``nodes``: nodes to a fixed depth (the deterministic "bench" of Stockfish), summed over a
fixed set of Connect Four positions, with all layers on and with each switched off. ``time``:
how far past its hard limit a timed search returns, measured around ``Engine.search`` over
many moves. ``smp``: time to depth with 1 and 2 processes sharing the table.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from perfectplay.engine import Engine, SearchLimits, Settings
from perfectplay.games.connect4.rules import ConnectFour

LAYERS = ("pvs", "aspiration", "killers", "history", "quiescence", "null_move", "tt")


def connect4_positions(count: int, seed: int) -> list[Any]:
    """Live middlegame positions: 4 to 14 random stones, no immediate end."""
    game = ConnectFour()
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = game.start()
        for _ in range(rng.randrange(4, 15)):
            live = [c for c in game.moves(position) if game.outcome(game.play(position, c)) is None]
            if not live:
                break
            position = game.play(position, rng.choice(live))
        if game.outcome(position) is None and game.moves(position):
            found.append(position)
    return found


def chess_positions(epd: str, count: int) -> tuple[Any, list[Any]]:
    """The first ``count`` positions of an EPD file (needs the chess extra)."""
    from perfectplay.games.chess.rules import Chess
    game = Chess()
    lines = [line for line in Path(epd).read_text().splitlines() if line.strip()][:count]
    return game, [game.parse_position(" ".join(line.split()[:4]) + " 0 1") for line in lines]


def bench_nodes(depth: int, count: int, epd: str | None, layers: tuple[str, ...] = LAYERS) -> None:
    if epd is None:
        game: Any = ConnectFour()
        positions = connect4_positions(count, seed=11)
        title = f"Connect Four, {count} positions"
    else:
        game, positions = chess_positions(epd, count)
        title = f"chess, the first {len(positions)} positions of {epd}"
    variants = [("defaults", Settings())]
    for layer in layers:
        flipped = not getattr(Settings(), layer)
        name = f"{layer.replace('_', '-')} {'on' if flipped else 'off'}"
        variants.append((name, replace(Settings(), **{layer: flipped})))
    if layers == LAYERS:
        variants.append(("all off (plain alpha-beta)", Settings(pvs=False, aspiration=False, killers=False,
                                                                history=False, null_move=False, tt=False)))
    print(f"{title}, depth {depth}; nodes summed; time in seconds")
    print(f"{'settings':32} {'nodes':>12} {'vs default':>10} {'time':>8}")
    base = None
    for name, settings in variants:
        nodes, started = 0, time.perf_counter()
        for position in positions:
            nodes += Engine(game, settings).search(position, SearchLimits(depth=depth)).nodes
        seconds = time.perf_counter() - started
        base = base or nodes
        print(f"{name:32} {nodes:12,d} {nodes / base:10.2f} {seconds:8.1f}", flush=True)


def bench_time(moves: int, limit: float) -> None:
    """Overrun = wall time of Engine.search minus the hard limit, over ``moves`` searches."""
    game = ConnectFour()
    engine = Engine(game)
    overruns = []
    for position in connect4_positions(moves, seed=12):
        started = time.perf_counter()
        engine.search(position, SearchLimits(time=limit, soft_time=limit))
        overruns.append(time.perf_counter() - started - limit)
    overruns.sort()
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"Connect Four, {moves} searches with --time {limit:g} (soft = hard, the worst case); "
          f"load average after: {load}")
    print(f"overrun past the hard limit: max {1000 * overruns[-1]:+.1f} ms, "
          f"99th percentile {1000 * overruns[int(0.99 * len(overruns))]:+.1f} ms, "
          f"median {1000 * statistics.median(overruns):+.1f} ms; "
          f"{sum(o > 0.05 for o in overruns)} of {moves} more than 50 ms over")


def bench_smp(depth: int, count: int) -> None:
    game = ConnectFour()
    positions = connect4_positions(count, seed=13)
    print(f"Connect Four, {count} positions, time to depth {depth} (main search), fresh table each")
    totals = {}
    for threads in (1, 2):
        with Engine(game, Settings(threads=threads)) as engine:
            engine.search(positions[0], SearchLimits(depth=2))  # start the helpers first
            seconds = 0.0
            for position in positions:
                engine.new_game()
                started = time.perf_counter()
                engine.search(position, SearchLimits(depth=depth))
                seconds += time.perf_counter() - started
        totals[threads] = seconds
        print(f"threads {threads}: {seconds:7.2f} s", flush=True)
    print(f"time-to-depth speedup with 2: {totals[1] / totals[2]:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("nodes", "time", "smp"))
    parser.add_argument("--depth", type=int, default=None)
    parser.add_argument("--positions", type=int, default=None)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--time", type=float, default=0.05)
    parser.add_argument("--epd", default=None, help="chess positions (EPD) instead of Connect Four")
    parser.add_argument("--layers", default=",".join(LAYERS), help="the layers to switch off one by one")
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}")
    if args.what == "nodes":
        layers = tuple(name.strip().replace("-", "_") for name in args.layers.split(",") if name.strip())
        bench_nodes(args.depth or 8, args.positions or 40, args.epd, layers)
    elif args.what == "time":
        bench_time(args.moves, args.time)
    else:
        bench_smp(args.depth or 10, args.positions or 12)


if __name__ == "__main__":
    main()

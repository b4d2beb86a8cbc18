"""Monte Carlo tree search's simulations per CPU second on Othello, with the Python playout
and with the game's compiled playouts (Game.compiled_playouts), on the same positions in the
same run; then the compiled playouts alone, one a call and many a call.

    nice -n 10 .venv/bin/python benchmarks/mcts_speed.py --size 8 --simulations 2000

Positions: the start and, from seeded random games, one position after each of --plies
random moves. Each search is one tree from the position (perfectplay.mcts.tree.Search) grown
to --simulations simulations, timed in CPU seconds (the machine is shared: see docs/mcts.md).
The load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any


def position_after(game: Any, plies: int, rng: random.Random) -> Any:
    position = game.start()
    for _ in range(plies):
        moves = game.moves(position)
        if not moves:
            break
        position = game.play(position, rng.choice(moves))
    return position


def simulations_per_second(game: Any, position: Any, simulations: int, compiled: bool) -> float:
    from perfectplay.mcts.tree import Search
    from perfectplay.search.limits import Budget, Limits
    began = time.process_time()
    search = Search(game, position, Budget(Limits(nodes=simulations)), seed=1, compiled=compiled)
    search.run()
    return search.counters.simulations / (time.process_time() - began)


def playouts_per_second(playouts: Any, position: Any, per_call: int, total: int) -> float:
    began = time.process_time()
    for seed in range(total // per_call):
        playouts(position, per_call, seed)
    return total / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 20, 40])
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    from perfectplay.games.othello.rules import Othello
    from perfectplay.mcts.tree import compiled_playouts
    game = Othello(options.size)
    playouts = compiled_playouts(game)  # loaded before any clock runs
    if playouts is None:
        raise SystemExit(f"mcts_speed: Othello {options.size}x{options.size} has no compiled playouts here")
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"Othello {options.size}x{options.size}, {options.simulations:,} simulations a search")
    print(f"{'plies':>5}  {'python sims/CPU s':>18}  {'compiled sims/CPU s':>20}  {'speed-up':>8}")
    rng = random.Random(options.seed)
    for plies in options.plies:
        position = position_after(game, plies, rng)
        python = simulations_per_second(game, position, options.simulations, False)
        compiled = simulations_per_second(game, position, options.simulations, True)
        print(f"{plies:>5}  {python:>18,.0f}  {compiled:>20,.0f}  {compiled / python:>7.1f}x", flush=True)
    start = game.start()
    for per_call in (1, 100, 10_000):
        rate = playouts_per_second(playouts, start, per_call, 100_000 if per_call > 1 else 20_000)
        print(f"compiled playouts from the start, {per_call:,} a call: {rate:,.0f} a CPU second")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()

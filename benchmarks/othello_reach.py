"""How many empty squares Othello's numba kernel solves in seconds: the reach behind
``Othello.solvable`` (rules.KERNEL_SOLVABLE_EMPTIES).

    nice -n 10 python benchmarks/othello_reach.py --size 8 --empties 18 20 22 24 --games 5

Positions come from random games (seeded; one position per game and count of empties), so
they are wilder than a master's endgame. Each is solved from an empty table by the kernel
alone (the exact score and a best move); printed: empties, score, nodes, CPU seconds, and
per count of empties the median and the largest CPU time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--empties", type=int, nargs="+", default=[18, 20, 22])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table-bits", type=int, default=22)
    options = parser.parse_args()
    from perfectplay.games.othello.kernel import NODES
    from perfectplay.games.othello.kernel_method import to_words
    from perfectplay.games.othello.rules import Othello
    from perfectplay.games.othello.searcher import Searcher
    game = Othello(options.size)
    Searcher(4, 1 << 10).score(0x40200, 0x20400, -127, 127, 1 << 62, lambda nodes: None)  # compiles
    searcher = Searcher(options.size, 1 << options.table_bits)
    rng = random.Random(options.seed)
    for empties in options.empties:
        times = []
        for _ in range(options.games):
            position = game.start()
            while game.moves(position) and \
                    game.board.bit_count() - (position[0] | position[1]).bit_count() > empties:
                position = game.play(position, rng.choice(game.moves(position)))
            if not game.moves(position):
                continue
            searcher.clear()
            searcher.counters[:] = 0
            began = time.process_time()
            found = searcher.score(*to_words(game, position), -127, 127, 1 << 62, lambda nodes: None)
            cpu = time.process_time() - began
            times.append(cpu)
            print(f"{empties:>3} empties  score {found[0]:+3d}  {int(searcher.counters[NODES]):>14,} nodes  "
                  f"{cpu:7.2f} CPU s  {game.format_position(position)}", flush=True)
        if times:
            print(f"{empties:>3} empties: median {statistics.median(times):.2f} CPU s, "
                  f"largest {max(times):.2f} CPU s over {len(times)} positions", flush=True)


if __name__ == "__main__":
    main()

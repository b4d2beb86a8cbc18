"""Exact counts of the Connect Four positions reachable on small boards, tier by tier (stones
on the board), with numpy: what a strong solve (`perfectplay db build`) would have to store,
counted without solving. Checked against John Tromp's 161,029 for 4x4 and the 3,945,711
records of the 5x4 database (docs/benchmarks-log.md).

    python benchmarks/connect4_count.py 4x4 5x4 6x4 5x5

Positions are keys ``mover + occupied`` on the bitboard of perfectplay.games.connect4.rules;
a position where the side that just moved has four in a row is counted, not expanded.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from perfectplay.games.connect4.book.tiers import decode, has_four
from perfectplay.games.connect4.rules import ConnectFour


def count(width: int, height: int) -> list[int]:
    """Positions per tier, from the empty board."""
    game = ConnectFour(width, height)
    bottoms = [np.uint64(bottom) for bottom in game.bottoms]
    tops = [np.uint64(top) for top in game.tops]
    mover = np.zeros(1, dtype=np.uint64)
    occupied = np.zeros(1, dtype=np.uint64)
    sizes = [1]
    for _ in range(width * height):
        # The side that just moved is occupied ^ mover; its four ends the game.
        alive = ~has_four(occupied ^ mover, height)
        mover, occupied = mover[alive], occupied[alive]
        children = []
        for c in range(width):
            free = (occupied & tops[c]) == 0
            m, o = mover[free], occupied[free]
            children.append((m ^ o) + (o | (o + bottoms[c])))  # the child's key
        keys = np.unique(np.concatenate(children))
        if keys.size == 0:
            break
        sizes.append(int(keys.size))
        mover, occupied = decode(game, keys)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="*", default=["4x4", "5x4"])
    args = parser.parse_args()
    for board in args.boards:
        width, height = (int(n) for n in board.split("x"))
        started = time.process_time()
        sizes = count(width, height)
        seconds = time.process_time() - started
        print(f"{board}: {sum(sizes):,} positions in {len(sizes)} tiers; largest tier "
              f"{max(sizes):,} (tier {sizes.index(max(sizes))}); {seconds:.1f} CPU s")
        print("  per tier: " + ", ".join(f"{n:,}" for n in sizes))


if __name__ == "__main__":
    main()

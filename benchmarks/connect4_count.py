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


def has_four(stones: np.ndarray, height: int) -> np.ndarray:
    found = np.zeros(stones.shape, dtype=bool)
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> shift)
        found |= (pairs & (pairs >> (2 * shift))) != 0
    return found


def count(width: int, height: int) -> list[int]:
    """Positions per tier, from the empty board."""
    bottoms = [np.int64(1 << c * (height + 1)) for c in range(width)]
    tops = [np.int64(1 << (height - 1 + c * (height + 1))) for c in range(width)]
    mover = np.zeros(1, dtype=np.int64)
    occupied = np.zeros(1, dtype=np.int64)
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
        mover, occupied = _decode(keys, width, height)
    return sizes


def _decode(keys: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """(mover, occupied) from keys. Per column, a stack of k stones contributes 2^k - 1 to
    occupied and at most that to mover, so the column's part of the key lies in
    [2^k - 1, 2^(k+1) - 2] and k = floor(log2(part + 1))."""
    mover = np.zeros_like(keys)
    occupied = np.zeros_like(keys)
    for c in range(width):
        shift = c * (height + 1)
        part = (keys >> shift) & ((1 << (height + 1)) - 1)
        stones = np.floor(np.log2(part + 1)).astype(np.int64)
        stack = (np.int64(1) << stones) - 1
        occupied |= stack << shift
        mover |= (part - stack) << shift
    return mover, occupied


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

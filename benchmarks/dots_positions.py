"""Nodes and CPU seconds of the Dots and Boxes chain kernel (games/dots/chains.py) on fixed
positions: the empty 4x3 board (one MTD(f) search from the root) and seeded random 4x4
positions with ``--left`` lines left and no box of three sides. The same positions every
run, so two versions of the kernel can be compared (run each from its own checkout).

    .venv/bin/python benchmarks/dots_positions.py --left 29 --count 6

Each search starts from an empty table of 2^``--table-bits`` entries.
"""

from __future__ import annotations

import argparse
import random
import time

from perfectplay.games.dots.chains import ALL_RULES, Searcher
from perfectplay.games.dots.rules import DotsAndBoxes


def positions(game: DotsAndBoxes, left: int, count: int, seed: int) -> list[int]:
    """``count`` random sets of lines with ``left`` lines undrawn and no box of three sides."""
    rng = random.Random(seed)
    found: list[int] = []
    while len(found) < count:
        drawn = sum(1 << line for line in rng.sample(range(game.edges), game.edges - left))
        if all((drawn & mask).bit_count() < 3 for mask in game.box_masks):
            found.append(drawn)
    return found


def measure(game: DotsAndBoxes, drawn: int, rules: int, table_bits: int) -> tuple[int, int, float]:
    searcher = Searcher(game, rules=rules, table_bits=table_bits)
    began = time.process_time()
    value = searcher.value(drawn)
    assert value is not None  # no cap, no stop word
    return value, int(searcher.counters[0]), time.process_time() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--left", type=int, default=29)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--rules", type=int, default=ALL_RULES)
    parser.add_argument("--table-bits", type=int, default=24)
    parser.add_argument("--skip-4x3", action="store_true")
    args = parser.parse_args()
    Searcher(DotsAndBoxes(2, 2), rules=args.rules, table_bits=8).value(0)  # compile first
    if not args.skip_4x3:
        value, nodes, cpu = measure(DotsAndBoxes(4, 3), 0, args.rules, args.table_bits)
        print(f"4x3 empty board: {value:+d}, {nodes:,} nodes, {cpu:.1f} CPU s", flush=True)
    game = DotsAndBoxes(4, 4)
    total_nodes, total_cpu = 0, 0.0
    for index, drawn in enumerate(positions(game, args.left, args.count, args.seed)):
        value, nodes, cpu = measure(game, drawn, args.rules, args.table_bits)
        total_nodes, total_cpu = total_nodes + nodes, total_cpu + cpu
        print(f"4x4, {args.left} lines left, #{index}: {value:+d}, {nodes:,} nodes, {cpu:.1f} CPU s",
              flush=True)
    print(f"4x4, {args.left} lines left, {args.count} positions: {total_nodes:,} nodes, "
          f"{total_cpu:.1f} CPU s")


if __name__ == "__main__":
    main()

"""The map of winning first moves on n x n Hex, one df-pn proof per opening.

    python benchmarks/hex_map.py 5

Hex is symmetric under a half turn (cell (c, r) and (n-1-c, n-1-r) have the same value), so
only one cell of each pair is proved; each proof starts with a fresh table and prints as it
finishes (nodes, CPU seconds), then the map: + where X's first move wins, - where it loses.
"""

from __future__ import annotations

import argparse
import time

from perfectplay import registry
from perfectplay.pns.dfpn import ProofSearch
from perfectplay.pns.method import value_of
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    args = parser.parse_args()
    n = args.size
    game, start = registry.load("hex", {"size": n})
    wins: dict[tuple[int, int], bool] = {}
    total_nodes, total_cpu = 0, 0.0
    for r in range(n):
        for c in range(n):
            if (n - 1 - c, n - 1 - r) in wins:
                wins[(c, r)] = wins[(n - 1 - c, n - 1 - r)]
                continue
            cell = r * game.stride + c
            child = game.play(start, cell)
            search = ProofSearch(game, Budget())
            began = time.process_time()
            value = run_deep(lambda: value_of(search, child), search.budget)
            spent = time.process_time() - began
            wins[(c, r)] = value < 0  # O, to move, loses: X's opening wins
            total_nodes += search.counters.nodes
            total_cpu += spent
            print(f"{game.cell_name(cell)}: {'wins' if value < 0 else 'loses'} for X "
                  f"({search.counters.nodes:,} nodes, {spent:.1f} s CPU)", flush=True)
    print(f"{n}x{n}: {total_nodes:,} nodes, {total_cpu:.0f} s CPU in all")
    for r in range(n):
        print(" " * r + " ".join("+" if wins[(c, r)] else "-" for c in range(n)))


if __name__ == "__main__":
    main()

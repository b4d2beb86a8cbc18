"""The map of winning first moves on n x n Hex, one proof per opening.

    nice -n 10 python benchmarks/hex_map.py 5 --results hex5.jsonl      # the numba kernel
    python benchmarks/hex_map.py 4 --engine pns                          # df-pn in Python
    nice -n 10 python benchmarks/hex_map.py 6 --cells c3,d4,a1 --seconds 200   # how far 6x6 gets
    nice -n 19 python benchmarks/hex_map.py 6 --engine solver --results hex6.jsonl  # connections

Hex is symmetric under a half turn (cell (c, r) and (n-1-c, n-1-r) have the same value), so
only one cell of each pair is proved; each proof starts with an empty table and prints as it
finishes (nodes, CPU seconds), then the map: + where X's first move wins, - where it loses.

``--results FILE`` appends each finished cell to FILE as a line of JSON and skips the cells
it already holds, so a long run can be stopped and started again. ``--seconds S`` gives each
proof at most S seconds of CPU (the kernels only): a proof stopped there prints how far it got.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from perfectplay import registry


def kernel_proof(game: Any, position: Any, entries: int, seconds: float | None,
                 connections: bool = False) -> dict[str, Any]:
    """Does the mover of ``position`` (O, after X's first move) win? By the numba kernel, or
    with ``connections`` by the connection solver (perfectplay.games.hex.solver)."""
    from perfectplay.games.hex.kernel import NODES, Searcher
    from perfectplay.games.hex.solver import ConnectionSearcher
    searcher = (ConnectionSearcher if connections else Searcher)(game, entries)
    began = time.process_time()

    def out_of_cpu() -> bool:
        return seconds is not None and time.process_time() - began > seconds

    found = searcher.mover_wins(position, out_of_cpu)
    won, finished = (False, False) if found is None else (found[0], True)
    return {"mover_wins": won if finished else None, "nodes": int(searcher.counters[NODES]),
            "cpu_s": round(time.process_time() - began, 2)}


def pns_proof(game: Any, position: Any) -> dict[str, Any]:
    """The same question by df-pn over the protocol (perfectplay.pns), in Python."""
    from perfectplay.pns.dfpn import ProofSearch
    from perfectplay.pns.method import value_of
    from perfectplay.search.deep import run_deep
    from perfectplay.search.limits import Budget
    search = ProofSearch(game, Budget())
    began = time.process_time()
    value = run_deep(lambda: value_of(search, position), search.budget)
    return {"mover_wins": value > 0, "nodes": search.counters.nodes,
            "cpu_s": round(time.process_time() - began, 2)}


def finished_cells(path: Path | None, size: int, engine: str) -> dict[str, dict[str, Any]]:
    if path is None or not path.exists():
        return {}
    found = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["size"] == size and row["engine"] == engine and row["mover_wins"] is not None:
            found[row["cell"]] = row
    return found


def cells_to_prove(game: Any, only: str | None) -> list[int]:
    """One cell of each half-turn pair (the first in reading order), or the cells named."""
    if only:
        return [game.parse_cell(name) for name in only.split(",")]
    n, chosen = game.size, []
    for r in range(n):
        for c in range(n):
            if (n - 1 - r) * game.stride + (n - 1 - c) not in chosen:
                chosen.append(r * game.stride + c)
    return chosen


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("--engine", choices=("kernel", "solver", "pns"), default="kernel",
                        help="kernel: the plain numba search; solver: with virtual connections "
                        "and inferior cells; pns: df-pn in Python")
    parser.add_argument("--results", type=Path, help="append finished cells here; skip those it holds")
    parser.add_argument("--entries", type=int, default=1 << 23, help="kernel table slots")
    parser.add_argument("--cells", help="only these openings, e.g. c3,a1")
    parser.add_argument("--seconds", type=float, help="CPU seconds per proof at most (kernel)")
    args = parser.parse_args()
    n = args.size
    game, start = registry.load("hex", {"size": n})
    done = finished_cells(args.results, n, args.engine)
    rows = []
    for cell in cells_to_prove(game, args.cells):
        name = game.cell_name(cell)
        if name in done:
            row = done[name]
            print(f"{name}: from {args.results}", end=" ")
        else:
            child = game.play(start, cell)
            proof = pns_proof(game, child) if args.engine == "pns" else \
                kernel_proof(game, child, args.entries, args.seconds, args.engine == "solver")
            row = {"size": n, "engine": args.engine, "cell": name, **proof}
            if args.results is not None:
                with args.results.open("a") as out:
                    out.write(json.dumps(row) + "\n")
        rows.append(row)
        verdict = "not proved" if row["mover_wins"] is None else \
            "loses for X" if row["mover_wins"] else "wins for X"
        print(f"{name}: {verdict} ({row['nodes']:,} nodes, {row['cpu_s']:.1f} s CPU)", flush=True)
    print(f"{n}x{n}: {sum(row['nodes'] for row in rows):,} nodes, "
          f"{sum(row['cpu_s'] for row in rows):.0f} s CPU in all")
    if args.cells is None:
        print_map(game, {row["cell"]: row["mover_wins"] for row in rows})


def print_map(game: Any, mover_wins: dict[str, bool | None]) -> None:
    n = game.size
    for r in range(n):
        marks = []
        for c in range(n):
            name = game.cell_name(r * game.stride + c)
            twin = game.cell_name((n - 1 - r) * game.stride + (n - 1 - c))
            won = mover_wins.get(name, mover_wins.get(twin))
            marks.append("?" if won is None else "-" if won else "+")
        print(" " * r + " ".join(marks))


if __name__ == "__main__":
    main()

"""Open or hard targets by df-pn (Hex 6x6, Othello 6x6): how far one proof gets in a given time.

    python benchmarks/pns_moonshot.py hex 6 --seconds 600            # "X wins 6x6"
    python benchmarks/pns_moonshot.py othello 6 --need -4 --seconds 600   # "Black reaches -4"

Prints, every ``--every`` seconds and at the end, the nodes (MID calls), the positions
expanded, the table's size, and the root's proof and disproof numbers (how many leaves, at
the least, still stand between the search and a proof, or a disproof). Time is CPU time of
this process; the machine is shared.
"""

from __future__ import annotations

import argparse
import threading
import time

from perfectplay import registry
from perfectplay.pns.dfpn import INFINITE, ProofSearch
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget, Limits, OutOfBudget


def root_numbers(search: ProofSearch, position: object, need: int) -> tuple[int, int]:
    kids = search.children(position, need)
    pn, dn, *_ = search._gather(kids)
    return pn, dn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["hex", "othello"])
    parser.add_argument("size", type=int)
    parser.add_argument("--need", type=int, default=1, help="the mover must reach at least this")
    parser.add_argument("--seconds", type=float, default=600.0, help="wall-clock budget")
    parser.add_argument("--every", type=float, default=60.0)
    parser.add_argument("--entries", type=int, default=4_000_000, help="table bound")
    args = parser.parse_args()
    game, position = registry.load(args.game, {"size": args.size})
    budget = Budget(Limits(time=args.seconds))
    search = ProofSearch(game, budget, max_entries=args.entries)
    started = time.process_time()
    done = threading.Event()

    def report() -> None:
        while not done.wait(args.every):
            print(f"  {time.process_time() - started:8.0f} s CPU: {search.counters.nodes:,} nodes, "
                  f"{len(search.table):,} entries", flush=True)
    threading.Thread(target=report, daemon=True).start()
    try:
        proved: bool | None = run_deep(lambda: search.prove(position, args.need), budget)
    except OutOfBudget:
        proved = None
    done.set()
    cpu = time.process_time() - started
    pn, dn = root_numbers(search, position, args.need)
    verdict = {True: "PROVED", False: "DISPROVED", None: "open"}[proved]
    shown = lambda number: "inf" if number >= INFINITE else f"{number:,}"  # noqa: E731
    print(f"{args.game} {args.size}x{args.size}, mover reaches >= {args.need}: {verdict} after "
          f"{search.counters.nodes:,} nodes, "
          f"{cpu:.0f} s CPU, {budget.elapsed():.0f} s wall; root pn {shown(pn)}, dn {shown(dn)}; "
          f"max ply {search.counters.max_ply}")


if __name__ == "__main__":
    main()

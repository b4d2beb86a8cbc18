"""df-pn against alpha-beta with a table (``tt``): nodes and time to the value alone.

    python benchmarks/pns_vs_tt.py [--seconds 300] [--only NAME]

Both answer the same question: win, draw or loss (``tt`` with --outcome-only, its window
[-1, 1]; df-pn by one or two proofs). A score game (Othello 4x4) asks for the exact margin
of both: tt in a full window, df-pn by bisection. Nodes: calls of each search function (tt:
one per node, root included; df-pn: one per MID call, as Nagai counts; each MID call
generates every child and looks it up, counted apart as "children"). Time: CPU seconds of
this process (the machine is shared, so wall time would mislead). Each search stops at
``--seconds`` of wall time and is shown as "> N nodes" then. docs/pns.md holds the table.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from perfectplay import registry
from perfectplay.pns.dfpn import ProofSearch
from perfectplay.pns.method import value_of
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import UNLIMITED_DEPTH, Budget, Limits, OutOfBudget
from perfectplay.search.rules import Rules
from perfectplay.search.solver import make_searcher

# (label, game, options, position): narrow, deep wins, and a few ordinary positions.
POSITIONS = [
    ("Hex 3x3, empty", "hex", {"size": 3}, None),
    ("Hex 4x4, empty (X wins)", "hex", {"size": 4}, None),
    ("Hex 4x4 after a1 (O wins)", "hex", {"size": 4}, "a1"),
    ("Hex 4x4 after d1 (O loses)", "hex", {"size": 4}, "d1"),
    ("Hex 5x5 after c3 b4 (X wins)", "hex", {"size": 5}, "c3 b4"),
    ("Hex 5x5 after a1 (O wins)", "hex", {"size": 5}, "a1"),
    ("Connect Four 7x6, Pons L3 #1 (loss)", "connect4", {}, "2252576253462244111563365343671351441"),
    ("Connect Four 7x6, Pons L2 #1 (win)", "connect4", {}, "5554224333234511764415115"),
    ("Connect Four 7x6, Pons L2 #2 (win)", "connect4", {}, "52753311433677442422121"),
    ("Connect Four 7x6, Pons L1 R1 #1 (win)", "connect4", {}, "32164625"),
    ("Connect Four 7x6, Pons L2 R2 #3 (win)", "connect4", {}, "2531276566711153"),
    ("Connect Four 7x6, Pons L1 R2 #3 (win)", "connect4", {}, "2416615552"),
    ("Connect Four 5x4, empty", "connect4", {"width": 5, "height": 4}, ""),
    ("tic-tac-toe, empty (draw)", "tictactoe", {}, None),
    ("Othello 4x4, start (score -10)", "othello", {"size": 4}, None),
]


def by_tt(game: Any, position: Any, seconds: float) -> tuple[int, int | None, float]:
    budget = Budget(Limits(time=seconds))
    rules = Rules(game, outcome_only=not game.properties.is_score)
    searcher = make_searcher("tt", rules, budget, None)
    low, high = rules.root_window()
    started = time.process_time()
    try:
        value = run_deep(lambda: searcher.search(position, low, high, 0, UNLIMITED_DEPTH), budget)
    except OutOfBudget:
        value = None
    return searcher.counters().nodes + 1, None if value is None else int(value), time.process_time() - started


def by_pns(game: Any, position: Any, seconds: float) -> tuple[int, int, int | None, float]:
    budget = Budget(Limits(time=seconds))
    search = ProofSearch(game, budget)
    started = time.process_time()
    try:
        value: int | None = run_deep(lambda: value_of(search, position), budget)
    except OutOfBudget:
        value = None
    return search.counters.nodes, search.counters.generated, value, time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--only", default=None, help="run the rows whose label contains this")
    args = parser.parse_args()
    print("| position | value | tt nodes | tt s | df-pn nodes | df-pn children | df-pn s | "
          "tt / df-pn nodes |")
    print("|---|---|---|---|---|---|---|---|")
    for label, name, options, text in POSITIONS:
        if args.only and args.only not in label:
            continue
        game, position = registry.load(name, options, text)
        tt_nodes, tt_value, tt_time = by_tt(game, position, args.seconds)
        pn_nodes, generated, pn_value, pn_time = by_pns(game, position, args.seconds)
        if tt_value is not None and pn_value is not None and (tt_value > 0) - (tt_value < 0) != \
                (pn_value > 0) - (pn_value < 0):
            raise SystemExit(f"{label}: tt says {tt_value}, df-pn {pn_value}")
        value = pn_value if pn_value is not None else tt_value
        shown_tt = f"{tt_nodes:,}" if tt_value is not None else f"> {tt_nodes:,}"
        shown_pn = f"{pn_nodes:,}" if pn_value is not None else f"> {pn_nodes:,}"
        ratio = f"{tt_nodes / pn_nodes:.1f}" if pn_nodes else "-"
        print(f"| {label} | {value} | {shown_tt} | {tt_time:.3f} | {shown_pn} | {generated:,} | "
              f"{pn_time:.3f} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()

"""Nodes per second in chess, on the same positions: perfectplay's engine and sunfish searching
(each through UCI, with the same time), and python-chess's own perft.

    .venv/bin/python benchmarks/chess_nps.py                  # 5 positions, 2 s searches
    .venv/bin/python benchmarks/chess_nps.py --time 5

What a "node" is differs, so each column says it:

* perfectplay: one visit of the engine's search or quiescence function (``Searcher._visit``):
  every position the search enters, leaves and quiescence nodes included; from the last
  ``info`` line (nodes and time as the engine reports them).
* sunfish: one call of its ``Searcher.bound`` (main search and quiescence alike, null-move
  probes included), from its last ``info`` line; sunfish re-searches the root several times
  per depth (MTD-bi), so its nodes include re-visits its table mostly answers.
* python-chess perft: the positions a perft visits, the root excluded, at the depth given,
  "bulk" counting the last ply's moves without making them (python-chess's own test-suite
  perft) and "leaves" making every move with push/pop (the work of a search's move loop).

sunfish comes from ``.venv-sunfish`` (``make bench-venvs``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import chess
import chess.engine

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chess_perft import bulk_perft, leaf_perft  # noqa: E402  (a sibling script)

ROOT = Path(__file__).resolve().parents[1]
ENGINES = {
    "perfectplay": [sys.executable, "-m", "perfectplay", "uci", "chess"],
    "sunfish": [str(ROOT / ".venv-sunfish" / "bin" / "sunfish-uci")],
}
# The perft positions of the Chess Programming Wiki ("Perft Results"), with the perft depth
# used here for python-chess (seconds each on this machine).
POSITIONS = [
    ("start", chess.STARTING_FEN, 4),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
    ("position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
]


def search_speed(command: list[str], fen: str, seconds: float) -> tuple[int, float]:
    """(nodes, seconds) of the last info line of a ``seconds`` search."""
    with chess.engine.SimpleEngine.popen_uci(command, timeout=60) as engine:
        info = engine.analyse(chess.Board(fen), chess.engine.Limit(time=seconds))
    nodes = int(info.get("nodes", 0))
    spent = float(info.get("time", 0.0)) or seconds
    return nodes, spent


def perft_speed(count: object, fen: str, depth: int) -> tuple[int, float]:
    started = time.perf_counter()
    nodes = count(chess.Board(fen), depth)  # type: ignore[operator]
    return nodes, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--time", type=float, default=2.0, help="seconds per engine search")
    args = parser.parse_args()
    if not Path(ENGINES["sunfish"][0]).exists():
        parser.error(f"{ENGINES['sunfish'][0]} is missing: run 'make bench-venvs' first")
    print(f"load average {os.getloadavg()[0]:.1f}; python-chess {chess.__version__}; "
          f"searches of {args.time:g} s")
    print("| position | perfectplay nodes | nodes/s | sunfish nodes | nodes/s | perft depth | "
          "perft nodes | bulk nodes/s | leaves nodes/s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    totals = {"perfectplay": [0, 0.0], "sunfish": [0, 0.0], "bulk": [0, 0.0], "leaves": [0, 0.0]}
    for name, fen, depth in POSITIONS:
        row = [name]
        for engine, command in ENGINES.items():
            nodes, spent = search_speed(command, fen, args.time)
            totals[engine][0] += nodes
            totals[engine][1] += spent
            row += [f"{nodes:,}", f"{nodes / spent:,.0f}"]
        row += [str(depth)]
        for kind, count in (("bulk", bulk_perft), ("leaves", leaf_perft)):
            nodes, spent = perft_speed(count, fen, depth)
            totals[kind][0] += nodes
            totals[kind][1] += spent
            if kind == "bulk":
                row += [f"{nodes:,}"]
            row += [f"{nodes / spent:,.0f}"]
        print("| " + " | ".join(row) + " |", flush=True)
    print("| all | " + " | ".join(
        [f"{totals['perfectplay'][0]:,}", f"{totals['perfectplay'][0] / totals['perfectplay'][1]:,.0f}",
         f"{totals['sunfish'][0]:,}", f"{totals['sunfish'][0] / totals['sunfish'][1]:,.0f}", "", "",
         f"{totals['bulk'][0] / totals['bulk'][1]:,.0f}",
         f"{totals['leaves'][0] / totals['leaves'][1]:,.0f}"]) + " |")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()

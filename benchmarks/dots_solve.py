"""Solve a Dots and Boxes board past the table (4x4 boxes and up) one first line at a time,
resumably: the first lines fall into classes the board's symmetries make equal, and each
class's value goes to its own file in ``--out`` as it is found; a run started again skips
the classes already there, and ``--part K --parts N`` splits the classes between N
processes. Once every class is done, ``summary.json`` holds the board's value (the best
first line's), every first line's, and the nodes and CPU seconds they took.

    nice -n 19 .venv/bin/python benchmarks/dots_solve.py --width 4 --height 4 \
        --out dots_4x4 >> dots_4x4.log 2>&1 &

``--rules 0`` searches without the chain rules and ``--no-symmetry`` keys the table on the
lines as drawn: the same values by other searches, for a cross-check (``--only`` names the
first lines to solve). ``--guess`` starts the null-window tests there (the value expected).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from perfectplay.errors import PerfectPlayError
from perfectplay.games.dots.chains import ALL_RULES, Narrowing, Searcher
from perfectplay.games.dots.rules import DotsAndBoxes
from perfectplay.games.dots.symmetry import distinct_lines
from perfectplay.search.checkpoint import Checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--table-bits", type=int, default=25)
    parser.add_argument("--rules", type=int, default=ALL_RULES)
    parser.add_argument("--no-symmetry", action="store_true")
    parser.add_argument("--guess", type=int, default=0)
    parser.add_argument("--part", type=int, default=0)
    parser.add_argument("--parts", type=int, default=1)
    parser.add_argument("--only", default=None,
                        help="first lines to solve, in this order, e.g. c2-c3,b2-b3 (default: every class)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--log-nodes", type=int, default=200_000_000,
                        help="nodes between lines of progress in the log (and snapshots)")
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="a snapshot file of the search, to go on from when run again")
    parser.add_argument("--snapshot-minutes", type=float, default=10.0)
    args = parser.parse_args()
    game = DotsAndBoxes(args.width, args.height)
    args.out.mkdir(parents=True, exist_ok=True)
    start = game.start()
    classes = distinct_lines(game, 0)
    searcher = Searcher(game, rules=args.rules, table_bits=args.table_bits,
                        use_symmetry=not args.no_symmetry)
    _say(f"pid {os.getpid()}: {args.width}x{args.height} boxes, part {args.part} of {args.parts}, "
         f"rules {args.rules}, symmetry {not args.no_symmetry}")
    checkpoint = (None if args.checkpoint is None else
                  Checkpoint(args.checkpoint, 60 * args.snapshot_minutes))
    kept = None if checkpoint is None else checkpoint.load(searcher.arrays())
    guess = args.guess
    chosen = list(enumerate(classes))
    if args.only is not None:
        wanted = args.only.split(",")
        chosen = sorted((pair for pair in chosen if game.format_move(start, pair[1][0]) in wanted),
                        key=lambda pair: wanted.index(game.format_move(start, pair[1][0])))
    for index, group in chosen:
        name = game.format_move(start, group[0])
        path = args.out / f"{name}.json"
        if index % args.parts != args.part or path.exists():
            continue
        began, cpu, nodes = time.perf_counter(), time.process_time(), int(searcher.counters[0])
        driver = None
        resumed = kept is not None and kept["line"] == name
        if kept is not None and resumed:
            driver = Narrowing.resumed(kept["narrowing"])
            _say(f"{name}: resumed from {args.checkpoint}: its value within "
                 f"[{-driver.high:+d}, {-driver.low:+d}]")
        if driver is None:
            driver = Narrowing(game.boxes, -guess)
        def progress(total: int, name: str = name, nodes: int = nodes, cpu: float = cpu,
                     driver: Narrowing = driver) -> None:
            _say(f"{name}: {total - nodes:,} nodes, {time.process_time() - cpu:.0f} CPU s so far")
            if checkpoint is not None and checkpoint.due():
                checkpoint.save(searcher.arrays(), {"line": name, "narrowing": driver.state()})
                _say(f"{name}: snapshot; its value within [{-driver.high:+d}, {-driver.low:+d}]")
        child = searcher.value(1 << group[0], slice_nodes=args.log_nodes, poll=progress,
                               driver=driver)
        assert child is not None  # no cap, no stop word
        guess = -child
        found = {"line": name, "value": -child,
                 "same_as": [game.format_move(start, line) for line in group],
                 "nodes": int(searcher.counters[0]) - nodes,
                 "cpu_seconds": round(time.process_time() - cpu, 1),
                 "wall_seconds": round(time.perf_counter() - began, 1), "rules": args.rules,
                 "symmetry": not args.no_symmetry,
                 # Nodes and seconds are this run's, after the snapshot's work.
                 "resumed_from_snapshot": resumed}
        path.write_text(json.dumps(found) + "\n")
        _say(f"{name} ({len(group)} lines): {-child:+d}, {found['nodes']:,} nodes, "
             f"{found['cpu_seconds']} CPU s, {found['wall_seconds']} s")
    _summarise(game, args.out, [game.format_move(start, group[0]) for group in classes])


def _summarise(game: DotsAndBoxes, out: Path, names: list[str]) -> None:
    paths = [out / f"{name}.json" for name in names]
    if not all(path.exists() for path in paths):
        return
    found = [json.loads(path.read_text()) for path in paths]
    summary = {"board": f"{game.width}x{game.height} boxes (width x height)",
               "value": max(entry["value"] for entry in found),
               "nodes": sum(entry["nodes"] for entry in found),
               "cpu_seconds": round(sum(entry["cpu_seconds"] for entry in found), 1),
               "first_lines": found}
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    _say(f"value {summary['value']:+d}: {summary['nodes']:,} nodes, {summary['cpu_seconds']} CPU s")


def _say(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


if __name__ == "__main__":
    try:
        main()
    except PerfectPlayError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)

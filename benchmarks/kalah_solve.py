"""Kalah(m, n) from its start by the endgame database and MTD(f), one first move at a time,
resumable (docs/extra_turns.md, "Kalah(6,4) and (6,5) with endgame databases").

    nice -n 19 .venv/bin/python benchmarks/kalah_solve.py --pits 6 --seeds 5 \\
        --capture empty --database-seeds 20 --results kalah65-empty.json

Builds (or goes on building) the endgame database to --database-seeds seeds in --folder
(default: where the kernel looks), then values each first move by MTD(f) with the kernel
(perfectplay.games.kalah.kernel), writing each finished move's value, nodes and times to
--results at once: a restart skips the moves already there (the table starts empty again).
Prints the value of the start, every first move's value, the database build's time and the
search's, in wall and CPU seconds; with --value-only, the start's value by one MTD(f).
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from pathlib import Path

from perfectplay.games.kalah.endgame import build
from perfectplay.games.kalah.files import path_for
from perfectplay.games.kalah.kernel import NODES, Searcher
from perfectplay.games.kalah.rules import CAPTURE_RULES, Kalah


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--capture", choices=sorted(CAPTURE_RULES), default="empty")
    parser.add_argument("--database-seeds", type=int, default=16)
    parser.add_argument("--folder", default=None, help="where the database file goes")
    parser.add_argument("--table-bits", type=int, default=24,
                        help="the table's 2**bits entries (21 bytes each)")
    parser.add_argument("--results", required=True, help="JSON file of finished first moves")
    parser.add_argument("--threads", type=int, default=1,
                        help="first moves solved at once, each thread with a table of its own")
    parser.add_argument("--value-only", action="store_true",
                        help="the start's value alone, by one MTD(f) (no first move's value)")
    args = parser.parse_args()
    rule = CAPTURE_RULES[args.capture]
    game = Kalah(args.pits, args.seeds, empty_capture=rule)
    results_path = Path(args.results)
    results = json.loads(results_path.read_text()) if results_path.exists() else {}

    wall, cpu = clocks()
    database = build(path_for(args.pits, rule, args.folder), args.pits, rule, args.database_seeds,
                     lambda line: print(f"  database {line}", flush=True))
    built_wall, built_cpu = clocks()
    results.setdefault("database", {"seeds": args.database_seeds,
                                    "wall_s": round(built_wall - wall, 1),
                                    "cpu_s": round(built_cpu - cpu, 1)})
    print(f"database: {database.describe()}; {built_wall - wall:.1f} s wall, "
          f"{built_cpu - cpu:.1f} s CPU this run", flush=True)

    searcher = Searcher(game, database, table_bits=args.table_bits)
    start = game.start()
    if args.value_only:
        wall, cpu = clocks()
        found = searcher.value(start, 50_000_000, lambda count: None)
        done_wall, done_cpu = clocks()
        print(f"Kalah({args.pits},{args.seeds}), {args.capture} capture: {found:+d} "
              f"({int(searcher.counters[NODES]):,} nodes, {done_wall - wall:.1f} s wall, "
              f"{done_cpu - cpu:.1f} s CPU)")
        return
    moves = results.setdefault("moves", {})
    todo = [pit for pit in game.moves(start) if str(pit) not in moves]
    # Each thread keeps its own table across the first moves it takes (the kernel releases
    # the GIL), and reads the best value found so far by either for its first guess.
    searchers = [searcher] + [Searcher(game, database, table_bits=args.table_bits)
                              for _ in range(args.threads - 1)]
    lock = threading.Lock()
    run_wall, run_cpu = clocks()

    def take_moves(own: Searcher) -> None:
        while True:
            with lock:
                if not todo:
                    return
                pit = todo.pop(0)
                best = max((entry["value"] for entry in moves.values()), default=0)
            wall, cpu = time.perf_counter(), time.thread_time()
            child = game.play(start, pit)
            gain = game.gain(start, pit)
            again = game.keeps_turn(start, pit)
            guess = best - gain if again else gain - best
            nodes = int(own.counters[NODES])
            found = own.value(child, 50_000_000, lambda count: None, guess=guess)
            assert found is not None
            worth = gain + found if again else gain - found
            done_wall, done_cpu = time.perf_counter(), time.thread_time()
            with lock:
                moves[str(pit)] = {"value": worth, "nodes": int(own.counters[NODES]) - nodes,
                                   "wall_s": round(done_wall - wall, 1),
                                   "cpu_s": round(done_cpu - cpu, 1),
                                   "load": os.getloadavg()[0]}
                results_path.write_text(json.dumps(results, indent=1))
                print(f"pit {pit}: {worth:+d} ({moves[str(pit)]['nodes']:,} nodes, "
                      f"{done_wall - wall:.1f} s wall, {done_cpu - cpu:.1f} s CPU)", flush=True)

    threads = [threading.Thread(target=take_moves, args=(own,)) for own in searchers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done_wall, done_cpu = clocks()
    value = max(entry["value"] for entry in moves.values())
    total_wall = sum(entry["wall_s"] for entry in moves.values())
    total_cpu = sum(entry["cpu_s"] for entry in moves.values())
    every = ", ".join(f"{pit} {entry['value']:+d}" for pit, entry in moves.items())
    print(f"Kalah({args.pits},{args.seeds}), {args.capture} capture: {value:+d}; every first "
          f"move: {every}; "
          f"search {total_wall:.1f} s wall, {total_cpu:.1f} s CPU summed over the moves "
          f"(this run, {args.threads} thread(s): {done_wall - run_wall:.1f} s wall, "
          f"{done_cpu - run_cpu:.1f} s CPU); database "
          f"{results['database']['wall_s']} s wall, {results['database']['cpu_s']} s CPU")


if __name__ == "__main__":
    main()

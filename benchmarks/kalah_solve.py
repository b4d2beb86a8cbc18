"""Kalah(m, n) from its start by the endgame database and MTD(f), one first move at a time,
under one capture rule or both, resumable (docs/extra_turns.md, "Kalah(6,4) and (6,5) with
endgame databases").

    nice -n 19 .venv/bin/python benchmarks/kalah_solve.py --pits 6 --seeds 4 \\
        --capture empty standard --database-seeds 18 --threads 2 --results k64.json

Builds (or goes on building) each rule's endgame database to --database-seeds seeds in
--folder (default: where the kernel looks; the rules' databases at once, a thread each),
then values each first move by MTD(f) with the kernel (perfectplay.games.kalah.kernel),
writing each finished move's value, nodes and times to --results at once, under its rule: a
restart skips the moves already there (the tables start empty again). Each thread keeps a
table per rule across the first moves it takes (with --share-table, all threads one per
rule), and takes the first moves of one rule (its own, when there are as many rules as
threads) in --order before helping with another's. Prints every first move's value, the
databases' build time and the search's, in wall and CPU seconds; with --value-only, the
start's value by one MTD(f), which --checkpoint makes resumable inside the search (snapshots
of its table and bounds, perfectplay.search.checkpoint):

    nice -n 19 .venv/bin/python benchmarks/kalah_solve.py --pits 6 --seeds 5 \\
        --capture standard --database-seeds 26 --value-only --guess 10 \\
        --deepening 6,12,18,24 --table-bits 26 --checkpoint ck --results k65.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

from perfectplay.errors import PerfectPlayError
from perfectplay.games.kalah.endgame import Database, build
from perfectplay.games.kalah.files import path_for
from perfectplay.games.kalah.kernel import DEEPENING, NODES, MtdF, Searcher, Table, move_values
from perfectplay.games.kalah.rules import CAPTURE_RULES, Kalah
from perfectplay.search.checkpoint import Checkpoint

# Nodes between the searches' polls (the benchmark never stops a search early).
SLICE_NODES = 50_000_000


def clocks() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--capture", choices=sorted(CAPTURE_RULES), nargs="+", default=["empty"],
                        help="one capture rule or both")
    parser.add_argument("--database-seeds", type=int, default=16)
    parser.add_argument("--folder", default=None, help="where the database files go")
    parser.add_argument("--table-bits", type=int, default=24,
                        help="each table's 2**bits entries (24 bytes each)")
    parser.add_argument("--results", required=True, help="JSON file of finished first moves")
    parser.add_argument("--threads", type=int, default=1,
                        help="first moves solved at once, each thread with tables of its own")
    parser.add_argument("--share-table", action="store_true",
                        help="the threads share one table per rule instead of one each")
    parser.add_argument("--order", default=None,
                        help="the first moves in the order to solve them, e.g. 3,6,5,4,2,1 "
                             "(default: the game's, extra turns first)")
    parser.add_argument("--deepening", nargs="+", default=[",".join(map(str, DEEPENING))],
                        help="the depths MTD(f) searches to before the end, comma-separated "
                             "(default: the kernel's); one for every rule, or one a rule in "
                             "--capture's order")
    parser.add_argument("--value-only", action="store_true",
                        help="the start's value alone, by one MTD(f) (no first move's value)")
    parser.add_argument("--guess", type=int, default=0,
                        help="with --value-only, MTD(f)'s first guess (a published value "
                             "speeds the proof; any guess gives the same value)")
    parser.add_argument("--checkpoint", default=None,
                        help="with --value-only, a folder for snapshots of the search (its "
                             "table and MTD(f)'s bounds): a run stopped and started again "
                             "goes on from the last")
    parser.add_argument("--snapshot-minutes", type=float, default=10.0)
    parser.add_argument("--slice-nodes", type=int, default=SLICE_NODES,
                        help="nodes between the searches' polls (and so between snapshots)")
    args = parser.parse_args()
    if len(args.deepening) not in (1, len(args.capture)):
        parser.error(f"--deepening {' '.join(args.deepening)}: give one schedule, or one for "
                     f"each of the {len(args.capture)} rules")
    return args


def write_results(results: dict[str, Any], path: Path) -> None:
    """The results file, whole or not at all: a kill while it is written keeps the last."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(results, indent=1))
    os.replace(partial, path)


def depths(args: argparse.Namespace, capture: str) -> tuple[int, ...]:
    """The deepening schedule of ``capture``'s searches."""
    given = args.deepening
    text = given[args.capture.index(capture)] if len(given) > 1 else given[0]
    return tuple(int(depth) for depth in text.split(",") if depth)


def build_databases(args: argparse.Namespace) -> dict[str, Database]:
    """Each rule's database, built at once in threads of their own (the build releases the
    GIL), each on its share of --threads."""
    databases: dict[str, Database] = {}
    each = max(1, args.threads // len(args.capture))

    def build_one(capture: str) -> None:
        rule = CAPTURE_RULES[capture]
        databases[capture] = build(path_for(args.pits, rule, args.folder), args.pits, rule,
                                   args.database_seeds,
                                   lambda line: print(f"  {capture} database {line}", flush=True),
                                   threads=each)

    threads = [threading.Thread(target=build_one, args=(capture,)) for capture in args.capture]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len(databases) != len(args.capture):
        raise SystemExit("a database build failed (above)")
    return databases


def main() -> None:
    args = parse()
    games = {capture: Kalah(args.pits, args.seeds, empty_capture=CAPTURE_RULES[capture])
             for capture in args.capture}
    results_path = Path(args.results)
    results: dict[str, Any] = json.loads(results_path.read_text()) if results_path.exists() else {}

    wall, cpu = clocks()
    databases = build_databases(args)
    built_wall, built_cpu = clocks()
    for capture, database in databases.items():
        results.setdefault(capture, {}).setdefault("database", {
            "seeds": args.database_seeds, "wall_s": round(built_wall - wall, 1),
            "cpu_s": round(built_cpu - cpu, 1), "rules_built_at_once": len(databases)})
        print(f"{capture} database: {database.describe()}", flush=True)
    print(f"databases: {built_wall - wall:.1f} s wall, {built_cpu - cpu:.1f} s CPU this run",
          flush=True)

    if args.value_only:
        for capture, game in games.items():
            value_only(args, capture, game, databases[capture], results, results_path)
        return
    search_first_moves(args, games, databases, results, results_path)


def value_only(args: argparse.Namespace, capture: str, game: Kalah, database: Database,
               results: dict[str, Any], results_path: Path) -> None:
    """The start's value by one MTD(f); with --checkpoint, snapshots of the search go there
    every --snapshot-minutes and a run started again goes on from the last one. The bounds
    proved so far, the nodes and the seconds (summed over every run, with the work a kill
    lost) go to --results between slices."""
    searcher = Searcher(game, database, table_bits=args.table_bits)
    schedule = depths(args, capture)
    seeds = 2 * args.pits * args.seeds
    driver = MtdF(seeds, args.guess, schedule)
    checkpoint = None
    if args.checkpoint:
        checkpoint = Checkpoint(Path(args.checkpoint) / f"kalah{args.pits}{args.seeds}-{capture}.npz",
                                60 * args.snapshot_minutes)
        state = checkpoint.load(searcher.arrays())
        if state is not None:
            driver = MtdF.resumed(state)
            print(f"{capture}: resumed from {checkpoint.path}: proved "
                  f"[{driver.proved_lower:+d}, {driver.proved_upper:+d}], depths left "
                  f"{driver.depths}", flush=True)
    record = results.setdefault(capture, {}).setdefault("value_only", {
        "guess": args.guess, "deepening": list(schedule), "table_bits": args.table_bits,
        "nodes": 0, "wall_s": 0.0, "cpu_s": 0.0, "runs": 0})
    record["runs"] += 1
    before = {name: record[name] for name in ("nodes", "wall_s", "cpu_s")}
    wall, cpu = clocks()
    nodes = int(searcher.counters[NODES])

    def account() -> None:
        now_wall, now_cpu = clocks()
        record.update(nodes=before["nodes"] + int(searcher.counters[NODES]) - nodes,
                      wall_s=round(before["wall_s"] + now_wall - wall, 1),
                      cpu_s=round(before["cpu_s"] + now_cpu - cpu, 1),
                      proved=[driver.proved_lower, driver.proved_upper],
                      depths_left=driver.depths, load=os.getloadavg()[0])
        write_results(results, results_path)

    def poll(count: int) -> None:
        account()
        if checkpoint is not None and checkpoint.due():
            checkpoint.save(searcher.arrays(), driver.state())
            print(f"  {time.strftime('%H:%M:%S')} {capture}: snapshot, proved "
                  f"[{driver.proved_lower:+d}, {driver.proved_upper:+d}], testing at depth "
                  f"{driver.depths[0]}, {record['cpu_s']:.0f} s CPU in all", flush=True)

    found = searcher.value(game.start(), args.slice_nodes, poll, driver=driver)
    account()
    record["value"] = found
    write_results(results, results_path)
    if checkpoint is not None:
        checkpoint.save(searcher.arrays(), driver.state())
    print(f"Kalah({args.pits},{args.seeds}), {capture} capture: {found:+d} "
          f"({record['nodes']:,} nodes, {record['wall_s']:.1f} s wall, {record['cpu_s']:.1f} s CPU "
          f"over {record['runs']} run(s))", flush=True)


def search_first_moves(args: argparse.Namespace, games: dict[str, Kalah],
                       databases: dict[str, Database], results: dict[str, Any],
                       results_path: Path) -> None:
    todo: dict[str, list[int]] = {}
    for capture, game in games.items():
        done = results[capture].setdefault("moves", {})
        order = ([int(pit) for pit in args.order.split(",")] if args.order
                 else game.moves(game.start()))
        todo[capture] = [pit for pit in order if str(pit) not in done]
    lock = threading.Lock()
    # With --share-table, one table per rule for every thread (the kernel's table is
    # lockless); else each thread has its own.
    shared = {capture: Table(args.table_bits) for capture in games} if args.share_table else {}
    run_wall, run_cpu = clocks()

    def next_move(home: str) -> tuple[str, int] | None:
        with lock:
            for capture in [home, *todo]:
                if todo[capture]:
                    return capture, todo[capture].pop(0)
            return None

    def take_moves(home: str) -> None:
        # A table per rule, kept across the first moves this thread takes.
        searchers: dict[str, Searcher] = {}
        while (task := next_move(home)) is not None:
            capture, pit = task
            game = games[capture]
            if capture not in searchers:
                searchers[capture] = Searcher(game, databases[capture], args.table_bits,
                                              shared.get(capture))
            own = searchers[capture]
            wall, cpu = time.perf_counter(), time.thread_time()
            nodes = int(own.counters[NODES])
            with lock:
                best = max((entry["value"] for entry in results[capture]["moves"].values()),
                           default=None)
            schedule = depths(args, capture)
            [(_, worth)] = move_values(
                game, game.start(), [pit],
                lambda child, guess, own=own, schedule=schedule: own.value(
                    child, SLICE_NODES, lambda count: None, guess=guess, deepening=schedule),
                best)
            done_wall, done_cpu = time.perf_counter(), time.thread_time()
            with lock:
                entry = {"value": worth, "nodes": int(own.counters[NODES]) - nodes,
                         "wall_s": round(done_wall - wall, 1), "cpu_s": round(done_cpu - cpu, 1),
                         "load": os.getloadavg()[0]}
                results[capture]["moves"][str(pit)] = entry
                write_results(results, results_path)
                print(f"{capture} pit {pit}: {worth:+d} ({entry['nodes']:,} nodes, "
                      f"{entry['wall_s']} s wall, {entry['cpu_s']} s CPU)", flush=True)

    rules = list(games)
    threads = [threading.Thread(target=take_moves, args=(rules[index % len(rules)],))
               for index in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    done_wall, done_cpu = clocks()
    results["run"] = {"threads": args.threads, "deepening": dict(zip(
                          args.capture, args.deepening * len(args.capture), strict=False)),
                      "table_bits": args.table_bits, "order": args.order,
                      "share_table": args.share_table,
                      "wall_s": round(done_wall - run_wall, 1),
                      "cpu_s": round(done_cpu - run_cpu, 1), "load_after": os.getloadavg()}
    write_results(results, results_path)
    for capture in games:
        moves = results[capture]["moves"]
        every = ", ".join(f"{pit} {entry['value']:+d}" for pit, entry in moves.items())
        print(f"Kalah({args.pits},{args.seeds}), {capture} capture: "
              f"{max(entry['value'] for entry in moves.values()):+d}; every first move: {every}; "
              f"{sum(entry['nodes'] for entry in moves.values()):,} nodes, "
              f"{sum(entry['cpu_s'] for entry in moves.values()):.1f} s CPU summed over the moves")
    print(f"this run, {args.threads} thread(s): search {done_wall - run_wall:.1f} s wall, "
          f"{done_cpu - run_cpu:.1f} s CPU")


if __name__ == "__main__":
    try:
        main()
    except PerfectPlayError as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(2)

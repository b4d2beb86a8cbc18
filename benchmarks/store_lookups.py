"""Batched lookups per second from a built Connect Four database, on positions reached by
random play (so the sample follows the game, not the key order), after the checksums of
every batch are checked once (as a long-lived reader does); then the public API through
its open handle (perfectplay.lookup_many, lookup one at a time, solve_many, solve, analyze),
wall and CPU time each, beside SQLite's own rate for the same keys (a plain indexed query,
no checks, no Python objects beyond the row).

    python benchmarks/store_lookups.py /tmp/c4-5x5.sqlite --width 5 --height 5
"""

from __future__ import annotations

import argparse
import os
import random
import time

from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.store.database import Database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db")
    parser.add_argument("--width", type=int, default=7)
    parser.add_argument("--height", type=int, default=6)
    parser.add_argument("--lookups", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3,
                        help="times every way in is run, in turn (a shared machine's load then "
                             "falls on all alike)")
    args = parser.parse_args()
    game = ConnectFour(width=args.width, height=args.height)
    rng = random.Random(args.seed)
    keys: list[int] = []
    positions = []
    while len(keys) < args.lookups:
        position = game.start()
        for _ in range(rng.randrange(game.width * game.height)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(list(game.moves(position))))
        keys.append(game.key(position))
        positions.append(position)
    with Database.open(args.db) as database:
        started = time.perf_counter()
        database.check_all()
        print(f"checksums of every batch: {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        found = database.lookup_many(keys)
        elapsed = time.perf_counter() - started
    print(f"{len(keys):,} lookups ({len(set(keys)):,} distinct positions, {len(found):,} found) "
          f"in {elapsed:.2f} s: {len(keys) / elapsed:,.0f} a second")
    public_api(game, positions, args.db, args.rounds)


def public_api(game: ConnectFour, positions: list, db: str, rounds: int) -> None:
    import perfectplay
    from perfectplay.store.handles import open_handle
    # The handle checks every chunk once, as a long-lived reader has after a while: what is
    # timed below is the lookups, not the first reading of each chunk.
    handle = open_handle(db, game).sqlite
    assert handle is not None
    handle.check_all()
    one = min(len(positions), 20_000)
    few = min(len(positions), 2_000)
    runs = [("lookup_many", len(positions), lambda: perfectplay.lookup_many(game, positions, database=db)),
            ("lookup, one at a time", one,
             lambda: [perfectplay.lookup(game, p, database=db) for p in positions[:one]]),
            ("solve_many (no line)", one, lambda: perfectplay.solve_many(game, positions[:one], database=db)),
            ("solve, one at a time, pv_limit=0", one,
             lambda: [perfectplay.solve(game, p, database=db, pv_limit=0) for p in positions[:one]]),
            ("solve, one at a time (with its line)", few,
             lambda: [perfectplay.solve(game, p, database=db) for p in positions[:few]]),
            ("analyze, one at a time", one,
             lambda: [perfectplay.analyze(game, p, database=db) for p in positions[:one]])]
    runs += sqlite_itself(game, positions, db, one)
    rates: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in runs}
    for round_ in range(1, rounds + 1):
        for label, count, run in runs:
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            rates[label].append((count / wall, count / cpu))
            print(f"round {round_}: {label}: {count:,} in {wall:.2f} s wall ({count / wall:,.0f} a second), "
                  f"{cpu:.2f} s CPU ({count / cpu:,.0f} a second)", flush=True)
        print(f"round {round_}: load {os.getloadavg()[0]:.1f}", flush=True)
    print("\nway in: a second, CPU (lowest-highest of the rounds); wall")
    for label, found in rates.items():
        print(f"{label}: {min(c for _, c in found):,.0f}-{max(c for _, c in found):,.0f}; "
              f"wall {min(w for w, _ in found):,.0f}-{max(w for w, _ in found):,.0f}")
    family = rates["SQLite itself, a key and its children a query"]
    for label in ("solve, one at a time, pv_limit=0", "analyze, one at a time"):
        ratios = [mine[1] / theirs[1] for mine, theirs in zip(rates[label], family, strict=True)]
        print(f"{label} against SQLite's own query for a key and its children, CPU, round by round: "
              + ", ".join(f"{ratio:.2f}" for ratio in ratios))


def sqlite_itself(game: ConnectFour, positions: list, db: str, one: int) -> list:
    """SQLite's own rate for the same keys: one indexed query a key, and a key with its
    children in one query (what solve asks for a position), on a connection opened as
    sqlite3 opens it and on one memory-mapped as perfectplay's readers are."""
    import sqlite3

    from perfectplay.store.database import READER_MMAP_BYTES
    plain = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    mapped = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    mapped.execute(f"PRAGMA mmap_size={READER_MMAP_BYTES}")
    keys = [game.key(p) for p in positions[:one]]
    families = [[game.key(p)] + [game.key(game.play(p, m)) for m in game.legal_moves(p)]
                if game.outcome(p) is None else [game.key(p)] for p in positions[:one]]

    def singly(connection: sqlite3.Connection) -> None:
        for key in keys:
            connection.execute("SELECT value FROM positions WHERE key = ?", (key,)).fetchone()

    def with_children(connection: sqlite3.Connection) -> None:
        for family in families:
            marks = ",".join("?" * len(family))
            connection.execute(f"SELECT key, value FROM positions WHERE key IN ({marks})", family).fetchall()

    return [("SQLite itself, one key a query", one, lambda: singly(plain)),
            ("SQLite itself, a key and its children a query", one, lambda: with_children(plain)),
            ("SQLite itself, memory-mapped, one key a query", one, lambda: singly(mapped)),
            ("SQLite itself, memory-mapped, a key and its children a query", one,
             lambda: with_children(mapped))]


if __name__ == "__main__":
    main()

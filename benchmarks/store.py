"""Figures for the solved-position databases (perfectplay.store): build time, records, counts
by value, file sizes, bytes per record, lookups per second from both stores, and the
speedup of 2 workers over 1.

    python benchmarks/store.py                          # tic-tac-toe and Connect Four 4x4
    python benchmarks/store.py --games ttt,c4-4x4,c4-5x4 --speedup c4-4x4 --dir /tmp/dbs

Files are written under --dir (default: a temporary directory), never into the repository.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay import registry
from perfectplay import value as V
from perfectplay.solving import solve
from perfectplay.store.build import build
from perfectplay.store.database import Database
from perfectplay.store.dense import DenseFile
from perfectplay.store.lookup import open_store
from perfectplay.store.records import encode_key

GAMES = {
    "ttt": ("tictactoe", {}),
    "c4-4x4": ("connect4", {"width": 4, "height": 4}),
    "c4-5x4": ("connect4", {"width": 5, "height": 4}),
    "c4-6x4": ("connect4", {"width": 6, "height": 4}),
    "c4-5x5": ("connect4", {"width": 5, "height": 5}),
    # Loopy games: built by retrograde analysis (perfectplay.retro), no dense index.
    "dodgem": ("dodgem", {}),
    "morris3": ("morris3", {}),
    "tapatan": ("tapatan", {}),
}


def counts(database: Database) -> str:
    tally = {"win": 0, "loss": 0, "draw": 0}
    for value, count in database.count_by_value().items():
        tally[V.outcome_word(value)] += count
    return ", ".join(f"{word} {count:,}" for word, count in tally.items())


def sqlite_lookups(path: Path, keys: list[Any]) -> float:
    """Batched lookups per second (every batch checksum is checked on the way, once)."""
    with Database.open(path) as database:
        database.check_all()  # pay for the checksums outside the timing, as a long-lived reader does
        started = time.perf_counter()
        found = database.lookup_many(keys)
        elapsed = time.perf_counter() - started
    assert len(found) == len(set(keys))  # every key is stored
    return len(keys) / elapsed


def dense_lookups(path: Path, indices: np.ndarray) -> float:
    dense = DenseFile(path)
    dense.check_all()
    started = time.perf_counter()
    records = dense.raw(indices)
    elapsed = time.perf_counter() - started
    assert (records != 0).all()
    return len(indices) / elapsed


def stored_sample(game: Any, root: Any, rng: random.Random, count: int) -> list[Any]:
    """Random stored positions: random walks of random length from the root."""
    positions = []
    for _ in range(count):
        position = root
        for _ in range(rng.randrange(0, (game.properties.max_length or 20) + 1)):
            if game.outcome(position) is not None or not game.moves(position):
                break
            position = game.play(position, rng.choice(list(game.moves(position))))
        positions.append(position)
    return positions


def figures(name: str, where: Path, workers: int, agree: int) -> dict[str, Any]:
    spec, options = GAMES[name]
    game, root = registry.load(spec, options)
    path, dense_path = where / f"{name}.db", where / f"{name}.dense"
    for stale in (path, dense_path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        stale.unlink(missing_ok=True)
    dense = game.index_size() is not None
    started = time.perf_counter()
    result = build(game, root, path, dense_path=dense_path if dense else None, workers=workers)
    seconds = time.perf_counter() - started
    rng = random.Random(1)
    sample = stored_sample(game, root, rng, 2_000)
    with Database.open(path) as database:
        # Lookups of records drawn uniformly from the file, not only those near the root.
        keys = rng.choices([key for key, _ in database.records()], k=100_000)
        row = {"game": name, "records": result.records, "counts": counts(database),
               "build_s": seconds, "per_s": result.records / seconds,
               "sqlite_bytes": database.size_on_disk(),
               "dense_bytes": dense_path.stat().st_size if dense else 0}
    row["sqlite_lookups"] = sqlite_lookups(path, keys)
    row["dense_lookups"] = 0.0
    if dense:
        stored = np.flatnonzero(DenseFile(dense_path).records)
        indices = stored[np.random.default_rng(1).integers(0, len(stored), 5_000_000)]
        row["dense_lookups"] = dense_lookups(dense_path, indices)
    distinct = list({game.key(p): p for p in stored_sample(game, root, rng, 20_000)}.values())
    row["via_store"] = through_store(game, path, dense_path if dense else None, distinct)
    row["agree"] = check_against_search(game, path, sample[:agree])
    return row


def through_store(game: Any, path: Path, dense_path: Path | None, positions: list[Any]) -> str:
    """Positions per second through Store.values, keys and ranks computed in Python."""
    rates = []
    for store_path in filter(None, (path, dense_path)):
        store = open_store(store_path, game)
        store.values(game, positions)  # checksums checked once, as a long-lived reader does
        started = time.perf_counter()
        store.values(game, positions)
        rates.append(len(positions) / (time.perf_counter() - started))
        store.close()
    return " / ".join(f"{rate:,.0f}" for rate in rates) + ("" if dense_path else " / -")


def check_against_search(game: Any, path: Path, positions: list[Any]) -> str:
    with Database.open(path) as database:
        for position in positions:
            stored = database.lookup(encode_key(game.key(position)))
            if stored != solve(game, position, engine="auto").value:
                return f"MISMATCH at {game.format_position(position)!r}"
    return f"{len(positions)} of {len(positions)}"


def speedup(name: str, where: Path) -> str:
    spec, options = GAMES[name]
    game, root = registry.load(spec, options)
    times = {}
    for workers in (1, 2):
        path = where / f"speed-{workers}.db"
        for stale in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            stale.unlink(missing_ok=True)
        started = time.perf_counter()
        build(game, root, path, workers=workers, batch_size=20_000)
        times[workers] = time.perf_counter() - started
    return (f"{name}: 1 worker {times[1]:.1f} s, 2 workers {times[2]:.1f} s, "
            f"speedup {times[1] / times[2]:.2f}x")


def shown(number: float, spec: str) -> str:
    """A figure, or '-' where the game has none (no dense file for a game without an index)."""
    return format(number, spec) if number else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="ttt,c4-4x4")
    parser.add_argument("--speedup", default=None, help="game to time with 1 and 2 workers")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--agree", type=int, default=50, help="positions to re-solve by search")
    parser.add_argument("--dir", default=None)
    args = parser.parse_args()
    where = Path(args.dir or tempfile.mkdtemp(prefix="perfectplay-store-"))
    where.mkdir(parents=True, exist_ok=True)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; files in {where}")
    print("| game | records | counts by value | build s | records/s | SQLite bytes (per record) "
          "| dense bytes | SQLite lookups/s (batched keys) | dense lookups/s (index array) "
          "| distinct positions/s via Store.values, SQLite / dense | agree with solve |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in filter(None, args.games.split(",")):
        row = figures(name, where, args.workers, args.agree)
        print(f"| {row['game']} | {row['records']:,} | {row['counts']} | {row['build_s']:.1f} | "
              f"{row['per_s']:,.0f} | {row['sqlite_bytes']:,} ({row['sqlite_bytes'] / row['records']:.1f}) | "
              f"{shown(row['dense_bytes'], ',')} | {row['sqlite_lookups']:,.0f} | "
              f"{shown(row['dense_lookups'], ',.0f')} | "
              f"{row['via_store']} | "
              f"{row['agree']} |", flush=True)
    if args.speedup:
        print(speedup(args.speedup, where))


if __name__ == "__main__":
    main()

"""db build, db info, db verify: databases of strongly solved positions (perfectplay.store).

``db verify`` exits 0 when every checked batch and sampled position agrees, 1 when any does
not (a finding about the file, like a search that ran out of budget), and 2 for bad input
(no such file, not a database), as every command does.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import TYPE_CHECKING, Any

import click

from perfectplay import value as V
from perfectplay.cli.common import console, emit_json, game_options, json_option, pick_options
from perfectplay.errors import BadDatabase, CorruptDatabase
from perfectplay.registry import resolve
from perfectplay.store.records import BACKENDS, DEFAULT_BATCH

if TYPE_CHECKING:  # the build and the stores import numpy: only when a command runs
    from perfectplay.store.lookup import Store


@click.group("db")
def db_group() -> None:
    """Databases of strongly solved positions: build, info, verify."""


@db_group.command("build")
@click.argument("game")
@click.argument("position", nargs=-1)
@game_options
@click.option("--db", "path", required=True, metavar="PATH", help="the SQLite file to build (or resume)")
@click.option("--dense", "dense_path", default=None, metavar="PATH",
              help="also write a dense record file (games with a perfect index)")
@click.option("--workers", type=int, default=1, show_default=True, help="worker processes")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
              help="local processes (concurrent.futures) or a Ray cluster")
@click.option("--address", default=None, metavar="HOST:PORT", help="join this Ray cluster")
@click.option("--memory", default=None, metavar="SIZE",
              help="memory bound, e.g. 2GB (default: a quarter of RAM); beyond it the build spills to disk")
@click.option("--batch", "batch_size", type=int, default=DEFAULT_BATCH, show_default=True,
              help="positions per committed batch (a unit of work)")
@click.option("--quiet", is_flag=True, default=False, help="no progress lines")
def build_command(game: str, position: tuple[str, ...], path: str, dense_path: str | None,
                  workers: int, backend: str, address: str | None, memory: str | None,
                  batch_size: int, quiet: bool, **options: Any) -> None:
    """Strongly solve every position reachable from POSITION (default: the start) into PATH.

    Killed builds resume from their last committed batch when run again."""
    given = {name: value for name, value in pick_options(options).items() if value not in (None, False)}
    loaded, root = resolve(game, dict(given)).load(" ".join(position) if position else None)

    def report(line: str) -> None:
        if not quiet:
            click.echo(f"  {line}", err=True)

    started = time.perf_counter()
    from perfectplay.store.build import build

    result = build(loaded, root, path, workers=workers, backend=backend, address=address,
                   memory=memory, batch_size=batch_size, dense_path=dense_path,
                   spec=(game, given), report=report)
    if result.batches_committed == 0 and result.batches_resumed == 0:
        click.echo(f"{path}: already complete ({result.records:,} records)")
        return
    resumed = f", {result.batches_resumed} batches resumed" if result.batches_resumed else ""
    spilled = ""
    if result.spilled_chunks or result.tiers_from_database:
        spilled = (f"; over --memory: {result.spilled_chunks} chunks spilled to disk, "
                   f"{result.tiers_from_database} tiers valued from the database")
    click.echo(f"{path}: {result.records:,} records in {result.tiers} tiers, "
               f"{result.batches_committed} batches committed{resumed}, "
               f"{time.perf_counter() - started:.1f} s this run{spilled}")


@db_group.command("info")
@click.argument("path")
@json_option
def info_command(path: str, as_json: bool) -> None:
    """Game, options, positions, counts by value, size on disk, build time."""
    from perfectplay.store.lookup import open_store

    store = open_store(path)
    try:
        facts = _facts(store)
    finally:
        store.close()
    if as_json:
        emit_json(facts)
        return
    out = console()
    for name, shown in facts.items():
        if name == "counts":
            out.print("counts by value: " + ", ".join(f"{word} {count:,}" for word, count in shown.items()))
        elif name == "options":
            out.print("options: " + (" ".join(f"--{key} {value}" for key, value in shown.items()) or "none"))
        else:
            out.print(f"{name.replace('_', ' ')}: {shown:,}" if isinstance(shown, int) else
                      f"{name.replace('_', ' ')}: {shown}")


def _facts(store: Store) -> dict[str, Any]:
    identity = store.identity
    facts: dict[str, Any] = {"file": str(store.path), "game": identity.game,
                             "options": json.loads(identity.options)}
    if store.dense is not None:
        header = store.dense.header
        records = store.dense.records
        facts |= {"format": "dense (16-bit records)", "records": int(header["stored"]),
                  "index_size": int(header["records"]), "root": header.get("root")}
        counts = _dense_counts(records, store.score_game)
        facts |= {"counts": counts, "size_on_disk": store.path.stat().st_size,
                  "build_seconds": header.get("build_seconds")}
        return facts
    db = store.sqlite
    assert db is not None
    values = db.count_by_value()
    facts |= {"format": "sqlite", "records": sum(values.values()), "root": db.root,
              "state": "complete" if db.complete else
              f"building or interrupted ({len(db.batches)} batches committed)",
              "counts": _counts(values, store.score_game), "size_on_disk": db.size_on_disk(),
              "build_seconds": db.meta.get("build_seconds"), "built_at": db.meta.get("built_at")}
    facts |= {name: db.meta[name] for name in ("backend", "workers") if name in db.meta}
    return facts


def _counts(values: dict[int, int], score_game: bool) -> dict[str, int]:
    if score_game:
        return {f"{value:+d}": count for value, count in sorted(values.items())}
    counts = {"win": 0, "loss": 0, "draw": 0}
    for value, count in values.items():
        counts[V.outcome_word(value)] += count
    return counts


def _dense_counts(records: Any, score_game: bool) -> dict[str, int]:
    import numpy as np

    from perfectplay.store import records as R
    if score_game:
        signed = records.view(np.int16)
        found, count = np.unique(signed[signed != R.SCORE_ABSENT], return_counts=True)
        return {f"{int(v):+d}": int(c) for v, c in zip(found, count)}
    kinds = np.bincount(records >> R.REMOTENESS_BITS, minlength=4)
    return {"win": int(kinds[R.WIN]), "loss": int(kinds[R.LOSS]), "draw": int(kinds[R.DRAW])}


@db_group.command("verify")
@click.argument("path")
@click.option("--sample", type=int, default=100, show_default=True,
              help="random stored positions to re-solve by search")
@click.option("--seed", type=int, default=None, help="make the sample reproducible")
def verify_command(path: str, sample: int, seed: int | None) -> None:
    """Check every batch checksum, then re-solve a random sample of stored positions by
    search. Exit 0 when all agree, 1 on any mismatch or corruption, 2 for bad input."""
    from perfectplay.errors import BadOption
    from perfectplay.solving import solve

    if sample < 0:
        raise BadOption(f"--sample {sample}: not negative, please")
    from perfectplay.store.lookup import open_store

    store = open_store(path)
    try:
        game, root = _game_of(store)
        store.check_game(game)
        try:
            _check_integrity(store)
        except CorruptDatabase as error:
            click.echo(f"mismatch: {error}")
            sys.exit(1)
        rng = random.Random(seed)
        bad = 0
        for _ in range(sample):
            position = _random_reachable(game, root, rng)
            stored = store.values(game, [position])[0]
            searched = solve(game, position, pv_limit=0, engine="auto").value
            if stored != searched:
                bad += 1
                click.echo(f"mismatch: {game.format_position(position)!r}: stored "
                           f"{_describe(stored, store)}, search {_describe(searched, store)}")
    finally:
        store.close()
    if bad:
        click.echo(f"{path}: {bad} of {sample} sampled positions disagree with search")
        sys.exit(1)
    click.echo(f"{path}: checksums hold; {sample} sampled positions agree with search")


def _describe(value: int | None, store: Store) -> str:
    return "nothing (missing)" if value is None else V.describe(value, score_game=store.score_game)


def _check_integrity(store: Store) -> None:
    if store.dense is not None:
        store.dense.check_all()
    else:
        assert store.sqlite is not None
        store.sqlite.check_all()


def _game_of(store: Store) -> tuple[Any, Any]:
    """The game a database was built for, loaded the way its build named it."""
    if store.sqlite is not None:
        meta = store.sqlite.meta
        spec, options, root = meta.get("spec"), json.loads(meta.get("spec_options", "{}")), store.sqlite.root
    else:
        header = store.dense.header if store.dense is not None else {}
        spec, options, root = header.get("spec"), header.get("spec_options", {}), header.get("root")
    if spec is None:
        raise BadDatabase(f"{store.path}: does not say how to load its game (built through the "
                          "library); verify it with perfectplay.store in Python")
    game, start = resolve(spec, dict(options)).load(None)
    if root is not None and root != game.format_position(start):
        start = game.parse_position(root)
    return game, start


def _random_reachable(game: Any, root: Any, rng: random.Random) -> Any:
    """A stored position: a random walk of random length from the database's root."""
    position = root
    plies = rng.randrange(0, (game.properties.max_length or 40) + 1)
    for _ in range(plies):
        moves = list(game.moves(position))
        if not moves or game.outcome(position) is not None:
            break
        position = game.play(position, rng.choice(moves))
    return position




# -- --db on solve, analyze and play -------------------------------------------------------

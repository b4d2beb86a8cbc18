"""db build, db info, db verify: databases of strongly solved positions (perfectplay.store).

``db verify`` exits 0 when every checked batch and sampled position agrees, 1 when any does
not or the file is damaged or its build unfinished (a finding about the file, like a search
that ran out of budget), and 2 for bad input (no such file, not a database, a file that
cannot even be opened), as every command does.
"""

from __future__ import annotations

import json
import random
import re
import shlex
import sys
import time
from typing import TYPE_CHECKING, Any

import click

from perfectplay import value as V
from perfectplay.cli.common import emit_json, game_options, json_option, pick_options
from perfectplay.errors import BadDatabase, CorruptDatabase, PerfectPlayError
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
@click.option("--db", "path", default=None, metavar="PATH",
              help="the SQLite file to build (or resume); with --endgame, the database file "
                   "[default: where the game's search looks for it]")
@click.option("--endgame", "endgame_seeds", type=int, default=None, metavar="N",
              help="instead, the game's own endgame database of every position with up to N "
                   "pieces in play (for a game that has one), which its search "
                   "reads at its leaves")
@click.option("--dense", "dense_path", default=None, metavar="PATH",
              help="also write a dense record file (games with a perfect index); without "
                   "--db, only the dense file, written by the compiled builder itself")
@click.option("--workers", type=int, default=1, show_default=True,
              help="worker processes (threads of one process for the compiled builder and for "
                   "an endgame database)")
@click.option("--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
              help="local processes (concurrent.futures) or a Ray cluster")
@click.option("--address", default=None, metavar="HOST:PORT", help="join this Ray cluster")
@click.option("--memory", default=None, metavar="SIZE",
              help="memory bound, e.g. 2GB (default: a quarter of RAM); beyond it the build spills to disk")
@click.option("--batch", "batch_size", type=int, default=DEFAULT_BATCH, show_default=True,
              help="positions per committed batch (a unit of work)")
@click.option("--quiet", is_flag=True, default=False, help="no progress lines")
@click.option("--no-size-check", "no_size_check", is_flag=True, default=False,
              help="start even a build the game estimates past 10^9 positions (refused "
                   "otherwise: it would run for days or years)")
@click.option("--builder", type=click.Choice(("auto", "compiled", "python")), default="auto",
              show_default=True, help="compiled: numba forward and backward passes, in one "
              "local process on --workers threads (games with a tier spec); auto: compiled "
              "where it applies")
def build_command(game: str, position: tuple[str, ...], path: str | None, endgame_seeds: int | None,
                  dense_path: str | None,
                  workers: int, backend: str, address: str | None, memory: str | None,
                  batch_size: int, quiet: bool, no_size_check: bool, builder: str,
                  **options: Any) -> None:
    """Strongly solve every position reachable from POSITION (default: the start) into PATH.

    Killed builds resume from their last committed batch (or expanded slice, in the first
    pass) when run again."""
    given = {name: value for name, value in pick_options(options).items() if value not in (None, False)}
    loaded, root = resolve(game, dict(given)).load(" ".join(position) if position else None)

    report = _Progress(quiet)
    if endgame_seeds is not None:
        from perfectplay.registry import extension
        built = extension(loaded.name, "endgame").build_for(loaded, endgame_seeds, path, report,
                                                            threads=workers)
        report.flush()
        click.echo(built)
        return
    if path is None and dense_path is None:
        raise click.UsageError("Missing option '--db' (or '--dense' alone, for a dense file only).")
    started = time.perf_counter()
    from perfectplay.store.build import build

    result = build(loaded, root, path, workers=workers, backend=backend, address=address,
                   memory=memory, batch_size=batch_size, dense_path=dense_path,
                   spec=(game, given), report=report, size_check=not no_size_check,
                   builder=builder, notice=lambda line: click.echo(line, err=True))
    report.flush()
    if result.batches_committed == 0 and result.batches_resumed == 0:
        click.echo(f"{result.path}: already complete ({result.records:,} records)")
        return
    if path is None:  # the dense file alone: its tiers are its units of work
        resumed = f", {result.batches_resumed} kept from an earlier run" if result.batches_resumed else ""
        click.echo(f"{result.path}: {result.records:,} records in {result.tiers} tiers, "
                   f"{result.batches_committed} tiers valued{resumed}, "
                   f"{time.perf_counter() - started:.1f} s this run")
        return
    resumed = f", {result.batches_resumed} batches resumed" if result.batches_resumed else ""
    spilled = ""
    if result.spilled_chunks or result.tiers_from_database:
        spilled = (f"; over --memory: {result.spilled_chunks} chunks spilled to disk, "
                   f"{result.tiers_from_database} tiers valued from the database")
    click.echo(f"{path}: {result.records:,} records in {result.tiers} tiers, "
               f"{result.batches_committed} batches committed{resumed}, "
               f"{time.perf_counter() - started:.1f} s this run{spilled}")


# The least time between two progress lines: a game of thousands of small tiers (Kalah(4,4)
# has 1,188) would otherwise print thousands of lines in seconds.
PROGRESS_EVERY_S = 0.5


class _Progress:
    """A build's progress lines on stderr, at most one each PROGRESS_EVERY_S; the latest line
    held back is shown when the build ends (``flush``), so the last state is never lost."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.shown_at = -PROGRESS_EVERY_S
        self.held: str | None = None

    def __call__(self, line: str) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if now - self.shown_at < PROGRESS_EVERY_S:
            self.held = line
            return
        self.shown_at, self.held = now, None
        click.echo(f"  {line}", err=True)

    def flush(self) -> None:
        if self.held is not None:
            click.echo(f"  {self.held}", err=True)
            self.held = None


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
    # click.echo, not rich: a closed pipe (`db info X | head -1`) then reaches the CLI's
    # quiet exit 0 (rich answers it with exit 1 of its own).
    for name, shown in facts.items():
        if name == "counts":
            click.echo("counts by value: " + ", ".join(f"{word} {count:,}" for word, count in shown.items()))
        elif name == "options":
            click.echo("options: " + (" ".join(f"--{key} {value}" for key, value in shown.items()) or "none"))
        else:
            click.echo(f"{name.replace('_', ' ')}: {shown:,}" if isinstance(shown, int) else
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
        facts |= {"counts": counts, "size_on_disk": store.path.stat().st_size}
        # A dense file the compiled builder wrote itself keeps no timings (two builds of it
        # are the same bytes); one exported from a SQLite build has its build's.
        facts |= {name: header[name] for name in ("build_seconds",) if name in header}
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
        return {f"{int(v):+d}": int(c) for v, c in zip(found, count, strict=True)}
    kinds = np.bincount(records >> R.REMOTENESS_BITS, minlength=4)
    return {"win": int(kinds[R.WIN]), "loss": int(kinds[R.LOSS]), "draw": int(kinds[R.DRAW])}


@db_group.command("verify")
@click.argument("path")
@click.option("--sample", type=int, default=100, show_default=True,
              help="random stored positions to re-solve by search (at most the records held)")
@click.option("--seed", type=int, default=None, help="make the sample reproducible")
def verify_command(path: str, sample: int, seed: int | None) -> None:
    """Check the whole file (SQLite's integrity check, every checksum), that its build is
    complete, then re-solve a random sample of stored positions by search. Exit 0 when all
    agree, 1 on any mismatch, damage or unfinished build, 2 for bad input."""
    from perfectplay.errors import BadOption

    if sample < 0:
        raise BadOption(f"--sample {sample}: not negative, please")
    if _verify_endgame(path, sample, seed):
        return
    from perfectplay.store.lookup import open_store

    store = open_store(path)
    try:
        game, root = _game_of(store)
        store.check_game(game)
        try:
            records = _check_integrity(store)
            _check_complete(store, path)
            if sample > records:
                click.echo(f"--sample {sample:,}: capped at the {records:,} records the file holds")
                sample = records
            bad, outcome_only = _compare_sample(store, game, root, sample, random.Random(seed))
        except CorruptDatabase as error:
            click.echo(f"damaged: {_what_is_served(str(error))}")
            sys.exit(1)
    finally:
        store.close()
    if bad:
        click.echo(f"{path}: {bad} of {sample} sampled positions disagree with search")
        sys.exit(1)
    only = ""
    if outcome_only:
        only = (f" ({outcome_only} of them on win, loss or draw only: search answered those "
                "from theory, which gives no remoteness)")
    click.echo(f"{path}: checksums hold; {sample} sampled positions agree with search{only}")


def _verify_endgame(path: str, sample: int, seed: int | None) -> bool:
    """Verify ``path`` when it is a game's own endgame database (``db build --endgame``);
    False when no game's endgame module recognizes it."""
    from perfectplay.registry import entries, extension
    for entry in entries():
        if "endgame" not in entry.extensions:
            continue
        tool = extension(entry.name, "endgame")
        if tool.recognizes(path):
            findings, checked = tool.verify(path, sample, random.Random(seed))
            for finding in findings:
                click.echo(finding)
            if findings:
                click.echo(f"{path}: {len(findings)} findings ({checked})")
                sys.exit(1)
            click.echo(f"{path}: {checked} agree")
            return True
    return False


# How a reader's refusal ends: true for the lookup that raised it, not for the whole file.
_REFUSED = re.compile(r";? *the file is (corrupted|damaged) and will not be served$")


def _what_is_served(finding: str) -> str:
    """Verify's finding, saying what `solve --db` really does with such a file: a reader
    checks the records it reads (their chunk's checksum, the row against its key), so it
    refuses the positions the damage touches and still answers the others."""
    return (_REFUSED.sub("", finding) + "; solve --db refuses each position whose records "
            "fail their checks (one line, exit 2), searches any the damage hides, and answers "
            "the rest from the file: rebuild it to serve all of it")


def _compare_sample(store: Store, game: Any, root: Any, sample: int,
                    rng: random.Random) -> tuple[int, int]:
    """Re-solve ``sample`` random stored positions; print each disagreement. Return how many
    disagree and how many were compared on the outcome only (a search that answered from
    theory, such as Nim's Grundy values, gives no remoteness: like is compared with like)."""
    from perfectplay.solving import solve

    bad = outcome_only = 0
    for _ in range(sample):
        position = _random_reachable(game, root, rng)
        stored = store.values(game, [position])[0]
        solution = solve(game, position, pv_limit=0, engine="auto")
        if solution.outcome_only and stored is not None:
            outcome_only += 1
            agree = V.outcome_word(stored) == V.outcome_word(solution.value)
        else:
            agree = stored == solution.value
        if not agree:
            bad += 1
            click.echo(f"mismatch: {game.format_position(position)!r}: stored "
                       f"{_describe(stored, store)}, search {_describe(solution.value, store)}")
    return bad, outcome_only


def _describe(value: int | None, store: Store) -> str:
    return "nothing (missing)" if value is None else V.describe(value, score_game=store.score_game)


def _check_integrity(store: Store) -> int:
    """Check the whole file: SQLite's own integrity check (every page, and the index on keys
    against the rows) and every checksum. Return how many records it holds."""
    if store.dense is not None:
        store.dense.check_all()
        return int(store.dense.header["stored"])
    assert store.sqlite is not None
    store.sqlite.check_structure()
    return store.sqlite.check_all()


def _check_complete(store: Store, path: str) -> None:
    """An unfinished build holds only its highest tiers: say so, and how to finish it, rather
    than report the positions it has not reached as disagreements (exit 1)."""
    database = store.sqlite
    if database is None or database.complete:
        return
    click.echo(f"{path}: the build is incomplete ({len(database.batches):,} batches committed, "
               f"and their checksums hold); resume it with: {_resume_command(database, path)}")
    sys.exit(1)


def _resume_command(database: Any, path: str) -> str:
    """The `db build` command that goes on with this file's build."""
    spec = database.meta.get("spec")
    if spec is None:
        return "perfectplay.store.build.build(...) on the same file (it was built through the library)"
    words = ["perfectplay", "db", "build", spec]
    for name, value in json.loads(database.meta.get("spec_options", "{}")).items():
        words += [f"--{name}"] if value is True else [f"--{name}", str(value)]
    game, start = resolve(spec, json.loads(database.meta.get("spec_options", "{}"))).load(None)
    if database.root is not None and database.root != game.format_position(start):
        words.append(database.root)
    return shlex.join([*words, "--db", path])


def _game_of(store: Store) -> tuple[Any, Any]:
    """The game a database was built for, loaded the way its build named it."""
    if store.sqlite is not None:
        meta = store.sqlite.meta
        spec, options, root = meta.get("spec"), meta.get("spec_options", "{}"), store.sqlite.root
    else:
        header = store.dense.header if store.dense is not None else {}
        spec, options, root = header.get("spec"), header.get("spec_options", {}), header.get("root")
    if spec is None:
        raise BadDatabase(f"{store.path}: does not say how to load its game (built through the "
                          "library); verify it with perfectplay.store in Python")
    try:
        options = json.loads(options) if isinstance(options, str) else options
        if not isinstance(spec, str) or not isinstance(options, dict):
            raise ValueError("not a game name and options")
        game, start = resolve(spec, dict(options)).load(None)
        if root is not None and root != game.format_position(start):
            start = game.parse_position(root)
    except (PerfectPlayError, ValueError) as error:
        raise CorruptDatabase(f"{store.path}: its header does not load a game ({error}); the file "
                              "is damaged") from None
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

"""``perfectplay db build``: strongly solve every position reachable from a root into a
database, tier by tier, resumably.

1. Forward pass (perfectplay.store.tiers): every reachable position, grouped into tiers
   that moves only ever increase, written to a work directory beside the database.
2. Backward pass: from the highest tier down, each tier is cut into slices of
   ``batch_size`` positions (sorted by key, so the slices never depend on the number of
   workers); each slice is valued by a worker from the values of the tiers its moves reach,
   and committed as one batch with its checksum.
3. The header is marked complete and the work directory removed.

A build killed at any moment (``kill -9``) and started again reuses the forward pass when
its plan was written, skips every committed batch and continues with the next: the
finished file holds the same records, in the same batches, as an uninterrupted build.
Loopy games (``Properties.loopy``) are handed to retrograde analysis instead.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfectplay.errors import BadDatabase, BadOption, TooLarge, UnsupportedSearch
from perfectplay.game import Game
from perfectplay.store import dense, shards
from perfectplay.store.backends import Backend, check_choice, make_backend
from perfectplay.store.database import Database, batch_records
from perfectplay.store.records import DEFAULT_BATCH, Identity, encode_key, parse_memory
from perfectplay.store.tiers import VALUE_BYTES, Plan, forward, load_tier
from perfectplay.store.work import StoredValues, solve_slice

Report = Callable[[str], None]
# Whether games with a compiled tier spec are built by perfectplay.store.compiled_build (the
# tests turn it off to compare the two builders).
COMPILED_BUILDS = True
BUILDERS = ("auto", "compiled", "python")
# Whether the compiled builder's rows go into SQLite from numba (perfectplay.store.native)
# where it can; the tests turn it off to compare with executemany.
NATIVE_INSERTS = True
COMPILED_PAGE_CACHE_KB = 1 << 20  # SQLite's page cache for a compiled build: 1 GB at most

# The most positions a build takes on without being told to (``size_check=False``,
# ``--no-size-check``): at the rates measured for the largest build here (docs/store.md:
# 122,000 positions a second with 2 workers, 34 bytes a position on disk), 10^9 positions
# are about 2.3 hours and 34 GB; far past it, a build would run for days to years.
SIZE_CHECK_LIMIT = 10 ** 9
MEASURED_RATE = 122_000  # positions a second, with 2 workers
MEASURED_BYTES = 34  # bytes of SQLite file a position
# What one worker builds a CPU second, for the note a long build gives up front: the Python
# builder on Dots and Boxes 3x2 (131,072 positions in 4.4 CPU s), the compiled one on Dots
# and Boxes 3x3 (16.8 M positions in 33.5 CPU s; Connect Four 5x5 went at 0.7 M a second;
# docs/store.md).
# The compiled builder writing a dense file alone (no SQLite): Connect Four 6x4, 94.9 M
# positions in 52.8 CPU s.
PYTHON_RATE = 30_000
COMPILED_RATE = 500_000
DENSE_RATE = 1_800_000
# A build estimated to take longer than this says so before it starts, as `table` does.
NOTE_SECONDS = 20


@dataclass
class BuildResult:
    path: Path
    records: int
    tiers: int
    batches_committed: int
    batches_resumed: int
    seconds: float
    spilled_chunks: int
    # Tiers whose child values were looked up in the database because a copy per worker
    # would not fit the memory bound.
    tiers_from_database: int = 0


def workdir_of(path: Path) -> Path:
    return Path(f"{path}.work")


def build(game: Game[Any, Any], root: Any, path: str | Path | None, *, workers: int = 1,
          backend: str = "local", address: str | None = None, memory: str | int | None = None,
          batch_size: int = DEFAULT_BATCH, dense_path: str | Path | None = None,
          spec: tuple[str, dict[str, Any]] | None = None,
          report: Report | None = None, size_check: bool = True,
          builder: str = "auto", notice: Report | None = None) -> BuildResult:
    """Strongly solve every position reachable from ``root`` into the SQLite file ``path``
    (created, or resumed when it holds an unfinished build of the same game and root).
    ``dense_path`` also writes a dense record file (games with Game.rank); ``spec`` is how
    the CLI named the game and its options, kept so `db verify` can load the game again.
    A build the game estimates at more than SIZE_CHECK_LIMIT positions is refused
    (TooLarge) unless ``size_check`` is False. ``builder``: 'compiled' (games with a tier
    spec, one local process, ``workers`` threads: perfectplay.store.compiled_build),
    'python', or 'auto' (the compiled one where it applies). ``notice`` hears, before the
    build starts, how many positions and how long a build estimated at more than
    NOTE_SECONDS will take (the CLI prints it even under --quiet).

    ``path`` None: no SQLite at all; the compiled builder writes the dense file
    ``dense_path`` itself, on ``workers`` threads (perfectplay.store.dense_build), and the
    result counts tiers valued and resumed where a SQLite build counts batches."""
    _check_request(game, workers, backend, address, batch_size, dense_path)
    if path is None:
        if dense_path is None:
            raise BadOption("give a SQLite file to build (--db PATH), a dense file (--dense "
                            "PATH), or both")
        return _build_dense_only(game, root, Path(dense_path), workers, backend, memory, spec,
                                 report, size_check, builder, notice)
    path = Path(path)
    _check_paths(path, None if dense_path is None else Path(dense_path))
    if size_check:
        _check_size(game, root)
    # After the refusals that need no compiler: a tier spec imports numba and compiles the
    # game's functions (a refused path waited 3.9 s for them on a busy machine).
    compiled_spec = _compiled_spec(game, workers, backend, dense_path, builder)
    memory_bytes = parse_memory(memory)
    if notice is not None:
        _note_long_build(game, root, "compiled" if compiled_spec is not None else "Python",
                         workers, notice)
    database = _open_for_build(game, path, game.format_position(root), batch_size)
    try:
        lock = _lock(path)
    except BadDatabase:
        database.close()
        raise
    try:
        if spec is not None and "spec" not in database.meta:
            database.set_meta({"spec": spec[0], "spec_options": json.dumps(spec[1], sort_keys=True)})
        if database.complete and (dense_path is None or Path(dense_path).exists()):
            # A build killed between marking itself complete and tidying up left this.
            shutil.rmtree(workdir_of(path), ignore_errors=True)
            return _result(database, path, 0, 0, 0.0, 0)
        job = _Job(game, root, database, int(database.meta["batch_size"]), memory_bytes,
                   time.perf_counter(), report)
        return _run(job, workers, backend, address, dense_path, compiled_spec)
    finally:
        database.close()
        os.close(lock)


def _check_request(game: Game[Any, Any], workers: int, backend: str, address: str | None,
                   batch_size: int, dense_path: str | Path | None) -> None:
    """Every bad option is refused before a file is written."""
    if batch_size < 1:
        raise BadOption(f"--batch {batch_size}: at least 1")
    check_choice(backend, workers, address)
    if _loopy(game) and (workers != 1 or backend != "local" or dense_path is not None):
        raise UnsupportedSearch(f"{game.name} is loopy: its database is built by retrograde "
                                "analysis in one process; leave out --workers, --backend and --dense")
    if dense_path is not None and game.index_size() is None:
        raise UnsupportedSearch(f"{game.name} has no perfect index (Game.rank), so it has no "
                                "dense file; leave out --dense")


def _check_paths(path: Path | None, dense_path: Path | None) -> None:
    """Refuse, before any work, a file whose folder is missing or is a file."""
    for flag, where in (("--db", path), ("--dense", dense_path)):
        if where is None:
            continue
        if where.is_dir():
            raise BadOption(f"{flag} {str(where)!r}: a directory; give a file name in it")
        folder = where.absolute().parent
        if not folder.is_dir():
            existing = next(above for above in (folder, *folder.parents) if above.exists())
            why = (f"{str(existing)!r} is a file, not a folder" if not existing.is_dir() else
                   f"the folder {str(folder)!r} does not exist")
            raise BadOption(f"{flag} {str(where)!r}: cannot write there: {why}")


def _check_size(game: Game[Any, Any], root: Any) -> None:
    """Refuse a build the game says no machine would finish, as `table` refuses impossible
    ranges: up front, with the number of positions it would need."""
    estimate = game.estimated_positions(root)
    anyway = "; start it anyway with --no-size-check (size_check=False in the library)"
    what = Identity.of(game).describe()
    if estimate is None:
        if not game.solvable(root):
            raise TooLarge(f"{what} says this root is too big to solve and gives no estimate of "
                           f"its positions: a database build would not finish{anyway}")
        return
    if estimate > SIZE_CHECK_LIMIT:
        start = game.format_position(root) == game.format_position(game.start())
        where = "the start" if start else repr(game.format_position(root))
        hours = estimate / MEASURED_RATE / 3600
        took = f"{hours:,.0f} hours" if hours < 24 * 365 else f"{_magnitude(hours / 24 / 365)} years"
        raise TooLarge(f"a database of {what} from {where} would need an estimated "
                       f"{_magnitude(estimate)} positions (the game's own estimate), more than "
                       f"the 10^{len(str(SIZE_CHECK_LIMIT)) - 1} a build takes on: about {took} "
                       f"and {_bytes(estimate * MEASURED_BYTES)} of disk at the rates measured "
                       f"in docs/store.md{anyway}")


def _note_long_build(game: Game[Any, Any], root: Any, builder: str, workers: int,
                     notice: Report) -> None:
    """Say up front how many positions a long build has and about how long it will take
    with ``builder`` ('Python', 'compiled', or 'compiled dense-file': no SQLite)."""
    estimate = game.estimated_positions(root)
    if estimate is None:
        return
    cores = min(workers, os.cpu_count() or 1)
    rate = {"Python": PYTHON_RATE, "compiled": COMPILED_RATE, "compiled dense-file": DENSE_RATE}[builder]
    seconds = estimate / rate / cores
    if seconds <= NOTE_SECONDS:
        return
    where = "of CPU" if cores == 1 else f"on {cores} free cores"
    notice(f"{Identity.of(game).describe()}: about {_magnitude(estimate)} positions (the game's "
           f"estimate), about {_duration(seconds)} {where} with the {builder} builder at the rate "
           f"measured in docs/store.md; a stopped build resumes when run again")


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} seconds"
    if seconds < 5400:
        return f"{seconds / 60:.0f} minutes"
    return f"{seconds / 3600:,.1f} hours"


def _magnitude(number: float) -> str:
    """A large number for people: '7.1 x 10^13'; up to a million, written out."""
    if number < 1e6:
        return f"{number:,.0f}"
    exponent = len(str(int(number))) - 1
    return f"{number / 10 ** exponent:.1f} x 10^{exponent}"


def _bytes(amount: float) -> str:
    for unit, size in (("PB", 1e15), ("TB", 1e12), ("GB", 1e9)):
        if amount >= size and amount < 1e6 * size:
            return f"{amount / size:,.0f} {unit}"
    return f"{_magnitude(amount)} bytes"


def _loopy(game: Game[Any, Any]) -> bool:
    return game.properties.loopy


@dataclass
class _Job:
    """What every phase of one build run needs."""

    game: Game[Any, Any]
    root: Any
    database: Database
    batch_size: int
    memory: int
    started: float
    report: Report | None

    # Where the compiled builder's int rows go straight into SQLite (perfectplay.store.native).
    native: Any = None

    def commit(self, tier: int, part: int, rows: Any, base_seconds: float, sums: Any = None) -> None:
        seconds = base_seconds + time.perf_counter() - self.started
        meta = {"build_seconds": f"{seconds:.3f}"}
        if self.native is None:
            self.database.commit_batch(tier, part, rows, meta, sums)
            return
        self.native.commit_batch(rows.keys, rows.values, lambda start: batch_records(
            tier, part, start, len(rows), sums, meta))
        self.database.note_committed(meta)


def _run(job: _Job, workers: int, backend: str, address: str | None,
         dense_path: str | Path | None, spec: Any = None) -> BuildResult:
    database, path = job.database, job.database.path
    resumed = len(database.committed())
    workdir = workdir_of(path)
    if _loopy(job.game):
        _make_key_index(job)
        committed = _build_loopy(job)
        spilled, from_database, backend_name = 0, 0, "retrograde (one process)"
    elif spec is not None and (compiled := _build_compiled(job, spec, workers, backend, address)) is not None:
        committed = compiled
        spilled, from_database = 0, 0
        backend_name = ("compiled (ray)" if backend == "ray" else "compiled (one process)" if workers == 1
                        else f"compiled ({workers} threads)")
    else:
        # A compiled build killed before it made the index again is finished here: these
        # builders read values back from the database, and rely on the index refusing a
        # key stored twice.
        _make_key_index(job)
        workdir.mkdir(exist_ok=True)
        runner = make_backend(backend, workers, address, str(workdir.absolute()))
        backend_name = runner.name
        plan: Plan | shards.ShardPlan
        try:
            if runner.workers > 1 and runner.local_files and job.game.tier(job.root) is not None:
                # Local workers expand too, each its own shard of every tier, so no child is
                # sent back to this process (perfectplay.store.shards).
                plan = shards.forward(job.game, job.root, workdir, runner, job.memory,
                                      job.batch_size, job.report)
                committed, from_database = shards.backward(job, plan, workdir, runner)
            else:
                shards.discard(workdir)
                plan = Plan.load(workdir) or _forward(job, workdir, runner)
                committed, from_database = _backward(job, plan, workdir, runner)
        finally:
            runner.close()
        if dense_path is not None:
            _export_dense(job.game, database, plan, workdir, Path(dense_path), job.report)
        spilled = plan.spilled_chunks
    elapsed = float(database.meta.get("build_seconds", "0"))
    database.set_meta({"complete": "1", "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "workers": str(workers), "backend": backend_name})
    result = _result(database, path, committed, resumed, elapsed, spilled)
    result.tiers_from_database = from_database
    shutil.rmtree(workdir, ignore_errors=True)
    return result


def _forward(job: _Job, workdir: Path, runner: Backend) -> Plan:
    """The forward pass in this process (one worker) or on Ray, whose workers may be other
    machines: there, sending a child back is the only way to gather it."""
    expander = runner if runner.name == "ray" else Backend()
    return forward(job.game, job.root, workdir, expander, job.memory, job.batch_size, job.report)


def _open_for_build(game: Game[Any, Any], path: Path, root_text: str, batch_size: int) -> Database:
    identity = Identity.of(game)
    if not path.exists():
        # A work directory without its database belongs to another build: start afresh.
        shutil.rmtree(workdir_of(path), ignore_errors=True)
        kind = "score" if game.properties.is_score else "wld"
        return Database.create(path, identity, kind, root_text, batch_size)
    database = Database.open(path, writable=True)
    try:
        database.check_identity(identity)
        if database.root != root_text:
            raise BadDatabase(f"{path}: built from position {database.root!r}, not "
                              f"{root_text!r}; choose another file to build into")
    except BadDatabase:
        database.close()
        raise
    return database


def _lock(path: Path) -> int:
    """An exclusive lock on the file for the whole build (released by the OS if killed)."""
    handle = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        raise BadDatabase(f"{path}: another build is writing this database") from None
    return handle


def _backward(job: _Job, plan: Plan, workdir: Path, runner: Backend) -> tuple[int, int]:
    """Value every tier from the highest down; return the batches committed and the tiers
    whose child values were looked up in the database."""
    database, batch_size = job.database, job.batch_size
    done = database.committed()
    cache: dict[int, dict[Any, int]] = {}
    committed = from_database = 0
    base_seconds = float(database.meta.get("build_seconds", "0"))
    for index in range(len(plan.tiers) - 1, -1, -1):
        tier = plan.tiers[index]
        parts = -(-plan.sizes[tier] // batch_size)
        todo = [part for part in range(parts) if (tier, part) not in done]
        if todo:
            values = _child_values(job, plan, tier, cache, runner)
            shared = values if isinstance(values, StoredValues) else runner.share(values)
            del values
            from_database += isinstance(shared, StoredValues)
            # Local workers read their slice of the tier file themselves; Ray's may be on
            # other machines, so their slices travel with the unit.
            slices = [plan.slice_of(workdir, tier, part) for part in todo]
            units = [(job.game, piece if runner.local_files else piece.read(), shared)
                     for piece in slices]
            fresh: dict[Any, int] | None = {} if len(todo) == parts else None
            for part, (rows, sums) in zip(todo, runner.map(solve_slice, units), strict=True):
                job.commit(tier, part, rows, base_seconds, sums)
                committed += 1
                if fresh is not None:
                    fresh.update(rows)
            held = sum(len(v) for v in cache.values())
            if fresh is not None and (held + len(fresh)) * VALUE_BYTES <= job.memory:
                cache[tier] = fresh
            if job.report is not None:
                stored = isinstance(shared, StoredValues)
                where = " (child values looked up in the database)" if stored else ""
                job.report(f"backward: tier {tier}: {plan.sizes[tier]:,} positions committed{where}")
        _keep_needed(cache, plan, index)
    return committed, from_database


def _build_loopy(job: _Job) -> int:
    """A loopy game (positions repeat) has no tiers: perfectplay.retro values every position
    in memory by retrograde analysis, and its results are committed in batches. A killed
    build redoes the analysis and skips the batches already committed (the analysis
    returns its positions in the same order every time)."""
    from perfectplay.retro import solve_all

    report = job.report
    progress = None if report is None else (lambda p: report(f"retrograde: {p.phase} {p.done:,}"))
    result = solve_all(job.game, job.root, memory=job.memory, progress=progress)
    done = job.database.committed()
    base_seconds = float(job.database.meta.get("build_seconds", "0"))
    committed = 0
    for part, (keys, values) in enumerate(result.batches(job.batch_size)):
        if (0, part) in done:
            continue
        rows = [(encode_key(key.item() if hasattr(key, "item") else key), int(value))
                for key, value in zip(keys, values, strict=True)]
        job.commit(0, part, rows, base_seconds)
        committed += 1
    return committed


def _compiled_spec(game: Game[Any, Any], workers: int, backend: str,
                   dense_path: str | Path | None, builder: str) -> Any:
    """The game's compiled tier spec when this build runs in one local process without a
    dense file (perfectplay.store.compiled_build), else None (the Python builder).
    ``builder='compiled'`` where it cannot run is refused, saying why."""
    if builder not in BUILDERS:
        raise BadOption(f"--builder {builder!r}: choose one of {', '.join(BUILDERS)}")
    if builder == "python" or (builder == "auto" and not COMPILED_BUILDS):
        return None
    why = ("it writes no dense file beside a SQLite one; leave out --dense, or leave out --db "
           "to have it write the dense file alone") if dense_path is not None else None
    from perfectplay.store.compiled_build import tier_spec
    spec = None if why else tier_spec(game)
    if spec is None and builder == "compiled":
        why = why or (f"{game.name} gives no compiled tier spec (Game.tier_spec), or numba "
                      "is missing; use --builder python")
        raise UnsupportedSearch(f"--builder compiled: {why}")
    return spec


def _build_compiled(job: _Job, spec: Any, threads: int = 1, backend: str = "local",
                    address: str | None = None) -> int | None:
    """Forward and backward passes compiled (perfectplay.store.compiled_build), on
    ``threads`` threads, or with the pieces of both passes as Ray tasks (``backend`` 'ray');
    committed batches are skipped, so a killed build resumes. None when the positions would
    not fit the memory bound in memory (nothing is committed then: the Python builder
    spills)."""
    if not _compiled_may_fit(job):
        return None
    if backend != "ray":
        return _build_compiled_with(job, spec, threads, None)
    from perfectplay.store.backends import RayCluster
    from perfectplay.store.compiled_build import RayTasks

    runner = make_backend(backend, threads, address, str(workdir_of(job.database.path).absolute()))
    try:
        assert isinstance(runner, RayCluster)
        return _build_compiled_with(job, spec, threads, RayTasks(job.game, runner.ray))
    finally:
        runner.close()


def _build_compiled_with(job: _Job, spec: Any, threads: int, tasks: Any) -> int | None:
    """_build_compiled on ``threads`` threads, its pieces run by ``tasks`` when given."""
    from perfectplay.store import compiled_build as compiled

    base_seconds = float(job.database.meta.get("build_seconds", "0"))
    # The index on keys is dropped while the rows go in (below); the page cache still holds
    # the last pages of the table and SQLite's sorter when the index is made again.
    job.database.connection.execute(f"PRAGMA cache_size=-{COMPILED_PAGE_CACHE_KB}")

    def commit(tier: int, part: int, rows: Any, sums: Any) -> None:
        job.commit(tier, part, rows, base_seconds, sums)

    started = time.perf_counter()
    warming = compiled.warm_up(spec, job.root) if threads > 1 and tasks is None else None
    try:
        tiers = compiled.forward(job.game, spec, job.root, job.memory, job.report, threads, tasks)
    except compiled.OverMemory as over:
        _report(job, f"{over}: building in Python, which spills to disk")
        return None
    _report(job, f"forward: {tiers.positions:,} positions in {len(tiers.keys)} tiers, "
                 f"{time.perf_counter() - started:.1f} s (compiled)")
    done = job.database.committed()
    if not done and compiled.distinct_across_tiers(tiers, threads):
        # Every key is new and distinct: nothing for the unique index to refuse, so it is
        # made once, sorted, at the end instead of updated row by row (docs/store.md).
        job.database.drop_key_index()
    bulk = not job.database.has_key_index()
    if bulk:
        _bulk_journal(job.database)
    try:
        if bulk:
            from perfectplay.store.native import writer
            job.native = writer(job.database.path) if NATIVE_INSERTS else None
        if warming is not None:
            warming.join()
        committed = compiled.backward(job.game, spec, tiers, job.batch_size, done, commit,
                                      job.report, threads, tasks)
    finally:
        if job.native is not None:
            job.native.close()
            job.native = None
        if bulk:
            # WAL again before the index is made: made under a rollback journal, its pages
            # would overflow the page cache and lock readers out until it is committed.
            job.database.journal("wal")
    if _make_key_index(job):
        seconds = base_seconds + time.perf_counter() - job.started
        job.database.set_meta({"build_seconds": f"{seconds:.3f}"})  # the index is build time too
    return committed


def _bulk_journal(database: Database) -> None:
    """A rollback journal while the rows go in: SQLite journals only the pages a
    transaction changes that the file held before it began, and nearly every page of a
    bulk append is new, so each is written once instead of twice (WAL, then its
    checkpoint). A build killed meanwhile is rolled back to its last batch as under WAL
    (the next open rolls a hot journal back), and readers still read the committed
    batches. WAL is put back after the rows; a killed build's next open
    (database._connect) puts it back too. The journal stays WAL when a reader holds the
    file (SQLite cannot switch it then)."""
    database.journal("delete")


def _compiled_may_fit(job: _Job) -> bool:
    """False, saying so, when even the keys and states of the game's estimate of its
    positions (an upper bound: Connect Four 5x5 estimates 172 M, 69.8 M are reachable) would
    pass --memory; else the forward pass checks the positions it finds, tier by tier."""
    from perfectplay.store.compiled_build import HELD_BYTES_PER_POSITION

    estimate = job.game.estimated_positions(job.root)
    if estimate is None or estimate * HELD_BYTES_PER_POSITION <= job.memory:
        return True
    needed = estimate * HELD_BYTES_PER_POSITION
    _report(job, f"at most about {estimate:,} positions would not fit --memory in memory: "
                 f"building in Python, which spills to disk (several times slower; "
                 f"--memory {-(-needed // 10**9)}GB lets the compiled builder try)")
    return False


def _make_key_index(job: _Job) -> bool:
    """The unique index on keys, made in one sorted pass when the build dropped it;
    returns whether it was made."""
    started = time.perf_counter()
    if not job.database.ensure_key_index():
        return False
    _report(job, f"index: {job.database.count():,} keys indexed in "
                 f"{time.perf_counter() - started:.1f} s")
    return True


def _report(job: _Job, line: str) -> None:
    if job.report is not None:
        job.report(line)


def _child_values(job: _Job, plan: Plan, tier: int, cache: dict[int, dict[Any, int]],
                  runner: Backend) -> Any:
    """The values of every tier ``tier``'s moves reach, as one dict that every worker holds
    a copy of, when those copies fit the memory bound with what is cached; else a handle
    that has each unit look up the keys it reaches in the database (the disk is the spill).
    Tiers read back are cached while they fit too."""
    database, memory = job.database, job.memory
    reach = plan.reach.get(tier, [])
    copies = runner.workers + (runner.workers > 1)  # each worker's, and the coordinator's
    held = sum(len(v) for v in cache.values())
    needed = sum(plan.sizes[reached] for reached in reach)
    if runner.local_files and (held + copies * needed) * VALUE_BYTES > memory:
        return StoredValues(str(database.path), tier)
    values: dict[Any, int] = {}
    for reached in reach:
        known = cache.get(reached)
        if known is None:
            known = database.tier_values(reached)
            held = sum(len(v) for v in cache.values())
            if (held + len(known) + copies * needed) * VALUE_BYTES <= memory:
                cache[reached] = known
        values.update(known)
    return values


def _keep_needed(cache: dict[int, dict[Any, int]], plan: Plan, index: int) -> None:
    """Drop cached tiers that no lower tier reaches."""
    needed = {t for lower in plan.tiers[:index] for t in plan.reach.get(lower, [])}
    for tier in list(cache):
        if tier not in needed:
            del cache[tier]


def _result(database: Database, path: Path, committed: int, resumed: int, seconds: float,
            spilled: int) -> BuildResult:
    tiers = len({batch.tier for batch in database.batches})
    return BuildResult(path, database.count(), tiers, committed, resumed, seconds, spilled)


def _export_dense(game: Game[Any, Any], database: Database, plan: Plan | shards.ShardPlan,
                  workdir: Path, path: Path, report: Report | None) -> None:
    """Write the dense record file from the tiers' positions and the committed values."""
    size = game.index_size()
    assert size is not None

    def records() -> Any:
        for tier in plan.tiers:
            values = database.tier_values(tier)
            positions = (plan.tier_positions(workdir, tier) if isinstance(plan, shards.ShardPlan)
                         else load_tier(workdir, tier))
            for position in positions:
                yield game.rank(position), values[encode_key(game.key(position))]

    facts = {"root": database.root, "build_seconds": database.meta.get("build_seconds"),
             "spec": database.meta.get("spec"),
             "spec_options": json.loads(database.meta.get("spec_options", "{}")),
             "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    stored = dense.write(path, Identity.of(game), game.properties.is_score, size, records(), facts)
    if report is not None:
        report(f"dense: {stored:,} records in {path}")


def _build_dense_only(game: Game[Any, Any], root: Any, path: Path, workers: int, backend: str,
                      memory: str | int | None, spec: tuple[str, dict[str, Any]] | None,
                      report: Report | None, size_check: bool, builder: str,
                      notice: Report | None) -> BuildResult:
    """The dense file written by the compiled builder itself (perfectplay.store.dense_build),
    or a one-line refusal saying why it cannot be and what to give instead."""
    _check_paths(None, path)
    if builder not in BUILDERS:
        raise BadOption(f"--builder {builder!r}: choose one of {', '.join(BUILDERS)}")
    give_db = "give --db too (the dense file is then exported from the SQLite build)"
    if backend != "local" or builder == "python":
        raise UnsupportedSearch(f"a dense file without --db is written by the compiled builder "
                                f"on local threads; for --backend {backend} --builder {builder}, "
                                f"{give_db}")
    if size_check:
        _check_size(game, root)
    from perfectplay.store.compiled_build import HELD_BYTES_PER_POSITION, OverMemory, tier_spec

    compiled_spec = tier_spec(game)  # None without numba, which dense_build needs
    if compiled_spec is not None:
        from perfectplay.store import dense_build
    if compiled_spec is None or not dense_build.ranks_agree(game, compiled_spec, root):
        raise UnsupportedSearch(f"{game.name} gives no compiled tier spec with its rank "
                                f"(Game.tier_spec), or numba is missing; {give_db}")
    memory_bytes = parse_memory(memory)
    root_text = game.format_position(root)
    if path.exists():
        return _complete_dense(game, path, root_text)
    estimate = game.estimated_positions(root)
    if estimate is not None and estimate * HELD_BYTES_PER_POSITION > memory_bytes:
        raise UnsupportedSearch(f"at most about {estimate:,} positions would not fit --memory in "
                                f"memory (--memory {-(-estimate * HELD_BYTES_PER_POSITION // 10**9)}GB "
                                f"lets the compiled builder try); or {give_db}, which spills to disk")
    if notice is not None:
        _note_long_build(game, root, "compiled dense-file", workers, notice)
    facts = {"root": root_text, "spec": None if spec is None else spec[0],
             "spec_options": {} if spec is None else json.loads(json.dumps(spec[1], sort_keys=True))}
    started = time.perf_counter()
    try:
        built = dense_build.build(game, compiled_spec, root, path, facts, memory_bytes, workers, report)
    except OverMemory as over:
        raise UnsupportedSearch(f"{over}; {give_db}, which spills to disk") from None
    return BuildResult(path, built.records, built.tiers, built.tiers_valued, built.tiers_resumed,
                       time.perf_counter() - started, 0)


def _complete_dense(game: Game[Any, Any], path: Path, root_text: str) -> BuildResult:
    """A dense file already in place: complete when it is this game's from this root (a
    build killed after renaming it leaves its work folder, removed here); else refused."""
    from perfectplay.store.dense_build import work_folder

    existing = dense.DenseFile(path)
    try:
        existing.check_identity(Identity.of(game))
        if existing.header.get("root") != root_text:
            raise BadDatabase(f"{path}: built from position {existing.header.get('root')!r}, not "
                              f"{root_text!r}; choose another file to build into")
        records = int(existing.header["stored"])
    finally:
        existing.close()
    shutil.rmtree(work_folder(path), ignore_errors=True)
    return BuildResult(path, records, 0, 0, 0, 0.0, 0)

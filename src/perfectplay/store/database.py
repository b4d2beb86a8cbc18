"""The SQLite store: one file, positions keyed by the game's stable key, WAL mode.

Layout (format version 1):

* ``meta(name, value)``: the header, written when the file is created: ``format``
  ("perfectplay-db"), ``format_version``, ``game``, ``options`` (JSON), ``kind``, ``root``
  (the position the build started from), ``batch_size``; and, once the build is done,
  ``complete``, ``build_seconds``, ``positions_reached`` and ``built_at``. ``header_digest``
  covers the fields that decide what a record means (game, options, kind, root...), so a
  changed byte there is refused rather than read as another game's file (files built before
  it was added have none, and are read unchecked).
* ``positions(id, key, value)``: one row per key; ``id`` is SQLite's rowid, so the rows of
  one committed batch are a contiguous range of ids. ``positions_key`` is the unique index on
  ``key`` (files made before it was named carry the same index as ``key UNIQUE``). A compiled
  build (perfectplay.store.compiled_build) drops it while it inserts and makes it again, in
  one sorted pass, before it marks the file complete: SQLite then sorts the keys once
  instead of updating the index row by row (more than half of its time on Connect Four 5x5).
  Until then lookups still answer, by scanning the rows.
* ``batches(id, tier, part, first_id, last_id, count, checksum)``: one row per committed
  batch, written in the same transaction as its records.
* ``chunks(first_id, last_id, checksum)``: a BLAKE2b digest of each run of ``CHUNK_ROWS``
  rows in id order; a batch's checksum is the digest of its chunks' digests. A reader
  checks a chunk the first time it serves a record from it, so a flipped byte is reported,
  never served.

Every answer is checked against the key asked for: a lookup goes through SQLite's index on
``key``, and SQLite reads the key from the index and the value from the row the index points
at, so a damaged index could hand one position's value to another. The lookup therefore reads
the key again from the row itself (a second alias of the table, reached by rowid) and refuses
to serve a row whose key is not the one asked for; the row's key and value are covered by
its chunk's checksum. A damaged index can still hide a key (the position is then searched,
never answered wrongly); ``check_structure`` (SQLite's integrity check, in ``db verify``)
finds that too. Any SQLite error while reading ("database disk image is malformed")
becomes CorruptDatabase naming the file.

A build commits one batch per transaction, so a build killed at any moment leaves whole
batches only; WAL mode lets readers query the committed ones while the build goes on.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from perfectplay.errors import BadDatabase, CorruptDatabase
from perfectplay.store.records import FORMAT_VERSION, Identity

MAGIC = "perfectplay-db"
# Keys per lookup query: 8,000 ran 1.8x faster than 500 here (fewer statements; measured
# with benchmarks/store.py's lookups), within SQLite's default bound of 32,766 parameters.
LOOKUP_CHUNK = 8000
# Rows per checksummed chunk: a reader checks the 1,024 rows around a record the first time it
# serves one of them (a millisecond), not the whole batch.
CHUNK_ROWS = 1024
# Chunks written by one INSERT (3 parameters each, far within SQLite's 32,766).
CHUNKS_A_STATEMENT = 256
# What reading a damaged file raises: SQLite's errors ("database disk image is malformed"),
# and Python's own when a damaged text cell is not UTF-8.
UNREADABLE = (sqlite3.DatabaseError, UnicodeDecodeError)
# The header fields fixed when a file is created, which decide what its records mean.
DIGESTED = ("format", "format_version", "game", "options", "kind", "root", "batch_size")
KINDS = ("wld", "score")
KEY_INDEX = "positions_key"
# A lookup's query (Database.lookup_many): ``asked`` is reached through the index on key,
# ``stored`` is the same row reached by rowid.
_LOOKUP_SQL = ("SELECT stored.key, stored.value, stored.id, asked.key FROM positions AS asked "
               "CROSS JOIN positions AS stored ON stored.id = asked.id WHERE asked.key IN ({marks})")
_LOOKUP_SQLS: dict[int, str] = {}  # the query for each number of keys, written once
# How many of SQLite's integrity-check findings `db verify` quotes.
INTEGRITY_LINES = 3
SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE positions (id INTEGER PRIMARY KEY, key NOT NULL, value INTEGER NOT NULL);
CREATE UNIQUE INDEX positions_key ON positions (key);
CREATE TABLE batches (id INTEGER PRIMARY KEY, tier INTEGER NOT NULL, part INTEGER NOT NULL,
                      first_id INTEGER NOT NULL, last_id INTEGER NOT NULL,
                      count INTEGER NOT NULL, checksum TEXT NOT NULL, UNIQUE (tier, part));
CREATE TABLE chunks (first_id INTEGER PRIMARY KEY, last_id INTEGER NOT NULL, checksum TEXT NOT NULL);
"""


@dataclass(frozen=True)
class Batch:
    id: int
    tier: int
    part: int
    first_id: int
    last_id: int
    count: int
    checksum: str


def _digest(chunk_sums: Sequence[str]) -> str:
    """A batch's checksum: the digest of its chunks' checksums, in order."""
    return hashlib.blake2b("".join(chunk_sums).encode(), digest_size=16).hexdigest()


def batch_records(tier: int, part: int, start: int, count: int, sums: Sequence[str],
                  meta: dict[str, str] | None) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements that commit a batch of ``count`` rows stored from id ``start`` on,
    besides the rows: its chunks (one per CHUNK_ROWS rows, with ``sums``), its own row (the
    digest of its chunks' digests), and the header fields ``meta``."""
    chunks = [(start + at, start + min(at + CHUNK_ROWS, count) - 1, sums[at // CHUNK_ROWS])
              for at in range(0, count, CHUNK_ROWS)]
    records: list[tuple[str, tuple[Any, ...]]] = []
    for at in range(0, len(chunks), CHUNKS_A_STATEMENT):  # one statement, not one a chunk
        some = chunks[at:at + CHUNKS_A_STATEMENT]
        records.append(("INSERT INTO chunks VALUES " + ", ".join(["(?, ?, ?)"] * len(some)),
                        tuple(cell for chunk in some for cell in chunk)))
    records.append(("INSERT INTO batches (tier, part, first_id, last_id, count, checksum) "
                    "VALUES (?, ?, ?, ?, ?, ?)", (tier, part, start, start + count - 1, count,
                                                  _digest([chunk[2] for chunk in chunks]))))
    records += [("INSERT OR REPLACE INTO meta VALUES (?, ?)", item) for item in (meta or {}).items()]
    return records


def chunk_sums(rows: Sequence[tuple[Any, int]]) -> list[str]:
    """The checksum of each run of CHUNK_ROWS rows."""
    return [checksum(rows[at:at + CHUNK_ROWS]) for at in range(0, len(rows), CHUNK_ROWS)]


def checksum(rows: Iterable[tuple[Any, int]]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for key, value in rows:
        digest.update(f"{key!r}={value};".encode())
    return digest.hexdigest()


def header_digest(meta: dict[str, str]) -> str:
    """The digest of the header fields that decide what the records mean."""
    fields = json.dumps([meta.get(name) for name in DIGESTED])
    return hashlib.blake2b(fields.encode(), digest_size=16).hexdigest()


Args = ParamSpec("Args")
Result = TypeVar("Result")


def _reading(method: Callable[Args, Result]) -> Callable[Args, Result]:
    """Turn SQLite's own errors while reading a database (a damaged page: "database disk
    image is malformed") into CorruptDatabase naming the file: one line, never a traceback."""

    @functools.wraps(method)
    def guarded(*args: Args.args, **kwargs: Args.kwargs) -> Result:
        try:
            return method(*args, **kwargs)
        except UNREADABLE as error:
            database = args[0]
            assert isinstance(database, Database)
            raise database.unreadable(error) from None

    return guarded


class Database:
    """A solved-position database in one SQLite file. Open with :meth:`create` (a new
    build) or :meth:`open` (an existing file, checked to be a database)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict[str, str]) -> None:
        self.path = path
        self.connection = connection
        self.meta = meta
        self._batches: list[Batch] = []
        # Chunks of CHUNK_ROWS rows: first and last id and checksum, by position in the file.
        self._chunk_firsts: list[int] = []
        self._chunk_lasts: list[int] = []
        self._chunk_sums: list[str] = []
        self._checked: set[int] = set()  # chunks whose checksum held in this process
        self._step: int | None = None  # keys a lookup query asks for at most

    # -- opening -----------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, identity: Identity, kind: str, root: str | None,
               batch_size: int) -> Database:
        # Written under another name and renamed once whole, so a build killed while
        # creating the file never leaves a file without its header.
        path = Path(path)
        creating = Path(f"{path}.creating")
        try:
            for stale in (creating, Path(f"{creating}-wal"), Path(f"{creating}-shm")):
                stale.unlink(missing_ok=True)
            connection = _connect(creating)
            with connection:
                connection.executescript(SCHEMA)
                meta = {"format": MAGIC, "format_version": str(FORMAT_VERSION),
                        "game": identity.game, "options": identity.options, "kind": kind,
                        "root": json.dumps(root), "batch_size": str(batch_size),
                        "complete": "0", "build_seconds": "0", "created_at": _now()}
                meta["header_digest"] = header_digest(meta)
                connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            connection.close()  # checkpoints the WAL into the file
            os.replace(creating, path)
        except (sqlite3.DatabaseError, OSError) as error:
            raise BadDatabase(f"{path}: cannot create a database there ({error})") from None
        return cls.open(path, writable=True)

    @classmethod
    def open(cls, path: str | Path, *, writable: bool = False) -> Database:
        path = Path(path)
        if path.is_dir():
            raise BadDatabase(f"{path}: a directory, not a database file")
        if not path.is_file():
            raise BadDatabase(f"{path}: no such database file")
        if writable:
            cls.open(path).close()  # a file that is not ours is refused before it is written to
        try:
            connection = _connect(path, read_only=not writable)
        except UNREADABLE as error:
            raise BadDatabase(f"{path}: not a perfectplay database, or truncated/corrupted "
                              f"({error})") from None
        try:
            meta = dict(connection.execute("SELECT name, value FROM meta").fetchall())
            database = cls(path, connection, meta)
            database._check_header()
            database.reload_batches()
        except UNREADABLE as error:
            connection.close()
            raise BadDatabase(f"{path}: not a perfectplay database, or truncated/corrupted "
                              f"({error})") from None
        except BadDatabase:
            connection.close()
            raise
        return database

    def _check_header(self) -> None:
        if self.meta.get("format") != MAGIC:
            raise BadDatabase(f"{self.path}: not a perfectplay database (no header)")
        version = self.meta.get("format_version")
        if version != str(FORMAT_VERSION):
            raise BadDatabase(f"{self.path}: format version {version}, this perfectplay reads "
                              f"version {FORMAT_VERSION}")
        if any(not isinstance(value, str) for value in self.meta.values()):
            raise self._corrupt("its header holds a value that is not text")
        if "header_digest" in self.meta and self.meta["header_digest"] != header_digest(self.meta):
            raise self._corrupt("its header does not match its checksum")
        if self.meta.get("kind") not in KINDS or "game" not in self.meta:
            raise self._corrupt("its header names no game or kind")
        try:
            options = json.loads(self.meta.get("options", ""))
            json.loads(self.meta.get("root", "null"))
            int(self.meta.get("batch_size", "1"))
        except ValueError:
            raise self._corrupt("its header cannot be read") from None
        if not isinstance(options, dict):
            raise self._corrupt("its header's options are not a set of options")

    def _corrupt(self, what: str) -> CorruptDatabase:
        return CorruptDatabase(f"{self.path}: {what}; the file is corrupted and will not be served")

    def unreadable(self, error: Exception) -> BadDatabase:
        """The one-line error for SQLite's own error while reading this file."""
        if isinstance(error, sqlite3.ProgrammingError) or (
                isinstance(error, sqlite3.OperationalError)
                and any(word in str(error) for word in ("locked", "full", "I/O"))):
            return BadDatabase(f"{self.path}: SQLite says: {error}")  # not the file's fault
        return self._corrupt(f"SQLite cannot read it ({error})")

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- header ------------------------------------------------------------------------
    @property
    def identity(self) -> Identity:
        return Identity(self.meta["game"], self.meta["options"])

    @property
    def score_game(self) -> bool:
        return self.meta.get("kind") == "score"

    @property
    def root(self) -> str | None:
        root: str | None = json.loads(self.meta.get("root", "null"))
        return root

    @property
    def complete(self) -> bool:
        return self.meta.get("complete") == "1"

    def check_identity(self, identity: Identity) -> None:
        """Refuse to answer for another game or other options."""
        if identity != self.identity:
            raise BadDatabase(f"{self.path}: built for {self.identity.describe()}, "
                              f"not for {identity.describe()}")

    @_reading
    def set_meta(self, values: dict[str, str]) -> None:
        with self.connection:
            self.connection.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", values.items())
        self.meta.update(values)

    # -- batches and their checksums ---------------------------------------------------
    @_reading
    def reload_batches(self) -> None:
        """Read the batches and chunks committed since we last looked (a reader does this to
        see a running build's progress)."""
        known = self._batches[-1].first_id if self._batches else 0
        rows = self.connection.execute(
            "SELECT id, tier, part, first_id, last_id, count, checksum FROM batches "
            "WHERE first_id > ? ORDER BY first_id", (known,)).fetchall()
        if any(not _typed(row, (int,) * 6 + (str,)) for row in rows):
            raise self._corrupt("its list of batches holds a value of the wrong type")
        self._batches += [Batch(*row) for row in rows]
        known = self._chunk_firsts[-1] if self._chunk_firsts else 0
        rows = self.connection.execute(
            "SELECT first_id, last_id, checksum FROM chunks WHERE first_id > ? ORDER BY first_id",
            (known,)).fetchall()
        if any(not _typed(row, (int, int, str)) for row in rows):
            raise self._corrupt("its list of checksums holds a value of the wrong type")
        for first, last, digest in rows:
            self._chunk_firsts.append(first)
            self._chunk_lasts.append(last)
            self._chunk_sums.append(digest)

    # -- the index on keys -------------------------------------------------------------
    @_reading
    def has_key_index(self) -> bool:
        """Whether a unique index on ``key`` alone exists (``positions_key``, or the
        ``key UNIQUE`` of files made before it was named)."""
        execute = self.connection.execute
        for row in execute("PRAGMA index_list(positions)").fetchall():
            name, unique = row[1], row[2]
            columns = [info[2] for info in execute(f"PRAGMA index_info({_quoted(name)})")]
            if unique and columns == ["key"]:
                return True
        return False

    def drop_key_index(self) -> None:
        """Drop ``positions_key`` (a build about to insert keys it knows are distinct)."""
        with self.connection:
            self.connection.execute(f"DROP INDEX IF EXISTS {KEY_INDEX}")

    def ensure_key_index(self) -> bool:
        """Make the unique index on keys unless it exists; returns whether it was made."""
        if self.has_key_index():
            return False
        # Reading the table through a memory map instead of a read() a page: a third less
        # CPU for Connect Four 5x5's index (26.4 s, 12.1 of them in the kernel, to 19.8).
        self.connection.execute(f"PRAGMA mmap_size={self.size_on_disk()}")
        try:
            with self.connection:
                self.connection.execute(f"CREATE UNIQUE INDEX {KEY_INDEX} ON positions (key)")
        finally:
            self.connection.execute("PRAGMA mmap_size=0")
        return True

    def journal(self, mode: str) -> str:
        """Switch the file's journal to ``mode`` ("wal" or "delete"); returns the mode in
        force after, which stays the old one when another connection holds the file (SQLite
        changes a WAL file's journal only with the file to itself)."""
        try:
            row = self.connection.execute(f"PRAGMA journal_mode={mode}").fetchone()
        except sqlite3.OperationalError:  # busy: a reader in the middle of a query
            row = self.connection.execute("PRAGMA journal_mode").fetchone()
        return str(row[0]).lower()

    @property
    def batches(self) -> list[Batch]:
        return list(self._batches)

    def committed(self) -> set[tuple[int, int]]:
        return {(batch.tier, batch.part) for batch in self._batches}

    @_reading
    def commit_batch(self, tier: int, part: int, rows: Sequence[tuple[Any, int]],
                     meta: dict[str, str] | None = None, sums: Sequence[str] | None = None) -> None:
        """Write one batch of (encoded key, value) rows and its checksums in one transaction.
        A key already stored (equal keys have equal values) is skipped; the checksums cover
        the rows as they are stored: one per chunk of CHUNK_ROWS rows (``sums``, computed by
        the worker from ``rows``, or here), and the batch's own over its chunks' digests. When
        a key was skipped, the rows are read back inside the transaction and summed again."""
        connection = self.connection
        with connection:
            start = connection.execute("SELECT COALESCE(MAX(id), 0) FROM positions").fetchone()[0] + 1
            before = connection.total_changes
            connection.executemany("INSERT OR IGNORE INTO positions (key, value) VALUES (?, ?)", rows)
            if connection.total_changes - before == len(rows):
                # Every row went in, in order: the worker's checksums (or ours) cover them.
                stored: Sequence[tuple[Any, int]] = rows
                sums = list(sums) if sums is not None else chunk_sums(rows)
            else:
                stored = connection.execute(
                    "SELECT key, value FROM positions WHERE id >= ? ORDER BY id", (start,)).fetchall()
                sums = chunk_sums(stored)
            for sql, parameters in batch_records(tier, part, start, len(stored), sums, meta):
                connection.execute(sql, parameters)
        self.note_committed(meta)

    def note_committed(self, meta: dict[str, str] | None) -> None:
        """Take in a batch this process has just committed (here or through another
        connection to the file): its header fields, and its chunks, as checked."""
        self.meta.update(meta or {})
        checked = len(self._chunk_firsts)
        self.reload_batches()
        self._checked.update(range(checked, len(self._chunk_firsts)))

    @_reading
    def _check_chunk(self, index: int) -> None:
        first, last = self._chunk_firsts[index], self._chunk_lasts[index]
        rows = self.connection.execute(
            "SELECT key, value FROM positions WHERE id BETWEEN ? AND ? ORDER BY id", (first, last)).fetchall()
        if len(rows) != last - first + 1 or checksum(rows) != self._chunk_sums[index]:
            raise CorruptDatabase(f"{self.path}: records {first}-{last} do not match their "
                                  "checksum; the file is corrupted and will not be served")
        self._checked.add(index)

    def check_batch(self, batch: Batch) -> None:
        """Raise CorruptDatabase unless the batch's rows match its checksums."""
        low = bisect.bisect_left(self._chunk_firsts, batch.first_id)
        high = bisect.bisect_right(self._chunk_firsts, batch.last_id)
        for index in range(low, high):
            if index not in self._checked:
                self._check_chunk(index)
        covered = sum(self._chunk_lasts[i] - self._chunk_firsts[i] + 1 for i in range(low, high))
        if covered != batch.count or _digest(self._chunk_sums[low:high]) != batch.checksum:
            raise CorruptDatabase(f"{self.path}: batch {batch.id} (tier {batch.tier}, part "
                                  f"{batch.part}) does not match its checksum; the file is "
                                  "corrupted and will not be served")

    @_reading
    def check_structure(self) -> None:
        """SQLite's own check of the whole file: every page, every b-tree, and every index
        entry against its row (PRAGMA integrity_check). Raise CorruptDatabase quoting its
        first findings."""
        found = [row[0] for row in self.connection.execute(
            f"PRAGMA integrity_check({INTEGRITY_LINES})")]
        if found != ["ok"]:
            raise self._corrupt("SQLite's integrity check fails: " + "; ".join(map(str, found)))

    @_reading
    def check_all(self) -> int:
        """Check every batch; return how many records they hold."""
        self._checked.clear()
        total = 0
        for batch in self._batches:
            self.check_batch(batch)
            total += batch.count
        stray = self.connection.execute(
            "SELECT COUNT(*) FROM positions WHERE id > ?",
            (self._batches[-1].last_id if self._batches else 0,)).fetchone()[0]
        if stray:
            raise CorruptDatabase(f"{self.path}: {stray} records belong to no committed batch")
        return total

    # -- lookups -----------------------------------------------------------------------
    @_reading
    def lookup_many(self, keys: Sequence[Any]) -> dict[Any, int]:
        """The stored values of the encoded ``keys`` that are present (missing keys are
        left out). A record is served only once its chunk's checksum has held, and only when
        the row itself holds the key asked for (not just the index that led to it)."""
        found: dict[Any, int] = {}
        execute = self.connection.execute
        if self._step is None:
            self._step = min(LOOKUP_CHUNK, self.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER))
        step = self._step
        for start in range(0, len(keys), step):
            chunk = keys[start:start + step] if len(keys) > step else keys
            # ``asked`` is reached through the index on key (SQLite reads its key from the
            # index); ``stored`` is the same table reached by rowid, so its key is the row's.
            sql = _LOOKUP_SQLS.get(len(chunk))
            if sql is None:
                sql = _LOOKUP_SQLS[len(chunk)] = _LOOKUP_SQL.format(marks=",".join("?" * len(chunk)))
            rows = execute(sql, chunk).fetchall()
            if not rows:
                continue
            if not self._all_checked(max(row[2] for row in rows)):
                self._serve_checks([row[2] for row in rows])
            for key, value, row_id, asked in rows:
                if key != asked or type(key) is not type(asked) or type(value) is not int:
                    raise self._corrupt(f"the index leads key {asked!r} to record {row_id}, "
                                        f"which holds key {key!r}")
                found[key] = value
        return found

    def _all_checked(self, highest_id: int) -> bool:
        """Whether every chunk up to ``highest_id`` has been checked (the common case for a
        long-lived reader, which then skips the per-record bookkeeping)."""
        return (len(self._checked) == len(self._chunk_firsts) and bool(self._chunk_lasts)
                and highest_id <= self._chunk_lasts[-1])

    def lookup(self, key: Any) -> int | None:
        return self.lookup_many([key]).get(key)

    def _chunk_of(self, row_id: int) -> int | None:
        index = bisect.bisect_right(self._chunk_firsts, row_id) - 1
        if index < 0 or row_id > self._chunk_lasts[index]:
            return None
        return index

    def _serve_checks(self, row_ids: list[int]) -> None:
        """_serve_check of each record, in id order so that the records of a chunk once
        checked are passed over with one comparison each (a damaged file's reader looked up
        the chunk of each of 12,031 records: 8% of its time)."""
        covered = -1  # the last record of the chunk checked last
        for row_id in sorted(row_ids):
            if row_id > covered:
                self._serve_check(row_id)
                covered = self._chunk_lasts[bisect.bisect_right(self._chunk_firsts, row_id) - 1]

    def _serve_check(self, row_id: int) -> None:
        index = self._chunk_of(row_id)
        if index is None:
            self.reload_batches()  # a running build committed more since we last looked
            index = self._chunk_of(row_id)
        if index is None:
            raise CorruptDatabase(f"{self.path}: record {row_id} belongs to no committed batch")
        if index not in self._checked:
            self._check_chunk(index)

    @_reading
    def tier_values(self, tier: int) -> dict[Any, int]:
        """Every record committed for ``tier`` (checked against its batch checksums)."""
        values: dict[Any, int] = {}
        for batch in self._batches:
            if batch.tier != tier:
                continue
            self.check_batch(batch)
            values.update(self.connection.execute(
                "SELECT key, value FROM positions WHERE id BETWEEN ? AND ?",
                (batch.first_id, batch.last_id)).fetchall())
        return values

    def records(self) -> Iterator[tuple[Any, int]]:
        """Every (key, value) in id order."""
        try:
            yield from self.connection.execute("SELECT key, value FROM positions ORDER BY id")
        except UNREADABLE as error:
            raise self.unreadable(error) from None

    @_reading
    def count_by_value(self) -> dict[int, int]:
        """How many records hold each value (the records' checksums are not read here:
        ``db verify`` checks them)."""
        counts = dict(self.connection.execute(
            "SELECT value, COUNT(*) FROM positions GROUP BY value").fetchall())
        if any(type(value) is not int for value in counts):
            raise self._corrupt("a record holds a value that is not a whole number")
        return counts

    @_reading
    def count(self) -> int:
        return int(self.connection.execute("SELECT COUNT(*) FROM positions").fetchone()[0])

    def size_on_disk(self) -> int:
        return sum(os.path.getsize(p) for p in (self.path, Path(f"{self.path}-wal"))
                   if os.path.exists(p))


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _typed(row: Sequence[Any], types: Sequence[type]) -> bool:
    return all(type(cell) is kind for cell, kind in zip(row, types, strict=False))


# Whether one read-only connection may serve every thread (see _connect); elsewhere each
# thread opens its own (perfectplay.store.handles).
SHARED_READERS = sqlite3.threadsafety == 3
# How much of a file a reader maps (SQLite caps it at its own SQLITE_MAX_MMAP_SIZE, 2 GB by
# default); address space only, paged in as lookups touch it.
READER_MMAP_BYTES = 1 << 34


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        # mode=ro still reads a live WAL, so a reader sees a running build's commits. A reader
        # is shared by every thread of the process (perfectplay.store.handles keeps one per
        # file; the web server answers from a thread pool). Python refuses that by default,
        # but SQLite built serialized (threadsafety 3, as Debian's and python.org's are)
        # serializes each call itself, and a read-only connection has no writes to order.
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30,
                                     check_same_thread=not SHARED_READERS)
        # Pages read through a memory map rather than a read() each: a lookup touches a few
        # pages of the index and of the table, rarely the same as the last one's, and the
        # system calls were a fifth of its time (a position with its children: 42,000-45,000
        # queries a CPU second against 50,000-54,000 mapped, Connect Four 5x4).
        connection.execute(f"PRAGMA mmap_size={READER_MMAP_BYTES}")
    else:
        # A compiled build with --workers commits from a writer thread of its own, one
        # thread at a time (perfectplay.store.compiled_build): safe unless SQLite was built
        # single-threaded.
        connection = sqlite3.connect(path, timeout=30, check_same_thread=sqlite3.threadsafety == 0)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
    return connection


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())

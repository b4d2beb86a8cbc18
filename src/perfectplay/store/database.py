"""The SQLite store: one file, positions keyed by the game's stable key, WAL mode.

Layout (format version 1):

* ``meta(name, value)``: the header, written when the file is created: ``format``
  ("perfectplay-db"), ``format_version``, ``game``, ``options`` (JSON), ``kind``, ``root``
  (the position the build started from), ``batch_size``; and, once the build is done,
  ``complete``, ``build_seconds``, ``positions_reached`` and ``built_at``.
* ``positions(id, key, value)``: one row per key; ``id`` is SQLite's rowid, so the rows of
  one committed batch are a contiguous range of ids.
* ``batches(id, tier, part, first_id, last_id, count, checksum)``: one row per committed
  batch, written in the same transaction as its records. ``checksum`` is a BLAKE2b digest
  of the batch's rows in id order. A reader checks a batch the first time it serves a
  record from it, so a flipped byte is reported, never served.

A build commits one batch per transaction, so a build killed at any moment leaves whole
batches only; WAL mode lets readers query the committed ones while the build goes on.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from perfectplay.errors import BadDatabase, CorruptDatabase
from perfectplay.store.records import FORMAT_VERSION, Identity

MAGIC = "perfectplay-db"
# SQLite binds at most 32,766 parameters per statement; 500 keys per query is near the
# fastest batch on CPython (measured in benchmarks/store.py).
LOOKUP_CHUNK = 500
SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE positions (id INTEGER PRIMARY KEY, key UNIQUE NOT NULL, value INTEGER NOT NULL);
CREATE TABLE batches (id INTEGER PRIMARY KEY, tier INTEGER NOT NULL, part INTEGER NOT NULL,
                      first_id INTEGER NOT NULL, last_id INTEGER NOT NULL,
                      count INTEGER NOT NULL, checksum TEXT NOT NULL, UNIQUE (tier, part));
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


def checksum(rows: Iterable[tuple[Any, int]]) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for key, value in rows:
        digest.update(f"{key!r}={value};".encode())
    return digest.hexdigest()


class Database:
    """A solved-position database in one SQLite file. Open with :meth:`create` (a new
    build) or :meth:`open` (an existing file, checked to be a database)."""

    def __init__(self, path: Path, connection: sqlite3.Connection, meta: dict[str, str]) -> None:
        self.path = path
        self.connection = connection
        self.meta = meta
        self._batches: list[Batch] = []
        self._first_ids: list[int] = []
        self._checked: set[int] = set()

    # -- opening -----------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | Path, identity: Identity, kind: str, root: str | None,
               batch_size: int) -> Database:
        # Written under another name and renamed once whole, so a build killed while
        # creating the file never leaves a file without its header.
        path = Path(path)
        creating = Path(f"{path}.creating")
        for stale in (creating, Path(f"{creating}-wal"), Path(f"{creating}-shm")):
            stale.unlink(missing_ok=True)
        try:
            connection = _connect(creating)
            with connection:
                connection.executescript(SCHEMA)
                meta = {"format": MAGIC, "format_version": str(FORMAT_VERSION),
                        "game": identity.game, "options": identity.options, "kind": kind,
                        "root": json.dumps(root), "batch_size": str(batch_size),
                        "complete": "0", "build_seconds": "0", "created_at": _now()}
                connection.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            connection.close()  # checkpoints the WAL into the file
        except (sqlite3.DatabaseError, OSError) as error:
            raise BadDatabase(f"{path}: cannot create a database there ({error})") from None
        os.replace(creating, path)
        return cls.open(path, writable=True)

    @classmethod
    def open(cls, path: str | Path, *, writable: bool = False) -> Database:
        path = Path(path)
        if not path.is_file():
            raise BadDatabase(f"{path}: no such database file")
        try:
            connection = _connect(path, read_only=not writable)
        except sqlite3.DatabaseError as error:
            raise BadDatabase(f"{path}: not a perfectplay database, or truncated/corrupted "
                              f"({error})") from None
        try:
            meta = dict(connection.execute("SELECT name, value FROM meta").fetchall())
            database = cls(path, connection, meta)
            database._check_header()
            database.reload_batches()
        except sqlite3.DatabaseError as error:
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

    def set_meta(self, values: dict[str, str]) -> None:
        with self.connection:
            self.connection.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", values.items())
        self.meta.update(values)

    # -- batches -----------------------------------------------------------------------
    def reload_batches(self) -> None:
        """Read the batch list again (a reader does this to see a running build's progress)."""
        rows = self.connection.execute(
            "SELECT id, tier, part, first_id, last_id, count, checksum FROM batches "
            "ORDER BY first_id").fetchall()
        self._batches = [Batch(*row) for row in rows]
        self._first_ids = [batch.first_id for batch in self._batches]

    @property
    def batches(self) -> list[Batch]:
        return list(self._batches)

    def committed(self) -> set[tuple[int, int]]:
        return {(batch.tier, batch.part) for batch in self._batches}

    def commit_batch(self, tier: int, part: int, rows: Sequence[tuple[Any, int]],
                     meta: dict[str, str] | None = None) -> None:
        """Write one batch of (encoded key, value) rows and its checksum in one transaction.
        A key already stored (equal keys have equal values) is skipped; the checksum covers
        the rows as they are stored, read back inside the same transaction."""
        connection = self.connection
        with connection:
            start = connection.execute("SELECT COALESCE(MAX(id), 0) FROM positions").fetchone()[0] + 1
            connection.executemany("INSERT OR IGNORE INTO positions (key, value) VALUES (?, ?)", rows)
            stored = connection.execute(
                "SELECT key, value FROM positions WHERE id >= ? ORDER BY id", (start,)).fetchall()
            last = start + len(stored) - 1
            connection.execute(
                "INSERT INTO batches (tier, part, first_id, last_id, count, checksum) "
                "VALUES (?, ?, ?, ?, ?, ?)", (tier, part, start, last, len(stored), checksum(stored)))
            if meta:
                connection.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", meta.items())
        self.meta.update(meta or {})
        self.reload_batches()
        self._checked.add(self._batches[-1].id)

    def check_batch(self, batch: Batch) -> None:
        """Raise CorruptDatabase unless the batch's rows match its checksum."""
        rows = self.connection.execute(
            "SELECT key, value FROM positions WHERE id BETWEEN ? AND ? ORDER BY id",
            (batch.first_id, batch.last_id)).fetchall()
        if len(rows) != batch.count or checksum(rows) != batch.checksum:
            raise CorruptDatabase(f"{self.path}: batch {batch.id} (tier {batch.tier}, part "
                                  f"{batch.part}) does not match its checksum; the file is "
                                  "corrupted and will not be served")
        self._checked.add(batch.id)

    def check_all(self) -> int:
        """Check every batch; return how many records they hold."""
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

    def _batch_of(self, row_id: int) -> Batch | None:
        index = bisect.bisect_right(self._first_ids, row_id) - 1
        if index < 0 or row_id > self._batches[index].last_id:
            return None
        return self._batches[index]

    # -- lookups -----------------------------------------------------------------------
    def lookup_many(self, keys: Sequence[Any]) -> dict[Any, int]:
        """The stored values of the encoded ``keys`` that are present (missing keys are
        left out). Records are served only from batches whose checksum holds."""
        found: dict[Any, int] = {}
        execute = self.connection.execute
        for start in range(0, len(keys), LOOKUP_CHUNK):
            chunk = keys[start:start + LOOKUP_CHUNK]
            marks = ",".join("?" * len(chunk))
            for key, value, row_id in execute(
                    f"SELECT key, value, id FROM positions WHERE key IN ({marks})", chunk):
                self._serve_check(row_id)
                found[key] = value
        return found

    def lookup(self, key: Any) -> int | None:
        return self.lookup_many([key]).get(key)

    def _serve_check(self, row_id: int) -> None:
        batch = self._batch_of(row_id)
        if batch is None:
            self.reload_batches()  # a running build committed more since we last looked
            batch = self._batch_of(row_id)
        if batch is None:
            raise CorruptDatabase(f"{self.path}: record {row_id} belongs to no committed batch")
        if batch.id not in self._checked:
            self.check_batch(batch)

    def tier_values(self, tier: int) -> dict[Any, int]:
        """Every record committed for ``tier`` (checked against its batch checksums)."""
        values: dict[Any, int] = {}
        for batch in self._batches:
            if batch.tier != tier:
                continue
            if batch.id not in self._checked:
                self.check_batch(batch)
            values.update(self.connection.execute(
                "SELECT key, value FROM positions WHERE id BETWEEN ? AND ?",
                (batch.first_id, batch.last_id)).fetchall())
        return values

    def records(self) -> Iterator[tuple[Any, int]]:
        """Every (key, value) in id order."""
        yield from self.connection.execute("SELECT key, value FROM positions ORDER BY id")

    def count_by_value(self) -> dict[int, int]:
        return dict(self.connection.execute(
            "SELECT value, COUNT(*) FROM positions GROUP BY value").fetchall())

    def count(self) -> int:
        return int(self.connection.execute("SELECT COUNT(*) FROM positions").fetchone()[0])

    def size_on_disk(self) -> int:
        return sum(os.path.getsize(p) for p in (self.path, Path(f"{self.path}-wal"))
                   if os.path.exists(p))


def _connect(path: Path, read_only: bool = False) -> sqlite3.Connection:
    if read_only:
        # mode=ro still reads a live WAL, so a reader sees a running build's commits.
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    else:
        connection = sqlite3.connect(path, timeout=30)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
    return connection


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())

"""Batches of int rows from numpy arrays into a database without a Python object per row.

``executemany`` spends about as long turning each row into Python ints and tuples and
binding them as SQLite spends inserting it (Connect Four 5x5: 0.8 against 0.4 microseconds a
row). Here a numba loop calls SQLite's own C functions (``sqlite3_bind_int64``,
``sqlite3_step``, ``sqlite3_reset``) through ctypes on a second connection to the same file.

That connection is opened with the very SQLite library Python's ``sqlite3`` module runs on:
its functions are looked up through the module's own extension (``_sqlite3``), which finds
them in the library it was linked against, or in itself when SQLite was built into it. Two
copies of SQLite in one process would not see each other's file locks (SQLite's
documentation warns that this corrupts files), so where the lookup fails (a build whose
extension hides SQLite's symbols, Windows) ``writer`` returns None and the caller keeps
``executemany``.

A batch is one transaction holding its rows, chunks, batch row and header fields, exactly
as perfectplay.store.database.Database.commit_batch writes them (the tests compare files).
"""

from __future__ import annotations

import ctypes
import sqlite3
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

SQLITE_OK, SQLITE_ROW, SQLITE_DONE = 0, 100, 101
SQLITE_OPEN_READWRITE = 0x2
# SQLite copies bound text at once (SQLITE_TRANSIENT), so Python may free it.
TRANSIENT = ctypes.c_void_p(-1)
BUSY_MILLISECONDS = 30_000
INSERT_ROW = b"INSERT INTO positions (key, value) VALUES (?, ?)"
# Rows a statement inserts: a step and a reset, and the seek to the table's end for the new
# row id, are paid once for this many rows (SQLite inserts a VALUES list's rows in order, so
# the ids are those of one row a statement). 64 rows bind 128 parameters, far within
# SQLite's limit (999 before 3.32).
ROWS_PER_STATEMENT = 64
INSERT_ROWS = ("INSERT INTO positions (key, value) VALUES "
               + ", ".join(["(?, ?)"] * ROWS_PER_STATEMENT)).encode()

_pointer = ctypes.c_void_p


@lru_cache(maxsize=1)
def _library() -> Any:
    """SQLite's C functions as Python's sqlite3 module links them, or None."""
    try:
        import _sqlite3

        library = ctypes.CDLL(_sqlite3.__file__)
        version = library.sqlite3_libversion
        version.restype = ctypes.c_char_p
        if version().decode() != sqlite3.sqlite_version:
            return None
        signatures: dict[str, tuple[list[Any], Any]] = {
            "sqlite3_open_v2": ([ctypes.c_char_p, ctypes.POINTER(_pointer), ctypes.c_int,
                                 ctypes.c_char_p], ctypes.c_int),
            "sqlite3_close_v2": ([_pointer], ctypes.c_int),
            "sqlite3_busy_timeout": ([_pointer, ctypes.c_int], ctypes.c_int),
            "sqlite3_errmsg": ([_pointer], ctypes.c_char_p),
            "sqlite3_prepare_v2": ([_pointer, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.POINTER(_pointer), _pointer], ctypes.c_int),
            "sqlite3_finalize": ([_pointer], ctypes.c_int),
            "sqlite3_bind_int64": ([_pointer, ctypes.c_int, ctypes.c_int64], ctypes.c_int),
            "sqlite3_bind_text": ([_pointer, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                   _pointer], ctypes.c_int),
            "sqlite3_step": ([_pointer], ctypes.c_int),
            "sqlite3_reset": ([_pointer], ctypes.c_int),
            "sqlite3_column_int64": ([_pointer, ctypes.c_int], ctypes.c_int64),
        }
        for name, (arguments, result) in signatures.items():
            function = getattr(library, name)
            function.argtypes, function.restype = arguments, result
    except (OSError, AttributeError, ImportError):
        return None
    return library


@lru_cache(maxsize=1)
def _insert_kernel() -> Any:
    """The numba loop over a batch's rows (compiled once per process: the C functions'
    addresses are compiled into it)."""
    library = _library()
    bind, step, reset = library.sqlite3_bind_int64, library.sqlite3_step, library.sqlite3_reset

    # nogil: with --workers, the rows go in on a thread of their own while the next tier is valued.
    @njit(nogil=True)
    def insert_rows(many: Any, one: Any, keys: Any, values: Any) -> int:
        """Insert every (key, value), ROWS_PER_STATEMENT a step through ``many`` and the
        rest one by one through ``one``; returns -1, or the index of the (first) row of
        the step that failed."""
        size = keys.shape[0]
        i = 0
        while i + ROWS_PER_STATEMENT <= size:
            for row in range(ROWS_PER_STATEMENT):
                bind(many, 2 * row + 1, keys[i + row])
                bind(many, 2 * row + 2, values[i + row])
            done = step(many)
            reset(many)
            if done != SQLITE_DONE:
                return i
            i += ROWS_PER_STATEMENT
        for i in range(i, size):  # noqa: B020 - goes on from where the batches stopped
            bind(one, 1, keys[i])
            bind(one, 2, values[i])
            done = step(one)
            reset(one)
            if done != SQLITE_DONE:
                return i
        return -1

    return insert_rows


def warm_up() -> None:
    """Compile the insert loop now (it inserts nothing: no rows, no statement)."""
    if _library() is not None:
        nothing = np.empty(0, np.int64)
        _insert_kernel()(0, 0, nothing, nothing)


def writer(path: Path) -> NativeWriter | None:
    """A writer on the database file ``path``, or None where SQLite cannot be reached."""
    if _library() is None:
        return None
    return NativeWriter(path)


class NativeWriter:
    """A second connection to one database file, for committing int batches."""

    def __init__(self, path: Path) -> None:
        self.library = _library()
        self.handle = _pointer()
        opened = self.library.sqlite3_open_v2(str(path).encode(), ctypes.byref(self.handle),
                                              SQLITE_OPEN_READWRITE, None)
        if opened != SQLITE_OK:
            message = self._message()
            self.close()
            raise sqlite3.OperationalError(f"cannot open {path}: {message}")
        self.library.sqlite3_busy_timeout(self.handle, BUSY_MILLISECONDS)
        self.run("PRAGMA synchronous=NORMAL")
        self.insert = self._prepare(INSERT_ROW)
        self.insert_many = self._prepare(INSERT_ROWS)

    def _message(self) -> str:
        message: bytes | None = self.library.sqlite3_errmsg(self.handle)
        return (message or b"").decode(errors="replace")

    def _check(self, code: int, expected: int = SQLITE_OK) -> None:
        if code != expected:
            raise sqlite3.OperationalError(self._message())

    def _prepare(self, sql: bytes) -> _pointer:
        statement = _pointer()
        self._check(self.library.sqlite3_prepare_v2(self.handle, sql, -1,
                                                    ctypes.byref(statement), None))
        return statement

    def run(self, sql: str, parameters: Sequence[int | str] = ()) -> int | None:
        """Run one statement; returns the first column of its first row as an int, if any."""
        statement = self._prepare(sql.encode())
        try:
            for place, parameter in enumerate(parameters, start=1):
                if isinstance(parameter, str):
                    text = parameter.encode()
                    bound = self.library.sqlite3_bind_text(statement, place, text, len(text), TRANSIENT)
                else:
                    bound = self.library.sqlite3_bind_int64(statement, place, parameter)
                self._check(bound)
            done = self.library.sqlite3_step(statement)
            if done == SQLITE_ROW:
                return int(self.library.sqlite3_column_int64(statement, 0))
            self._check(done, SQLITE_DONE)
            return None
        finally:
            self.library.sqlite3_finalize(statement)

    def commit_batch(self, keys: np.ndarray, values: np.ndarray,
                     records: Any) -> None:
        """One transaction: the rows (given ids from the next free one on), then what
        ``records(first_id)`` returns, a list of (sql, parameters) (the chunks, the batch,
        the header fields)."""
        self.run("BEGIN IMMEDIATE")
        try:
            start = self.run("SELECT COALESCE(MAX(id), 0) + 1 FROM positions")
            assert start is not None
            failed = _insert_kernel()(self.insert_many.value, self.insert.value,
                                      np.ascontiguousarray(keys, np.int64),
                                      np.ascontiguousarray(values, np.int64))
            if failed >= 0:
                raise sqlite3.OperationalError(f"row {failed} of the batch: {self._message()}")
            for sql, parameters in records(start):
                self.run(sql, parameters)
            self.run("COMMIT")
        except BaseException:
            self.run("ROLLBACK")
            raise

    def close(self) -> None:
        for name in ("insert", "insert_many"):
            if getattr(self, name, None):
                self.library.sqlite3_finalize(getattr(self, name))
                setattr(self, name, _pointer())
        if self.handle:
            self.library.sqlite3_close_v2(self.handle)
            self.handle = _pointer()

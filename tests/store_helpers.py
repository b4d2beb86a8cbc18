"""What the database tests share: a database's rows and batches, to compare two builds."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any


def stored_rows(path: Path) -> tuple[list[Any], list[Any]]:
    """Every record in id order and every batch with its checksum."""
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT id, key, value FROM positions ORDER BY id").fetchall()
        batches = connection.execute("SELECT tier, part, first_id, last_id, count, checksum "
                                     "FROM batches ORDER BY id").fetchall()
    return rows, batches

"""Table files: one compressed numpy archive per table, checked when read.

A file ``KQK.npz`` holds ``values`` (int8, perfectplay.games.chess.tablebase.index's layout), ``name`` and
``version``. Reading checks all three and the size, so a wrong or damaged file is refused
with one line naming it (BadTable) instead of answering wrongly. The tables built by
``perfectplay tablebase build`` ship with the package in ``tablebase/data/`` (75 to 112 KB
each, compressed from 512 KiB); the directory named by PERFECTPLAY_TABLEBASE_DIR (or
``--dir`` of ``tablebase info``) is read instead when given.
"""

from __future__ import annotations

import os
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from perfectplay.errors import BadDatabase
from perfectplay.games.chess.tablebase.index import SIZE, TABLES

if TYPE_CHECKING:
    import numpy as np

FORMAT_VERSION = 1
SHIPPED = Path(__file__).resolve().parent / "data"
DIRECTORY_VARIABLE = "PERFECTPLAY_TABLEBASE_DIR"


class BadTable(BadDatabase):
    """A table file that is missing, damaged, or not the table it should be."""


def table_dir(directory: str | Path | None = None) -> Path:
    """The directory tables are read from: ``directory``, else the environment's, else the
    files shipped with the package."""
    if directory is not None:
        return Path(directory)
    chosen = os.environ.get(DIRECTORY_VARIABLE)
    return Path(chosen) if chosen else SHIPPED


def path_of(name: str, directory: str | Path | None = None) -> Path:
    return table_dir(directory) / f"{name}.npz"


def save(name: str, values: np.ndarray, directory: str | Path) -> Path:
    """Write table ``name`` into ``directory`` (created if needed); returns the file."""
    import numpy as np

    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.npz"
    partial = folder / f".{name}.partial.npz"
    np.savez_compressed(partial, values=values.astype(np.int8), name=np.array(name),
                        version=np.array(FORMAT_VERSION))
    partial.replace(path)  # a reader never sees half a file
    return path


def load(name: str, directory: str | Path | None = None) -> np.ndarray:
    """The stored bytes of table ``name``; BadTable naming the file if it cannot be used."""
    import numpy as np

    if name not in TABLES:
        raise BadTable(f"unknown table {name!r}; the tables are {', '.join(TABLES)}")
    path = path_of(name, directory)
    if not path.exists():
        raise BadTable(f"{path}: no such table file (build it: perfectplay tablebase build {name} "
                       f"--dir {path.parent})")
    try:
        with np.load(path, allow_pickle=False) as archive:
            stored_name, version = str(archive["name"]), int(archive["version"])
            values = archive["values"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error) as error:
        raise BadTable(f"{path}: not a readable table file ({type(error).__name__}: {error})") from None
    if stored_name != name:
        raise BadTable(f"{path}: holds table {stored_name!r}, not {name!r}")
    if version != FORMAT_VERSION:
        raise BadTable(f"{path}: table format version {version}; this perfectplay reads version "
                       f"{FORMAT_VERSION} (rebuild it with perfectplay tablebase build {name})")
    if values.dtype != np.int8 or values.shape != (SIZE,):
        raise BadTable(f"{path}: {values.dtype} values of shape {values.shape}, expected int8 ({SIZE},)")
    return values

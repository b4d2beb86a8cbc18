"""A long kernel search kept on disk, so that a run killed after hours goes on from its last
snapshot instead of from nothing.

The compiled searches store nothing they found after being aborted, so between two slices
(perfectplay.search.worker.in_slices) their transposition table holds only finished work,
and the driver's bounds (what its null-window tests proved) say how far the root has got.
A snapshot is those arrays and that state, written together as one file (an uncompressed
``.npz``) under a temporary name, synced, then renamed over the last one: a kill at any
moment leaves the old snapshot or the new, never half of one. Run again, the search loads
it and its first descent finds the finished subtrees in the table.
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.errors import BadDatabase

# The snapshot's entry holding the driver's state (JSON text), beside the arrays.
_STATE = "state"


class Checkpoint:
    """Snapshots of one search at ``path``, at most one every ``every_seconds``."""

    def __init__(self, path: str | Path, every_seconds: float) -> None:
        self.path = Path(path)
        self.every_seconds = every_seconds
        self._last = time.monotonic()

    def load(self, arrays: dict[str, np.ndarray]) -> dict[str, Any] | None:
        """Copy the snapshot's arrays into ``arrays`` (in place: the search holds them) and
        return its state; None when there is no snapshot yet."""
        if not self.path.exists():
            return None
        try:
            with np.load(self.path) as saved:
                missing = set(arrays) - set(saved.files)
                if missing:
                    raise BadDatabase(f"{str(self.path)!r}: a snapshot without "
                                      f"{', '.join(sorted(missing))}; delete it to start again")
                for name, array in arrays.items():
                    kept = saved[name]
                    if kept.shape != array.shape or kept.dtype != array.dtype:
                        raise BadDatabase(
                            f"{str(self.path)!r}: its {name} is {kept.dtype}{list(kept.shape)}, "
                            f"this search's {array.dtype}{list(array.shape)} (another table "
                            f"size?); give the same options or delete it")
                    np.copyto(array, kept)
                state: dict[str, Any] = json.loads(str(saved[_STATE]))
        except BadDatabase:
            raise
        except OSError as error:
            raise BadDatabase(f"{str(self.path)!r}: cannot read it ({error.strerror})") from None
        except (ValueError, zipfile.BadZipFile, KeyError):
            raise BadDatabase(f"{str(self.path)!r}: not a readable snapshot (damaged, or not "
                              f"one); delete it to start again") from None
        return state

    def due(self) -> bool:
        return time.monotonic() - self._last >= self.every_seconds

    def save(self, arrays: dict[str, np.ndarray], state: dict[str, Any]) -> None:
        """Write the arrays and the state as the new snapshot, whole or not at all."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_name(self.path.name + ".partial")
        entries: dict[str, Any] = {**arrays, _STATE: np.array(json.dumps(state))}
        with open(partial, "wb") as out:
            np.savez(out, **entries)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, self.path)
        self._last = time.monotonic()

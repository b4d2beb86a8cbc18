"""Where Kalah's endgame databases live (perfectplay.games.kalah.endgame), without numpy: the
rules ask whether one has been built when they say how big a board is to solve."""

from __future__ import annotations

import os
from pathlib import Path

DIRECTORY_VARIABLE = "PERFECTPLAY_KALAH_DIR"


def directory() -> Path:
    """Where the databases live: $PERFECTPLAY_KALAH_DIR, else the user's cache directory
    ($XDG_CACHE_HOME or ~/.cache) under perfectplay/kalah."""
    chosen = os.environ.get(DIRECTORY_VARIABLE)
    if chosen:
        return Path(chosen)
    cache = os.environ.get("XDG_CACHE_HOME")
    return (Path(cache) if cache else Path.home() / ".cache") / "perfectplay" / "kalah"


def path_for(pits: int, empty_capture: bool, folder: str | Path | None = None) -> Path:
    """The file of the database for ``pits`` a side under one capture rule."""
    rule = "empty" if empty_capture else "standard"
    return (directory() if folder is None else Path(folder)) / f"kalah{pits}-{rule}.db"

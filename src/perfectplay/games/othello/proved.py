"""Othello positions proved once by a long run, read from the file it wrote: 6x6's start.

benchmarks/othello_6x6.py proves the value of 6x6 Othello's start position with the numba
kernel (docs/othello.md: how, in how many nodes and how long) and then writes what it proved
to ``solved_6x6.json`` beside this module: for each position, its value for the side to move
(the disc margin still to come), its optimal moves, every move's value where known, and how
it was proved. The rules ask here whether a position is answered at once
(Othello.solvable); the method of games/othello/solved.py answers it."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

STORE = Path(__file__).with_name("solved_6x6.json")


@functools.cache
def _entries(path: Path) -> dict[str, Any]:
    """The stored positions, by board size and text (Othello.format_position)."""
    if not path.exists():
        return {}
    return dict(json.loads(path.read_text())["positions"])


def stored(game: Any, position: Any) -> dict[str, Any] | None:
    """The stored answer for ``position`` of ``game`` (an Othello board), or None."""
    entry = _entries(STORE).get(f"{game.size}x{game.size} {game.format_position(position)}")
    return None if entry is None else dict(entry)

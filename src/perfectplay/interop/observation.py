"""A position as numbers for a learning agent, read from the board the game describes for the
web page (:mod:`perfectplay.diagram`), kind by kind, naming no game:

- grid, hex: one number a place, 0 empty, else 1 + the mark's rank among the board's pieces;
- pits: the seeds of every pit, then the two stores;
- lines: 1 for every drawn line, then each box's owner, row by row (0 none, 1 + its rank);
- heaps: the heap sizes; row: each item's number (0 if none) and whether it is still in play;
- hands: the fingers of each hand; text (a game with no board of its own): its characters.

The length is fixed per game by its start (the heaps and the text padded to a cap), and one
more number says who is to move (1 + the mark's rank, 0 when the diagram does not say).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from perfectplay.diagram import Diagram, Grid, Hands, Heaps, HexBoard, Lines, Pits, Row, Text

# Room for heaps that split (octal games) and for a text board.
HEAPS_ROOM = 64
TEXT_ROOM = 512


def _rank(pieces: Mapping[str, Any], mark: str | None) -> int:
    names = sorted(pieces)
    return names.index(mark) + 1 if mark in names else 0


def _number(text: str) -> int:
    return int(text) if text.lstrip("-").isdigit() else 0


def numbers(diagram: Diagram) -> list[int]:
    """The numbers of ``diagram``, before padding."""
    if isinstance(diagram, (Grid, HexBoard)):
        return [_rank(diagram.pieces, cell.mark) for cell in diagram.cells]
    if isinstance(diagram, Pits):
        return [pit.seeds for pit in (*diagram.top, *diagram.bottom)] + [
            diagram.left.seeds, diagram.right.seeds]
    if isinstance(diagram, Lines):
        owners = {(box.row, box.column): _rank(diagram.pieces, box.owner) for box in diagram.boxes}
        return [int(edge.drawn) for edge in diagram.edges] + [
            owners.get((row, column), 0) for row in range(diagram.rows) for column in range(diagram.columns)]
    if isinstance(diagram, Heaps):
        return [heap.size for heap in diagram.heaps]
    if isinstance(diagram, Row):
        return [number for item in diagram.items for number in (_number(item.text), int(item.state == ""))]
    if isinstance(diagram, Hands):
        return [hand.fingers for hand in (*diagram.top, *diagram.bottom)]
    text = diagram.text if isinstance(diagram, Text) else ""
    return [ord(character) for character in text]


def room(diagram: Diagram) -> int:
    """How many numbers every position of the game takes, judged from its start's diagram."""
    found = len(numbers(diagram))
    if isinstance(diagram, Heaps):
        return max(found, HEAPS_ROOM)
    if isinstance(diagram, Text):
        return max(found, TEXT_ROOM)
    return found


def encode(diagram: Diagram, size: int) -> np.ndarray:
    """``size`` numbers (the last: who is to move), padded with zeros; a longer board is an error."""
    found = numbers(diagram)
    if len(found) > size - 1:
        raise ValueError(f"a {diagram.kind} board of {len(found)} numbers does not fit the {size - 1} "
                         "its game's start gave")
    pieces = getattr(diagram, "pieces", {})
    mover = _rank(pieces, diagram.to_move) if diagram.to_move is not None else 0
    return np.array(found + [0] * (size - 1 - len(found)) + [mover], dtype=np.int64)


__all__ = ["HEAPS_ROOM", "TEXT_ROOM", "encode", "numbers", "room"]

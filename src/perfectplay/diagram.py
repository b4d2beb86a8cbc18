"""How a position is drawn for a person on the web page: a typed description of a few
generic kinds of board, which each game fills from its own rules (``Game.diagram``).

The page (web/static/*.js) draws each kind and knows no game: everything it shows comes
from here, the notation of the move each clickable place plays, the highlights, the
extra-turn flag and the status line in the game's words. A game without a diagram of its
own is drawn as its ``render`` text (:class:`Text`). The side NAMES are not here (the web
payload's ``sides`` gives them); a diagram names the side to move by its mark.

Every kind is a frozen dataclass; :func:`as_json` turns one into the dict the page reads,
with its ``kind``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Words:
    """One line of a status the game words ("South moves again: last seed in the store")."""

    text: str
    colour: str = "#222"
    bold: bool = False


@dataclass(frozen=True)
class Piece:
    """How a mark is drawn. ``shape``: "letter" (``text`` in ``colour``), "disc" (a disc of
    ``colour`` on the place), "glyph" (``text``, a Unicode figure, in black) or "fill" (the
    place itself takes ``colour``, with ``text`` on it in white). ``tint``: a pale shade of
    the side's colour, for what it owns (a box, its count)."""

    shape: str
    colour: str
    text: str = ""
    tint: str = "#eee"
    outline: str = "#222"


@dataclass(frozen=True)
class Count:
    """A tally shown above the board ("Black 4"): the side's ``mark`` and the words."""

    mark: str
    label: str


@dataclass(frozen=True)
class Cell:
    """A place on a board: its ``name`` (a square's, a point's), the ``mark`` on it ("" when
    empty; a key of the diagram's ``pieces``), the ``move`` a click on it plays, and a small
    ``label`` drawn beside it (a point's number)."""

    name: str
    mark: str = ""
    move: str | None = None
    label: str = ""


@dataclass(frozen=True)
class Step:
    """A move of two clicks: the place picked (``source``), then the place it goes."""

    move: str
    source: str
    target: str


@dataclass(frozen=True)
class Highlight:
    """A place to mark, and why: "last" (the last move), "check", "win" (a winning line)."""

    place: str
    why: str


@dataclass(frozen=True)
class Label:
    """How a person writes ``move`` (its notation) where the notation is a machine's:
    ``text`` is chess's SAN ("Nf3") for the move ``g1f3``."""

    move: str
    text: str


@dataclass(frozen=True)
class Recorded:
    """A move played as the game's score sheet writes it: the ``number`` before it ("1.",
    "1..." for a first move by the second side, "" for a reply) and its ``text`` ("e4")."""

    number: str
    text: str


@dataclass(frozen=True, kw_only=True)
class Diagram:
    """What every kind carries: the ``to_move`` side's mark, whether the last move kept the
    turn (``again``), whether the game is ``over``, the ``status`` lines, the ``help``
    (how to play on this board, the page's legend) and the ``units`` estimates read in
    ("centipawns": shown as pawns).

    Optional, each empty by default (the page then writes moves in their notation, one
    after another): ``labels``, the legal moves as a person writes them (the move buttons'
    words), and ``record``, the moves played as a score sheet writes them, numbered (the
    page's move list)."""

    kind: ClassVar[str] = "text"
    to_move: str | None = None
    again: bool = False
    over: bool = False
    status: tuple[Words, ...] = ()
    help: str = ""
    units: str = ""
    labels: tuple[Label, ...] = ()
    record: tuple[Recorded, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Text(Diagram):
    """The fallback: the game's ``render`` text."""

    kind: ClassVar[str] = "text"
    text: str


@dataclass(frozen=True, kw_only=True)
class Grid(Diagram):
    """A board of ``rows`` x ``columns`` places, ``cells`` row by row from the top.

    ``look``: "squares", "frame" (discs seen through a frame's holes), "felt" (a green
    board), "checkered" or "points" (points joined by ``lines``, pairs of cell indices).
    ``drops``: for games that drop a piece into a column, the move a click anywhere in each
    column plays (None: a full column). ``steps``: moves of two clicks. ``off``: "right" or
    "top", a strip beyond that edge (place "off") where pieces leave the board. ``passing``:
    a move with no place (a pass), shown as a button under the board. ``counts``: tallies
    above it. ``column_names`` and ``row_names`` label the edges. ``flippable``: the page
    offers to turn the board round (the second side's view: the last row at the top)."""

    kind: ClassVar[str] = "grid"
    rows: int
    columns: int
    cells: tuple[Cell, ...]
    pieces: Mapping[str, Piece]
    look: str = "squares"
    drops: tuple[str | None, ...] = ()
    steps: tuple[Step, ...] = ()
    lines: tuple[tuple[int, int], ...] = ()
    highlights: tuple[Highlight, ...] = ()
    off: str = ""
    passing: str | None = None
    counts: tuple[Count, ...] = ()
    column_names: tuple[str, ...] = ()
    row_names: tuple[str, ...] = ()
    flippable: bool = False


@dataclass(frozen=True)
class Pit:
    """A pit of a sowing game: its ``name`` ("S1"), the ``number`` written on it, its
    ``seeds``, the ``move`` a click plays, and whether that move keeps the turn
    (``again``)."""

    name: str
    number: int
    seeds: int
    move: str | None = None
    again: bool = False


@dataclass(frozen=True)
class Store:
    """A store: the ``side`` whose it is (a mark), its ``label`` and its seeds."""

    side: str
    label: str
    seeds: int


@dataclass(frozen=True, kw_only=True)
class Pits(Diagram):
    """A sowing board: the ``top`` and ``bottom`` rows of pits, each left to right as drawn,
    and the stores at the ``left`` and ``right`` ends."""

    kind: ClassVar[str] = "pits"
    top: tuple[Pit, ...]
    bottom: tuple[Pit, ...]
    left: Store
    right: Store


@dataclass(frozen=True, kw_only=True)
class HexBoard(Diagram):
    """Hex's rhombus, HexWiki's way: ``cells`` row by row from the top, each row half a cell
    right of the one above. ``vertical`` is the mark that joins top and bottom,
    ``horizontal`` the one that joins left and right; ``highlights`` mark a winning chain."""

    kind: ClassVar[str] = "hex"
    size: int
    cells: tuple[Cell, ...]
    pieces: Mapping[str, Piece]
    vertical: str
    horizontal: str
    highlights: tuple[Highlight, ...] = ()
    column_names: tuple[str, ...] = ()
    row_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Edge:
    """A line between two dots ([row, column] from the top left): the ``move`` that draws
    it, and whether it is drawn."""

    move: str
    source: tuple[int, int]
    target: tuple[int, int]
    drawn: bool


@dataclass(frozen=True)
class Box:
    """A completed box ([row, column] of its top left dot) and who took it (None: not
    known, taken before the moves the page was given)."""

    row: int
    column: int
    owner: str | None


@dataclass(frozen=True, kw_only=True)
class Lines(Diagram):
    """Dots and lines: ``rows`` x ``columns`` boxes between (rows + 1) x (columns + 1) dots,
    every line, the completed boxes, and the tallies."""

    kind: ClassVar[str] = "lines"
    rows: int
    columns: int
    edges: tuple[Edge, ...]
    boxes: tuple[Box, ...]
    pieces: Mapping[str, Piece]
    counts: tuple[Count, ...] = ()
    column_names: tuple[str, ...] = ()
    row_names: tuple[str, ...] = ()


# The objects of a heap the page draws; more are written as a number beside them.
DRAWN_OBJECTS = 40


@dataclass(frozen=True)
class Heap:
    """A heap of ``size`` objects; ``takes[j]``: the move a click on the j-th from the left
    plays (it takes that one and every one right of it), None where no move does; at most
    DRAWN_OBJECTS of them."""

    size: int
    takes: tuple[str | None, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Heaps(Diagram):
    """Heaps of ``style`` "sticks", "matches" or "tokens"; ``numbered``: label each heap."""

    kind: ClassVar[str] = "heaps"
    style: str
    heaps: tuple[Heap, ...]
    numbered: bool = True


@dataclass(frozen=True)
class Item:
    """An item of a row: the ``text`` on it, its ``state`` ("" in play, "gone", "claimed",
    "blocked"), the ``move`` a click plays and a ``caption`` under it."""

    text: str
    state: str = ""
    move: str | None = None
    caption: str = ""


@dataclass(frozen=True, kw_only=True)
class Row(Diagram):
    """Items in a line, of ``style`` "discs", "blocks" or "squares"."""

    kind: ClassVar[str] = "row"
    style: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Hand:
    """A hand: its ``name`` (a place), fingers up (0: out), and the words under it."""

    name: str
    fingers: int
    caption: str


@dataclass(frozen=True, kw_only=True)
class Hands(Diagram):
    """Two players' hands: ``top`` (the other side's) and ``bottom`` (the mover's), each
    with its ``label``; ``steps``: the moves made by two clicks (a hand, then another)."""

    kind: ClassVar[str] = "hands"
    top: tuple[Hand, ...]
    bottom: tuple[Hand, ...]
    top_label: str = ""
    bottom_label: str = ""
    steps: tuple[Step, ...] = ()


def as_json(diagram: Diagram) -> dict[str, Any]:
    """The dict the page reads: every field, nested records as dicts, tuples as lists."""
    return {"kind": diagram.kind} | _plain(dataclasses.asdict(diagram))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


__all__ = ["DRAWN_OBJECTS", "Box", "Cell", "Count", "Diagram", "Edge", "Grid", "Hand", "Hands", "Heap",
           "Heaps", "HexBoard", "Highlight", "Item", "Label", "Lines", "Piece", "Pit", "Pits", "Recorded",
           "Row", "Step", "Store", "Text", "Words", "as_json"]

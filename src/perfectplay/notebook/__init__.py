"""perfectplay in Jupyter: boards as SVG, solutions and analyses as coloured tables.

    %load_ext perfectplay.notebook        # solutions and analyses draw themselves as tables
    from perfectplay.notebook import board
    board(game, position)                 # the position as the web page draws it
    board(game, position, analyze(game, position))   # each move's place on its value's colour

Positions are a game's own objects (an int, a tuple, a chess board), so a position cannot
carry a ``_repr_svg_`` of its own: :func:`board` pairs it with its game and draws the game's
:meth:`~perfectplay.game.Game.diagram`. A :class:`~perfectplay.search.results.Solution` and a
list of :class:`~perfectplay.search.results.MoveValue` get their HTML from formatters that
``%load_ext perfectplay.notebook`` registers with IPython (:func:`load_ipython_extension`);
:func:`table` wraps either for a notebook that has not loaded the extension.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from perfectplay.game import Game
from perfectplay.notebook.colours import move_colours
from perfectplay.notebook.svg import picture
from perfectplay.notebook.tables import analysis_html, solution_html
from perfectplay.search.results import MoveValue, Solution


@dataclass(frozen=True)
class Board:
    """A position of a game, drawn as SVG in a notebook; ``analysis`` colours the places its
    moves play."""

    game: Game[Any, Any]
    position: Any
    analysis: Sequence[MoveValue] = field(default=())

    def svg(self) -> str:
        return picture(self.game.diagram(self.position), move_colours(self.analysis))

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return self.game.render(self.position)


def board(game: Game[Any, Any], position: Any = None, analysis: Sequence[MoveValue] = ()) -> Board:
    """``position`` of ``game`` (its start when None) as a picture."""
    return Board(game, game.start() if position is None else position, tuple(analysis))


@dataclass(frozen=True)
class Table:
    """A solution or an analysis shown as a table whether or not the extension is loaded."""

    shown: Solution | Sequence[MoveValue]

    def _repr_html_(self) -> str:
        return html(self.shown) or ""


def table(shown: Solution | Sequence[MoveValue]) -> Table:
    return Table(shown)


def html(shown: object) -> str | None:
    """The HTML of a solution or an analysis; None for anything else (IPython then shows its
    plain repr, so a formatter on ``list`` leaves every other list alone)."""
    if isinstance(shown, Solution):
        return solution_html(shown)
    if isinstance(shown, (list, tuple)) and shown and all(isinstance(row, MoveValue) for row in shown):
        return analysis_html(shown)
    return None


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext perfectplay.notebook``: solutions and analyses as HTML tables."""
    formatter = ipython.display_formatter.formatters["text/html"]
    for kind in (Solution, list, tuple):
        formatter.for_type(kind, html)


def unload_ipython_extension(ipython: Any) -> None:
    formatter = ipython.display_formatter.formatters["text/html"]
    for kind in (Solution, list, tuple):
        formatter.pop(kind, None)


__all__ = ["Board", "Table", "board", "html", "load_ipython_extension", "table", "unload_ipython_extension"]

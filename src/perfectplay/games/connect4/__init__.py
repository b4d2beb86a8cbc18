"""Connect Four: everything that only Connect Four uses.

* ``rules``: the game on a bitboard in pure Python (positions, notation, the test sets' score);
* ``kernel`` / ``kernel_table`` / ``kernel_engine``: the numba kernel, its transposition table,
  and the engine that drives it (imported only when a compiled solve runs);
* ``python_negamax`` / ``python_engine``: the kernel's search node for node in pure Python
  (``--algorithm null-window``; docs/connect4_python.md);
* ``answers``: value, every optimal move, the line and every move's value from either engine;
* ``kernel_method`` / ``python_method`` / ``book.method``: the solving methods it registers;
* ``book``: the opening book (build, lookup, the shipped data; docs/book.md).

This module holds only the registry's entry, so that listing games imports no rules.
"""

from __future__ import annotations

from typing import Any

from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text
from perfectplay.game import Game
from perfectplay.games.connect4.own_methods import METHODS


def is_connect_four(game: Game[Any, Any]) -> bool:
    """Whether ``game`` is this Connect Four (on any board), for the methods it registers."""
    from perfectplay.games.connect4.rules import ConnectFour
    return isinstance(game, ConnectFour)


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.connect4.rules import STANDARD_HEIGHT, STANDARD_WIDTH, ConnectFour
    width, height = options.get("width"), options.get("height")
    width = STANDARD_WIDTH if width is None else width
    height = STANDARD_HEIGHT if height is None else height
    return from_text(ConnectFour(width, height), text)


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop: two of Pons' test positions, with their published scores."""
    lines = ["Connect Four (compiled with numba when it is installed):"]
    for moves, expected in (("44455554221", -15), ("5554224333234511764415115", 4)):
        game, start = _load({}, moves)
        result = solve(game, start, engine="auto", pv_limit=0)
        score = game.score_of(start, result.value)  # type: ignore[attr-defined]
        lines.append(f"  {moves:<26} {result.describe():<11} score {score:+d} (Pons' test sets: "
                     f"{expected:+d}); {result.stats.nodes:,} nodes")
    return [*lines, ""]


ENTRY = Entry("connect4", "four in a row on a 7x6 board (other sizes: --width, --height)",
              "columns played from the empty board, 1-based, e.g. 4455; '' is the empty board",
              _load, aliases=("c4", "connect-four", "connectfour"), options=("width", "height"),
              methods=METHODS,
              extensions={"book": "perfectplay.games.connect4.book"},
              commands={"book": "perfectplay.games.connect4.book.command:book_group"},
              title="Connect Four", opening_book=True,
              tour=(TourStop(80, "perfectplay.games.connect4:tour_lines"),), order=90)

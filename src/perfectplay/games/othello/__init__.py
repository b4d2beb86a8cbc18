"""Othello (Reversi) on an n x n board: ``rules`` holds the game (bitboards, passes, notation,
the text board). This module holds only the registry's entry, so that listing games imports
no rules."""

from __future__ import annotations

from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.games.othello.own_methods import METHODS

DEFAULT_SIZE = 8


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.othello.rules import Othello
    size = options.get("size")
    return from_text(Othello(DEFAULT_SIZE if size is None else size), text)


ENTRY = Entry("othello", "score game: Othello on an n x n board (--size 4, 6, 8, 10; default 8); "
              "a player with no move passes, two passes end it; value: the disc margin to come; "
              "4x4: White wins 13-3 (-10), 6x6: White wins 20-16 (Feinstein 1993)",
              "moves from the start, e.g. 'c4 e3 f6' ('pass' when a player has no move), or "
              "rows from the top of B, W and ., then the side to move (and 'passes 1' just "
              "after a pass), e.g. '..../.WB./.BW./.... B' with --size 4", _load, aliases=("reversi",),
              methods=METHODS, options=("size",), order=120)

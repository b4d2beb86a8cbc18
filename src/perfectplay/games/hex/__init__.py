"""Hex on an n x n rhombus: ``rules`` holds the game (bitboards, notation, the text board);
``kernel`` the plain numba search ("does the mover win?") and ``kernel_method`` the method
that runs it (``hex-kernel``); ``connections`` (virtual connections by H-search),
``inferior`` (dead and captured cells) and ``solver`` the search with Hex knowledge, which
``solver_method`` runs with ``book`` (the solved opening maps) as ``hex-solver``, what
``--engine auto`` chooses from 4x4 up when numba imports. This module holds only the
registry's entry, so that listing games imports no rules."""

from __future__ import annotations

from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.games.hex.own_methods import METHODS

DEFAULT_SIZE = 4


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.hex.rules import Hex
    size = options.get("size")
    return from_text(Hex(DEFAULT_SIZE if size is None else size), text)


ENTRY = Entry("hex", "Hex on an n x n rhombus (--size 1-11, default 4): X joins top and bottom "
              "and moves first, O joins left and right; no draws, X wins every board (winning "
              "first moves: 3x3 b2, a3, c1, a2, c2; 4x4 the short diagonal; 5x5 13 cells, c3, e1, a5 "
              "and a band around the centre; 6x6 24 of 36; docs/pns.md)",
              "moves from the empty board, e.g. 'c3 b4', or rows from the top of X, O and ., "
              "e.g. 'X.../.O../..../....'", _load, methods=METHODS, options=("size",), order=110)

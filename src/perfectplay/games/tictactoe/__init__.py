"""Tic-tac-toe: ``rules`` (the game on two 9-bit boards, with its symmetries) and ``compiled``
(its spec for the generic compiled engine, docs/compiled.md). This module holds only the
registry's entry."""

from __future__ import annotations

from perfectplay.entry import Entry, Loaded, Options, from_text


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.tictactoe.rules import TicTacToe
    return from_text(TicTacToe(), text)


ENTRY = Entry("tictactoe", "three in a row on a 3x3 board", "9 cells row by row, e.g. 'X.O/.X./...'",
              _load, aliases=("ttt", "tic-tac-toe", "noughts-and-crosses"), order=60)

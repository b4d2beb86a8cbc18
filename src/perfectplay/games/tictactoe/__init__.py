"""Tic-tac-toe: ``rules`` (the game on two 9-bit boards, with its symmetries) and ``compiled``
(its spec for the generic compiled engine, docs/compiled.md). This module holds only the
registry's entry."""

from __future__ import annotations

from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text, tour_solver


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.tictactoe.rules import TicTacToe
    return from_text(TicTacToe(), text)


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop: the empty board by three searches, their nodes and times."""
    solved = tour_solver(solve, _load)
    lines = ["tic-tac-toe from the empty board:"]
    for algorithm in ("minimax", "alphabeta", "tt"):
        result = solved(None, algorithm=algorithm)
        lines.append(f"  {algorithm:<9} {result.describe():<6} {result.stats.nodes:>8,} nodes "
                     f"{result.stats.elapsed_s * 1000:8.1f} ms")
    return [*lines, ""]


ENTRY = Entry("tictactoe", "three in a row on a 3x3 board", "9 cells row by row, e.g. 'X.O/.X./...'",
              _load, aliases=("ttt", "tic-tac-toe", "noughts-and-crosses"),
              tour=(TourStop(20, "perfectplay.games.tictactoe:tour_lines"),
                    TourStop(92, suggestion="analyze tictactoe")), order=60)

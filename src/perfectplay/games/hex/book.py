"""Hex's opening book: the solved maps of first moves, so that the start of a board and the
positions one stone in are answered at once (``solver_method`` reads it; docs/pns.md tells
how each map was proved: ``benchmarks/hex_map.py N --engine solver``).

A map lists the rows from the top; ``+`` where X's first move there wins, ``-`` where it
loses, ``?`` where no proof has finished yet. Each map was proved one opening per cell up
to the half-turn (the twin of a cell has its value) and checked against the published
counts: 24 winning openings of 36 on 6x6, 27 of 49 on 7x7 (the regression tests of Benzene,
Arneson, Hayward and Henderson's solver).

Light: no numba, no rules imported here (a game is any object with the rules' ``size``,
``stride``, ``order`` and ``moves``)."""

from __future__ import annotations

from typing import Any

MAPS: dict[int, tuple[str, ...]] = {
    1: ("+",),
    2: ("-+",
        "+-"),
    3: ("--+",
        "+++",
        "+--"),
    4: ("---+",
        "--+-",
        "-+--",
        "+---"),
    5: ("----+",
        "-++++",
        "-+++-",
        "++++-",
        "+----"),
    6: ("-----+",
        "-+++++",
        "++++++",
        "++++++",
        "+++++-",
        "+-----"),
}


def first_move_wins(size: int, column: int, row: int) -> bool | None:
    """Whether X's first move at (column, row) wins on the ``size`` board; None when the
    book does not hold it."""
    rows = MAPS.get(size)
    if rows is None:
        return None
    mark = rows[row][column]
    return None if mark == "?" else mark == "+"


def complete(size: int) -> bool:
    """Whether the book holds every first move of this board."""
    return size in MAPS and not any("?" in row for row in MAPS[size])


def book_answer(game: Any, position: Any) -> tuple[bool, int] | None:
    """(whether the mover wins, a move that does, or any move in a loss) for a position the
    book settles: the start when a winning first move is known (X wins; Nash), and one X
    stone in when the book says O loses. None for any other."""
    x, o = position
    stones = x.bit_count() + o.bit_count()
    if stones == 0:
        for cell in game.order:
            if first_move_wins(game.size, cell % game.stride, cell // game.stride):
                return True, cell
        return None
    if stones == 1 and x and game.size > 1:  # on 1x1 the first stone ends the game
        cell = x.bit_length() - 1
        if first_move_wins(game.size, cell % game.stride, cell // game.stride):
            return False, game.moves(position)[0]
    return None


def book_value(game: Any, position: Any) -> bool | None:
    """Whether the mover wins, for a position the book settles (the start, once a winning
    first move is known; one X stone in, where the book holds its cell); else None."""
    x, o = position
    if not x | o:
        return book_answer(game, position) is not None or None
    if o or x & (x - 1):
        return None
    cell = x.bit_length() - 1
    wins = first_move_wins(game.size, cell % game.stride, cell // game.stride)
    return None if wins is None else not wins


def settles_every_move(game: Any, position: Any) -> bool:
    """Whether the book values every move of ``position``: the start of a board whose whole
    map it holds, or a position the mover loses."""
    x, o = position
    if not x | o:
        return complete(game.size)
    found = book_answer(game, position)
    return found is not None and not found[0]

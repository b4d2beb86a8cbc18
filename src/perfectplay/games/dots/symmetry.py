"""The symmetries of a Dots and Boxes board as permutations of its lines: the 8 of the square
(rotations and reflections) or the 4 of a rectangle (the two reflections and the half turn).
A position's value does not change under them. Pure Python: the book and the kernel read it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Dot = tuple[int, int]


def _dot_maps(rows: int, columns: int) -> list[Callable[[int, int], Dot]]:
    maps: list[Callable[[int, int], Dot]] = [
        lambda r, c: (r, c), lambda r, c: (r, columns - c), lambda r, c: (rows - r, c),
        lambda r, c: (rows - r, columns - c)]
    if rows == columns:
        maps += [lambda r, c: (c, r), lambda r, c: (c, rows - r), lambda r, c: (columns - c, r),
                 lambda r, c: (columns - c, rows - r)]
    return maps


_MAPS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def symmetries(game: Any) -> tuple[tuple[int, ...], ...]:
    """Each symmetry of ``game``'s board (a games/dots/rules.DotsAndBoxes) as the line each
    line goes to (the identity first); worked out once per board size."""
    shape = (game.width, game.height)
    if shape not in _MAPS:
        by_ends = {frozenset(game._ends(line)): line for line in range(game.edges)}
        _MAPS[shape] = tuple(tuple(by_ends[frozenset(move(*dot) for dot in game._ends(line))]
                                   for line in range(game.edges))
                             for move in _dot_maps(game.height, game.width))
    return _MAPS[shape]


def image(drawn: int, lines: tuple[int, ...]) -> int:
    """The set of lines ``drawn`` under one symmetry."""
    return sum(1 << lines[line] for line in range(len(lines)) if drawn >> line & 1)


def distinct_lines(game: Any, drawn: int) -> list[list[int]]:
    """The undrawn lines of ``drawn`` grouped by the symmetries that keep ``drawn``: lines of
    one group lead to positions of the same value. Each group is sorted; groups come in the
    order of their first lines."""
    keeping = [lines for lines in symmetries(game) if image(drawn, lines) == drawn]
    seen: set[int] = set()
    groups = []
    for line in range(game.edges):
        if drawn >> line & 1 or line in seen:
            continue
        group = sorted({lines[line] for lines in keeping})
        seen.update(group)
        groups.append(group)
    return groups

"""Tic-tac-toe's board as tables, shared by the rules and by their compiled spec: the lines,
the move order, which stone sets hold a line, and the board's eight symmetries."""

from __future__ import annotations

LINES = (0o007, 0o070, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)
FULL = 0o777
# Centre, corners, edges: the squares that lie on most lines first.
ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)


def _has_line_table() -> tuple[bool, ...]:
    # Built from the 8 lines' supersets rather than testing 512 x 8 pairs: module import
    # time is start-up time for every tic-tac-toe command.
    table = [False] * 512
    for stones in range(512):
        if not table[stones] and stones in LINES:
            for more in range(stones, 512):
                if more & stones == stones:
                    table[more] = True
    return tuple(table)


HAS_LINE = _has_line_table()


def _symmetries() -> list[tuple[int, ...]]:
    """The eight maps square -> square of the board's rotations and reflections."""
    rotate = (6, 3, 0, 7, 4, 1, 8, 5, 2)
    mirror = (2, 1, 0, 5, 4, 3, 8, 7, 6)
    maps = []
    current = tuple(range(9))
    for _ in range(4):
        maps.append(current)
        maps.append(tuple(mirror[square] for square in current))
        current = tuple(rotate[square] for square in current)
    return maps


def _permute_table(mapping: tuple[int, ...]) -> tuple[int, ...]:
    # The images of squares 0-4 and of squares 5-8, then every pair of them OR-ed: 48 sums
    # and one flat loop instead of 512 x 9 bit tests (module import is start-up time).
    def image(stones: int, first: int) -> int:
        return sum(1 << mapping[first + s] for s in range(9 - first) if stones >> s & 1)
    low = [image(stones, 0) for stones in range(32)]
    return tuple(lo | high for high in [image(stones, 5) for stones in range(16)] for lo in low)


SYMMETRY_TABLES = tuple(_permute_table(mapping) for mapping in _symmetries())

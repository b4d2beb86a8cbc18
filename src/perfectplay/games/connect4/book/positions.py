"""Connect Four positions as the book sees them: one integer key per position, mirror images
folded, and the positions of a given number of stones listed in a fixed order.

A key is the Connect Four game's own table key, ``mover + occupied`` (perfectplay.games.
connect4): adding the side to move's stones to the occupied squares sets one bit above each
column's stack, so the key alone gives back both bitboards (:func:`decode`). A position and
its mirror image (columns reversed) have the same score, so the book stores one of the two:
the smaller key (:func:`canonical`), as Pons' opening book does ("Solving Connect 4", part 12).

Everything here is plain Python on integers, for one position at a time; whole levels are
listed with numpy (:mod:`.tiers`).
"""

from __future__ import annotations

from collections.abc import Iterator

from perfectplay.games.connect4.rules import ConnectFour, Position


def mirror_key(game: ConnectFour, key: int) -> int:
    """The key of the mirror image: column c's bits move to column width - 1 - c."""
    step = game.height + 1
    column = (1 << step) - 1
    mirrored = 0
    for c in range(game.width):
        mirrored |= ((key >> (c * step)) & column) << ((game.width - 1 - c) * step)
    return mirrored


def canonical(game: ConnectFour, key: int) -> int:
    """The key the book files a position under: the smaller of it and its mirror image's."""
    return min(key, mirror_key(game, key))


def decode(game: ConnectFour, key: int) -> tuple[int, int]:
    """``(mover, occupied)`` of the position with table key ``key``.

    In each column the key holds mover_bits + (2**t - 1) for a stack of t stones, a number in
    [2**t - 1, 2**(t+1) - 2]; so t is the bit length of key + 1, less one."""
    step = game.height + 1
    column = (1 << step) - 1
    mover = occupied = 0
    for c in range(game.width):
        bits = (key >> (c * step)) & column
        filled = (1 << ((bits + 1).bit_length() - 1)) - 1
        occupied |= filled << (c * step)
        mover |= (bits - filled) << (c * step)
    return mover, occupied


def position_of(game: ConnectFour, key: int) -> Position:
    """A position with table key ``key`` (its move history is not known: left empty)."""
    mover, occupied = decode(game, key)
    return (mover, occupied, "")


def live_children(game: ConnectFour, position: Position) -> Iterator[tuple[int, Position]]:
    """``(column, child)`` for every move of a live position that does not end the game."""
    for column in game.moves(position):
        child = game.play(position, column)
        if game.outcome(child) is None:
            yield column, child


def levels(game: ConnectFour, stones: int) -> list[list[int]]:
    """For n = 0..stones, the sorted canonical keys of the live positions with n stones
    reachable from the empty board (a position where someone has won is not live)."""
    from perfectplay.games.connect4.book import tiers

    return [[int(key) for key in level.tolist()] for level in tiers.levels(game, stones)]


def level(game: ConnectFour, stones: int) -> list[int]:
    """The sorted canonical keys of the live positions with exactly ``stones`` stones.

    Sorted keys keep positions that share their left-hand columns together, so solving them
    in this order lets one position's table entries serve the next (build.py)."""
    return levels(game, stones)[stones]

"""Inferior cells in Hex: dead cells and captured pairs, found and filled in numba.

**Dead**: an empty cell whose colour changes no final outcome. A cell is dead when it lies in
no minimal winning set of one player (a set of empty cells whose filling joins the player's
edges, and none of whose proper subsets does): then whether that player wins a full board
does not depend on the cell, and since a full board has exactly one winner, neither does the
other player's win (Björnsson, Hayward, Johanson and van Rijswijck, "Dead cell analysis in
Hex and the Shannon game", 2007). The test here is local and sufficient: a path through the
cell enters and leaves by two of its neighbours the player may own (empty or the player's
stones, or the player's edge beside it); when every two of those are already joined (next to
each other, through the player's chains, or both beside the same edge of the player's), the
path never needs the cell.

**Captured**: two empty neighbours a and b are captured by a player when a is dead once the
player holds b, and b is dead once the player holds a: the opponent's move in one is answered
in the other and leaves a dead stone. Filling both for that player keeps the value
(Henderson and Hayward, "Captured-reversible moves and star decomposition domination in Hex",
2013, give the theory; this is the simplest of their patterns, found by the dead test).

Filling a dead cell (with any colour) or a captured pair (for its owner) keeps the position's
value, and keeps every move outside them winning or losing as it was: the tests only grow
true as stones are added. So a search fills them and never plays there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from perfectplay.games.hex.connections import bit_index, chain_of, popcount, spread


@njit(cache=True)
def _dead_for(cell: int, stones: int, other: int, source: int, target: int,
              neighbours: np.ndarray, scratch: np.ndarray) -> bool:
    """Whether ``cell`` is in no minimal winning set of the player holding ``stones`` (edges
    ``source`` and ``target``): every two of its neighbours the player may own are joined."""
    bit = 1 << cell
    at_source = source & bit != 0
    at_target = target & bit != 0
    if at_source and at_target:
        return False
    count = 0
    rest = neighbours[cell] & ~other
    while rest:
        low = rest & -rest
        rest ^= low
        scratch[count] = chain_of(stones | low, low, neighbours)
        count += 1
    for first in range(count):
        joined = scratch[first]
        beside_source = joined & source != 0
        beside_target = joined & target != 0
        if (at_source and not beside_source) or (at_target and not beside_target):
            return False
        reach = joined | spread(joined, neighbours)
        for second in range(first + 1, count):
            other_joined = scratch[second]
            if other_joined & reach or (beside_source and other_joined & source) or \
                    (beside_target and other_joined & target):
                continue
            return False
    return True


@njit(cache=True)
def is_dead(cell: int, x: int, o: int, edges: np.ndarray, neighbours: np.ndarray,
            scratch: np.ndarray) -> bool:
    """``edges``: top, bottom, left, right (X's two rows, then O's two columns)."""
    return _dead_for(cell, x, o, edges[0], edges[1], neighbours, scratch) or \
        _dead_for(cell, o, x, edges[2], edges[3], neighbours, scratch)


@njit(cache=True)
def _captured(first: int, second: int, x: int, o: int, for_x: bool, edges: np.ndarray,
              neighbours: np.ndarray, scratch: np.ndarray) -> bool:
    if for_x:
        return is_dead(first, x | 1 << second, o, edges, neighbours, scratch) and \
            is_dead(second, x | 1 << first, o, edges, neighbours, scratch)
    return is_dead(first, x, o | 1 << second, edges, neighbours, scratch) and \
        is_dead(second, x, o | 1 << first, edges, neighbours, scratch)


@njit(cache=True)
def fill_inferior(x: int, o: int, dead_to_x: bool, board: int, edges: np.ndarray,
                  neighbours: np.ndarray, scratch: np.ndarray) -> tuple[int, int]:
    """(x, o) with every dead cell found filled (for X when ``dead_to_x``, else for O) and
    every captured pair found filled for its owner, until no more are found."""
    changed = True
    while changed:
        changed = False
        empty = board & ~(x | o)
        rest = empty
        while rest:
            low = rest & -rest
            rest ^= low
            if (x | o) & low:
                continue
            cell = bit_index(low)
            if is_dead(cell, x, o, edges, neighbours, scratch):
                if dead_to_x:
                    x |= low
                else:
                    o |= low
                changed = True
                continue
            # Captured pairs: a with a later neighbour b, when both have few open neighbours
            # (a cell with four or more open neighbours besides its partner is never dead).
            partners = neighbours[cell] & rest & ~(x | o)
            while partners:
                mate = partners & -partners
                partners ^= mate
                open_cells = board & ~(x | o)
                if popcount(neighbours[cell] & open_cells & ~mate) > 3 or \
                        popcount(spread(mate, neighbours) & open_cells & ~low) > 3:
                    continue
                other = bit_index(mate)
                if _captured(cell, other, x, o, True, edges, neighbours, scratch):
                    x |= low | mate
                    changed = True
                    break
                if _captured(cell, other, x, o, False, edges, neighbours, scratch):
                    o |= low | mate
                    changed = True
                    break
    return x, o

"""Virtual connections in Hex by H-search (Anshelevich, "A hierarchical approach to computer
Hex", Artificial Intelligence 134, 2002), in numba, over the rules' bit sets.

A **full connection** between two points (a group of one player's stones, an edge with the
stones chained to it, or an empty cell) is a set of empty cells, its carrier, inside which
the player joins the two points whatever the opponent does, the opponent moving first. A
**semi-connection** needs one more move of the player first, at its key. Two rules build them:

* AND: full a-x and full x-b with disjoint carriers (neither holding the other end) give a
  full a-b when x is a group of the player's stones, and a semi a-b with key x when x is an
  empty cell (the carrier gains x);
* OR: semis a-b whose carriers have no cell in common give a full a-b (the player answers
  the opponent's move in the carrier that the move left intact).

This is a simplified, sound H-search: one end of every derived connection is a group (an edge
or a chain of stones), and between two empty cells only the two base connections are known
(adjacent cells, carrier empty; a bridge, carrier the two shared neighbours). That is enough
for the edge templates of rows 2 and 3 (the ziggurat comes from OR-ing the semi through the
cell below the stone with the semi through a bridge beside it), and for their chains. Each
pair keeps at most a few carriers, the smallest; fewer carriers find fewer connections, never
a false one.

What a search takes from it (``edges_connection``): a full connection between the player's
two edges wins even with the opponent to move; a semi wins with the player to move (at its
key); and for the opponent of that player, every move outside the carrier of a semi loses
(the player answers at the key), so the moves worth searching are the intersection of the
semis' carriers: Hayward's must-play region.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX_GROUPS = 24
GROUP_BASE = 64  # point indices: cells 0..63 are their bit; group g is GROUP_BASE + g
POINTS = GROUP_BASE + MAX_GROUPS
FULL_CARRIERS = 4
SEMI_CARRIERS = 8
MAX_ROUNDS = 16
# edges_connection's answers
NONE, SEMI, FULL = 0, 1, 2


class Workspace:
    """The arrays one H-search fills, allocated once per searcher and reused at every node."""

    def __init__(self) -> None:
        self.full = np.zeros((MAX_GROUPS, POINTS, FULL_CARRIERS), dtype=np.int64)
        self.full_count = np.zeros((MAX_GROUPS, POINTS), dtype=np.int64)
        self.semi = np.zeros((MAX_GROUPS, POINTS, SEMI_CARRIERS), dtype=np.int64)
        self.semi_key = np.zeros((MAX_GROUPS, POINTS, SEMI_CARRIERS), dtype=np.int64)
        self.semi_count = np.zeros((MAX_GROUPS, POINTS), dtype=np.int64)
        self.fresh = np.zeros((2, MAX_GROUPS, POINTS), dtype=np.int8)
        self.semi_changed = np.zeros((MAX_GROUPS, POINTS), dtype=np.int8)
        self.groups = np.zeros(MAX_GROUPS, dtype=np.int64)


def geometry_tables(size: int) -> tuple[np.ndarray, np.ndarray]:
    """(each cell's neighbours as a bit set; each cell's bridges as rows of (partner cell,
    the two shared cells as a bit set), -1 where it has fewer than six)."""
    stride = size + 1
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    neighbours = np.zeros(64, dtype=np.int64)
    bridges = np.full((64, 6, 2), -1, dtype=np.int64)
    on_board = [(c, r) for r in range(size) for c in range(size)]
    for c, r in on_board:
        for dc, dr in steps:
            if 0 <= c + dc < size and 0 <= r + dr < size:
                neighbours[r * stride + c] |= 1 << (r + dr) * stride + c + dc
    for c, r in on_board:
        cell, found = r * stride + c, 0
        for c2, r2 in on_board:
            partner = r2 * stride + c2
            shared = int(neighbours[cell] & neighbours[partner])
            if partner != cell and not neighbours[cell] >> partner & 1 and shared.bit_count() == 2:
                bridges[cell, found] = (partner, shared)
                found += 1
    return neighbours, bridges


@njit(cache=True)
def popcount(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True)
def bit_index(bit: int) -> int:
    index = 0
    while bit > 1:
        bit >>= 1
        index += 1
    return index


@njit(cache=True)
def spread(cells: int, neighbours: np.ndarray) -> int:
    """Every cell next to one of ``cells``."""
    found = 0
    rest = cells
    while rest:
        low = rest & -rest
        rest ^= low
        found |= neighbours[bit_index(low)]
    return found


@njit(cache=True)
def chain_of(stones: int, seed: int, neighbours: np.ndarray) -> int:
    """The stones joined to ``seed`` (a bit set) by chains of ``stones``."""
    reached = stones & seed
    frontier = reached
    while frontier:
        grown = spread(frontier, neighbours) & stones & ~reached
        reached |= grown
        frontier = grown
    return reached


@njit(cache=True)
def _add(carriers: np.ndarray, keys: np.ndarray, counts: np.ndarray, group: int, point: int,
         carrier: int, key: int, capacity: int) -> bool:
    """Keep ``carrier`` for (group, point) unless a kept one is a subset of it; drop the kept
    supersets of it; when full, it replaces the largest if smaller. True when kept. Full
    connections have no keys: they pass their carriers as ``keys`` and key -1, never written."""
    with_keys = key >= 0
    count = counts[group, point]
    for index in range(count):
        if carriers[group, point, index] & carrier == carriers[group, point, index]:
            return False
    kept = 0
    for index in range(count):
        old = carriers[group, point, index]
        if old & carrier != carrier:
            carriers[group, point, kept] = old
            if with_keys:
                keys[group, point, kept] = keys[group, point, index]
            kept += 1
    if kept < capacity:
        carriers[group, point, kept] = carrier
        if with_keys:
            keys[group, point, kept] = key
        counts[group, point] = kept + 1
        return True
    counts[group, point] = kept
    largest, size = -1, popcount(carrier)
    for index in range(kept):
        grown = popcount(carriers[group, point, index])
        if grown > size:
            largest, size = index, grown
    if largest < 0:
        return False
    carriers[group, point, largest] = carrier
    if with_keys:
        keys[group, point, largest] = key
    return True


@njit(cache=True)
def _set_up(stones: int, empty: int, source: int, target: int, neighbours: np.ndarray,
            full: np.ndarray, full_count: np.ndarray, semi_count: np.ndarray, fresh: np.ndarray,
            groups: np.ndarray) -> int:
    """The player's groups (0: the source edge and its chain, 1: the target edge and its
    chain, then the other chains) and their base connections: each empty cell next to a
    group, carrier empty. Returns the number of groups."""
    first = chain_of(stones, source, neighbours)
    second = chain_of(stones, target, neighbours)
    groups[0], groups[1] = first, second
    count = 2
    rest = stones & ~first & ~second
    while rest and count < MAX_GROUPS:
        chain = chain_of(stones, rest & -rest, neighbours)
        groups[count] = chain
        rest &= ~chain
        count += 1
    for group in range(count):
        for point in range(POINTS):
            full_count[group, point] = 0
            semi_count[group, point] = 0
            fresh[0, group, point] = 0
            fresh[1, group, point] = 0
    for group in range(count):
        touching = spread(groups[group], neighbours) & empty
        if group == 0:
            touching |= source & empty
        elif group == 1:
            touching |= target & empty
        rest = touching
        while rest:
            low = rest & -rest
            rest ^= low
            point = bit_index(low)
            full[group, point, 0] = 0
            full_count[group, point] = 1
            fresh[0, group, point] = 1
    return count


@njit(cache=True)
def _and_through_cells(count: int, empty: int, now: int, neighbours: np.ndarray,
                       bridges: np.ndarray, full: np.ndarray, full_count: np.ndarray,
                       semi: np.ndarray, semi_key: np.ndarray, semi_count: np.ndarray,
                       fresh: np.ndarray, semi_changed: np.ndarray) -> None:
    """The AND rule through an empty cell x, for each full group-x found last round: on to a
    cell next to x or bridged from it, or to another group's full connection to x."""
    for group in range(count):
        for x in range(GROUP_BASE):
            if not fresh[now, group, x]:
                continue
            middle = 1 << x
            for index in range(full_count[group, x]):
                first = full[group, x, index]
                rest = neighbours[x] & empty & ~first
                while rest:
                    low = rest & -rest
                    rest ^= low
                    cell = bit_index(low)
                    if _add(semi, semi_key, semi_count, group, cell, first | middle, x,
                            SEMI_CARRIERS):
                        semi_changed[group, cell] = 1
                for way in range(6):
                    cell = bridges[x, way, 0]
                    if cell < 0:
                        break
                    shared = bridges[x, way, 1]
                    if shared & empty != shared or not empty >> cell & 1 or first & shared \
                            or first >> cell & 1:
                        continue
                    if _add(semi, semi_key, semi_count, group, cell, first | shared | middle, x,
                            SEMI_CARRIERS):
                        semi_changed[group, cell] = 1
                for other in range(count):
                    if other == group:
                        continue
                    for second_index in range(full_count[other, x]):
                        second = full[other, x, second_index]
                        if first & second:
                            continue
                        carrier = first | second | middle
                        if _add(semi, semi_key, semi_count, group, GROUP_BASE + other, carrier,
                                x, SEMI_CARRIERS):
                            semi_changed[group, GROUP_BASE + other] = 1
                        if _add(semi, semi_key, semi_count, other, GROUP_BASE + group, carrier,
                                x, SEMI_CARRIERS):
                            semi_changed[other, GROUP_BASE + group] = 1


@njit(cache=True)
def _and_through_groups(count: int, now: int, full: np.ndarray, full_count: np.ndarray,
                        fresh: np.ndarray) -> bool:
    """The AND rule through a group h: full g-h and full h-t give full g-t. Found ones are
    fresh next round; True when any was found."""
    found = False
    later = 1 - now
    for group in range(count):
        for middle in range(count):
            link = GROUP_BASE + middle
            if middle == group or not full_count[group, link]:
                continue
            for point in range(POINTS):
                if point == GROUP_BASE + group or point == link or not full_count[middle, point]:
                    continue
                if not (fresh[now, group, link] or fresh[now, middle, point]):
                    continue
                for index in range(full_count[group, link]):
                    first = full[group, link, index]
                    if point < GROUP_BASE and first >> point & 1:
                        continue
                    for second_index in range(full_count[middle, point]):
                        second = full[middle, point, second_index]
                        if first & second:
                            continue
                        if _add_full(full, full_count, fresh, later, group, point, first | second):
                            found = True
    return found


@njit(cache=True)
def _add_full(full: np.ndarray, full_count: np.ndarray, fresh: np.ndarray, later: int,
              group: int, point: int, carrier: int) -> bool:
    """Keep a full connection (both ways between two groups), fresh next round."""
    if not _add(full, full, full_count, group, point, carrier, -1, FULL_CARRIERS):
        return False
    fresh[later, group, point] = 1
    if point >= GROUP_BASE:
        other = point - GROUP_BASE
        if _add(full, full, full_count, other, GROUP_BASE + group, carrier, -1,
                FULL_CARRIERS):
            fresh[later, other, GROUP_BASE + group] = 1
    return True


@njit(cache=True)
def _or_rule(count: int, later: int, full: np.ndarray, full_count: np.ndarray,
             semi: np.ndarray, semi_count: np.ndarray, fresh: np.ndarray,
             semi_changed: np.ndarray) -> bool:
    """Semis with no common cell make a full connection: every pair, then for each semi a
    greedy cover (add the semis that shrink the common cells until none is left)."""
    found = False
    for group in range(count):
        for point in range(POINTS):
            if not semi_changed[group, point]:
                continue
            semi_changed[group, point] = 0
            kept = semi_count[group, point]
            for first in range(kept):
                common = semi[group, point, first]
                union = common
                for second in range(kept):
                    if second == first:
                        continue
                    carrier = semi[group, point, second]
                    pair = semi[group, point, first] | carrier
                    if second > first and semi[group, point, first] & carrier == 0 and \
                            _add_full(full, full_count, fresh, later, group, point, pair):
                        found = True
                    if common & carrier != common:
                        common &= carrier
                        union |= carrier
                        if common == 0:
                            break
                if common == 0 and _add_full(full, full_count, fresh, later, group, point, union):
                    found = True
    return found


@njit(cache=True)
def edges_connection(stones: int, other: int, board: int, source: int, target: int,
                     neighbours: np.ndarray, bridges: np.ndarray, full: np.ndarray,
                     full_count: np.ndarray, semi: np.ndarray, semi_key: np.ndarray,
                     semi_count: np.ndarray, fresh: np.ndarray, semi_changed: np.ndarray,
                     groups: np.ndarray) -> tuple[int, int, int, int, int]:
    """How ``stones`` connect their edges ``source`` and ``target`` (rows of cells) when the
    cells outside ``stones | other`` are empty: (kind, must, key, carrier, cover) with

    * kind FULL: ``carrier`` a full connection's carrier (must and cover the same);
    * kind SEMI: ``key`` and ``carrier`` one semi's, ``must`` the cells common to every semi
      found, ``cover`` the cells of any;
    * kind NONE: must every empty cell, key -1, carrier and cover empty.

    The position must not hold a finished chain."""
    empty = board & ~(stones | other)
    count = _set_up(stones, empty, source, target, neighbours, full, full_count, semi_count,
                    fresh, groups)
    edge_to_edge = GROUP_BASE + 1
    now = 0
    for _ in range(MAX_ROUNDS):
        later = 1 - now
        _and_through_cells(count, empty, now, neighbours, bridges, full, full_count, semi,
                           semi_key, semi_count, fresh, semi_changed)
        found = _and_through_groups(count, now, full, full_count, fresh)
        if _or_rule(count, later, full, full_count, semi, semi_count, fresh, semi_changed):
            found = True
        for group in range(count):
            for point in range(POINTS):
                fresh[now, group, point] = 0
        now = later
        if full_count[0, edge_to_edge] or not found:
            break
    if full_count[0, edge_to_edge]:
        carrier = full[0, edge_to_edge, 0]
        return FULL, carrier, -1, carrier, carrier
    if semi_count[0, edge_to_edge]:
        common, cover = empty, 0
        for index in range(semi_count[0, edge_to_edge]):
            common &= semi[0, edge_to_edge, index]
            cover |= semi[0, edge_to_edge, index]
        return SEMI, common, semi_key[0, edge_to_edge, 0], semi[0, edge_to_edge, 0], cover
    return NONE, empty, -1, 0, 0

"""Hex's connection solver: "does the side to move win?", in numba, with Hex knowledge.

The same AND/OR search as ``kernel`` (a yes/no alpha-beta with a table of proofs, killers and
history), but each node first applies what is known about Hex (each step keeps the value, so
the search stays exact; ``tests/games/hex/test_hex_solver.py`` checks it against plain search):

1. **Inferior cells** (``inferior``): dead cells and captured pairs are filled, repeatedly.
   Later steps work on the filled position, which has the same value.
2. **The table**, keyed by the filled position, the colour to move, and folded by the
   half-turn: a position and its 180-degree rotation have the same value (each player's two
   edges swap), so one entry serves both.
3. **The mover's connection** (``connections``): a full or semi virtual connection between
   the mover's edges wins at once.
4. **The opponent's connection**: a full one loses at once; semis confine the mover to the
   cells common to their carriers (the must-play region); none left loses.
5. **The moves** in the must-play region, killers first, then by history. Each node also
   returns its proof's cells (``proved``): a move the opponent refutes leaves only the
   moves inside the refutation's proof to try, since any other leaves that proof standing
   (Henderson's proof-set pruning in Arneson, Hayward and Henderson's solver). The table
   keeps each result's proof with it.

The root's winning move comes from the search when it searched one (a child, a semi's key, or
any cell when the mover holds a full connection); a win found by filling alone (the fill
completes the mover's chain) leaves it unknown, and ``ConnectionSearcher`` then finds one
among the children. Limits, the stop flag and the table work as in ``kernel``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numba import njit

from perfectplay.games.hex import connections as vc
from perfectplay.games.hex.inferior import fill_inferior
from perfectplay.games.hex.kernel import (
    ABORTED,
    CUTOFFS,
    G_BOARD,
    G_BOTTOM,
    G_LEFT,
    G_N,
    G_RIGHT,
    G_STRIDE,
    G_TOP,
    HITS,
    MAX_PLY,
    NO_CELL,
    NODE_LIMIT,
    NODES,
    ROOT_MOVE,
    STOP,
    Searcher,
    _first_cell,
    _ordered,
    _slot,
)
from perfectplay.games.hex.kernel import _store as kernel_store
from perfectplay.games.hex.rules import Hex

BLUE_TO_MOVE = 1 << 58  # in the table's key: O to move (the filled counts no longer tell)
_REVERSED_BYTES = np.array([int(f"{byte:08b}"[::-1], 2) for byte in range(256)], dtype=np.int64)


@njit(cache=True)
def rotated(cells: int, last: int) -> int:
    """``cells`` turned by half a turn: cell i goes to ``last - i`` (``last`` the bottom-right
    cell: the board's numbering runs backwards under the half-turn)."""
    turned = 0
    for byte in range(8):
        turned |= _REVERSED_BYTES[cells >> 8 * byte & 255] << 8 * (7 - byte)
    shift = 63 - last
    return turned >> shift & ((1 << last + 1) - 1)


@njit(cache=True)
def _joined(stones: int, source: int, target: int, neighbours: np.ndarray) -> bool:
    return vc.chain_of(stones, source, neighbours) & target != 0


@njit(cache=True)
def _store(key_mover: int, key_other: int, won: bool, cell: int, work: int, proof: int,
           keys_mover: np.ndarray, keys_other: np.ndarray, data: np.ndarray,
           proofs: np.ndarray) -> None:
    """``kernel._store``'s entry, with the proof's cells beside it."""
    proofs[kernel_store(key_mover, key_other, won, cell, work, keys_mover, keys_other, data)] = proof


@njit(cache=True)
def _probe(key_mover: int, key_other: int, keys_mover: np.ndarray, keys_other: np.ndarray,
           data: np.ndarray, proofs: np.ndarray) -> tuple[int, int]:
    """(the slot's data, its proof) for this position, or (-1, 0)."""
    slot = _slot(key_mover, key_other, len(data) // 2)
    for way in range(2):
        if keys_mover[slot + way] == key_mover + 1 and keys_other[slot + way] == key_other:
            return data[slot + way], proofs[slot + way]
    return -1, 0


@njit(cache=True, nogil=True)
def wins(mover: int, other: int, mover_is_x: bool, ply: int, geometry: np.ndarray,
         order: np.ndarray, neighbours: np.ndarray, bridges: np.ndarray, edges: np.ndarray,
         keys_mover: np.ndarray, keys_other: np.ndarray, data: np.ndarray, proofs: np.ndarray,
         history: np.ndarray, killers: np.ndarray, moves: np.ndarray, scores: np.ndarray,
         proved: np.ndarray, counters: np.ndarray, full: np.ndarray, full_count: np.ndarray,
         semi: np.ndarray, semi_key: np.ndarray, semi_count: np.ndarray, fresh: np.ndarray,
         semi_changed: np.ndarray, groups: np.ndarray, scratch: np.ndarray) -> bool:
    """Whether the side to move (stones ``mover``) wins an undecided position. At ply 0 the
    winning move (in a loss: a move), or NO_CELL when unknown, is left in counters[ROOT_MOVE].

    ``proved[ply]`` gets the proof's cells: the winner still wins with loser's stones added
    anywhere outside them (the cells filled here, the carriers of the connections used, the
    moves searched and their proofs). A refuted move's proof cuts the moves left: a move
    outside it leaves the opponent's win standing (Henderson, Arneson and Hayward's solver
    prunes the same way)."""
    counters[NODES] += 1
    if ply > counters[MAX_PLY]:
        counters[MAX_PLY] = ply
    if counters[NODES] > counters[NODE_LIMIT] or counters[STOP] != 0:
        counters[ABORTED] = 1
        return False
    if ply == 0:
        counters[ROOT_MOVE] = NO_CELL
    n, stride, board = geometry[G_N], geometry[G_STRIDE], geometry[G_BOARD]
    was_empty = board & ~(mover | other)
    if mover_is_x:
        source, target = geometry[G_TOP], geometry[G_BOTTOM]
        other_source, other_target = geometry[G_LEFT], geometry[G_RIGHT]
        mover, other = fill_inferior(mover, other, False, board, edges, neighbours, scratch)
    else:
        source, target = geometry[G_LEFT], geometry[G_RIGHT]
        other_source, other_target = geometry[G_TOP], geometry[G_BOTTOM]
        other, mover = fill_inferior(other, mover, True, board, edges, neighbours, scratch)
    empty = board & ~(mover | other)
    filled = was_empty & ~empty
    proved[ply] = filled
    if _joined(other, other_source, other_target, neighbours):
        return False
    if _joined(mover, source, target, neighbours):
        return True
    last = (n - 1) * stride + n - 1
    turned_mover, turned_other = rotated(mover, last), rotated(other, last)
    turned = turned_mover < mover or (turned_mover == mover and turned_other < other)
    key_mover = (turned_mover if turned else mover) | (0 if mover_is_x else BLUE_TO_MOVE)
    key_other = turned_other if turned else other
    found, proof = _probe(key_mover, key_other, keys_mover, keys_other, data, proofs)
    if found >= 0:
        counters[HITS] += 1
        proved[ply] = filled | (rotated(proof, last) if turned else proof)
        if ply == 0:
            cell = found >> 1 & 63
            counters[ROOT_MOVE] = last - cell if turned and cell != NO_CELL else cell
        return found & 1 == 1
    nodes_before = counters[NODES]
    kind, _, key, carrier, _ = vc.edges_connection(
        mover, other, board, source, target, neighbours, bridges, full, full_count, semi,
        semi_key, semi_count, fresh, semi_changed, groups)
    if kind != vc.NONE:
        # A semi is won at its key; a full connection by any move, best one of its carrier.
        cell = key if kind == vc.SEMI else _first_cell(carrier if carrier else empty, order)
        if ply == 0:
            counters[ROOT_MOVE] = cell
        _remember(key_mover, key_other, True, cell, 1, carrier, turned, last, keys_mover,
                  keys_other, data, proofs)
        proved[ply] = filled | carrier
        return True
    kind, must, _, carrier, cover = vc.edges_connection(
        other, mover, board, other_source, other_target, neighbours, bridges, full, full_count,
        semi, semi_key, semi_count, fresh, semi_changed, groups)
    candidates = must & empty if kind == vc.SEMI else empty
    proof = carrier if kind == vc.FULL else cover
    if kind == vc.FULL or not candidates:
        _remember(key_mover, key_other, False, NO_CELL, 1, proof, turned, last, keys_mover,
                  keys_other, data, proofs)
        proved[ply] = filled | proof
        return False
    colour = 0 if mover_is_x else 1
    count = _ordered(candidates, colour, ply, order, history, killers, moves, scores)
    for index in range(count):
        cell = moves[ply, index]
        if not candidates >> cell & 1:
            continue  # outside the proof of a refuted move: refuted too
        opponent_wins = wins(other, mover | 1 << cell, not mover_is_x, ply + 1, geometry, order,
                             neighbours, bridges, edges, keys_mover, keys_other, data, proofs,
                             history, killers, moves, scores, proved, counters, full,
                             full_count, semi, semi_key, semi_count, fresh, semi_changed, groups,
                             scratch)
        if counters[ABORTED]:
            return False
        reply_proof = proved[ply + 1] | 1 << cell
        if not opponent_wins:
            counters[CUTOFFS] += 1
            if killers[ply, 0] != cell:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = cell
            history[colour, cell] += count * count
            _remember(key_mover, key_other, True, cell, counters[NODES] - nodes_before,
                      reply_proof, turned, last, keys_mover, keys_other, data, proofs)
            proved[ply] = filled | reply_proof
            if ply == 0:
                counters[ROOT_MOVE] = cell
            return True
        proof |= reply_proof
        candidates &= proved[ply + 1]
    first = moves[ply, 0]
    _remember(key_mover, key_other, False, first, counters[NODES] - nodes_before, proof, turned,
              last, keys_mover, keys_other, data, proofs)
    proved[ply] = filled | proof
    if ply == 0:
        counters[ROOT_MOVE] = first
    return False


@njit(cache=True)
def _remember(key_mover: int, key_other: int, won: bool, cell: int, work: int, proof: int,
              turned: bool, last: int, keys_mover: np.ndarray, keys_other: np.ndarray,
              data: np.ndarray, proofs: np.ndarray) -> None:
    """Store a result under the folded key: the cell and proof turned with it."""
    if turned:
        cell = cell if cell == NO_CELL else last - cell
        proof = rotated(proof, last)
    _store(key_mover, key_other, won, cell, work, proof, keys_mover, keys_other, data, proofs)


class ConnectionSearcher(Searcher):
    """``kernel.Searcher`` with this module's search: one board size and one table, kept
    across searches, and the connection search's scratch arrays."""

    bytes_per_entry = 32  # the kernel's 24, and the proof's cells

    def __init__(self, game: Hex, entries: int) -> None:
        super().__init__(game, entries)
        self.neighbours, self.bridges = vc.geometry_tables(game.size)
        self.edges = np.array([game.top, game.bottom, game.left, game.right], dtype=np.int64)
        self.workspace = vc.Workspace()
        self.scratch = np.zeros(8, dtype=np.int64)
        self.proofs = np.zeros(len(self.data), dtype=np.int64)
        self.proved = np.zeros(game.size * game.size + 2, dtype=np.int64)

    def kernel_call(self, mover: int, other: int, mover_is_x: bool) -> bool:
        work = self.workspace
        return bool(wins(mover, other, mover_is_x, 0, self.geometry, self.order, self.neighbours,
                         self.bridges, self.edges, self.keys_mover, self.keys_other, self.data,
                         self.proofs, self.history, self.killers, self.moves, self.scores,
                         self.proved, self.counters,
                         work.full, work.full_count, work.semi, work.semi_key, work.semi_count,
                         work.fresh, work.semi_changed, work.groups, self.scratch))

    def _search(self, position: tuple[int, int], should_stop: Callable[[], bool] | None,
                node_cap: int | None) -> tuple[bool, int] | None:
        found = super()._search(position, should_stop, node_cap)
        if found is None or found[1] != NO_CELL:
            return found
        won, _ = found
        game = self.game
        if not won:
            return won, game.moves(position)[0]
        # The win came from filling alone: a winning move is a child the opponent loses.
        for move in game.moves(position):
            child = game.play(position, move)
            if game.outcome(child) is not None:
                return True, move
            answer = super()._search(child, should_stop, node_cap)
            if answer is None:
                return None
            if not answer[0]:
                return True, move
        raise AssertionError(f"no winning move found in {game.format_position(position)}")

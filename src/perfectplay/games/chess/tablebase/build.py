"""Build a table by retrograde analysis with perfectplay.retro's solver.

The positions are not enumerated from a root (the retro package's usual way in) but are all
the slots of the perfect index (perfectplay.games.chess.tablebase.index). This module writes each legal
position's children as a CSR edge list and hands it to ``perfectplay.retro.kernel.retrograde``,
the same propagation that solves every loopy game here: checkmates are LOST, stalemates and
illegal slots DRAWN, and everything the propagation never reaches is a draw.

Moves that leave the table go to extra nodes after the index:

* the capture of the piece, and promotion to a bishop or knight (KK, KBK, KNK: no mate is
  possible) go to one DRAWN sink;
* promotion to a queen or rook leads into KQK or KRK with the weak side to move, whose value
  is already known: a loss in ``r`` plies. Such a move goes to node ``r`` of a chain where
  node 0 is LOST and node ``k`` has node ``k - 1`` as its only child, so the propagation
  itself values node ``k`` as a loss (even ``k``) or win (odd ``k``) in ``k`` plies and
  reaches it in the right order (it visits solved positions by increasing remoteness).

numba is imported here: this module runs the kernels and is imported only to build.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from perfectplay.games.chess.tablebase import rules
from perfectplay.games.chess.tablebase.index import SIZE, encode
from perfectplay.retro.kernel import retrograde
from perfectplay.retro.solver import DRAWN, LOST, UNKNOWN

KIND = {"KQK": rules.QUEEN, "KRK": rules.ROOK, "KPK": rules.PAWN}
DRAW_SINK = SIZE
CHAIN = SIZE + 1
CHAIN_LENGTH = 128
NODES = CHAIN + CHAIN_LENGTH


@dataclass(frozen=True)
class Built:
    """A built table: its stored bytes (perfectplay.games.chess.tablebase.index) and what it took."""

    name: str
    values: np.ndarray
    positions: int
    edges: int
    seconds: float


@njit(cache=True)
def _outside(stored: int) -> int:
    """The node for a known value of a position in another table (see the module doc)."""
    if stored == 0:
        return DRAW_SINK
    distance = stored if stored > 0 else -stored - 1
    return CHAIN + distance


@njit(cache=True)
def _children(kind: int, index: int, queens: np.ndarray, rooks: np.ndarray, moves: np.ndarray,
              out: np.ndarray, at: int) -> int:
    """Write the child node of every legal move of ``index`` at ``out[at:]``; return the end."""
    mover, strong_king, weak_king, piece = rules.split(index)
    count = rules.legal_moves(kind, index, moves)
    for i in range(count):
        origin, target, promotion = moves[i] & 63, (moves[i] >> 6) & 63, moves[i] >> 12
        if mover == rules.WEAK_TO_MOVE:
            child = DRAW_SINK if target == piece else rules.join(0, strong_king, target, piece)
        elif origin == strong_king:
            child = rules.join(1, target, weak_king, piece)
        elif promotion == 0:
            child = rules.join(1, strong_king, weak_king, target)
        elif promotion == rules.PROMOTE_QUEEN:
            child = _outside(queens[rules.join(1, strong_king, weak_king, target)])
        elif promotion == rules.PROMOTE_ROOK:
            child = _outside(rooks[rules.join(1, strong_king, weak_king, target)])
        else:
            child = DRAW_SINK
        out[at] = child
        at += 1
    return at


@njit(cache=True)
def _graph(kind: int, queens: np.ndarray, rooks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """(first, edges, codes, legal) of every node: two passes, counting then filling."""
    moves = np.empty(rules.MAX_MOVES, dtype=np.int64)
    legal = np.zeros(NODES, dtype=np.bool_)
    first = np.zeros(NODES + 1, dtype=np.int64)
    codes = np.full(NODES, DRAWN, dtype=np.uint8)
    for index in range(SIZE):
        count = 0
        if rules.is_legal(kind, index):
            legal[index] = True
            count = rules.legal_moves(kind, index, moves)
            if count == 0:
                codes[index] = LOST if rules.in_check(kind, index) else DRAWN
            else:
                codes[index] = UNKNOWN
        first[index + 1] = first[index] + count
    first[DRAW_SINK + 1] = first[DRAW_SINK]  # the sink and the chain's first node: no children
    first[CHAIN + 1] = first[CHAIN]
    codes[CHAIN] = LOST
    for node in range(CHAIN + 1, NODES):
        codes[node] = UNKNOWN
        first[node + 1] = first[node] + 1
    edges = np.empty(first[NODES], dtype=np.int64)
    for index in range(SIZE):
        if legal[index]:
            _children(kind, index, queens, rooks, moves, edges, first[index])
    for node in range(CHAIN + 1, NODES):
        edges[first[node]] = node - 1
    return first, edges, codes, legal[:SIZE]


def build(name: str, queens: np.ndarray | None = None, rooks: np.ndarray | None = None) -> Built:
    """Build table ``name``; KPK needs the stored KQK and KRK values for its promotions."""
    if name == "KPK" and (queens is None or rooks is None):
        raise ValueError("KPK is built from KQK and KRK (promotions): build those first")
    started = time.perf_counter()
    empty = np.zeros(SIZE, dtype=np.int8)
    first, edges, codes, legal = _graph(KIND[name], empty if queens is None else queens,
                                        empty if rooks is None else rooks)
    codes, remoteness = retrograde(first, edges, codes)
    values = encode(codes[:SIZE], remoteness[:SIZE], legal)
    return Built(name, values, int(np.count_nonzero(legal)), int(first[SIZE]),
                 time.perf_counter() - started)


def moves_of(name: str, index: int) -> list[tuple[int, int, int]]:
    """The legal moves of a legal position as (from, to, promotion) in table squares."""
    moves = np.empty(rules.MAX_MOVES, dtype=np.int64)
    count = rules.legal_moves(KIND[name], index, moves)
    return [(int(m) & 63, (int(m) >> 6) & 63, int(m) >> 12) for m in moves[:count]]


def is_legal(name: str, index: int) -> bool:
    return bool(rules.is_legal(KIND[name], index))

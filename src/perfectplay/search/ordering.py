"""Move ordering. Alpha-beta prunes most when the best move comes first (Knuth and Moore 1975):
the game lists its moves best-looking first, and a table's remembered best move goes ahead
of them all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def tt_move_first(moves: Sequence[Any], tt_move: Any) -> Sequence[Any]:
    """``moves`` with ``tt_move`` first, if it is legal here (a symmetric key may have stored
    a move from a reflected position, which is then only a hint)."""
    if not moves or moves[0] == tt_move or tt_move not in moves:
        return moves
    return [tt_move, *(move for move in moves if move != tt_move)]

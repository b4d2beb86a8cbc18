"""Integer game values, always from the point of view of the side to move.

Win/loss/draw games fold the distance to the end into the value, as chess engines fold
mate distance into their scores (Stockfish's ``mate_in``/``mated_in``):

* a win in ``p`` plies counted from the root of the search is ``WIN - p``;
* a loss in ``p`` plies is ``-(WIN - p)``;
* a draw is 0, and a heuristic estimate is any value strictly between the two bands.

Because distances are counted from the root, negamax needs nothing but negation and the
bound swap; the winner maximises (a nearer win is larger) and so does the loser (a later
loss is larger). Values are rebased to "plies from this position" when stored in a table
(:func:`to_table`) and back when read (:func:`from_table`), so a table entry does not depend
on the path that reached it.

Score games use the plain score difference ``f(s) = max(gain - f(s'))``; their
values never enter the decisive bands' arithmetic.
"""

from __future__ import annotations

import math

WIN = 1_000_000_000
# No game we solve lasts longer; values within MAX_PLY of WIN are decisive.
MAX_PLY = 100_000_000
DECISIVE = WIN - MAX_PLY
INFINITY = math.inf

# Outcome-only mode: the value carries no distance.
WIN_ONLY = 1
DRAW = 0

# What a table entry's value bounds, as flags (Stockfish's Bound: EXACT = LOWER | UPPER): the
# one definition for every table and kernel. Plain ints, so numba kernels read them as
# compile-time constants; entry layouts keep them in two bits.
LOWER = 1  # the true value is at least the stored one (a fail high)
UPPER = 2  # at most the stored one (a fail low)
EXACT = LOWER | UPPER


def win_in(ply: int) -> int:
    """The value of a forced win that ends ``ply`` plies from the root."""
    return WIN - ply


def loss_in(ply: int) -> int:
    """The value of a forced loss that ends ``ply`` plies from the root."""
    return ply - WIN


def is_win(value: float) -> bool:
    return value >= DECISIVE


def is_loss(value: float) -> bool:
    return value <= -DECISIVE


def is_decisive(value: float) -> bool:
    return value >= DECISIVE or value <= -DECISIVE


def remoteness(value: int) -> int:
    """Plies to the end of the game for a decisive value (from the position it was read at)."""
    if not is_decisive(value):
        raise ValueError(f"value {value} is not a forced win or loss")
    return WIN - abs(value)


def to_table(value: float, ply: int) -> float:
    """Rebase a root-relative value to one relative to the node at ``ply``."""
    if value >= DECISIVE:
        return value + ply
    if value <= -DECISIVE:
        return value - ply
    return value


def from_table(value: float, ply: int) -> float:
    """Inverse of :func:`to_table`: a node-relative value read back at ``ply``."""
    if value >= DECISIVE:
        return value - ply
    if value <= -DECISIVE:
        return value + ply
    return value


def describe(value: int, *, score_game: bool = False) -> str:
    """Human text for a value read at the root: 'win in 7', 'loss in 4', 'draw', '+11'."""
    if score_game:
        return f"{value:+d}"
    if value >= DECISIVE:
        return f"win in {WIN - value}"
    if value <= -DECISIVE:
        return f"loss in {WIN + value}"
    if value == WIN_ONLY:
        return "win"
    if value == -WIN_ONLY:
        return "loss"
    if value == 0:
        return "draw"
    return f"estimate {value:+d}"


def outcome_word(value: float) -> str:
    """'win', 'loss' or 'draw' for a win/loss/draw value in either mode."""
    if value > 0:
        return "win"
    if value < 0:
        return "loss"
    return "draw"


def move_worth(child: int, gain: int, same_mover: bool, score_game: bool) -> int:
    """What a move is worth to its player, from ``child``, the node-relative value of the
    position it leads to: in a score game the move's gain minus the reply's score; in a
    win/loss game the child's value negated and one ply further from the end. After an extra
    turn (``same_mover``: Kalah, Dots and Boxes) the child's value is already the mover's and
    is not negated. Shared by the backups that do not search (tables, databases)."""
    if score_game:
        return gain + child if same_mover else gain - child
    further = int(from_table(child, 1))
    return further if same_mover else -further

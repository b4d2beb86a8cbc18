"""The largest move list a built-in game will build: past it, listing the moves alone would
take minutes and gigabytes, and no limit could interrupt it (`perft nim 10^30` and
`play nim 10^30` once hung inside one call of moves()). Such a position is refused with a reason;
the theory (`solve`, `grundy`) still answers it without listing moves."""

from __future__ import annotations

from perfectplay.errors import TooLarge

# A million moves: about 60 MB and a tenth of a second to list in CPython.
MOVE_LIST_LIMIT = 1_000_000


def refuse_long_move_list(count: int, what: str) -> None:
    """Raise TooLarge when a position would have more than MOVE_LIST_LIMIT moves."""
    if count > MOVE_LIST_LIMIT:
        raise TooLarge(f"{what}: up to {count:,} moves to list, more than the "
                       f"{MOVE_LIST_LIMIT:,} a search can take in one position; "
                       "theory answers it without listing moves (perfectplay solve, grundy)")

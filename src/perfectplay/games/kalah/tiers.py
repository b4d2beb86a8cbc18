"""Kalah's spec for the compiled database builder (perfectplay.store.compiled_build): the
functions of tier_source.py bound to one board, compiled once and then loaded from numba's
disk cache (perfectplay.compiled.kernel_cache)."""

from __future__ import annotations

from functools import cache
from math import comb
from pathlib import Path

from perfectplay.compiled.generic import Spec, identity_key
from perfectplay.games.kalah.boards import board_index, boards_up_to

SOURCE = Path(__file__).with_name("tier_source.py")
# The compiled helpers the rules take from these (a change to them is a change to the rules).
SOWING = Path(__file__).with_name("sowing.py")
ENDGAME = Path(__file__).with_name("endgame.py")
# The key must stay a non-negative int64.
MOST_KEYS = 1 << 62


@cache
def make_spec(pits: int, seeds: int, empty_capture: bool) -> Spec | None:
    """The spec of a board of ``pits`` a side and ``seeds`` in all, or None when its keys
    (every board of up to ``seeds``) do not fit an int64."""
    from perfectplay.compiled.kernel_cache import load_generated
    if boards_up_to(2 * pits, seeds) > MOST_KEYS:
        return None
    binomials = tuple(comb(n, r) for n in range(seeds + 2 * pits + 1) for r in range(2 * pits + 1))
    settings = {"M": pits, "SEEDS": seeds, "EMPTY_CAPTURE": empty_capture, "BINOMIALS": binomials}
    rules = load_generated(SOURCE, {}, settings,
                           ("moves", "play", "outcome", "tier", "gain", "keeps_turn"),
                           depends=(SOWING, ENDGAME))

    def encode(position: tuple[tuple[int, ...], int]) -> int:
        cells, mover = position
        south, north = cells[:pits], cells[pits + 1:2 * pits + 1]
        return board_index(south + north if mover == 0 else north + south)

    # Every move raises the tier, so a game is never longer than the tiers' count.
    return Spec(moves=rules["moves"], play=rules["play"], outcome=rules["outcome"],
                max_moves=pits, max_length=(seeds + 1) * (seeds * pits + 1), encode=encode,
                decode_move=lambda pit: pit + 1, tier=rules["tier"], gain=rules["gain"],
                keeps_turn=rules["keeps_turn"], rank=identity_key)

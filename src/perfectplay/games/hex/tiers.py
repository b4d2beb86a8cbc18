"""Hex's spec for the compiled database builder (perfectplay.store.compiled_build): the
functions of tier_source.py bound to one board size, compiled once and then loaded from
numba's disk cache (perfectplay.compiled.kernel_cache)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from perfectplay.compiled.generic import Spec

# The state must stay a non-negative int64.
MAX_STATE_BITS = 62
SOURCE = Path(__file__).with_name("tier_source.py")
# The compiled helpers the rules take from these (a change to them is a change to the rules).
CONNECTIONS = Path(__file__).with_name("connections.py")
KERNEL = Path(__file__).with_name("kernel.py")


@cache
def make_spec(size: int, o_shift: int, top: int, bottom: int, left: int, right: int,
              cells: int) -> Spec | None:
    """The spec of a ``size`` x ``size`` board (its edges and cells as bit sets), or None when
    its key needs more than MAX_STATE_BITS bits (6x6 and up)."""
    from perfectplay.compiled.kernel_cache import load_generated
    if 2 * o_shift > MAX_STATE_BITS:
        return None
    settings = {"SIZE": size, "STRIDE": size + 1, "O_SHIFT": o_shift, "CELLS": cells,
                "TOP": top, "BOTTOM": bottom, "LEFT": left, "RIGHT": right}
    rules = load_generated(SOURCE, {}, settings, ("moves", "play", "outcome", "tier"),
                           depends=(CONNECTIONS, KERNEL))

    def encode(position: Any) -> int:
        return int(position[0] | position[1] << o_shift)

    return Spec(moves=rules["moves"], play=rules["play"], outcome=rules["outcome"],
                max_moves=size * size, max_length=size * size, encode=encode, tier=rules["tier"])

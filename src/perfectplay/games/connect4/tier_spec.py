"""Connect Four's spec for the compiled database builder (perfectplay.store.compiled_build):
the functions of tier_source.py bound to one board size, compiled once and then loaded from
numba's disk cache (perfectplay.compiled.kernel_cache)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from perfectplay.compiled.generic import Spec, identity_key

# The state must stay a non-negative int64.
MAX_STATE_BITS = 62
SOURCE = Path(__file__).with_name("tier_source.py")


@cache
def make_spec(width: int, height: int) -> Spec | None:
    """The spec of a ``width`` x ``height`` board, or None when its key needs more than
    MAX_STATE_BITS bits."""
    from perfectplay.compiled.kernel_cache import load_generated
    span = height + 1
    if span * width > MAX_STATE_BITS:
        return None
    column = (1 << height) - 1
    settings = {"WIDTH": width, "HEIGHT": height, "SPAN": span, "COLUMN_BITS": (1 << span) - 1,
                "BOARD": sum(column << c * span for c in range(width))}
    rules = load_generated(SOURCE, {}, settings, ("moves", "play", "outcome", "tier"))

    def encode(position: Any) -> int:
        return int(position[0] + position[1])

    return Spec(moves=rules["moves"], play=rules["play"], outcome=rules["outcome"],
                max_moves=width, max_length=width * height, encode=encode, tier=rules["tier"],
                # Game.rank is the key, and the state is the key.
                rank=identity_key)

"""Dots and Boxes' spec for the compiled database builder (perfectplay.store.compiled_build):
the functions of tier_source.py bound to one board, compiled once and then loaded from
numba's disk cache (perfectplay.compiled.kernel_cache)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from perfectplay.compiled.generic import Spec, identity_key

SOURCE = Path(__file__).with_name("tier_source.py")
# The chain search's count of the boxes a line completes, which the rules take from there.
CHAINS = Path(__file__).with_name("chains.py")


@cache
def make_spec(width: int, height: int, edges: int, box_masks: tuple[int, ...],
              boxes_of: tuple[tuple[int, ...], ...]) -> Spec:
    """The spec of a board: ``edges`` lines, each box's four lines as a mask, and each
    line's one or two boxes (DotsAndBoxes.box_masks and boxes_of)."""
    from perfectplay.compiled.kernel_cache import load_generated
    touching = tuple(box for boxes in boxes_of for box in (*boxes, -1, -1)[:2])
    settings = {"EDGES": edges, "BOX_MASKS": box_masks, "TOUCHING": touching}
    rules = load_generated(SOURCE, {}, settings,
                           ("moves", "play", "outcome", "tier", "gain", "keeps_turn"),
                           depends=(CHAINS,))
    return Spec(moves=rules["moves"], play=rules["play"], outcome=rules["outcome"],
                max_moves=edges, max_length=edges, encode=lambda position: position[0],
                tier=rules["tier"], gain=rules["gain"], keeps_turn=rules["keeps_turn"],
                rank=identity_key)

"""What the built-in loopy games share in their entries."""

from __future__ import annotations

from typing import Any

from perfectplay.game import Game


def retro_brute_force(game: Game[Any, Any], position: Any) -> int:
    """A loopy game's independent value, by value iteration to a fixpoint (perfectplay.retro.brute):
    `verify` checks retrograde analysis against it."""
    from perfectplay.retro.brute import brute_force_value
    return brute_force_value(game, position)

"""Depth-limited play for games too big to solve, with the layers of production game engines.

    from perfectplay.engine import Engine, SearchLimits, Settings
    engine = Engine(game, Settings(threads=2))
    result = engine.search(position, SearchLimits(time=1.0), on_info=print)
    result.best_move, result.score, result.depth, result.pv

The engine works over any :class:`perfectplay.game.Game`; the optional protocol methods
``noisy_moves``, ``must_move``, ``null_move``, ``hash_key``/``key_after`` and
``player_to_move`` switch on quiescence, null-move pruning, incremental keys and clock
handling for games that define them. Scores are perfectplay values (:func:`mate_in`).
"""

from typing import TYPE_CHECKING, Any

from perfectplay.engine.api import (
    MAX_DEPTH,
    Info,
    Line,
    SearchLimits,
    SearchResult,
    Settings,
    describe_score,
    mate_in,
)

if TYPE_CHECKING:
    from perfectplay.engine.core import Engine


def __getattr__(name: str) -> Any:
    # Engine loads on first use (PEP 562): with it come the table's numpy and shared memory,
    # which the CLI must not pay for at start-up just because the engine registers a method.
    if name == "Engine":
        from perfectplay.engine.core import Engine
        return Engine
    raise AttributeError(f"module 'perfectplay.engine' has no attribute {name!r}")


__all__ = ["Engine", "Info", "Line", "MAX_DEPTH", "SearchLimits", "SearchResult", "Settings",
           "describe_score", "mate_in"]

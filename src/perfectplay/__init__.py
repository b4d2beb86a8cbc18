"""perfectplay: solve two-player zero-sum games exactly and play them perfectly.

The public API: define a :class:`Game`, then :func:`solve` or :func:`analyze` it. Nothing
heavy is imported here (no numba, no rich), so ``import perfectplay`` and the CLI start fast.
"""

# The release, as pyproject.toml says (a test keeps the two equal). Written here so that
# `perfectplay --version` need not scan the installed distributions' metadata, which took
# longer than a whole tic-tac-toe solve.
__version__ = "0.1.0"

from perfectplay.errors import (  # noqa: E402 - after the version, which needs no import
    BadOption,
    BadPosition,
    IllegalMove,
    PerfectPlayError,
    UnknownGame,
    UnsupportedSearch,
)
from perfectplay.game import Game, Kind, Outcome, Properties
from perfectplay.search import Limits, MoveValue, Solution
from perfectplay.solving import algorithm_names, analyze, solve

__all__ = [
    "BadOption", "BadPosition", "Game", "IllegalMove", "Kind", "Limits",
    "MoveValue", "Outcome", "PerfectPlayError", "Properties", "Solution", "UnknownGame",
    "UnsupportedSearch", "algorithm_names", "analyze", "solve",
]

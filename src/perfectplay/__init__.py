"""perfectplay: solve two-player zero-sum games exactly and play them perfectly.

The public API: define a :class:`Game`, then :func:`solve` or :func:`analyze` it. Nothing
heavy is imported here (no numba, no rich), so ``import perfectplay`` and the CLI start fast.
"""

# The release, as pyproject.toml says (a test keeps the two equal). Written here so that
# `perfectplay --version` need not scan the installed distributions' metadata, which took
# longer than a whole tic-tac-toe solve.
__version__ = "0.1.0"

from typing import TYPE_CHECKING, Any  # noqa: E402

from perfectplay.errors import (  # noqa: E402 - after the version, which needs no import
    BadOption,
    BadPosition,
    IllegalMove,
    PerfectPlayError,
    UnknownGame,
    UnsupportedSearch,
)

if TYPE_CHECKING:
    from perfectplay.game import Game, Kind, Outcome, Properties
    from perfectplay.search import Limits, MoveValue, Solution
    from perfectplay.solving import algorithm_names, analyze, lookup, lookup_many, solve, solve_many

# The rest of the public API, imported on first use (PEP 562): `perfectplay --version` and
# every command that has not yet asked for a solve need none of it (start-up time).
_LAZY = {
    "Game": "perfectplay.game", "Kind": "perfectplay.game", "Outcome": "perfectplay.game",
    "Properties": "perfectplay.game", "Limits": "perfectplay.search",
    "MoveValue": "perfectplay.search", "Solution": "perfectplay.search",
    "algorithm_names": "perfectplay.solving", "analyze": "perfectplay.solving",
    "solve": "perfectplay.solving", "lookup": "perfectplay.solving",
    "lookup_many": "perfectplay.solving", "solve_many": "perfectplay.solving",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'perfectplay' has no attribute {name!r}")
    import importlib
    found = getattr(importlib.import_module(module), name)
    globals()[name] = found
    return found


__all__ = [
    "BadOption", "BadPosition", "Game", "IllegalMove", "Kind", "Limits",
    "MoveValue", "Outcome", "PerfectPlayError", "Properties", "Solution", "UnknownGame",
    "UnsupportedSearch", "algorithm_names", "analyze", "lookup", "lookup_many", "solve",
    "solve_many",
]

"""Compiled search kernels (numba), imported only when the compiled engine is used.

Nothing here is imported by ``import perfectplay`` or by the CLI until ``--engine compiled``
(or ``auto`` on a game with a kernel) asks for it; :func:`numba_available` checks for numba
without importing it. The kernels give the same answers as perfectplay.search:

* ``c4_kernel`` / ``c4_table`` / ``connect4``: Connect Four, scored as the test sets score it;
* ``generic``: negamax, alpha-beta and a table over a user's ``@njit`` game functions
  (docs/compiled.md), of which ``tictactoe`` is one instance;
* ``method``: registers the kernels as solving methods (perfectplay.methods), which
  perfectplay.solving chooses among; they return perfectplay.search's Solution objects.
"""

from __future__ import annotations

import importlib.util


def numba_available() -> bool:
    """Whether numba can be imported, without importing it."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):  # e.g. sys.modules["numba"] = None blocks it
        return False

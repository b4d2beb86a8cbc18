"""Retrograde analysis: strongly solve a game, loopy or not, from its ended positions back.

The library API (what ``db build`` and the solving method call)::

    from perfectplay.retro import solve_all
    result = solve_all(game, position, engine="auto", max_positions=10_000_000,
                       progress=print)
    result.root_value                 # perfectplay.value integer, node-relative
    result.value(game.key(p))         # any reachable position's value, or None
    for keys, values in result.batches(65_536):
        ...                           # write one database transaction per batch
    result.counts()                   # {'win': ..., 'loss': ..., 'draw': ...}

Every position reachable from the root is valued: win or loss with remoteness (the winner
hurries, the loser delays) or draw when neither side can force a win. Games that declare
``Properties(loopy=True)`` can only be solved this way; acyclic games get the same values
as search (tested on every tic-tac-toe position). Score games are not supported.

Two engines: ``python`` (retro/solver.py, the oracle) and ``compiled`` (retro/kernel.py,
numba, for games with a ``compiled_spec()``: integer states and ``@njit`` rules, see
docs/compiled.md); ``auto`` takes the compiled one where it can run. numba is imported only
when the compiled engine runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game, has_compiled_spec
from perfectplay.retro.result import Progress, ProgressFn, RetroResult, RetroStats

ENGINES = ("auto", "python", "compiled")
# Peak bytes per position, rounded up from tracemalloc's peak on Dodgem 4x4 (4.8 moves a
# position): 370 for the Python engine (dict, keys, positions, arrays), 168 compiled (hash
# table, CSR arrays, states). Games with more moves a position need more.
PYTHON_BYTES_PER_POSITION = 400
COMPILED_BYTES_PER_POSITION = 200
# By default an analysis may use this fraction of the machine's memory.
MEMORY_FRACTION = 0.5


def physical_memory() -> int:
    """Bytes of RAM on this machine (8 GiB when the system does not say)."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def default_max_positions(engine: str, memory: int | None = None) -> int:
    """How many positions fit in ``memory`` bytes (default: half the RAM) for ``engine``."""
    budget = int(physical_memory() * MEMORY_FRACTION) if memory is None else memory
    per = PYTHON_BYTES_PER_POSITION if engine == "python" else COMPILED_BYTES_PER_POSITION
    return max(1, budget // per)


def has_kernel(game: Game[Any, Any]) -> bool:
    """Whether the compiled engine can run ``game``: it declares integer states
    (``compiled_spec()``)."""
    return has_compiled_spec(game)


def check_game(game: Game[Any, Any]) -> None:
    """Refuse a game retrograde analysis cannot value."""
    if game.properties.is_score:
        raise UnsupportedSearch(
            f"retrograde analysis values win/loss/draw games; {game.name} is a score game")


def choose_engine(game: Game[Any, Any], engine: str) -> str:
    """'python' or 'compiled'. ``auto`` takes the compiled kernel when the game gives integer
    states and numba imports (it pays on anything large, and costs about a second of
    compiling on anything small), else Python."""
    if engine not in ENGINES:
        raise UnsupportedSearch(f"unknown engine {engine!r}; choose one of: {', '.join(ENGINES)}")
    if engine == "python":
        return "python"
    from perfectplay.compiled import numba_available
    if engine == "auto":
        return ("compiled" if has_kernel(game) and numba_available()
                and not game.properties.extra_turns else "python")
    if game.properties.extra_turns:
        # The kernel's backup negates across every edge; the Python engine marks the edges
        # after which the mover moves again (docs/extra_turns.md).
        raise UnsupportedSearch(f"--engine compiled: {game.name} has extra turns, which only "
                                "the python engine follows; use --engine python")
    if not has_kernel(game):
        raise UnsupportedSearch(f"--engine compiled: {game.name} gives no integer states "
                                "(compiled_spec); use --engine python")
    if not numba_available():
        raise UnsupportedSearch("--engine compiled: numba is not installed "
                                "(pip install 'perfectplay[fast]')")
    return "compiled"


def solve_all(game: Game[Any, Any], position: Any = None, *, engine: str = "auto",
              max_positions: int | None = None, memory: int | None = None,
              progress: ProgressFn | None = None,
              poll: Callable[[int], None] | None = None) -> RetroResult:
    """Value every position reachable from ``position`` (the start when None).

    ``max_positions`` (or ``memory`` in bytes) bounds the analysis: past it, LimitReached.
    ``progress`` is called with a :class:`Progress` every 32,768 positions and at the end of
    each phase; ``poll(count)`` is called as often and may raise to stop the analysis (the
    search Budget's ``poll`` raises OutOfBudget on a time limit or Ctrl-C)."""
    check_game(game)
    chosen = choose_engine(game, engine)
    root = game.start() if position is None else position
    limit = max_positions if max_positions is not None else default_max_positions(chosen, memory)
    if chosen == "compiled":
        from perfectplay.retro.kernel import solve_compiled
        return solve_compiled(game, root, max_positions=limit, progress=progress, poll=poll)
    from perfectplay.retro.solver import solve_python
    return solve_python(game, root, max_positions=limit, progress=progress,
                        poll=poll or (lambda done: None))


__all__ = ["ENGINES", "Progress", "ProgressFn", "RetroResult", "RetroStats", "default_max_positions",
           "solve_all"]

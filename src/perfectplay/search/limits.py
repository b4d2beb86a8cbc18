"""Search limits and the context every search polls for them."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn

from perfectplay.errors import BadOption

# A depth this large means "search to the end of the game".
UNLIMITED_DEPTH = 1 << 62
# Memory a search may take beyond its table: the path's positions and move lists, the
# results. A search that grows past table + this stops with "memory" (once, a Nim of 200
# piles reached 5 GB under --time 5). Stated in the README and --tt-size's help.
MEMORY_HEADROOM = 512 << 20
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The process's resident memory (Linux); None where it cannot be read cheaply."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


# A deadline further off than this is kept at this distance: waits on a lock or a thread
# with the time left refuse timeouts past a platform's time_t (`--think-time 1e308` ended in
# OverflowError), and a year bounds nothing a search does.
LONGEST_DEADLINE_SECONDS = 365 * 24 * 3600.0


@dataclass(frozen=True)
class Limits:
    """How far a search may go, for every searcher: the exact searches, the depth-limited
    engine and the mate search alike (python-chess's ``Limit`` is the model). None means no
    limit of that kind; each field is checked here, once, with a one-line BadOption.

    ``depth``, ``nodes`` and ``time`` (seconds) bound any search. ``mate``: the most moves an
    exact mate search looks for a forced win within (``--mate N``, UCI's ``go mate N``).
    The rest are a game player's (UCI's ``go``), read by the engine's time management
    (perfectplay.engine.clock): ``soft_time``, after which no new iteration starts;
    ``wtime``/``btime`` the clocks of the first and second player in seconds, ``winc``/``binc``
    their increments, ``movestogo`` the moves to the next time control; ``infinite`` searches
    until stopped; ``searchmoves`` restricts the root to those moves.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    mate: int | None = None
    soft_time: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float | None = None
    binc: float | None = None
    movestogo: int | None = None
    infinite: bool = False
    searchmoves: tuple[Any, ...] | None = None

    def __post_init__(self) -> None:
        _at_least_one("depth", self.depth)
        _at_least_one("node limit", self.nodes)
        _at_least_one("mate", self.mate)
        _at_least_one("movestogo", self.movestogo)
        for name, seconds in (("time limit", self.time), ("soft time limit", self.soft_time)):
            if seconds is not None and not seconds > 0:  # NaN included
                raise BadOption(f"{name} must be positive (got {seconds})")
        for name, seconds in (("wtime", self.wtime), ("btime", self.btime),
                              ("winc", self.winc), ("binc", self.binc)):
            if seconds is not None and not seconds >= 0:
                raise BadOption(f"{name} cannot be negative (got {seconds})")
        if self.searchmoves is not None and not self.searchmoves:
            raise BadOption("searchmoves: name at least one move to search")

    @property
    def search_depth(self) -> int:
        return UNLIMITED_DEPTH if self.depth is None else self.depth


def _at_least_one(name: str, number: int | None) -> None:
    if number is not None and number < 1:
        raise BadOption(f"{name} must be at least 1 (got {number})")


class OutOfBudget(Exception):
    """Raised inside a search when its node or time budget is spent."""


class Budget:
    """Checked every few hundred nodes: the time and node limits and an external stop flag.

    A search calls :meth:`poll` when ``nodes & budget.poll_mask == 0``; polling every node
    would cost more than the search. The stop flag is how Ctrl-C reaches a search that runs
    in a worker thread.
    """

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.started = time.perf_counter()
        self.deadline = None if self.limits.time is None else \
            self.started + min(self.limits.time, LONGEST_DEADLINE_SECONDS)
        self.node_limit = self.limits.nodes
        # Searches poll at every (poll_mask + 1)-th node and at node_cap, so a node limit
        # holds exactly: a search never enters more than ``nodes`` nodes.
        self.node_cap = self.node_limit if self.node_limit is not None else UNLIMITED_DEPTH
        self.stop = threading.Event()
        # Poll often enough that a 5 us/node search overruns a deadline by about a millisecond.
        self.poll_mask = 255 if self.deadline is not None else 4095
        self.memory_start = resident_bytes()
        self.memory_allowed = MEMORY_HEADROOM
        self.polled_nodes = 0  # the node count at the last poll, for a caller's message
        # Called with the reason just before poll raises OutOfBudget (search/deep.py: a search
        # deep in a game hands over to its caller before it unwinds).
        self.before_stopping: Callable[[str], None] | None = None
        # The answer a search has finished so far (iterative deepening sets it after each
        # depth), for a caller that stops waiting for a search left behind past its deadline.
        self.answer_so_far: Callable[[], Any] | None = None

    def allow_memory(self, table_bytes: int) -> None:
        """A search's table may fill this much on top of the headroom."""
        self.memory_allowed = MEMORY_HEADROOM + table_bytes

    def poll(self, nodes: int) -> None:
        self.polled_nodes = nodes
        if self.stop.is_set():
            self._out("stopped")
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            self._out("time")
        if self.node_limit is not None and nodes >= self.node_limit:
            self._out("nodes")
        self.check_memory()

    def check_memory(self) -> None:
        if self.memory_start is None:
            return
        now = resident_bytes()
        if now is not None and now - self.memory_start > self.memory_allowed:
            self._out(f"memory: grew by {(now - self.memory_start) >> 20:,} MB, more than "
                      f"the table's size plus {MEMORY_HEADROOM >> 20:,} MB")

    def _out(self, reason: str) -> NoReturn:
        if self.before_stopping is not None:
            self.before_stopping(reason)
        raise OutOfBudget(reason)

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

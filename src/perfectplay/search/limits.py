"""Search limits and the context every search polls for them."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Callable, NoReturn

from perfectplay.errors import BadOption

# A depth this large means "search to the end of the game".
UNLIMITED_DEPTH = 1 << 62
# Memory a search may take beyond its table: the path's positions and move lists, the
# results. A search that grows past table + this stops with "memory" (issue 13: a Nim of 200
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
    """How far a search may go. None means no limit of that kind."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise BadOption(f"depth must be at least 1 (got {self.depth})")
        if self.nodes is not None and self.nodes < 1:
            raise BadOption(f"node limit must be at least 1 (got {self.nodes})")
        if self.time is not None and not self.time > 0:
            raise BadOption(f"time limit must be positive (got {self.time})")

    @property
    def search_depth(self) -> int:
        return UNLIMITED_DEPTH if self.depth is None else self.depth


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

"""Bounded tables for search results.

Transposition table layout (one slot per index, ``index = hash(key) & mask``; keys are built
from ints and tuples of ints, whose hashes Python computes the same way in every process):

    slot = (key, value, flag, draft, move, age)

* ``value`` is rebased to the node (see value.to_table) so an entry serves any path;
* ``flag`` is LOWER (a beta cutoff: the true value is at least ``value``), UPPER (no move
  raised alpha: the true value is at most ``value``) or EXACT == LOWER | UPPER, as in
  Stockfish;
* ``draft`` is the depth searched below the node, FULL_DRAFT when searched to the end;
* ``move`` is the best move found, tried first when the position comes back;
* ``age`` is the number of the search that wrote it.

Replacement policy, written once in :meth:`TranspositionTable.store`: a new result replaces
the slot when the slot is empty, holds the same position, was written by an earlier search,
or was searched no deeper than the new result. Otherwise the deeper old entry stays: it
cost more to compute. The table never grows: its list of slots is allocated once.
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable
from typing import Any

from perfectplay.errors import BadOption

FULL_DRAFT = 1 << 63

# Measured footprint of one filled slot in CPython: a 6-tuple plus small ints and the key.
PYTHON_BYTES_PER_ENTRY = 160
DEFAULT_TABLE_BYTES = 64 * 1024 * 1024

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)([bB]?)\s*$")
_UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def parse_table_size(text: str | int | None, bytes_per_entry: int = PYTHON_BYTES_PER_ENTRY) -> int:
    """Entries for a size written as '64MB', '512K' (bytes) or '100000' (entries).

    The result is rounded down to a power of two (at least 16) so that an index is a mask.
    """
    if text is None:
        entries = DEFAULT_TABLE_BYTES // bytes_per_entry
    elif isinstance(text, int):
        entries = text
    else:
        match = _SIZE.match(text)
        if not match:
            raise BadOption(f"table size {text!r} is not a number of entries or bytes like 64MB")
        number, unit, byte_suffix = match.groups()
        if unit or byte_suffix:
            entries = int(float(number) * _UNITS[unit.lower()]) // bytes_per_entry
        else:
            if "." in number:
                raise BadOption(f"table size {text!r}: a number of entries must be whole")
            entries = int(number)
    if entries < 1:
        raise BadOption(f"table size {text!r} holds no entries")
    memory = physical_memory()
    if memory is not None and entries * bytes_per_entry > memory:
        raise BadOption(f"table size {text!r} needs {entries * bytes_per_entry / 2**30:,.1f} GB when "
                        f"full, more than this machine's {memory / 2**30:,.1f} GB of memory")
    return 1 << max(4, entries.bit_length() - 1)


def physical_memory() -> int | None:
    """Bytes of memory in this machine, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


class TranspositionTable:
    """A fixed array of slots; see the module docstring for layout and replacement."""

    def __init__(self, entries: int) -> None:
        self.size = entries
        self.mask = entries - 1
        self.slots: list[Any] = [None] * entries
        self.age = 0
        self.stores = 0

    def new_search(self) -> None:
        """Mark later stores as belonging to a new search, so old entries yield to them."""
        self.age += 1

    def probe(self, key: Hashable) -> tuple[Any, ...] | None:
        entry = self.slots[hash(key) & self.mask]
        if entry is not None and entry[0] == key:
            return entry
        return None

    def store(self, key: Hashable, value: float, flag: int, draft: int, move: Any) -> None:
        index = hash(key) & self.mask
        old = self.slots[index]
        if old is None or old[0] == key or old[5] != self.age or draft >= old[3]:
            self.slots[index] = (key, value, flag, draft, move, self.age)
            self.stores += 1

    def filled(self) -> int:
        return sum(1 for slot in self.slots if slot is not None)


class MemoTable(dict[Any, Any]):
    """Exact values by key, for the memo algorithm. When full it stops storing new values:
    answers stay correct, later positions are just recomputed."""

    def __init__(self, capacity: int) -> None:
        super().__init__()
        self.capacity = capacity

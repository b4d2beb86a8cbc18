"""Finished answers kept as the bytes sent: a repeated request for an exact position is
answered on the event loop from this memory, with no thread, search or JSON encoding.

Only exact answers are kept (they never change); estimates deepen and are always rebuilt.
The memory is bounded by the bytes it holds, measured (each answer's length, its key's and
a fixed overhead per entry), least recently used first out.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict

ANSWER_CACHE_BYTES = 32 * 1024 * 1024
# What one entry costs besides its key and answer: the OrderedDict's node and the tuple.
ENTRY_OVERHEAD = 200

Key = tuple[str, str, tuple[tuple[str, str], ...]]


class Answers:
    """A bounded, thread-safe memory of exact answers' bytes, keyed by call and query."""

    def __init__(self, max_bytes: int = ANSWER_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes_held = 0
        self._kept: OrderedDict[Key, tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    @staticmethod
    def key(game: str, call: str, query: dict[str, str]) -> Key:
        return (game, call, tuple(sorted(query.items())))

    def get(self, key: Key) -> bytes | None:
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                return None
            self._kept.move_to_end(key)
            return found[0]

    def put(self, key: Key, body: bytes) -> None:
        size = len(body) + sys.getsizeof(key) + sum(len(k) + len(v) for k, v in key[2]) + ENTRY_OVERHEAD
        if size > self.max_bytes:
            return
        with self._lock:
            old = self._kept.pop(key, None)
            if old is not None:
                self.bytes_held -= old[1]
            self._kept[key] = (body, size)
            self.bytes_held += size
            while self.bytes_held > self.max_bytes:
                _, (_, dropped) = self._kept.popitem(last=False)
                self.bytes_held -= dropped

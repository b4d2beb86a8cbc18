"""What a retrograde analysis returns: every reachable position's value, by key.

Values follow perfectplay.value, counted from the position itself (node-relative, as a
table stores them): ``WIN - r`` is a win in ``r`` plies for the side to move, ``r - WIN`` a
loss in ``r`` plies, 0 a draw (no side can force a win; in a loopy game play may go on for
ever). The winner hurries and the loser delays, as in search.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from perfectplay import value as V

if TYPE_CHECKING:  # numpy is imported where it is used: registering retro must stay cheap
    import numpy as np


@dataclass(frozen=True)
class Progress:
    """Reported to a progress callback: the phase ('enumerate', 'parents' or 'retrograde'),
    positions found or solved so far, the total when known, and seconds since the start."""

    phase: str
    done: int
    total: int | None
    elapsed_s: float


ProgressFn = Callable[[Progress], None]


@dataclass
class RetroStats:
    """What the analysis did: positions (distinct keys), edges (moves), the time of each
    phase, and which engine ran ('python' or 'compiled')."""

    positions: int = 0
    edges: int = 0
    enumerate_s: float = 0.0
    solve_s: float = 0.0
    engine: str = "python"

    @property
    def elapsed_s(self) -> float:
        return self.enumerate_s + self.solve_s

    def positions_per_second(self) -> float:
        return self.positions / self.elapsed_s if self.elapsed_s > 0 else float("inf")


@dataclass
class RetroResult:
    """Every position reachable from ``root`` (a key), its value, and the lookup by key.

    ``keys[i]`` is the game's stable key (Game.key) of position ``i`` and ``values[i]`` its
    node-relative value; ``positions[i]`` is one position with that key (the first one
    reached). Index 0 is the root. Keys are a list (Python engine) or an int64 array
    (compiled engine, where positions are the game's int states).
    """

    game: str
    keys: Sequence[Hashable] | np.ndarray
    values: np.ndarray
    positions: Sequence[Any] | np.ndarray
    stats: RetroStats
    _index: dict[Hashable, int] | None = field(default=None, repr=False)
    _sorted: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.values)

    @property
    def root_value(self) -> int:
        return int(self.values[0])

    def index_of(self, key: Hashable) -> int | None:
        """The index of the position with ``key``, or None when it was not reached."""
        if self._index is not None:
            return self._index.get(key)
        import numpy as np

        if self._sorted is None:
            keys = np.asarray(self.keys, dtype=np.int64)
            order = np.argsort(keys, kind="stable")
            self._sorted = (keys[order], order)
        ordered, order = self._sorted
        if not isinstance(key, (int, np.integer)):
            return None
        at = int(np.searchsorted(ordered, key))
        if at < len(ordered) and ordered[at] == key:
            return int(order[at])
        return None

    def value(self, key: Hashable) -> int | None:
        """The node-relative value of the position with ``key``, or None if not reached."""
        at = self.index_of(key)
        return None if at is None else int(self.values[at])

    def batches(self, size: int = 1 << 16) -> Iterator[tuple[Sequence[Hashable] | np.ndarray, np.ndarray]]:
        """(keys, values) in slices of at most ``size`` positions, in index order: what a
        database writes one transaction at a time."""
        if size < 1:
            raise ValueError(f"batch size must be at least 1 (got {size})")
        for start in range(0, len(self.values), size):
            yield self.keys[start:start + size], self.values[start:start + size]

    def counts(self) -> dict[str, int]:
        """How many positions are wins, losses and draws for the side to move."""
        import numpy as np

        values = self.values
        wins = int(np.count_nonzero(values >= V.DECISIVE))
        losses = int(np.count_nonzero(values <= -V.DECISIVE))
        return {"win": wins, "loss": losses, "draw": len(values) - wins - losses}

    def longest(self) -> int:
        """The largest remoteness of any decided position (0 when none is decided)."""
        import numpy as np

        decided = np.abs(self.values[self.values != 0])
        return int(V.WIN - decided.min()) if len(decided) else 0

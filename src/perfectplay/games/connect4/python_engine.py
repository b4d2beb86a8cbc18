"""The kernel's mirror as a score engine (perfectplay.games.connect4.answers.ScoreEngine).

Limits are a perfectplay Budget (time, nodes, memory, the stop flag), polled by the search
itself; running out raises LimitReached, as the compiled engine does at its node budget.
"""

from __future__ import annotations

from perfectplay.errors import LimitReached
from perfectplay.games.connect4.answers import ScoreEngine
from perfectplay.games.connect4.python_negamax import BYTES_PER_ENTRY, Search
from perfectplay.games.connect4.rules import ConnectFour, Position
from perfectplay.search.limits import Budget, Limits, OutOfBudget
from perfectplay.search.transposition import parse_table_size


class Engine(ScoreEngine):
    """One solve's worth of search: ``new_solve`` starts an empty table."""

    def __init__(self, game: ConnectFour, table_size: str | int | None = None,
                 budget: Budget | None = None) -> None:
        self.game = game
        self.capacity = parse_table_size(table_size, BYTES_PER_ENTRY)
        self.budget = budget or Budget()
        self.budget.allow_memory(self.capacity * BYTES_PER_ENTRY)
        self.search = self._new_search()

    def _new_search(self) -> Search:
        game = self.game
        return Search(game.width, game.height, game.order, self.capacity, self.budget)

    def new_solve(self, node_limit: int | None = None) -> None:
        if node_limit is not None:
            limits = self.budget.limits
            self.budget = Budget(Limits(depth=limits.depth, nodes=node_limit, time=limits.time))
        self.search = self._new_search()

    def narrow(self, position: Position, low: int, high: int, probes: int) -> tuple[int, int]:
        mover, occupied, _ = position
        try:
            return self.search.narrow(mover, occupied, self.game.stones(position), low, high,
                                      probes)
        except OutOfBudget as stop:
            raise self._stopped(stop) from None

    def at_least(self, position: Position, target: int) -> bool:
        mover, occupied, _ = position
        try:
            return self.search.at_least(mover, occupied, self.game.stones(position), target)
        except OutOfBudget as stop:
            raise self._stopped(stop) from None

    def _stopped(self, stop: OutOfBudget) -> LimitReached:
        nodes = self.counters()[0]
        self.search = self._new_search()  # the stopped search left bounds that are not true
        return LimitReached(f"null-window stopped ({stop}) after {nodes:,} nodes without an "
                            "answer; use --algorithm id for a best-effort move under a limit")

    def counters(self) -> tuple[int, int, int, int]:
        return self.search.counters()

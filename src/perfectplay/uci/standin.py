"""A stand-in for ``perfectplay.engine`` with the same shape, over the existing iterative
deepening (perfectplay.search.iterative: alpha-beta with a transposition table and the
game's evaluation at the horizon; no quiescence, no null move).

The UCI front end uses the real engine whenever the package ``perfectplay.engine`` exists
(issue 11, item 1, built on its own branch); this module serves only until it lands, and is
to be deleted then. Only the parts the UCI loop calls are here: ``Engine.search`` with its
``on_info`` and ``stop``, ``Engine.new_game``, and ``SearchLimits``/``Info``/``SearchResult``
with the engine's field names, times in seconds.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from perfectplay import value as V
from perfectplay.errors import BadPosition
from perfectplay.game import Game
from perfectplay.search import iterative, tt
from perfectplay.search.limits import Budget, Limits
from perfectplay.search.rules import Rules
from perfectplay.search.tables import TranspositionTable

MAX_DEPTH = 100
DEFAULT_MOVES_TO_GO = 30


@dataclass(frozen=True)
class Settings:
    tt_size: int = 1 << 18
    threads: int = 1


@dataclass(frozen=True)
class SearchLimits:
    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    soft_time: float | None = None
    wtime: float | None = None
    btime: float | None = None
    winc: float | None = None
    binc: float | None = None
    movestogo: int | None = None
    infinite: bool = False


@dataclass(frozen=True)
class Info:
    depth: int
    seldepth: int
    score: int
    nodes: int
    nps: int
    time_s: float
    pv: list[Any] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    best_move: Any
    score: int
    depth: int
    pv: list[Any]
    nodes: int
    elapsed_s: float
    exact: bool = False
    seldepth: int = 0


def mate_in(score: int) -> int | None:
    """Moves to a forced end: +3 mates in 3, -2 is mated in 2; None for an estimate."""
    if not V.is_decisive(score):
        return None
    moves = (V.WIN - abs(score) + 1) // 2
    return moves if score > 0 else -moves


def time_for_move(limits: SearchLimits, mover: int | None) -> tuple[float | None, float | None]:
    """(soft, hard) seconds: a fixed time, or a share of the clock plus most of the
    increment, never more than half of what is left."""
    if limits.infinite:
        return None, None
    if limits.time is not None:
        return limits.soft_time or 0.6 * limits.time, limits.time
    left = limits.btime if mover == 1 else limits.wtime
    if left is None:
        return None, None
    increment = (limits.binc if mover == 1 else limits.winc) or 0.0
    share = left / (limits.movestogo or DEFAULT_MOVES_TO_GO) + 0.75 * increment
    hard = max(min(3 * share, 0.5 * left), 0.01)
    return min(share, hard), hard


class Engine:
    def __init__(self, game: Game[Any, Any], settings: Settings = Settings()) -> None:
        self.game = game
        self.settings = settings
        self.table = self._table()

    def _table(self) -> TranspositionTable:
        # The table indexes by a mask, so its size is a power of two.
        return TranspositionTable(1 << max(4, self.settings.tt_size.bit_length() - 1))

    def new_game(self) -> None:
        self.table = self._table()

    def search(self, position: Any, limits: SearchLimits = SearchLimits(), *,
               on_info: Callable[[Info], None] | None = None,
               stop: threading.Event | None = None) -> SearchResult:
        game = self.game
        if game.outcome(position) is not None or not game.moves(position):
            raise BadPosition(f"{game.name}: the game is over in {game.format_position(position)!r}")
        mover = getattr(game, "player_to_move", lambda _: None)(position)
        soft, hard = time_for_move(limits, mover)
        budget = Budget(Limits(nodes=limits.nodes, time=hard))
        if stop is not None:
            budget.stop = stop
        rules = Rules(game)
        searcher = tt.build(rules, budget, self.table)
        last: iterative.DepthResult | None = None
        pv: list[Any] = []
        for result in iterative.deepen(rules, searcher, position, limits.depth or MAX_DEPTH):
            last = result
            pv = iterative.table_line(rules, searcher, position, result.best_move, result.depth)
            elapsed = budget.elapsed()
            if on_info is not None:
                on_info(Info(result.depth, searcher.counters().max_ply, int(result.value), result.nodes,
                             int(result.nodes / max(elapsed, 1e-6)), elapsed, pv))
            if soft is not None and elapsed >= soft:
                break
        nodes = searcher.counters().nodes
        if last is None:
            move = game.moves(position)[0]
            return SearchResult(move, 0, 0, [move], nodes, budget.elapsed())
        return SearchResult(last.best_move, int(last.value), last.depth, pv, nodes, budget.elapsed(),
                            last.exact, searcher.counters().max_ply)

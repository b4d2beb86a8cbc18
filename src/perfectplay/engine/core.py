"""The engine front ends call: one position in, the best move of the last completed
iteration out, with progress reported after every iteration."""

from __future__ import annotations

import threading
import weakref
from typing import Any, Callable

from perfectplay.engine.api import MAX_DEPTH, Info, SearchLimits, SearchResult, Settings
from perfectplay.engine.clock import Clock
from perfectplay.engine.search import Iteration, Searcher
from perfectplay.engine.smp import HelperPool
from perfectplay.engine.table import EngineTable
from perfectplay.errors import BadPosition
from perfectplay.game import Game


class Engine:
    """A depth-limited engine for ``game`` with the layers switched on in ``settings``.

    The table persists between searches (as in a game, where the last search's entries
    order the next one); :meth:`new_game` clears it. With ``settings.threads`` > 1 the
    table lives in shared memory and ``threads - 1`` helper processes join every search;
    call :meth:`close` (or use the engine as a context manager) to end them.
    """

    def __init__(self, game: Game[Any, Any], settings: Settings = Settings()) -> None:
        self.game = game
        self.settings = settings
        self.table = EngineTable(settings.tt_size, shared=settings.threads > 1)
        self.searcher = Searcher(game, settings, self.table)
        self._pool: HelperPool | None = None
        self._finalizer = weakref.finalize(self, _release, self.table, [None])

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def new_game(self) -> None:
        """Forget everything learnt: table, killers and history."""
        self.table.clear()
        self.searcher.new_game()
        if self._pool is not None:
            self._pool.new_game()

    def search(self, position: Any, limits: SearchLimits = SearchLimits(), *,
               on_info: Callable[[Info], None] | None = None,
               stop: threading.Event | None = None) -> SearchResult:
        """Search ``position`` within ``limits``; raises BadPosition if the game is over."""
        game = self.game
        if game.outcome(position) is not None or not game.moves(position):
            raise BadPosition(f"{game.name}: the game is over in {game.format_position(position)!r}; "
                              "there is no move to search")
        clock = Clock(limits, stop, game.player_to_move(position))
        max_depth = limits.depth or MAX_DEPTH
        pool = self._helpers()
        if pool is not None:
            pool.start(position, (self.table.generation + 1) & 63, max_depth)
        last: Iteration | None = None
        helper_nodes = 0
        try:
            for iteration in self.searcher.iterate(position, clock, max_depth):
                last = iteration
                if on_info is not None:
                    on_info(self._info(iteration, clock.elapsed()))
        finally:
            if pool is not None:
                helper_nodes = pool.finish()
        return self._result(position, last, clock, helper_nodes)

    def _helpers(self) -> HelperPool | None:
        if self.settings.threads == 1:
            return None
        if self._pool is None:
            self._pool = HelperPool(self.game, self.settings, self.table, self.settings.threads - 1)
            self.searcher.pace = self._pool.pace
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _release, self.table, [self._pool])
        return self._pool

    def _info(self, iteration: Iteration, elapsed: float) -> Info:
        return Info(depth=iteration.depth, seldepth=iteration.seldepth, score=iteration.score,
                    nodes=iteration.nodes, nps=int(iteration.nodes / max(elapsed, 1e-6)),
                    time_s=elapsed, pv=list(iteration.pv))

    def _result(self, position: Any, last: Iteration | None, clock: Clock, helper_nodes: int) -> SearchResult:
        elapsed = clock.elapsed()
        nodes = self.searcher.nodes + helper_nodes
        if last is None:
            # Stopped before the first iteration ended: the root move that had scored best
            # so far, else any legal move (any beats none).
            moves = self.game.moves(position)
            best = self.searcher.root_best
            move = best if best is not None and best in moves else moves[0]
            return SearchResult(best_move=move, score=0, depth=0, pv=[move], nodes=nodes,
                                elapsed_s=elapsed, exact=False)
        return SearchResult(best_move=last.best_move, score=last.score, depth=last.depth,
                            pv=list(last.pv), nodes=nodes, elapsed_s=elapsed, exact=last.exact,
                            seldepth=last.seldepth, table_hits=self.searcher.table_hits,
                            cutoffs=self.searcher.cutoffs, shared_hits=self.searcher.shared_hits,
                            shared_cutoffs=self.searcher.shared_cutoffs, helper_nodes=helper_nodes)

    def close(self) -> None:
        """End the helper processes and free the shared table."""
        self._finalizer()


def _release(table: EngineTable, pools: list[HelperPool | None]) -> None:
    for pool in pools:
        if pool is not None:
            pool.close()
    table.close()

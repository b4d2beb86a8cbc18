"""The engine front ends call: one position in, the best move found out (the last completed
iteration's, or a deeper one's that the clock cut short), with progress reported after every
iteration."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from perfectplay.engine.api import MAX_DEPTH, Info, SearchLimits, SearchResult, Settings, within_reach
from perfectplay.engine.clock import Clock
from perfectplay.engine.search import Iteration, Probe, RootMoveReport, Searcher
from perfectplay.engine.smp import HelperPool
from perfectplay.engine.transposition import EngineTable
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game


class Engine:
    """A depth-limited engine for ``game`` with the layers switched on in ``settings``.

    The table persists between searches (as in a game, where the last search's entries
    order the next one); :meth:`new_game` clears it. With ``settings.threads`` > 1 the
    table lives in shared memory and ``threads - 1`` helper processes join every search;
    call :meth:`close` (or use the engine as a context manager) to end them.

    ``probe`` is outside knowledge the search may ask at any node but the root: a value on
    the evaluation's scale for a position it knows (a Syzygy table's win, draw or loss), or
    None. The caller decides what the root may play (``SearchLimits.searchmoves``).
    """

    def __init__(self, game: Game[Any, Any], settings: Settings = Settings(),  # noqa: B008 - frozen
                 probe: Probe | None = None) -> None:
        self.game = game
        self.settings = settings
        self.probe = probe
        self.table = EngineTable(settings.tt_size, shared=settings.threads > 1)
        self.searcher = Searcher(game, settings, self.table, probe=probe)
        self._pool: HelperPool | None = None
        self._warm = False
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

    def clear_table(self) -> None:
        """Empty the transposition table only (UCI's ``Clear Hash``)."""
        self.table.clear()

    def warm_up(self) -> None:
        """Pay the first search's one-off costs now (UCI's ``isready``): the table's memory
        is touched (a fresh table's pages are mapped on first write) and the Lazy SMP helpers
        are forked. Once per engine; later calls return at once."""
        if self._warm:
            return
        self._warm = True
        self.table.clear()
        self._helpers()

    def search(self, position: Any, limits: SearchLimits = SearchLimits(), *,  # noqa: B008 - frozen
               on_info: Callable[[Info], None] | None = None,
               stop: threading.Event | None = None, hold: threading.Event | None = None,
               multipv: int = 1, on_root_move: RootMoveReport | None = None) -> SearchResult:
        """Search ``position`` within ``limits``; raises BadPosition if the game is over.

        ``stop`` ends the search (the best move so far is the answer); while ``hold`` is set
        the time limits wait (pondering) and start counting when it is cleared. ``multipv``
        lines are searched and reported (``Info.multipv``); ``on_root_move(depth, move,
        number)`` hears each root move as its search begins (UCI's ``currmove``)."""
        game = self.game
        if game.outcome(position) is not None or not game.moves(position):
            raise BadPosition(f"{game.name}: the game is over in {game.format_position(position)!r}; "
                              "there is no move to search")
        within_reach(limits)
        root_moves = self._root_moves(position, limits)
        clock = Clock(limits, stop, game.player_to_move(position), hold)
        max_depth = limits.depth or MAX_DEPTH
        pool = self._helpers()
        if pool is not None:
            pool.start(position, (self.table.generation + 1) & 63, max_depth)
        searcher = self.searcher
        searcher.on_root_move = on_root_move
        searcher.on_window = None if on_info is None else (
            lambda depth, score, bound: on_info(self._window_info(depth, score, bound, clock)))
        last: Iteration | None = None
        helper_nodes = 0
        try:
            for iteration in searcher.iterate(position, clock, max_depth, root_moves=root_moves,
                                              lines=multipv):
                last = iteration
                self._report(iteration, clock, on_info)
        finally:
            searcher.on_root_move = searcher.on_window = None
            if pool is not None:
                helper_nodes = pool.finish()
        partial = searcher.partial
        cut = partial is not None and (last is None or partial.depth > last.depth)
        if partial is not None and cut:
            self._report(partial, clock, on_info)
            if last is None:
                last = partial
            else:
                merged = _merged(partial, last)
                # MultiPV: the lines the cut iteration did not reach follow its own, numbered
                # on, at the depth they were searched to: without them a GUI kept an older
                # line for a move the cut iteration had already placed higher (the same move
                # as lines 1 and 2).
                rest = merged.lines[len(partial.lines):multipv]
                self._report(replace(last, lines=rest), clock, on_info, first=len(partial.lines) + 1)
                last = merged
        return self._result(root_moves, last, clock, helper_nodes, cut)

    def _root_moves(self, position: Any, limits: SearchLimits) -> list[Any]:
        """The legal moves the root may play: all, or those of ``searchmoves``."""
        moves = list(self.game.moves(position))
        if limits.searchmoves is None:
            return moves
        allowed = [move for move in moves if move in limits.searchmoves]
        if not allowed:
            written = ", ".join(str(move) for move in limits.searchmoves)
            raise BadOption(f"searchmoves {written}: none of them is legal in "
                            f"{self.game.format_position(position)!r}")
        return allowed

    def _report(self, iteration: Iteration, clock: Clock, on_info: Callable[[Info], None] | None,
                first: int = 1) -> None:
        """One ``Info`` a line of ``iteration``, numbered (``multipv``) from ``first``."""
        if on_info is None:
            return
        elapsed = clock.elapsed()
        hashfull = self.table.filled_permille()
        for number, line in enumerate(iteration.lines, first):
            on_info(Info(depth=iteration.depth, seldepth=iteration.seldepth, score=line.score,
                         nodes=iteration.nodes, nps=int(iteration.nodes / max(elapsed, 1e-6)),
                         time_s=elapsed, pv=list(line.pv), multipv=number, bound=iteration.bound,
                         tbhits=self.searcher.tb_hits, hashfull=hashfull))

    def _window_info(self, depth: int, score: int, bound: str, clock: Clock) -> Info:
        """A failed aspiration window: the value is only known to lie beyond ``score``."""
        elapsed, nodes = clock.elapsed(), self.searcher.nodes
        return Info(depth=depth, seldepth=self.searcher.seldepth, score=score, nodes=nodes,
                    nps=int(nodes / max(elapsed, 1e-6)), time_s=elapsed, pv=list(self.searcher.pv[0][:1]),
                    bound=bound, tbhits=self.searcher.tb_hits, hashfull=self.table.filled_permille())

    def _helpers(self) -> HelperPool | None:
        if self.settings.threads == 1:
            return None
        if self._pool is None:
            self._pool = HelperPool(self.game, self.settings, self.table, self.settings.threads - 1,
                                    self.probe)
            self.searcher.pace = self._pool.pace
            self._finalizer.detach()
            self._finalizer = weakref.finalize(self, _release, self.table, [self._pool])
        return self._pool

    def _result(self, root_moves: list[Any], last: Iteration | None, clock: Clock,
                helper_nodes: int, cut: bool) -> SearchResult:
        elapsed = clock.elapsed()
        searcher = self.searcher
        nodes = searcher.nodes + helper_nodes
        if last is None:
            # Stopped before any root move was searched: any legal move beats none.
            move = root_moves[0]
            return SearchResult(best_move=move, score=0, depth=0, pv=[move], nodes=nodes,
                                elapsed_s=elapsed, exact=False, tb_hits=searcher.tb_hits)
        return SearchResult(best_move=last.best_move, score=last.score, depth=last.depth,
                            pv=list(last.pv), nodes=nodes, elapsed_s=elapsed, exact=last.exact,
                            seldepth=last.seldepth, partial=cut,
                            table_hits=searcher.table_hits, cutoffs=searcher.cutoffs,
                            shared_hits=searcher.shared_hits, shared_cutoffs=searcher.shared_cutoffs,
                            helper_nodes=helper_nodes, tb_hits=searcher.tb_hits, lines=list(last.lines))

    def close(self) -> None:
        """End the helper processes and free the shared table."""
        self._finalizer()


def _merged(partial: Iteration, last: Iteration) -> Iteration:
    """A cut iteration's lines, then the last completed iteration's lines for the moves it
    did not reach (MultiPV: every move keeps a line, the deepest one it has)."""
    reached = [line.pv[0] for line in partial.lines]
    rest = [line for line in last.lines if line.pv[0] not in reached]
    return replace(partial, lines=[*partial.lines, *rest])


def _release(table: EngineTable, pools: list[HelperPool | None]) -> None:
    for pool in pools:
        if pool is not None:
            pool.close()
    table.close()

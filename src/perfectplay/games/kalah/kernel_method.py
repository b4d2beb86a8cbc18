"""Kalah's compiled search (perfectplay.games.kalah.kernel) as a solving method: ``--engine
compiled``, and ``auto`` on boards of 18 seeds or more (smaller ones search faster than numba
compiles). It reads the endgame database of the board's pits and capture rule when one has
been built (in perfectplay.games.kalah.files.directory()) and says so in the answer's note.
Only light imports here: numba and numpy load when a solve runs."""

from __future__ import annotations

import time
from typing import Any

from perfectplay.compiled.method import KernelRun, kernel_warm_up, objection
from perfectplay.finish import line_totals
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution, Stats

ALGORITHMS = ("auto",)
PREFERRED_FROM_SEEDS = 18
# Nodes per slice of a long search: a few seconds, between which Ctrl-C is heard.
SLICE_NODES = 20_000_000
_SEARCHERS: dict[tuple[int, int, bool], Any] = {}


def _is_kalah(game: Any) -> bool:
    from perfectplay.games.kalah.rules import Kalah
    return isinstance(game, Kalah)


def _searcher(game: Any) -> Any:
    from perfectplay.games.kalah.endgame import find
    from perfectplay.games.kalah.kernel import Searcher
    shape = (game.pits, game.seeds, game.empty_capture)
    if shape not in _SEARCHERS:
        _SEARCHERS.clear()  # one board's table at a time: each is about 100 MB
        _SEARCHERS[shape] = Searcher(game, find(game.pits, game.empty_capture))
    return _SEARCHERS[shape]


def _note(searcher: Any) -> str:
    from perfectplay.games.kalah.kernel import DATABASE_HITS
    if searcher.database is None:
        return ("MTD(f); no endgame database for this board (build one: perfectplay db build "
                "kalah --endgame)")
    return (f"MTD(f) with the endgame database of boards with up to {searcher.database.seeds} "
            f"seeds in play ({int(searcher.counters[DATABASE_HITS]):,} lookups)")


class _Run(KernelRun):
    method = "kalah-kernel"

    def __init__(self, game: Any, request: Request) -> None:
        from perfectplay.games.kalah.kernel import STOP
        super().__init__(game, _searcher(game), request, STOP)

    def value(self, position: Any, guess: int = 0) -> int:
        return self.answer(lambda: self.searcher.value(position, SLICE_NODES, self.budget.poll,
                                                       self.node_cap, guess))

    def move_values(self, position: Any) -> list[tuple[int, int]]:
        """(pit, value for the mover) for every legal move, in the game's order; the table is
        shared, so each move's MTD(f) reuses what the others found."""
        from perfectplay.games.kalah.kernel import move_values
        return list(move_values(self.game, position, self.game.moves(position), self.value))

    def reaches(self, position: Any, target: int) -> bool:
        """Whether ``position`` is worth ``target`` or more to its mover (one null-window
        search; a finished game is worth 0 more)."""
        if not self.game.legal_moves(position):
            return target <= 0
        return bool(self.answer(lambda: self.searcher.at_least(
            position, target, SLICE_NODES, self.budget.poll, self.node_cap)))

    def optimal_move(self, position: Any, value: int) -> int:
        """A move that keeps ``value`` (the position's, for its mover): the first whose child
        passes one null-window test, instead of every move's exact value."""
        game = self.game
        for pit in game.moves(position):
            child = game.play(position, pit)
            gain = game.gain(position, pit)
            if game.keeps_turn(position, pit):
                if self.reaches(child, value - gain):
                    return int(pit)
            elif not self.reaches(child, gain - value + 1):
                return int(pit)
        raise AssertionError(f"no move of {game.format_position(position)} keeps {value:+d}")

    def line(self, position: Any, value: int, first: int, limit: int) -> list[int]:
        """The principal variation from ``position`` (worth ``value``) starting with
        ``first``, up to ``limit`` moves: each next move by null-window tests."""
        game = self.game
        line: list[int] = []
        move = first
        while len(line) < limit:
            line.append(move)
            gain = game.gain(position, move)
            again = game.keeps_turn(position, move)
            position = game.play(position, move)
            value = value - gain if again else gain - value
            if not game.legal_moves(position):
                break
            move = self.optimal_move(position, value)
        return line


def solve(game: Any, position: Any, request: Request) -> Solution:
    started = time.perf_counter()
    run = _Run(game, request)
    searcher = run.searcher
    searcher.counters[:] = 0
    with run.watch:
        valued = run.move_values(position) if game.legal_moves(position) else []
        value = max((worth for _, worth in valued), default=0)
        optimal = [pit for pit, worth in valued if worth == value]
        main_nodes = int(searcher.counters[0])
        line = run.line(position, value, optimal[0], request.pv_limit) if optimal else []
    stats = Stats(nodes=main_nodes, table_hits=int(searcher.counters[1]),
                  cutoffs=int(searcher.counters[2]), elapsed_s=time.perf_counter() - started,
                  extra_nodes=int(searcher.counters[0]) - main_nodes)
    return Solution.of(game, position, "kalah-kernel", value, optimal, line, stats, score_game=True,
                       totals=line_totals(game, position, line, value), note=_note(searcher),
                       moves=_move_values(game, position, valued))


def _move_values(game: Any, position: Any, valued: list[tuple[int, int]]) -> list[MoveValue]:
    return sorted((MoveValue(pit, game.format_move(position, pit), worth, True)
                   for pit, worth in valued), key=lambda move_value: -move_value.value)


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    run = _Run(game, request)
    run.searcher.counters[:] = 0
    with run.watch:
        return _move_values(game, position, run.move_values(position))


def _seeds(game: Any) -> int:
    return 2 * int(game.pits) * int(game.seeds)


def _applies(game: Any, request: Request) -> str | None:
    from perfectplay.games.kalah.kernel import MAX_PITS, MAX_SEEDS_IN_KEY
    if game.pits > MAX_PITS or 2 * game.pits * game.seeds > MAX_SEEDS_IN_KEY:
        return (f"the Kalah kernel takes up to {MAX_PITS} pits and {MAX_SEEDS_IN_KEY} seeds; "
                f"Kalah({game.pits},{game.seeds}) is larger")
    return objection(ALGORITHMS)(game, request)



def _board(pits: int, seeds: int) -> Any:
    from perfectplay.games.kalah.rules import Kalah
    return Kalah(pits, seeds)


register(Method("kalah-kernel", "Kalah: MTD(f) with extra turns, a table of bounds keyed by "
                "the pits, futility bounds and the endgame databases, in numba",
                solve, analyze, engine="compiled",
                answers=ALGORITHMS, handles=_is_kalah, applies=_applies,
                preferred=lambda game, request: _seeds(game) >= PREFERRED_FROM_SEEDS,
                priority=10, proves_optimal_moves=True,
                warm_up=kernel_warm_up(lambda: _board(2, 1), solve)))

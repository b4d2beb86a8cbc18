"""Kalah's compiled search (perfectplay.games.kalah.kernel) as a solving method: ``--engine
compiled``, and ``auto`` on boards of 18 seeds or more (smaller ones search faster than numba
compiles). It reads the endgame database of the board's pits and capture rule when one has
been built (in perfectplay.games.kalah.files.directory()) and says so in the answer's note.
Only light imports here: numba and numpy load when a solve runs."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from perfectplay.compiled.method import KernelRun, kernel_warm_up, objection
from perfectplay.finish import line_totals
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, OwnProgress, Solution, Stats

if TYPE_CHECKING:  # only annotations name it
    from perfectplay.games.kalah.book import Entry

ALGORITHMS = ("auto",)
PREFERRED_FROM_SEEDS = 18
# Nodes per slice of a long search: a few seconds, between which Ctrl-C is heard.
SLICE_NODES = 20_000_000
_SEARCHERS: dict[tuple[int, int, bool], Any] = {}
# Boards with this many seeds or more deepen 6, 12, 18 and 24 plies before the search to the
# end, not the kernel's 4, 8, 12: on Kalah(6,4) that cut the dearest first moves' nodes by 4
# to 5 times (docs/extra_turns.md); the smaller boards the default was chosen on keep it.
WIDE_DEEPENING_FROM_SEEDS = 48
WIDE_DEEPENING = (6, 12, 18, 24)


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
        from perfectplay.games.kalah.kernel import DEEPENING
        deepening = WIDE_DEEPENING if _seeds(self.game) >= WIDE_DEEPENING_FROM_SEEDS else DEEPENING
        return self.answer(lambda: self.searcher.value(position, SLICE_NODES, self.budget.poll,
                                                       self.node_cap, guess, deepening))

    def keeps(self, position: Any, pit: int, value: int) -> bool:
        """Whether ``pit`` is worth ``value`` (the position's, for its mover) or more: one
        null-window test of its child."""
        game = self.game
        child = game.play(position, pit)
        gain = game.gain(position, pit)
        if game.keeps_turn(position, pit):
            return self.reaches(child, value - gain)
        return not self.reaches(child, gain - value + 1)

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
            if self.keeps(position, pit, value):
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


class MoveTest(OwnProgress):
    """Progress while the optimal moves are proved: the null-window test of one pit (the
    ``index``-th of ``count``) begins; the position's value is known by then."""

    value_known = True

    def __init__(self, pit: int, index: int, count: int, nodes: int) -> None:
        self.pit, self.index, self.count, self.nodes = pit, index, count, nodes

    @property
    def progress_line(self) -> str:
        return f"proving pit {self.pit} (move {self.index} of {self.count}) after {self.nodes:,} nodes"

    def still_proving(self, seconds: float) -> str:
        return (f"Still proving: pit {self.pit} (move {self.index} of {self.count}), "
                f"{seconds:.1f} s of CPU so far...")


def prove(run: _Run, position: Any, request: Request, booked: Entry | None = None
          ) -> tuple[int, list[int]]:
    """The value of ``position`` and its optimal pits: the opening book's entry ``booked``
    (games/kalah/book.py) when there is one, else MTD(f) for the value, then one null-window
    test per move, each proved pit told to ``request.on_optimal`` as it is found."""
    game = run.game
    if booked is not None:
        for pit in booked.best:
            if request.on_optimal is not None:
                request.on_optimal(pit, booked.value)
        return booked.value, list(booked.best)
    value = run.value(position)
    moves = game.moves(position)
    optimal: list[int] = []
    for index, pit in enumerate(moves, 1):
        if request.on_depth is not None:
            request.on_depth(MoveTest(pit, index, len(moves), run.nodes()))
        if run.keeps(position, pit, value):
            optimal.append(int(pit))
            if request.on_optimal is not None:
                request.on_optimal(pit, value)
    return value, optimal


def solve(game: Any, position: Any, request: Request) -> Solution:
    # A booked position past the search's reach (Kalah(6,4)'s first plies without an endgame
    # database, hours of search) is answered by the book: its value and optimal moves, with
    # neither the other moves' values nor a line, which only that search would give.
    if request.optimal_only or (request.book != "none" and not game.searchable(position)):
        return _proved(game, position, request)
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


def prove_by_search(game: Any, position: Any) -> tuple[int, list[int], int]:
    """The value and optimal pits of ``position`` (which has a legal move) by the kernel
    alone, without a budget or the book, and the nodes it took: how the book is computed."""
    request = Request(engine="compiled", pv_limit=0, optimal_only=True)
    run = _Run(game, request)
    run.searcher.counters[:] = 0
    with run.watch:
        value, optimal = prove(run, position, request)
    return value, optimal, run.nodes()


def _proved(game: Any, position: Any, request: Request) -> Solution:
    """The optimal moves alone, proved (``prove``), for a caller that wants no other move's
    value: play's perfect level (perfectplay.deciding.prove)."""
    from perfectplay.games.kalah.book import lookup
    started = time.perf_counter()
    run = _Run(game, request)
    searcher = run.searcher
    searcher.counters[:] = 0
    playable = bool(game.legal_moves(position))
    booked = lookup(game, position) if playable and request.book != "none" else None
    with run.watch:
        value, optimal = prove(run, position, request, booked) if playable else (0, [])
    stats = Stats(nodes=int(searcher.counters[0]), table_hits=int(searcher.counters[1]),
                  cutoffs=int(searcher.counters[2]), elapsed_s=time.perf_counter() - started)
    note = "the opening book (games/kalah/book.json)" if booked is not None else _note(searcher)
    return Solution.of(game, position, "kalah-kernel", value, optimal, [], stats, score_game=True,
                       note=note)


def _move_values(game: Any, position: Any, valued: list[tuple[int, int]]) -> list[MoveValue]:
    return sorted((MoveValue(pit, game.format_move(position, pit), worth, True)
                   for pit, worth in valued), key=lambda move_value: -move_value.value)


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    if request.book != "none" and not game.searchable(position):
        return _move_values(game, position, _booked_move_values(game, position))
    run = _Run(game, request)
    run.searcher.counters[:] = 0
    with run.watch:
        return _move_values(game, position, run.move_values(position))


def _booked_move_values(game: Any, position: Any) -> list[tuple[int, int]]:
    """Every move's value from the book's entries for the positions the moves reach (a
    booked position past the search's reach); UnsupportedSearch when one is not booked."""
    from perfectplay.errors import UnsupportedSearch
    from perfectplay.games.kalah.book import lookup
    from perfectplay.value import move_worth
    valued = []
    for pit in game.moves(position):
        child = game.play(position, pit)
        known = lookup(game, child) if game.legal_moves(child) else None
        if game.legal_moves(child) and known is None:
            raise UnsupportedSearch(
                f"kalah: every move of {game.format_position(position)!r} is too big to value "
                "exactly without the endgame database (the opening book holds only the best "
                "moves there); build it with perfectplay db build kalah --endgame 20 --workers 2")
        after = 0 if known is None else known.value
        valued.append((int(pit), move_worth(after, game.gain(position, pit),
                                            game.keeps_turn(position, pit), score_game=True)))
    return valued


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

"""Hex's connection solver (perfectplay.games.hex.solver) and its opening book
(perfectplay.games.hex.book) as a solving method: ``hex-solver``, which ``--engine auto``
chooses from 4x4 up when numba imports, ahead of the plain kernel (``hex-kernel``).

It answers as the kernel does (win or loss without a distance, every optimal move, a line),
and the positions the book holds at once: the start (every first move's value) and, one
stone in, the positions the mover loses (every move loses). Those it leads with, ahead of
any search, as a database does, so that play and the web page show exact values on 6x6 from
the first move. Boards up to 6x6 are solved without a limit (a 6x6 opening takes the solver
at most minutes, docs/pns.md); 7x7 needs a limit outside the book. From a position the book
settles, the line goes as far as the book reaches."""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.compiled import numba_available
from perfectplay.compiled.method import kernel_warm_up
from perfectplay.games.hex.book import book_answer, book_value, settles_every_move
from perfectplay.games.hex.kernel_method import KERNEL_MAX_SIZE, KernelRun, solve_by
from perfectplay.methods import Method, Request, register, too_big_without_limit
from perfectplay.search.results import MoveValue, Solution

ALGORITHMS = ("auto",)
NAME = "hex-solver"
PREFERRED_FROM_SIZE = 4
SOLVED_WITHOUT_LIMIT = 6


def _is_hex(game: Any) -> bool:
    from perfectplay.games.hex.rules import Hex
    return isinstance(game, Hex)


class _BookRun(KernelRun):
    """A run of the connection solver that asks the book first."""

    def __init__(self, game: Any, request: Request) -> None:
        from perfectplay.games.hex.solver import ConnectionSearcher
        super().__init__(game, request, NAME, ConnectionSearcher)

    def mover_wins(self, position: Any) -> tuple[bool, int | None]:
        found = book_answer(self.game, position) if self.game.outcome(position) is None else None
        return found if found is not None else super().mover_wins(position)

    def move_wins(self, position: Any, move: int) -> bool:
        child = self.game.play(position, move)
        known = book_value(self.game, child) if self.game.outcome(child) is None else None
        return not known if known is not None else super().move_wins(position, move)

    def line(self, position: Any, limit: int) -> list[int]:
        """A searched line from a position the book does not settle; from one it does, the
        line as far as the book reaches (past it each step would be a proof of its own)."""
        if self.game.outcome(position) is not None or book_answer(self.game, position) is None:
            return super().line(position, limit)
        moves: list[int] = []
        while len(moves) < limit and self.game.outcome(position) is None:
            found = book_answer(self.game, position)
            if found is None:
                break
            moves.append(found[1])
            position = self.game.play(position, found[1])
        return moves


def solve(game: Any, position: Any, request: Request) -> Solution:
    return solve_by(_BookRun(game, request), game, position, request)


def analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    if game.outcome(position) is not None:
        return []
    lost = book_answer(game, position)
    if lost is not None and not lost[0]:  # every move loses: no search
        return [MoveValue(move, game.format_move(position, move), -V.WIN_ONLY, False)
                for move in game.moves(position)]
    run = _BookRun(game, request)
    valued = [MoveValue(move, game.format_move(position, move),
                        V.WIN_ONLY if run.move_wins(position, move) else -V.WIN_ONLY, False)
              for move in game.moves(position)]
    return sorted(valued, key=lambda move_value: -move_value.value)


def _leads(game: Any, request: Request) -> bool:
    return request.algorithm == "auto" and request.engine != "python" and \
        request.limits.depth is None and request.position is not None and _is_hex(game) and \
        game.outcome(request.position) is None and settles_every_move(game, request.position) \
        and numba_available()


def _applies(game: Any, request: Request) -> str | None:
    if not numba_available():
        return "numba is not installed (pip install 'perfectplay[fast]')"
    if game.size > KERNEL_MAX_SIZE:
        return f"the Hex solver takes boards up to {KERNEL_MAX_SIZE}x{KERNEL_MAX_SIZE}"
    if request.algorithm not in ALGORITHMS:
        return f"the hex solver runs --algorithm {', '.join(ALGORITHMS)}, not {request.algorithm!r}"
    if request.limits.depth is not None:
        return "the Hex solver proves to the end of the game: drop --depth (use --nodes or --time)"
    if game.size <= SOLVED_WITHOUT_LIMIT:
        return None
    return too_big_without_limit(game, request)


def _pays(game: Any, request: Request) -> bool:
    """From 4x4 up (on 3x3 df-pn in Python answers before numba loads)."""
    return bool(game.size >= PREFERRED_FROM_SIZE)


def _board(size: int) -> Any:
    from perfectplay.games.hex.rules import Hex
    return Hex(size)


register(Method(NAME, "Hex: does the mover win? The kernel's search with virtual connections "
                "(H-search), must-play regions, dead and captured cells, proof sets and the "
                "half-turn; the opening book of solved maps first; in numba", solve, analyze,
                engine="compiled", answers=ALGORITHMS, handles=_is_hex, applies=_applies,
                preferred=_pays, priority=5, proves_optimal_moves=True, leads=_leads,
                warm_up=kernel_warm_up(lambda: _board(3), solve)))

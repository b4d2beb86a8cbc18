"""The opening book as a solving method: Connect Four's kernel with the book in front.

Registered ahead of the plain kernel (priority 5 against 10) for every Connect Four board, it
answers exactly as the kernel does (same requests, same objections, same node budgets) and
hands the kernel the book that fits the board: the one a request names (``Request.book``, a
file's path), else the shipped one, unless the request says ``none``. The kernel then reads
a position the book holds instead of searching it (games/connect4/kernel_engine.py), and says
"from the opening book" in the answer.

Only light things are imported here; the book file is read on first use.
"""

from __future__ import annotations

from typing import Any

from perfectplay.games.connect4 import is_connect_four
from perfectplay.games.connect4.kernel_method import (
    ALGORITHMS,
    kernel_analyze,
    kernel_applies,
    kernel_solve,
    kernel_warm_up,
)
from perfectplay.methods import Method, Request, register
from perfectplay.search.results import MoveValue, Solution

NO_BOOK = "none"


def book_of(game: Any, request: Request) -> Any:
    """The book to consult for this request (perfectplay.games.connect4.book.lookup.Book), or None."""
    if request.book == NO_BOOK:
        return None
    from perfectplay.games.connect4.book.lookup import book_for
    return book_for(game, request.book)


def _solve(game: Any, position: Any, request: Request) -> Solution:
    return kernel_solve(game, position, request, book=book_of(game, request))


def _analyze(game: Any, position: Any, request: Request) -> list[MoveValue]:
    return kernel_analyze(game, position, request, book=book_of(game, request))


register(Method("connect4-book", "Connect Four's opening book, then its kernel",
                _solve, _analyze, engine="compiled", answers=ALGORITHMS,
                handles=is_connect_four, applies=kernel_applies,
                preferred=lambda game, request: True, priority=5, proves_optimal_moves=True,
                warm_up=kernel_warm_up))

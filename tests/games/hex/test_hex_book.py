"""Hex's opening book (perfectplay.games.hex.book): its maps against the solver and the
published counts, and the exact answers it gives play and the web page at once."""

from __future__ import annotations

import pytest

from perfectplay import analyze, deciding, registry, solve
from perfectplay.compiled import numba_available
from perfectplay.games.hex import book

# Winning first moves for X, from Benzene's regression tests (Arneson, Hayward and Henderson).
PUBLISHED_WINS = {6: 24, 7: 27}


def test_every_map_is_symmetric_under_the_half_turn_and_has_the_published_count() -> None:
    for size, rows in book.MAPS.items():
        assert [len(row) for row in rows] == [size] * size
        assert rows == tuple(row[::-1] for row in reversed(rows)), size
        wins = sum(row.count("+") for row in rows)
        if size in PUBLISHED_WINS and book.complete(size):
            assert wins == PUBLISHED_WINS[size]


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
def test_the_maps_up_to_5x5_are_what_the_connection_solver_proves() -> None:
    from perfectplay.games.hex.solver import ConnectionSearcher
    for size in range(2, 6):
        game, start = registry.load("hex", {"size": size})
        searcher = ConnectionSearcher(game, 1 << 16)
        for move in game.moves(start):
            found = searcher.mover_wins(game.play(start, move))
            assert found is not None
            column, row = move % game.stride, move // game.stride
            assert book.first_move_wins(size, column, row) is (not found[0]), game.cell_name(move)


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
def test_play_and_the_web_get_the_6x6_opening_exactly_from_the_book() -> None:
    game, start = registry.load("hex", {"size": 6})
    answer = deciding.decide(game, start, deciding.Think(seconds=1))
    assert (answer.exact, answer.method, answer.source) == (True, "hex-solver", deciding.THEORY)
    winning = {move.notation for move in answer.moves if move.value > 0}
    assert len(winning) == PUBLISHED_WINS[6] and "c3" in winning and "a1" not in winning
    after = game.play(start, game.parse_cell("c3"))  # O to move, lost: every move loses
    answer = deciding.decide(game, after, deciding.Think(seconds=1))
    assert answer.exact and all(move.value < 0 for move in answer.moves)
    assert len(answer.moves) == 35


@pytest.mark.skipif(not numba_available(), reason="numba is not installed")
def test_solve_and_analyze_answer_the_6x6_start_at_once() -> None:
    game, start = registry.load("hex", {"size": 6})
    found = solve(game, start, engine="auto")
    assert (found.describe(), found.algorithm, found.stats.nodes) == ("win", "hex-solver", 0)
    assert len(found.best_moves) == PUBLISHED_WINS[6] and found.pv[0] in found.best_moves
    values = analyze(game, start, engine="auto")
    assert sum(move.value > 0 for move in values) == PUBLISHED_WINS[6]

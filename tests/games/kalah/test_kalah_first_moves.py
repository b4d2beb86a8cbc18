"""Every first move's exact value by the kernel's MTD(f), one table shared across the moves
in any order, against independent searches: Python's alpha-beta with a table (``tt``), and
the kernel's own full-window alpha-beta of each child, under both capture rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfectplay import analyze
from perfectplay.games.kalah.rules import Kalah

pytestmark = pytest.mark.skipif(
    not __import__("perfectplay.compiled", fromlist=["x"]).numba_available(),
    reason="numba is not installed")

# Kalah(5,3)'s first moves, valued here by Python's tt (analyze(..., algorithm="tt",
# engine="python"): 8 and 23 s, too slow to repeat in every run).
FIVE_THREE = {True: {3: 8, 4: -2, 5: -4, 1: -12, 2: -14},
              False: {3: 6, 5: -4, 4: -4, 1: -12, 2: -14}}


def _kernel_values(game: Kalah, order: list[int], database_seeds: int | None,
                   folder: Path) -> dict[int, int]:
    """Each first move's value by MTD(f), in ``order``, from one searcher whose table of
    2**12 entries is far smaller than the search (so bounds keep replacing each other)."""
    from perfectplay.games.kalah.endgame import build
    from perfectplay.games.kalah.kernel import Searcher, move_values
    database = (None if database_seeds is None else
                build(folder / "k.db", game.pits, game.empty_capture, database_seeds))
    searcher = Searcher(game, database, table_bits=12)
    return dict(move_values(game, game.start(), order,
                            lambda child, guess: searcher.value(child, 10**9, lambda count: None,
                                                                guess=guess)))


def _full_window_values(game: Kalah) -> dict[int, int]:
    """Each first move's value by one full-window alpha-beta search of its child."""
    from perfectplay.games.kalah.kernel import Searcher
    searcher = Searcher(game, None, table_bits=16)
    start = game.start()
    found = {}
    for pit in game.moves(start):
        child = game.play(start, pit)
        value = searcher.window_value(child, 10**9)
        gain = game.gain(start, pit)
        found[pit] = gain + value if game.keeps_turn(start, pit) else gain - value
    return found


@pytest.mark.parametrize("pits, seeds", [(4, 3), (3, 4)])
@pytest.mark.parametrize("empty_capture", [True, False])
@pytest.mark.parametrize("database_seeds", [None, 6])
def test_every_first_move_in_any_order_agrees_with_python_tt(
        tmp_path: Path, pits: int, seeds: int, empty_capture: bool,
        database_seeds: int | None) -> None:
    game = Kalah(pits, seeds, empty_capture=empty_capture)
    expected = {move.move: move.value
                for move in analyze(game, game.start(), algorithm="tt", engine="python")}
    forward = game.moves(game.start())
    for order in (forward, forward[::-1]):
        assert _kernel_values(game, order, database_seeds, tmp_path) == expected, order


@pytest.mark.parametrize("empty_capture", [True, False])
def test_every_first_move_of_five_three_agrees_with_tt_and_a_full_window_search(
        tmp_path: Path, empty_capture: bool) -> None:
    game = Kalah(5, 3, empty_capture=empty_capture)
    assert _full_window_values(game) == FIVE_THREE[empty_capture]
    worst_first = sorted(FIVE_THREE[empty_capture], key=FIVE_THREE[empty_capture].get)
    assert _kernel_values(game, worst_first, 8, tmp_path) == FIVE_THREE[empty_capture]
    assert _kernel_values(game, game.moves(game.start()), None,
                          tmp_path) == FIVE_THREE[empty_capture]


@pytest.mark.parametrize("empty_capture", [True, False])
def test_two_threads_sharing_one_small_table_find_every_first_move_of_five_three(
        empty_capture: bool) -> None:
    """Two searchers in two threads, one table of 2**10 entries between them (so that each
    keeps rewriting slots the other reads): every first move's value, twice over."""
    import threading

    from perfectplay.games.kalah.kernel import Searcher, Table, move_values
    game = Kalah(5, 3, empty_capture=empty_capture)
    table = Table(10)
    found: list[dict[int, int]] = [{}, {}]

    def solve_all(index: int, order: list[int]) -> None:
        searcher = Searcher(game, None, table=table)
        found[index] = dict(move_values(
            game, game.start(), order,
            lambda child, guess: searcher.value(child, 10**9, lambda count: None, guess=guess)))

    forward = game.moves(game.start())
    threads = [threading.Thread(target=solve_all, args=(index, order))
               for index, order in enumerate((forward, forward[::-1]))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [FIVE_THREE[empty_capture]] * 2

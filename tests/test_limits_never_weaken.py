"""A limit is a promise to stop, never a reason to slow down: under --time or --nodes every
built-in game is answered by the same method, with the same value and best moves, as
without one; every kernel stops at its limits, a node budget exactly; books and tables
answer under any limit."""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Any

import pytest
from conftest import run_main

from perfectplay import analyze, registry, solve
from perfectplay.errors import LimitReached
from perfectplay.search.limits import Budget, Limits

# Where a game's default board is too big to solve in a moment: a small board or position
# of it. Every other game is taken at its default options and start.
SMALL: dict[str, tuple[dict[str, Any], str | None]] = {
    "kalah": ({"pits": 3, "seeds": 3}, None),     # 18 seeds: the kernel's
    "dots": ({"width": 3, "height": 2}, None),    # 17 lines: the table's
    "othello": ({"size": 4}, None),
    "chess": ({}, "8/8/8/8/8/2k5/8/KQ6 w - - 0 1"),  # KQK: the endgame tables
}
NAMES = [entry.name for entry in registry.entries()]
LIMITS = [Limits(time=10), Limits(nodes=10**12), Limits(time=10, nodes=10**12)]

numba = pytest.importorskip("numba", reason="the kernels need numba")


def _loaded(name: str) -> tuple[Any, Any]:
    options, text = SMALL.get(name, ({}, None))
    return registry.load(name, options, text)


def _answer(game: Any, position: Any, limits: Limits | None = None) -> tuple[Any, ...]:
    found = solve(game, position, engine="auto", limits=limits, pv_limit=0)
    return found.algorithm, found.value, found.exact, found.best_moves


def test_every_built_in_game_has_a_case() -> None:
    assert set(SMALL) <= set(NAMES) and len(NAMES) >= 18


@pytest.mark.parametrize("name", NAMES)
def test_a_limit_changes_neither_the_method_nor_the_answer(name: str) -> None:
    game, position = _loaded(name)
    started = time.perf_counter()
    unlimited = _answer(game, position)
    if time.perf_counter() - started > 2:
        unlimited = _answer(game, position)  # the first call loaded a kernel or a book
    for limits in LIMITS:
        limited = _answer(game, position, limits)
        if unlimited[0] == "grundy":
            # Theory gives no remoteness; a limit asks a search for it (play's perfect level
            # relies on that): the same outcome, exact, each best move one of theory's, the
            # fastest win or slowest loss among them. More of an answer, never less.
            assert limited[2] and (limited[1] > 0) == (unlimited[1] > 0), (name, limits)
            assert set(limited[3]) <= set(unlimited[3]) and limited[3], (name, limits)
        else:
            assert limited == unlimited, (name, limits)


@pytest.mark.parametrize("name", ["kalah", "dots", "hex", "connect4", "tictactoe"])
def test_the_compiled_engine_obeys_limits_instead_of_refusing_them(name: str) -> None:
    game, position = _loaded(name)
    exact = solve(game, position, engine="compiled", pv_limit=0)
    for limits in LIMITS:
        found = solve(game, position, engine="compiled", limits=limits, pv_limit=0)
        assert (found.algorithm, found.value, found.best_moves) == \
            (exact.algorithm, exact.value, exact.best_moves)


def _nodes_searched(error: LimitReached) -> int:
    words = str(error).split(" after ")[1].split(" nodes")[0]
    return int(words.replace(",", ""))


@pytest.mark.parametrize("name, options, cap", [
    ("kalah", {"pits": 3, "seeds": 3}, 500),
    ("tictactoe", {}, 100),
    ("connect4", {}, 2_000),
])
def test_a_kernel_searches_exactly_its_node_budget_never_more(name: str, options: dict[str, Any],
                                                             cap: int) -> None:
    game, position = registry.load(name, options)
    if name == "kalah":
        from perfectplay.games.kalah import kernel_method
        kernel_method._SEARCHERS.clear()  # a fresh table: the search must need the nodes
    with pytest.raises(LimitReached, match=r"stopped \(nodes\) after") as stopped:
        solve(game, position, engine="compiled", limits=Limits(nodes=cap), book="none")
    assert _nodes_searched(stopped.value) == cap


def test_pns_stops_at_its_node_limit_not_at_the_next_poll() -> None:
    # It stopped "after 4,096 nodes" when asked for 100: it polled every 4,096th node only.
    game, position = registry.load("dots", {"width": 2, "height": 2})
    with pytest.raises(LimitReached, match=r"after 100 nodes"):
        solve(game, position, algorithm="pns", limits=Limits(nodes=100))


def test_the_dots_table_fills_nothing_it_may_not_finish(monkeypatch: pytest.MonkeyPatch) -> None:
    from perfectplay.games.dots import kernel
    monkeypatch.setattr(kernel, "_TABLES", {})
    game, position = registry.load("dots", {"width": 3, "height": 2})
    with pytest.raises(LimitReached, match=r"after 0 nodes"):
        solve(game, position, engine="compiled", limits=Limits(nodes=1000))
    assert kernel.cached(game) is None
    filled = solve(game, position, engine="compiled", limits=Limits(nodes=1 << game.edges))
    assert filled.stats.nodes == 1 << game.edges and filled.value == -2
    # Once made, the table is a lookup: it answers under any limit.
    assert solve(game, position, engine="compiled", limits=Limits(nodes=1)).value == -2


@pytest.mark.parametrize("name, options, small", [
    ("kalah", {"pits": 6, "seeds": 4}, {"pits": 2, "seeds": 1}),     # far beyond a second
    ("dots", {"width": 3, "height": 3}, {"width": 1, "height": 1}),  # 2^24 positions: seconds
])
def test_a_kernel_stops_at_its_time_limit(name: str, options: dict[str, Any], small: dict[str, Any],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from perfectplay.games.dots import kernel
    monkeypatch.setattr(kernel, "_TABLES", {})
    warm_up, start = registry.load(name, small)
    solve(warm_up, start, engine="compiled")  # the kernel compiled or loaded before the clock starts
    game, position = registry.load(name, options)
    started = time.perf_counter()
    with pytest.raises(LimitReached, match=r"stopped \(time\) after [0-9,]+ nodes"):
        # Not Kalah(6,4)'s opening book, which answers its start at once.
        solve(game, position, engine="compiled", limits=Limits(time=0.3), book="none")
    assert time.perf_counter() - started < 2.5


def test_the_generic_kernel_stops_on_its_budgets_stop_flag() -> None:
    game, position = registry.load("tictactoe", {})
    stopped = Budget()
    stopped.stop.set()
    with pytest.raises(LimitReached, match=r"stopped \((stopped|time)\) after"):
        solve(game, position, engine="compiled", budget=stopped)
    assert solve(game, position, engine="compiled").value == 0  # and the next solve is whole


def test_the_opening_book_answers_under_a_time_limit() -> None:
    # `solve connect4 4 --time 2` stopped "without an answer", though the book holds it.
    game, position = registry.load("connect4", {}, "4")
    unlimited = solve(game, position, engine="auto", pv_limit=0)
    for limits in (Limits(time=0.5), Limits(nodes=1)):
        found = solve(game, position, engine="auto", limits=limits)
        assert (found.value, found.best_moves) == (unlimited.value, unlimited.best_moves)
        assert found.algorithm.startswith("from the opening book")


def test_the_command_line_answers_from_the_book_and_the_kernel_under_a_time_limit() -> None:
    booked = run_main("solve", "connect4", "4", "--time", "5")
    assert booked.code == 0 and "loss in 40" in booked.stdout and "from the opening book" in booked.stdout
    kalah = run_main("solve", "kalah", "--pits", "3", "--seeds", "3", "--engine", "compiled",
                     "--time", "5")
    assert kalah.code == 0 and "kalah-kernel" in kalah.stdout, kalah.stderr


def test_mcts_line_starts_with_its_best_move() -> None:
    game, position = registry.load("othello", {"size": 4})
    for nodes in (500, 3000):
        found = solve(game, position, algorithm="mcts", limits=Limits(nodes=nodes))
        assert found.pv and found.pv[0] == found.best_moves[0]


def test_mcts_estimates_are_numbers_in_json() -> None:
    game, position = registry.load("othello", {"size": 4})
    for move in analyze(game, position, algorithm="mcts", limits=Limits(nodes=300)):
        shown = move.as_dict()
        assert isinstance(shown["value"], int) and shown["value"] == move.value
        assert shown["exact"] is False


def test_ctrl_c_gives_the_mcts_estimate_so_far() -> None:
    game, position = registry.load("othello", {})
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.perf_counter()
    timer.start()
    try:
        found = solve(game, position, algorithm="mcts", limits=Limits(time=60))
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 10
    assert found.best_moves and not found.exact and "stopped early" in (found.note or "")


def test_a_database_answers_under_any_limit(tmp_path: Any) -> None:
    from perfectplay.store.build import build
    game, position = registry.load("tictactoe", {})
    build(game, position, tmp_path / "ttt.db")
    plain = solve(game, position, database=str(tmp_path / "ttt.db"))
    for limits in (Limits(nodes=1), Limits(time=0.01)):
        found = solve(game, position, database=str(tmp_path / "ttt.db"), limits=limits)
        assert (found.algorithm, found.value, found.best_moves) == \
            (plain.algorithm, plain.value, plain.best_moves)

"""Deep games, limits and interruption."""

from __future__ import annotations

import inspect
import signal
import subprocess
import sys
import time

from conftest import solved

from perfectplay import Limits, registry, solve


def test_a_take_away_pile_of_100000_solves_without_recursion_error() -> None:
    result = solved("takeaway", "100000", algorithm="memo", pv_limit=10)
    assert result.outcome == "loss" and result.remoteness == 50_000


def test_a_deep_search_with_alphabeta_and_a_table_also_runs_past_the_recursion_limit() -> None:
    assert solved("takeaway", "30001", algorithm="tt", pv_limit=0).outcome == "win"


def _crate_difference_by_lengths(values: list[int]) -> int:
    """The crate line's bottom-up recurrence written out plainly, as an independent reference."""
    n = len(values)
    shorter = [0] * (n + 2)  # lengths len - 1 and len - 2, indexed by left end
    two_shorter = [0] * (n + 2)
    for length in range(1, n + 1):
        current = [0] * (n + 2)
        for left in range(0, n - length + 1):
            right = left + length - 1
            best = values[left] - shorter[left + 1]
            best = max(best, values[right] - shorter[left])
            if length >= 2:
                best = max(best, values[left] + values[left + 1] - two_shorter[left + 2])
            current[left] = best
        two_shorter, shorter = shorter, current
    return shorter[0]


def test_a_long_crate_line_solves_without_recursion_error() -> None:
    values = [(i * 7919) % 1000 for i in range(1500)]
    game, start = registry.load("crates", {}, " ".join(map(str, values)))
    result = solve(game, start, pv_limit=0)
    assert result.value == _crate_difference_by_lengths(values)
    assert sum(result.totals) == sum(values)


def test_alphabeta_with_a_table_searches_a_deep_crate_line() -> None:
    # 250 plies deep with room for only 150 more Python frames than the caller uses: the
    # search keeps its own stack, so a line deeper than the recursion limit is no error.
    values = [(i * 31) % 17 for i in range(250)]
    game, start = registry.load("crates", {}, " ".join(map(str, values)))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 150)
    try:
        result = solve(game, start, algorithm="tt", pv_limit=0, table_size=1 << 18)
    finally:
        sys.setrecursionlimit(limit)
    assert result.value == _crate_difference_by_lengths(values)
    assert result.stats.max_ply >= 200  # deeper than the frames allowed


def test_iterative_deepening_respects_its_time_limit() -> None:
    # Connect Four from the empty board: far beyond 0.2 s of Python search on any machine.
    game, start = registry.load("connect4", {}, "")
    started = time.perf_counter()
    result = solve(game, start, algorithm="id", limits=Limits(time=0.2))
    elapsed = time.perf_counter() - started
    assert result.best_moves, "a best move from the last completed depth"
    assert not result.exact
    assert elapsed < 0.2 + 0.3  # polls every 256 nodes; the margin is for a machine busy on both cores


def test_iterative_deepening_with_a_depth_limit_is_an_estimate() -> None:
    game, start = registry.load("tictactoe", {}, None)
    shallow = solve(game, start, algorithm="id", limits=Limits(depth=2))
    assert not shallow.exact and shallow.stats.depth == 2
    full = solve(game, start, algorithm="id")
    assert full.exact and full.outcome == "draw"


def test_ctrl_c_stops_a_search_with_one_line_and_no_traceback() -> None:
    process = subprocess.Popen([sys.executable, "-m", "perfectplay", "solve", "nim", "6", "6", "6", "6",
                                "6", "--algorithm", "minimax"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130
    assert stderr.strip().splitlines() == ["interrupted: stopped by Ctrl-C"]


def test_a_depth_limited_search_uses_the_games_heuristic_to_pick_a_move() -> None:
    # One ply deep, tic-tac-toe's open-lines heuristic prefers the centre (4 lines).
    game, start = registry.load("tictactoe", {}, None)
    shallow = solve(game, start, algorithm="id", limits=Limits(depth=1))
    assert shallow.best_moves == ["5"] and shallow.value == 4 and not shallow.exact

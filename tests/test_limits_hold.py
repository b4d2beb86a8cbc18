"""Limits that hold: a node limit is never passed, impossible sizes are
refused up front with a reason, and a search stops before its memory runs away."""

from __future__ import annotations

import json

import pytest
from conftest import run_main

from perfectplay import analyze, registry, solve
from perfectplay.errors import LimitReached, TooLarge
from perfectplay.search import limits as limits_module
from perfectplay.search.limits import Limits

BIG = "1" + "0" * 30


@pytest.mark.parametrize("command", ["solve", "analyze"])
def test_a_node_limit_of_one_stops_tictactoe_at_once(command: str) -> None:
    ran = run_main(command, "tictactoe", "--nodes", "1")
    assert ran.code == 1, ran.stdout
    assert ran.stderr.startswith("stopped: tt stopped (nodes)")


@pytest.mark.parametrize("limit", [1, 2, 7, 100, 515, 745, 5000])
def test_a_search_never_enters_more_nodes_than_its_limit(limit: int) -> None:
    game, start = registry.load("tictactoe", {}, None)
    try:
        result = solve(game, start, algorithm="tt", limits=Limits(nodes=limit))
    except LimitReached as stopped:
        assert f"after {limit:,} node" in str(stopped)
        return
    assert result.stats.nodes + result.stats.extra_nodes <= limit


@pytest.mark.parametrize("limit", [1, 50, 4095, 4097, 9000])
def test_iterative_deepening_reports_the_nodes_it_searched_within_its_limit(limit: int) -> None:
    ran = run_main("solve", "connect4", "--algorithm", "id", "--engine", "python",
                   "--nodes", str(limit), "--json")
    assert ran.code == 0, ran.stderr
    stats = json.loads(ran.stdout)["stats"]
    assert stats["nodes"] + stats["extra_nodes"] <= limit + 1  # + the root, which is not searched


def test_a_table_larger_than_the_machine_is_refused_up_front() -> None:
    ran = run_main("solve", "tictactoe", "--tt-size", BIG)
    assert ran.code == 2
    assert ran.stderr.startswith(f"error: table size '{BIG}' needs ")
    assert "more than this machine's" in ran.stderr


@pytest.mark.parametrize("args", [
    ("perft", "nim", BIG, "--depth", "1"),
    ("solve", "nim", BIG, "--algorithm", "tt"),
    ("solve", "claim", BIG, "--algorithm", "tt"),
    ("solve", "octal", BIG, "--algorithm", "tt"),
])
def test_a_move_list_no_machine_could_build_is_refused_with_a_reason(args: tuple[str, ...]) -> None:
    ran = run_main(*args)
    assert ran.code == 2, ran.stderr
    assert "moves to list, more than the 1,000,000 a search can take" in ran.stderr


def test_theory_still_answers_a_nim_pile_of_ten_to_the_thirty() -> None:
    ran = run_main("solve", "nim", BIG, "--json")
    assert ran.code == 0
    assert json.loads(ran.stdout)["best_moves"] == [f"1:{BIG}"]


def test_the_library_raises_a_specific_error_for_an_impossible_move_list() -> None:
    game, start = registry.load("nim", {}, BIG)
    with pytest.raises(TooLarge):
        analyze(game, start, algorithm="tt")


def test_a_search_that_outgrows_its_memory_bound_stops_with_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    # 10^30 sticks taken one at a time: the path alone would need more memory than exists.
    # A smaller headroom than the shipped 512 MB reaches the bound eight times sooner.
    monkeypatch.setattr(limits_module, "MEMORY_HEADROOM", 64 << 20)
    game, start = registry.load("takeaway", {"take": "1"}, BIG)
    with pytest.raises(LimitReached, match=r"memory: grew by .* MB, more than the table's size plus "
                                           "64 MB"):
        solve(game, start, algorithm="alphabeta")

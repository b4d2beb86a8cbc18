"""Hex's numba kernel (perfectplay.games.hex.kernel) against tt and df-pn: every 3x3
position, random 4x4 positions, the 3x3 and 4x4 maps of docs/pns.md; its limits and its
place among the methods."""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from perfectplay import analyze, methods, registry, solve, solving
from perfectplay.compiled import numba_available
from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.search.limits import Budget, Limits

pytestmark = pytest.mark.skipif(not numba_available(), reason="numba is not installed")


def hex_game(size: int, text: str | None = None):  # type: ignore[no-untyped-def]
    return registry.load("hex", {"size": size}, text)


def kernel_value(game, position, entries: int = 1 << 16) -> int:  # type: ignore[no-untyped-def]
    from perfectplay.games.hex.kernel import Searcher
    found = Searcher(game, entries).mover_wins(position)
    assert found is not None
    return 1 if found[0] else -1


def reference_value(game, position, algorithm: str) -> int:  # type: ignore[no-untyped-def]
    # A node limit: 5x5 declares itself too big to solve without one (it is never reached here).
    found = solve(game, position, algorithm=algorithm, engine="python", pv_limit=0,
                  limits=Limits(nodes=10_000_000))
    return 1 if found.value > 0 else -1


def brute_force_values(game, start):  # type: ignore[no-untyped-def]
    """+1 or -1 for the mover in every undecided position reachable from ``start``: the mover
    wins when one of its moves completes its chain or leaves the opponent lost (Hex has no
    draws). Knows nothing of negamax tables or the kernel's rules."""
    values: dict = {}
    stack = [start]
    while stack:
        position = stack[-1]
        if position in values:
            stack.pop()
            continue
        children = [game.play(position, move) for move in game.moves(position)]
        open_children = [child for child in children if game.outcome(child) is None]
        pending = [child for child in open_children if child not in values]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        finishes = len(open_children) < len(children)
        values[position] = 1 if finishes or any(values[c] < 0 for c in open_children) else -1
    return values


def test_the_kernel_agrees_with_a_brute_force_and_df_pn_on_every_3x3_position() -> None:
    from perfectplay.games.hex.kernel import Searcher
    game, start = hex_game(3)
    truth = brute_force_values(game, start)
    positions = sorted(truth)
    assert len(positions) > 1000
    shared = Searcher(game, 64)  # a small table, shared: entries replaced all the time
    for position in positions:
        found = shared.mover_wins(position)
        assert found is not None
        assert (1 if found[0] else -1) == truth[position], game.format_position(position)
        assert kernel_value(game, position) == truth[position], game.format_position(position)
    for position in positions[::40]:
        assert reference_value(game, position, "tt") == truth[position]
        assert reference_value(game, position, "pns") == truth[position]


def random_4x4_positions(count: int, seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    game, start = hex_game(4)
    found = []
    while len(found) < count:
        position = start
        for _ in range(rng.randint(4, 9)):
            moves = game.moves(position)
            if not moves or game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(moves))
        if game.outcome(position) is None:
            found.append(position)
    return game, found


def test_the_kernel_agrees_with_df_pn_and_tt_on_random_4x4_positions() -> None:
    game, positions = random_4x4_positions(40, seed=23)
    values = [kernel_value(game, position) for position in positions]
    assert set(values) == {1, -1}
    for position, value in zip(positions, values, strict=True):
        assert value == reference_value(game, position, "pns"), game.format_position(position)
    for position, value in zip(positions[:10], values, strict=False):
        assert value == reference_value(game, position, "tt"), game.format_position(position)


def winning_first_moves(size: int) -> set[str]:
    game, start = hex_game(size)
    return {move.notation for move in analyze(game, start, engine="compiled") if move.value > 0}


def test_the_maps_of_docs_pns_md_come_out_of_the_kernel() -> None:
    assert winning_first_moves(3) == {"b2", "a3", "c1", "a2", "c2"}
    assert winning_first_moves(4) == {"a4", "b3", "c2", "d1"}  # exactly the short diagonal


def test_a_solve_gives_every_winning_move_and_a_line_that_wins() -> None:
    game, start = hex_game(4, "a1 c3")
    found = solve(game, start, engine="auto")
    python = solve(game, start, engine="python")
    assert found.algorithm == "hex-solver" and python.algorithm == "pns"
    assert (found.describe(), sorted(found.best_moves)) == ("win", sorted(python.best_moves))
    position = start
    for move in found.pv:
        position = game.play(position, game.parse_move(position, move))
    assert game.winner(position) == "X"  # X, to move after a1 c3, completes its chain


def test_a_finished_game_is_a_loss_with_no_moves() -> None:
    game, over = hex_game(4, "a1 b1 a2 b2 a3 b3 a4")
    found = solve(game, over, engine="compiled")
    assert (found.describe(), found.best_moves, found.pv) == ("loss", [], [])
    assert analyze(game, over, engine="compiled") == []


def test_a_tiny_table_still_gives_the_right_values() -> None:
    game, positions = random_4x4_positions(12, seed=4)
    for position in positions:
        assert kernel_value(game, position, entries=2) == kernel_value(game, position)


def test_auto_chooses_the_connection_solver_from_4x4_and_df_pn_below() -> None:
    auto = methods.Request(engine="auto")
    for size, name in ((3, "pns"), (4, "hex-solver"), (5, "hex-solver"), (6, "hex-solver")):
        game, _ = hex_game(size)
        # solving.choose imports the method modules the request may need (df-pn's too), as
        # every caller's does: methods.choose alone saw only what earlier tests had loaded.
        assert solving.choose(game, auto).name == name


def test_7x7_needs_a_limit_and_stops_at_it() -> None:
    game, start = hex_game(7, "d4 c5")  # past the opening book
    with pytest.raises(UnsupportedSearch, match="too big to solve"):
        solve(game, start, engine="compiled")
    with pytest.raises(LimitReached, match=r"hex-solver stopped \(nodes\) after 20,000 nodes"):
        solve(game, start, engine="compiled", limits=Limits(nodes=20_000))
    began = time.perf_counter()
    with pytest.raises(LimitReached, match=r"stopped \(time\)"):
        solve(game, start, engine="compiled", limits=Limits(time=0.5))
    assert time.perf_counter() - began < 5
    budget = Budget()
    budget.stop.set()
    with pytest.raises(LimitReached, match=r"stopped \(stopped\)"):
        solve(game, start, engine="compiled", budget=budget)


def test_depth_limits_and_named_algorithms_are_refused_by_the_kernel() -> None:
    game, start = hex_game(4)
    with pytest.raises(UnsupportedSearch, match="drop --depth"):
        solve(game, start, engine="compiled", limits=Limits(depth=3))
    with pytest.raises(UnsupportedSearch, match="runs --algorithm auto"):
        solve(game, start, engine="compiled", algorithm="tt")


def test_without_numba_auto_falls_back_to_df_pn_and_5x5_asks_for_a_limit() -> None:
    # sys.modules["numba"] = None makes numba unimportable, as on a machine without it.
    script = ("import sys; sys.modules['numba'] = None; from perfectplay.cli import main; "
              "main(['solve', 'hex', '--size', '4', 'a1 b2 c3'])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "value: win" in done.stdout and "pns:" in done.stdout
    script = script.replace("'4', 'a1 b2 c3'", "'5'")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "too big to solve" in done.stderr


def test_the_kernel_agrees_with_df_pn_on_random_5x5_middle_games() -> None:
    rng = random.Random(55)
    game, start = hex_game(5)
    checked = 0
    while checked < 6:
        position = start
        for _ in range(12):
            position = game.play(position, rng.choice(game.moves(position)))
            if game.outcome(position) is not None:
                break
        if game.outcome(position) is None:
            assert kernel_value(game, position) == reference_value(game, position, "pns"), \
                game.format_position(position)
            checked += 1


def test_a_5x5_cell_of_the_map_in_docs_pns_md() -> None:
    # c1 loses for X: O, to move, wins (1.9 s of CPU in benchmarks/hex_map.py 5).
    game, after_c1 = hex_game(5, "c1")
    assert kernel_value(game, after_c1, entries=1 << 20) == 1

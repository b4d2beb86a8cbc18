"""The kernel's search in pure Python (perfectplay.games.connect4): the kernel's values AND
node counts on random positions and on the test sets, the generic tt engine's values and
optimal moves, what ``auto`` runs, limits, a tiny table, and bad requests."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from connect4_helpers import run_cli, sample

from perfectplay import analyze, registry, solve
from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.games.connect4.python_engine import Engine as PythonEngine
from perfectplay.games.connect4.rules import ConnectFour, random_late_position
from perfectplay.search.limits import Limits

pytest.importorskip("numba", reason="the comparison with the kernel needs numba")
from perfectplay.games.connect4 import kernel as K  # noqa: E402
from perfectplay.games.connect4.kernel_engine import Engine as KernelEngine  # noqa: E402

# The kernel's two-entry buckets at the default 64 MB replaced a live entry on 12 of 400
# test-set positions (a few more nodes there); at 128 MB none of the positions below is
# affected, so both searches see every entry they stored and must count alike.
KERNEL_TABLE = "128MB"




def both_scores(game: ConnectFour, position: tuple[int, int, str]) -> tuple[tuple[int, ...], ...]:
    """(score, nodes, hits, cutoffs, most stones) by the kernel's narrow, then by the mirror's."""
    mover, occupied, _ = position
    stones = game.stones(position)
    kernel = KernelEngine(game, KERNEL_TABLE)
    kernel.new_solve()
    low, high = K.narrow(np.uint64(mover), np.uint64(occupied), stones, -game.cells, game.cells,
                         game.cells, kernel.work)
    assert low == high
    mirror = PythonEngine(game)
    score = mirror.score(position)
    return (int(low), *kernel.counters()), (score, *mirror.counters())


def live_positions(game: ConnectFour, count: int, seed: int,
                   longest: int = 20) -> list[tuple[int, int, str]]:
    """``count`` random positions with 4 to ``longest`` - 1 empty squares, none finished."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = random_late_position(game, rng, remaining=rng.randrange(4, longest))
        if game.outcome(position) is None:
            found.append(position)
    return found


# -- node for node against the kernel --------------------------------------------------------
def test_the_mirror_uses_the_kernels_thresholds() -> None:
    from perfectplay.games.connect4 import python_negamax as N
    assert (K.LATE, K.ETC_MIN_EMPTY, int(K.ETC_ALL_AFTER)) == \
        (N.LATE, N.ETC_MIN_EMPTY, N.ETC_ALL_AFTER)
    assert (N.LOWER, N.UPPER, N.EXACT) == (K.LOWER, K.UPPER, K.EXACT)


def test_probes_go_three_fifths_of_the_way_to_the_bound_rounded_toward_zero() -> None:
    from perfectplay.games.connect4 import python_negamax as N
    bounds = [-19, -15, -8, -1, 0, 1, 8, 15, 19]
    expected = [-11, -9, -4, 0, 0, 0, 4, 9, 11]
    assert [K.toward(bound) for bound in bounds] == expected
    assert [N.toward(bound) for bound in bounds] == expected


def test_the_kernels_scores_and_node_counts_on_random_positions() -> None:
    game = ConnectFour()
    for position in live_positions(game, 300, seed=13):
        kernel, mirror = both_scores(game, position)
        assert mirror == kernel, game.format_position(position)


@pytest.mark.parametrize("name, every", [("Test_L2_R1", 10), ("Test_L1_R1", 20)])
def test_the_kernels_scores_and_node_counts_on_the_test_sets(name: str, every: int) -> None:
    game = ConnectFour()
    for moves, expected in sample(name, every):
        kernel, mirror = both_scores(game, game.parse_position(moves))
        assert mirror == kernel, moves
        assert mirror[0] == expected, moves


@pytest.mark.parametrize("width, height", [(4, 4), (5, 4), (6, 5), (8, 7), (9, 6)])
def test_other_board_sizes_count_as_the_kernel_does(width: int, height: int) -> None:
    game = ConnectFour(width, height)  # 8x7 and 9x6 fill the 64-bit word
    for position in live_positions(game, 6, seed=width * 10 + height, longest=16):
        kernel, mirror = both_scores(game, position)
        assert mirror == kernel, game.format_position(position)


def test_the_kernels_whole_solve_and_analysis() -> None:
    game = ConnectFour()
    for position in live_positions(game, 20, seed=5):
        fast = solve(game, position, engine="compiled")
        slow = solve(game, position, engine="python")
        assert slow.algorithm == "null-window (pure Python)"
        assert (slow.value, slow.best_moves, slow.pv) == (fast.value, fast.best_moves, fast.pv)
        assert (slow.stats.nodes, slow.stats.extra_nodes) == (fast.stats.nodes, fast.stats.extra_nodes)
        moves = [(m.notation, m.value) for m in analyze(game, position, engine="python")]
        assert moves == [(m.notation, m.value) for m in analyze(game, position, engine="compiled")]


# -- against the generic engine, which shares no code with either --------------------------
def test_the_generic_tt_engines_values_and_optimal_moves() -> None:
    game = ConnectFour()
    for position in live_positions(game, 60, seed=8):
        if game.cells - game.stones(position) > 12:
            continue  # the generic engine is slow on long endings
        generic = solve(game, position, algorithm="tt", engine="python", pv_limit=0)
        mirror = solve(game, position, algorithm="null-window", pv_limit=0)
        assert (mirror.value, sorted(mirror.best_moves)) == \
            (generic.value, sorted(generic.best_moves)), game.format_position(position)


def test_outcome_only_gives_the_sign() -> None:
    game = ConnectFour()
    for moves, expected in sample("Test_L2_R1", 50):
        found = solve(game, game.parse_position(moves), engine="python", outcome_only=True)
        assert found.value == (expected > 0) - (expected < 0), moves


# -- what runs it, and its limits -----------------------------------------------------------
def test_the_position_that_cost_the_generic_engine_43_m_nodes_takes_the_kernel_three(
        capsys: pytest.CaptureFixture[str]) -> None:
    # The generic tt engine once needed 43 M nodes and 77.5 s here.
    code, out, _ = run_cli(capsys, "solve", "connect4", "271713432331713132", "--engine", "python")
    assert code == 0
    assert "score: -11" in out
    assert "null-window (pure Python): 3 nodes" in out


def test_without_numba_a_plain_solve_runs_it() -> None:
    # sys.modules["numba"] = None makes numba unimportable, as on a machine without it.
    script = ("import sys; sys.modules['numba'] = None; from perfectplay.cli import main; "
              "main(['solve', 'connect4', '544111732146347'])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    # The first 15-move line of Test_L2_R1: the generic engine did not finish in 120 s.
    assert "null-window (pure Python): 45 nodes" in done.stdout
    assert "score: -9" in done.stdout


def test_depth_limits_go_to_the_depth_limited_search() -> None:
    game = ConnectFour()
    found = solve(game, game.parse_position("4455"), engine="python", limits=Limits(depth=3))
    assert found.algorithm == "tt"  # Connect Four's default among the search family


def test_a_time_limit_runs_it_and_stops_it() -> None:
    game = ConnectFour()
    with pytest.raises(LimitReached, match="stopped \\(time\\)"):
        solve(game, game.start(), limits=Limits(time=0.05))
    found = solve(game, game.parse_position("271713432331713132"), limits=Limits(time=5))
    assert found.algorithm == "null-window (pure Python)"


def test_a_node_limit_holds() -> None:
    game = ConnectFour()
    with pytest.raises(LimitReached, match="nodes"):
        solve(game, game.start(), engine="python", limits=Limits(nodes=500))


def test_a_tiny_table_still_gives_exact_answers() -> None:
    game = ConnectFour()
    for moves, expected in sample("Test_L2_R1", 100):
        position = game.parse_position(moves)
        found = solve(game, position, engine="python", table_size=16, pv_limit=0)
        assert game.score_of(position, found.value) == expected, moves


def test_other_games_are_refused_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, "solve", "tictactoe", "--algorithm", "null-window")
    assert code == 2
    assert err.strip() == "error: --algorithm null-window solves Connect Four only, not tictactoe"
    game, position = registry.load("tictactoe")
    with pytest.raises(UnsupportedSearch, match="Connect Four only"):
        solve(game, position, algorithm="null-window")


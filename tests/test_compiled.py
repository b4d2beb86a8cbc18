"""The compiled engine: the same answers as the Python engine on every reachable tic-tac-toe
position, the same node counts where the algorithms are the same, the documented example of
a user's own game, engine selection, and numba imported only when used."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from perfectplay import analyze, registry, solve
from perfectplay.cli import main
from perfectplay.errors import UnsupportedSearch
from perfectplay.search.perft import reachable_positions

DOCS = Path(__file__).parents[1] / "docs" / "compiled.md"


def reachable_tictactoe() -> list[int]:
    game, start = registry.load("tictactoe")
    return sorted(reachable_positions(game, start))


def test_import_and_cli_do_not_import_numba() -> None:
    code = ("import sys, perfectplay, perfectplay.cli, perfectplay.search, perfectplay.registry\n"
            "from perfectplay.cli import main\n"
            "assert 'numba' not in sys.modules, 'numba imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_python_engine_works_without_numba() -> None:
    code = ("import sys; sys.modules['numba'] = None\n"
            "from perfectplay import registry\n"
            "from perfectplay import solve\n"
            "game, position = registry.load('connect4', {}, '2252576253462244111563365343671351441')\n"
            "assert solve(game, position, engine='auto').remoteness == 4\n"
            "try:\n"
            "    solve(game, position, engine='compiled')\n"
            "except ValueError as error:\n"
            "    assert 'numba is not installed' in str(error)\n"
            "else:\n"
            "    raise SystemExit('compiled engine ran without numba')\n")
    subprocess.run([sys.executable, "-c", code], check=True)


pytest.importorskip("numba", reason="the compiled engine needs numba")


def test_every_reachable_tictactoe_position_gets_the_same_answer_from_both_engines() -> None:
    game, _ = registry.load("tictactoe")
    positions = reachable_tictactoe()
    assert len(positions) == 5478
    for position in positions:
        fast = solve(game, position, algorithm="tt", engine="compiled", table_size=1024)
        slow = solve(game, position, algorithm="tt", engine="python", table_size=1024)
        assert (fast.value, fast.remoteness, fast.best_moves, fast.pv) == \
            (slow.value, slow.remoteness, slow.best_moves, slow.pv), game.format_position(position)
        # Same tree, same table slots, same replacement: the same number of nodes.
        assert (fast.stats.nodes, fast.stats.extra_nodes) == (slow.stats.nodes, slow.stats.extra_nodes)


@pytest.mark.parametrize("algorithm, nodes", [("minimax", 549_946), ("alphabeta", None), ("tt", None)])
def test_node_counts_match_the_python_engine(algorithm: str, nodes: int | None) -> None:
    game, start = registry.load("tictactoe")
    fast = solve(game, start, algorithm=algorithm, engine="compiled")
    slow = solve(game, start, algorithm=algorithm, engine="python")
    assert fast.value == slow.value == 0
    assert (fast.stats.nodes, fast.stats.cutoffs, fast.stats.table_hits) == \
        (slow.stats.nodes, slow.stats.cutoffs, slow.stats.table_hits)
    if nodes is not None:  # the full tic-tac-toe game tree's published node count
        assert fast.stats.nodes == nodes


def test_compiled_analysis_of_tictactoe_matches_python() -> None:
    game, _ = registry.load("tictactoe")
    for position in reachable_tictactoe()[::97]:
        for outcome_only in (False, True):
            fast = [(m.notation, m.value) for m in analyze(game, position, engine="compiled",
                                                           outcome_only=outcome_only)]
            slow = [(m.notation, m.value) for m in analyze(game, position, engine="python",
                                                           outcome_only=outcome_only)]
            assert sorted(fast) == sorted(slow)


def docs_example() -> dict[str, Any]:
    if not DOCS.exists():
        pytest.skip("docs/compiled.md is absent")
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), flags=re.DOTALL)
    namespace: dict[str, Any] = {"__name__": "docs_example"}
    exec(compile(blocks[0], str(DOCS), "exec"), namespace)  # noqa: S102 - our own docs
    return namespace


def test_the_documented_user_game_runs_compiled_and_agrees_with_python() -> None:
    example = docs_example()
    game = example["game"]
    for pile in range(30):
        fast = solve(game, pile, engine="compiled")
        slow = solve(game, pile, engine="python")
        assert (fast.value, fast.best_moves) == (slow.value, slow.best_moves)
        assert fast.outcome == ("loss" if pile % 4 == 0 else "win")


# -- choosing the engine -------------------------------------------------------------------
def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    return code, capsys.readouterr().err


def test_auto_uses_the_kernel_for_connect4_and_python_elsewhere() -> None:
    # Past the opening book (K = 8), which answers shorter lines itself: Test_L1_R2, line 2.
    c4, position = registry.load("connect4", {}, "335662333565")
    assert solve(c4, position, engine="auto").algorithm.startswith("compiled")
    ttt, start = registry.load("tictactoe")
    assert not solve(ttt, start, engine="auto").algorithm.startswith("compiled")
    nim, piles = registry.load("nim", {}, "3 4 5")
    assert not solve(nim, piles, engine="auto").algorithm.startswith("compiled")


def test_auto_falls_back_to_python_for_limits() -> None:
    c4, position = registry.load("connect4", {}, "4455")
    from perfectplay import Limits
    solution = solve(c4, position, engine="auto", algorithm="id", limits=Limits(depth=2))
    assert not solution.algorithm.startswith("compiled")


@pytest.mark.parametrize("args, words", [
    (["solve", "nim", "3", "4", "5", "--engine", "compiled"], "nim has no compiled kernel"),
    (["solve", "c4", "4455", "--engine", "compiled", "--depth", "3"], "solve exactly"),
    (["solve", "c4", "4455", "--engine", "compiled", "-a", "minimax"], "not 'minimax'"),
])
def test_impossible_compiled_requests_get_one_line(capsys: pytest.CaptureFixture[str],
                                                    args: list[str], words: str) -> None:
    code, err = run_cli(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and words in err


def test_unknown_engine_is_refused() -> None:
    game, _ = registry.load("tictactoe")
    with pytest.raises(UnsupportedSearch):
        solve(game, engine="gpu")


def test_threads_sharing_the_kernels_table_take_turns_for_whole_solves() -> None:
    # A solve is many kernel calls on one array shared by the process (the counters, the
    # node limit and the table generation live in it). Another thread's node-limited solves
    # running alongside must neither stop these solves nor change their answers.
    pytest.importorskip("numba", reason="the kernel needs numba")
    from connect4_helpers import sample

    from perfectplay.errors import LimitReached
    from perfectplay.games.connect4.rules import ConnectFour
    from perfectplay.search.limits import Limits

    game = ConnectFour()
    lines = sample("Test_L1_R2", 100)[:10]
    stop = threading.Event()
    stopped_early = []

    def limited_solves() -> None:
        while not stop.is_set():
            try:
                solve(game, game.parse_position("44"), engine="compiled", book="none",
                      limits=Limits(nodes=50))
            except LimitReached:
                stopped_early.append(True)
            time.sleep(0.001)  # a lock is not fair: without a pause this thread would hog it

    worker = threading.Thread(target=limited_solves)
    worker.start()
    try:
        for moves, score in lines:
            position = game.parse_position(moves)
            found = solve(game, position, engine="compiled", pv_limit=0)
            assert game.score_of(position, found.value) == score, moves
    finally:
        stop.set()
        worker.join()
    assert stopped_early  # the other thread really ran its limited solves meanwhile


def test_a_stopped_compiled_solve_ends_at_its_next_kernel_call() -> None:
    # A caller that gave up on a solve (a hard time limit) sets its budget's stop flag; the
    # solve, many kernel calls long, must end instead of running on beside the next one.
    pytest.importorskip("numba", reason="the kernel needs numba")
    from perfectplay.errors import LimitReached
    from perfectplay.games.connect4.rules import ConnectFour
    from perfectplay.search.limits import Budget

    game = ConnectFour()
    position = game.parse_position("1233722555341451114725221333")  # 14 empty: no thread
    stopped = Budget()
    stopped.stop.set()
    with pytest.raises(LimitReached, match=r"kernel stopped \(stopped\) after [0-9,]+ nodes"):
        solve(game, position, engine="compiled", budget=stopped)
    found = solve(game, position, engine="compiled", budget=Budget())  # not stopped: solved
    assert game.score_of(position, found.value) == -1  # its score in Test_L2_R1

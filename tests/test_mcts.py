"""Monte Carlo tree search (``--algorithm mcts``): proofs by the MCTS-Solver agree with exact
search, estimates say so with visit counts, limits and memory bounds hold, extra turns are
followed, and play, the web page and match choose it for a game too big to solve that has no
evaluation function."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import pytest
from pns_extra_turn_games import BonusSticks, sticks_winner

from perfectplay import analyze, registry, solve
from perfectplay.engine.api import SearchLimits, Settings
from perfectplay.engine.spec import parse_spec
from perfectplay.errors import BadOption, UnsupportedSearch
from perfectplay.game import CompiledPlayouts, Game
from perfectplay.mcts.player import MctsPlayer
from perfectplay.mcts.tree import Search
from perfectplay.search.limits import Budget, Limits
from perfectplay.solving import estimating_algorithm


def test_the_solver_proves_an_ending_and_agrees_with_alpha_beta() -> None:
    game, position = registry.load("tictactoe", {}, "X.O/.X./...")
    proved = solve(game, position, algorithm="mcts", limits=Limits(nodes=20_000))
    assert proved.exact and proved.describe() == "draw" and proved.best_moves == ["9"]
    assert proved.stats.nodes < 20_000  # it stopped once the root was proved


@pytest.mark.parametrize("sticks", range(1, 12))
def test_the_solver_follows_extra_turns_like_a_brute_force(sticks: int) -> None:
    expected = 1 if sticks_winner(sticks, True, 0) == 0 else -1
    solution = solve(BonusSticks(sticks), algorithm="mcts", limits=Limits(nodes=5_000))
    assert solution.exact and solution.value == expected


def test_an_estimate_says_so_with_its_visits() -> None:
    game, start = registry.load("hex", {"size": 7})
    solution = solve(game, start, algorithm="mcts", limits=Limits(nodes=300))
    assert not solution.exact and solution.stats.nodes == 300
    assert solution.describe().startswith("estimate") and "visits" in solution.describe()
    moves = analyze(game, start, algorithm="mcts", limits=Limits(nodes=100))
    assert len(moves) == 49 and not any(move.exact for move in moves)
    assert sum("not searched" in move.describe() for move in moves) == 0  # 100 >= 49: all tried
    few = analyze(game, start, algorithm="mcts", limits=Limits(nodes=10))
    assert len(few) == 49 and sum("not searched" in move.describe() for move in few) == 39
    assert few[-1].value == min(move.value for move in few)


def test_a_score_game_is_estimated_in_its_own_units() -> None:
    game, start = registry.load("othello", {"size": 4})
    moves = analyze(game, start, algorithm="mcts", limits=Limits(nodes=2_000))
    assert {move.notation for move in moves} == {"b1", "a2", "d3", "c4"}
    assert all(-16 <= move.value <= 16 for move in moves)


def test_the_tree_stays_within_its_node_bound() -> None:
    game, start = registry.load("hex", {"size": 5})
    search = Search(game, start, Budget(Limits(nodes=500)), max_nodes=40)
    search.run()
    assert search.counters.nodes <= 40 and search.counters.simulations == 500


class TakeOneOrTwo(Game[int, int]):
    """Take one or two from a pile, the last to take wins; its "compiled" playouts are Python
    here, counted, standing in for a game's numba code."""

    name = "take-one-or-two"

    def __init__(self) -> None:
        self.playouts_played = 0

    def start(self) -> int:
        return 8

    def moves(self, pile: int) -> list[int]:
        return [take for take in (1, 2) if take <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def compiled_playouts(self) -> CompiledPlayouts:
        def playouts(pile: int, count: int, seed: int) -> list[int]:
            rng = random.Random(seed)
            results = []
            for _ in range(count):
                left, sign = pile, 1
                while left:
                    left -= rng.choice(self.moves(left))
                    sign = -sign
                results.append(-sign)  # the player who cannot move lost
            self.playouts_played += count
            return results
        return playouts


def test_a_game_that_offers_compiled_playouts_has_them_played_and_is_still_solved() -> None:
    game = TakeOneOrTwo()
    search = Search(game, game.start(), Budget(Limits(nodes=2_000)), seed=1)
    search.run()
    assert game.playouts_played > 0 and search.root.proved == 1
    assert search.ranked()[0].move == 2  # 8 - 2 = 6: a loss for the player to move
    plain = Search(game, game.start(), Budget(Limits(nodes=2_000)), seed=1, compiled=False)
    plain.run()
    assert plain.compiled is None and plain.ranked()[0].move == 2


class SlowToLoad(TakeOneOrTwo):
    """Its compiled playouts load only once ``loadable`` is set, as numba's can take seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.loadable = threading.Event()

    def compiled_playouts(self) -> CompiledPlayouts:
        self.loadable.wait(30)
        return super().compiled_playouts()


def test_a_search_under_a_deadline_plays_out_in_python_while_the_compiled_playouts_load() -> None:
    game = SlowToLoad()
    first = Search(game, game.start(), Budget(Limits(time=0.05)), seed=1)
    assert first.compiled is None  # not waiting for them
    first.run()
    assert first.counters.stopped == "time" or first.root.proved is not None
    game.loadable.set()
    for _ in range(3000):  # the loading thread's few milliseconds, on a busy machine too
        later = Search(game, game.start(), Budget(Limits(time=0.05)), seed=1)
        if later.compiled is not None:
            break
        time.sleep(0.01)
    assert later.compiled is not None and game.playouts_played >= 1


def test_a_stop_request_ends_the_search_with_an_answer() -> None:
    game, start = registry.load("hex", {"size": 7})
    budget = Budget(Limits(time=60))
    budget.stop.set()  # what Ctrl-C and the web page's cancel do
    search = Search(game, start, budget)
    search.run()
    assert search.counters.stopped == "stopped" and search.counters.simulations == 16


def test_the_time_limit_is_read_after_every_simulation(monkeypatch: pytest.MonkeyPatch) -> None:
    # The clock was read every 16th simulation, which overran a 0.5 s Othello move (a
    # simulation there costs milliseconds). A budget whose deadline passes during simulation
    # 20 must stop the search right after it, not at 32.
    game, start = registry.load("hex", {"size": 7})
    budget = Budget(Limits(time=60))
    search = Search(game, start, budget)
    real_simulate = search.simulate

    def simulate() -> bool:
        played = real_simulate()
        if search.counters.simulations == 19:  # the 20th simulation is ending
            budget.deadline = 0.0
        return played
    monkeypatch.setattr(search, "simulate", simulate)
    search.run()
    assert search.counters.stopped == "time" and search.counters.simulations == 20


def test_mcts_needs_a_limit_and_no_depth() -> None:
    game, start = registry.load("hex", {"size": 7})
    with pytest.raises(UnsupportedSearch, match="--nodes .simulations. or --time"):
        solve(game, start, algorithm="mcts")
    with pytest.raises(UnsupportedSearch, match="drop --depth"):
        solve(game, start, algorithm="mcts", limits=Limits(depth=2, nodes=10))


def test_games_too_big_without_an_evaluation_are_estimated_by_mcts() -> None:
    assert estimating_algorithm(registry.load("hex", {"size": 7})[0]) == "mcts"
    assert estimating_algorithm(registry.load("othello", {})[0]) == "mcts"
    assert estimating_algorithm(registry.load("hex", {"size": 4})[0]) == "engine"  # solvable
    assert estimating_algorithm(registry.load("connect4", {})[0]) == "engine"
    # An exact try that failed makes a game too big here, whatever it declares: 4x4 Hex's
    # first move in play, where the blind engine chose b2, a losing move.
    assert estimating_algorithm(registry.load("hex", {"size": 4})[0], searched=True) == "mcts"
    assert estimating_algorithm(registry.load("connect4", {})[0], searched=True) == "engine"


def test_match_players_can_be_mcts_or_the_engine() -> None:
    limits = SearchLimits(nodes=50)
    assert parse_spec("mcts", Settings(), limits).mcts
    assert not parse_spec("engine", Settings(), limits, mcts=True).mcts
    assert parse_spec("", Settings(), limits, mcts=True).mcts
    game, start = registry.load("othello", {})
    player = MctsPlayer(game, limits, "first")
    assert player.choose(start, [], start) in game.moves(start) and player.nodes == 50
    with pytest.raises(BadOption, match="nodes="):
        MctsPlayer(game, SearchLimits(depth=3), "first")


def test_mcts_from_the_command_line() -> None:
    run = [sys.executable, "-m", "perfectplay"]
    done = subprocess.run([*run, "solve", "othello", "--algorithm", "mcts", "--nodes", "60"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and "estimate" in done.stdout and "60 simulations" in done.stdout
    refused = subprocess.run([*run, "solve", "othello", "--algorithm", "mcts"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    match = subprocess.run([*run, "match", "hex", "--size", "6", "--first", "mcts", "--second", "engine",
                            "--nodes", "20", "--pairs", "1", "--quiet"], capture_output=True, text=True)
    assert match.returncode == 0 and "games 2 (1 pairs)" in match.stdout


def test_the_web_page_thinks_with_mcts_about_a_big_blind_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from perfectplay.web import thinking
    from perfectplay.web.positions import Analyses
    from perfectplay.web.thinking import Thinker
    # The page's quick exact try (a node-bounded tt) is not what is tested, and takes long.
    monkeypatch.setattr(thinking, "quick_analysis", lambda game, position, memory: None)
    game, start = registry.load("hex", {"size": 7}, "d4")
    reports: list = []
    Thinker(game, start, Analyses(10), 0.5, reports.append).run()
    assert len(reports) == 1 and reports[0].done and reports[0].reason == "time"
    known = reports[0].known
    assert known is not None and not known.exact and len(known.moves) == 48
    assert all(move.note and "visits" in move.note for move in known.moves[:16])


def test_the_think_times_clock_ends_a_web_think_by_time_not_as_cancelled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock and a cancel set the same stop flag; only a cancel is reported as one."""
    from types import SimpleNamespace

    from perfectplay.web import thinking
    from perfectplay.web.positions import Analyses
    from perfectplay.web.thinking import Thinker
    monkeypatch.setattr(thinking, "quick_analysis", lambda game, position, memory: None)

    def until_stopped(game, position, think):  # Monte Carlo that runs until the flag is set
        think.stop.wait(5)
        return SimpleNamespace(moves=(), exact=False, depth=None, source="mcts")

    monkeypatch.setattr(thinking.deciding, "estimate", until_stopped)
    game, start = registry.load("hex", {"size": 7}, "d4")
    timed: list = []
    Thinker(game, start, Analyses(10), 0.3, timed.append).run()
    assert [(report.done, report.reason) for report in timed] == [(True, "time")]
    cancelled: list = []
    thinker = Thinker(game, start, Analyses(10), 30, cancelled.append)
    threading.Timer(0.2, thinker.cancel).start()
    thinker.run()
    assert [(report.done, report.reason) for report in cancelled] == [(True, "cancelled")]


def test_play_thinks_with_mcts_about_a_big_blind_game() -> None:
    from perfectplay.play.analyst import Analyst
    # one move in: 6x6's start itself is stored, proved (games/othello/solved.py)
    game, start = registry.load("othello", {"size": 6}, "c2")
    analysis = Analyst(game, think_time=0.3).analyze(start)
    assert not analysis.exact and len(analysis.moves) == 3
    assert analysis.depth is not None and analysis.depth >= 1  # the tree's depth, for "searched N deep"
    assert all(move.note and "visits" in move.note for move in analysis.moves)


def test_a_game_too_big_to_solve_without_an_evaluation_is_pointed_to_monte_carlo() -> None:
    # The engine would search blind; the refusal names the method that can estimate.
    from conftest import run_main
    # Kalah(6, 5): no evaluation function, too big here, and no opening book
    ran = run_main("solve", "kalah", "--seeds", "5")
    assert (ran.code, ran.stderr) == (2, "error: kalah is too big to solve exactly: use --algorithm "
                                         "mcts --time T (seconds) for an estimate\n")

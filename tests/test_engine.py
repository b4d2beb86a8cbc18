"""The depth-limited engine (perfectplay.engine): each layer tested for what it must keep
(the same values, fewer nodes), against an independent negamax and against exact solving."""

from __future__ import annotations

import random
import threading
from dataclasses import replace
from typing import Any

import pytest
from engine_trees import horizon_game, zugzwang_game

from perfectplay import solve
from perfectplay import value as V
from perfectplay.engine import Engine, Info, SearchLimits, Settings, describe_score, mate_in
from perfectplay.engine.clock import Clock
from perfectplay.engine.transposition import (
    HELPER_BIT,
    MAX_MOVE_INDEX,
    NO_MOVE,
    EngineTable,
    pack,
    unpack,
)
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game
from perfectplay.games.connect4.rules import ConnectFour, random_late_position
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.value import EXACT, LOWER, UPPER

PLAIN = Settings(pvs=False, aspiration=False, killers=False, history=False, quiescence=False,
                 null_move=False, lmr=False, tt=False)
# The layers that must keep a fixed-depth value exactly (late-move reductions change what a
# depth means, so they are tested on proven values instead).
LAYERS_NO_TABLE = Settings(pvs=True, aspiration=True, killers=True, history=True, lmr=False,
                           tt=False)


def negamax(game: Game[Any, Any], position: Any, depth: int, ply: int = 0) -> int:
    """Plain fixed-depth negamax with no pruning: the reference, sharing no engine code."""
    outcome = game.outcome(position)
    if outcome is not None:
        return 0 if outcome.value == 0 else (V.WIN - ply) * outcome.value
    moves = game.moves(position)
    if not moves:
        return ply - V.WIN
    if depth == 0:
        return game.evaluate(position)
    return max(-negamax(game, game.play(position, move), depth - 1, ply + 1) for move in moves)


def searched(game: Game[Any, Any], position: Any, settings: Settings, depth: int) -> Any:
    return Engine(game, settings).search(position, SearchLimits(depth=depth))


def live_positions(game: Game[Any, Any], count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = game.start()
        for _ in range(rng.randrange(0, 20)):
            moves = game.moves(position)
            if not moves or game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(moves))
        if game.outcome(position) is None and game.moves(position):
            found.append(position)
    return found


def test_plain_engine_matches_independent_negamax_at_fixed_depth() -> None:
    game = ConnectFour()
    for position in live_positions(game, 150, seed=1):
        assert searched(game, position, PLAIN, 3).score == negamax(game, position, 3)


def test_pvs_aspiration_killers_and_history_keep_the_value_on_four_hundred_positions() -> None:
    game = ConnectFour()
    for position in live_positions(game, 400, seed=2):
        plain = searched(game, position, PLAIN, 4).score
        assert searched(game, position, LAYERS_NO_TABLE, 4).score == plain


def test_every_layer_keeps_the_tictactoe_values_of_thousands_of_positions() -> None:
    game = TicTacToe()
    for position in live_positions(game, 2000, seed=3):
        reference = negamax(game, position, 2)
        assert searched(game, position, LAYERS_NO_TABLE, 2).score == reference


def test_pvs_without_its_re_search_would_give_other_values() -> None:
    """PVS's pitfall: a null-window fail-high must be re-searched. The engine's
    values agree with plain alpha-beta, so its re-search runs (this counts the positions
    where the first move was not best, which is when it matters)."""
    game = ConnectFour()
    mattered = 0
    for position in live_positions(game, 200, seed=4):
        pvs = searched(game, position, Settings(lmr=False, tt=False), 4)
        plain = searched(game, position, PLAIN, 4)
        assert pvs.score == plain.score
        mattered += pvs.best_move != game.moves(position)[0]
    assert mattered > 20


def test_engine_solves_tictactoe_as_a_draw_and_says_it_is_exact() -> None:
    unreduced = Engine(TicTacToe()).search(TicTacToe().start())
    assert (unreduced.score, unreduced.exact, unreduced.depth) == (0, True, 9)
    # Reduced late moves reach the end of the game three iterations later.
    reduced = Engine(TicTacToe(), Settings(lmr=True)).search(TicTacToe().start())
    assert (reduced.score, reduced.exact, reduced.depth) == (0, True, 12)


def proved_like_the_solver(settings: Settings, tries: int, seed: int, depth: int) -> list[int]:
    """Search late Connect Four positions to ``depth``: each result must be a proof with the
    solver's value (distance included). Returns the values checked."""
    game = ConnectFour()
    rng = random.Random(seed)
    values = []
    for _ in range(tries):
        position = random_late_position(game, rng, remaining=10)
        if game.outcome(position) is not None:
            continue
        result = Engine(game, settings).search(position, SearchLimits(depth=depth))
        assert result.exact and result.score == solve(game, position).value
        values.append(result.score)
    return values


def test_engine_proves_exact_values_with_distances_like_the_solver() -> None:
    values = proved_like_the_solver(Settings(), 25, seed=5, depth=40)
    assert sum(V.is_decisive(value) for value in values) >= 5


def test_table_on_and_off_agree_when_both_prove_the_value() -> None:
    game = TicTacToe()
    rng = random.Random(6)
    for position in (game.random_position(rng) for _ in range(300)):
        if game.outcome(position) is not None:
            continue
        with_table = Engine(game).search(position)
        without = Engine(game, Settings(tt=False)).search(position)
        assert with_table.exact and without.exact
        assert with_table.score == without.score == solve(game, position).value


def test_quiescence_sees_the_recapture_that_fixed_depth_misses() -> None:
    game = horizon_game()
    fixed = searched(game, game.start(), replace(PLAIN, tt=True), 1)
    quiet = searched(game, game.start(), Settings(), 1)
    assert (fixed.best_move, fixed.score) == ("take", 1)  # the horizon effect
    assert (quiet.best_move, quiet.score) == ("quiet", 0)
    assert negamax(game, game.start(), 2) == 0  # one ply deeper, plain search agrees


def test_null_move_without_a_guard_misjudges_zugzwang() -> None:
    unguarded, guarded = zugzwang_game(), zugzwang_game(guard=True)
    reckless = Settings(null_verify=False)
    assert negamax(unguarded, unguarded.start(), 5) == 5
    without_null = searched(unguarded, unguarded.start(), replace(reckless, null_move=False), 5)
    assert without_null.best_move == "squeeze"
    wrong = searched(unguarded, unguarded.start(), reckless, 5)
    assert (wrong.best_move, wrong.score) == ("safe", 0)  # the pass made the squeeze look bad
    assert searched(guarded, guarded.start(), reckless, 5).score == 5
    verified = searched(unguarded, unguarded.start(), Settings(), 5)
    assert (verified.best_move, verified.score) == ("squeeze", 5)


def test_a_null_move_fail_high_is_verified_before_it_prunes() -> None:
    from perfectplay.engine.clock import Clock
    from perfectplay.engine.search import Searcher
    game = zugzwang_game()
    squeezed = game.play(game.start(), "squeeze")
    for verify, expected in ((False, 3), (True, -5)):
        searcher = Searcher(game, Settings(null_verify=verify, tt=False), EngineTable(16))
        searcher.clock = Clock(SearchLimits())
        # The opponent's view with a null window at beta 0: a pass "proves" >= 0.
        assert searcher.search(squeezed, game.hash_key(squeezed), -1, 0, 4, 1, True) == expected


def test_mate_scores_read_as_moves() -> None:
    assert mate_in(V.win_in(5)) == 3
    assert mate_in(V.loss_in(4)) == -2
    assert mate_in(35) is None
    assert describe_score(V.win_in(1)) == "mate in 1"
    assert describe_score(V.loss_in(2)) == "mated in 1"
    assert describe_score(-12) == "estimate -12"


def test_engine_finds_the_fastest_connect4_win() -> None:
    game = ConnectFour()
    position = game.parse_position("4455")  # the first player completes three on the bottom row
    result = Engine(game).search(position, SearchLimits(depth=8))
    assert result.best_move in (2, 5) and result.score == V.win_in(3) and mate_in(result.score) == 2


def test_the_best_move_is_the_last_completed_iterations() -> None:
    game = ConnectFour()
    seen: list[Info] = []
    result = Engine(game).search(game.start(), SearchLimits(time=0.3), on_info=seen.append)
    assert seen and result.depth == seen[-1].depth and result.best_move == seen[-1].pv[0]
    assert result.elapsed_s < 0.3 + 1.0  # a generous guard against a hang, not a speed test


def test_node_and_depth_limits_stop_the_search() -> None:
    game = ConnectFour()
    by_depth = Engine(game).search(game.start(), SearchLimits(depth=5))
    assert by_depth.depth == 5
    by_nodes = Engine(game).search(game.start(), SearchLimits(nodes=2000))
    assert by_nodes.nodes < 2000 + 64 and by_nodes.depth >= 1


def test_a_stop_request_ends_an_infinite_search() -> None:
    game = ConnectFour()
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    result = Engine(game).search(game.start(), SearchLimits(infinite=True), stop=stop)
    assert result.depth >= 1 and result.best_move in game.moves(game.start())


def test_clock_limits_give_a_share_of_the_remaining_time() -> None:
    from perfectplay.engine.clock import budget
    # The clock less a 20 ms reserve over 40 moves, plus the increment; at most twice that,
    # less 30 ms for the reply.
    soft, hard = budget(SearchLimits(wtime=60.0, btime=1.0, winc=1.0), mover=0)
    assert soft == pytest.approx(59.98 / 40 + 1) and hard == pytest.approx(2 * (59.98 / 40 + 1) - 0.03)
    soft, hard = budget(SearchLimits(wtime=60.0, btime=1.0), mover=1)
    assert soft == pytest.approx(0.98 / 40) and hard == pytest.approx(0.98 / 40)


def test_lazy_smp_with_two_processes_shares_one_table() -> None:
    game = ConnectFour()
    with Engine(game, Settings(threads=2)) as engine:
        result = engine.search(game.start(), SearchLimits(depth=7))
        single = Engine(game).search(game.start(), SearchLimits(depth=7))
        assert result.depth == 7 and result.best_move in game.moves(game.start())
        assert result.nodes > 0 and engine.table.filled_permille() > 0
        tic = TicTacToe()
    with Engine(tic, Settings(threads=2)) as engine:
        solved = engine.search(tic.start())
        assert (solved.score, solved.exact) == (0, True)
    assert single.depth == 7


def test_the_table_rejects_a_torn_entry_and_a_colliding_key() -> None:
    table = EngineTable(16)
    table.store(5, 40, 0, 3, LOWER, 2)
    table.store(5 + 16 * 7, -7, 0, 9, EXACT, 0)  # same slot, other key: replaces (deeper)
    assert table.probe(5) == 0
    score, draft, flag, move = unpack(table.probe(5 + 16 * 7))
    assert (score, draft, flag, move) == (-7, 9, EXACT, 0)
    table.words[(5 & table.mask) << 1] ^= 1  # a half-written slot
    assert table.probe(5 + 16 * 7) == 0


def test_mate_scores_are_stored_relative_to_the_node() -> None:
    table = EngineTable(16)
    table.store(3, V.win_in(7), 4, 5, EXACT, 1)
    assert unpack(table.probe(3))[0] == V.win_in(3)


def test_bad_settings_and_limits_are_rejected_with_one_line() -> None:
    with pytest.raises(BadOption, match="--threads 0"):
        Settings(threads=0)
    # One Limits for every searcher, checked once: the same words as the CLI's.
    with pytest.raises(BadOption, match=r"time limit must be positive \(got 0\)"):
        SearchLimits(time=0)
    with pytest.raises(BadOption, match=r"depth must be at least 1 \(got 0\)"):
        SearchLimits(depth=0)
    with pytest.raises(BadOption, match="depth 101: the engine searches at most 100 plies"):
        Engine(TicTacToe()).search(TicTacToe().start(), SearchLimits(depth=101))
    game = TicTacToe()
    with pytest.raises(BadPosition, match="game is over"):
        Engine(game).search(game.parse_position("XXX/OO./..."))


def test_zobrist_keys_follow_every_move() -> None:
    rng = random.Random(7)
    for game in (ConnectFour(), TicTacToe()):
        for _ in range(100):
            position = game.start()
            key = game.hash_key(position)
            while game.outcome(position) is None and game.moves(position):
                move = rng.choice(game.moves(position))
                key = game.key_after(position, move, key)
                position = game.play(position, move)
                assert key == game.hash_key(position)


def test_engine_is_a_solving_method_for_depth_limited_requests() -> None:
    from perfectplay import Limits, UnsupportedSearch, analyze
    tic = TicTacToe()
    proven = solve(tic, tic.start(), algorithm="engine", limits=Limits(depth=9))
    assert (proven.value, proven.exact, proven.algorithm) == (0, True, "engine")
    game = ConnectFour()
    estimate = solve(game, game.start(), algorithm="engine", limits=Limits(depth=6))
    assert not estimate.exact and "not exact" in estimate.describe()
    win = game.parse_position("4455")
    values = {move.notation: move for move in analyze(game, win, algorithm="engine", limits=Limits(depth=8))}
    assert values["3"].value == values["6"].value == V.win_in(3) and values["3"].exact
    with pytest.raises(UnsupportedSearch, match="give --depth, --nodes or --time"):
        solve(game, game.start(), algorithm="engine")


def test_engine_values_every_move_like_the_exact_solver_near_the_end() -> None:
    from perfectplay import Limits, analyze
    game = ConnectFour()
    rng = random.Random(8)
    for _ in range(8):
        position = random_late_position(game, rng, remaining=8)
        if game.outcome(position) is not None:
            continue
        by_engine = {m.notation: (m.value, m.exact) for m in analyze(game, position, algorithm="engine",
                                                                      limits=Limits(depth=12))}
        by_solver = {m.notation: m.value for m in analyze(game, position)}
        assert {name: value for name, (value, _) in by_engine.items()} == by_solver
        assert all(exact for _, exact in by_engine.values())


def test_lazy_smp_helpers_write_into_the_shared_table() -> None:
    game = ConnectFour()
    with Engine(game, Settings(threads=2, tt_size=1 << 12)) as engine:
        pool = engine._helpers()
        assert pool is not None and engine.table.filled_permille() == 0
        pool.start(game.start(), 1, max_depth=5)
        helper_nodes = pool._collect()  # the helper answers when its depth 5 is done
        assert helper_nodes > 0 and engine.table.filled_permille() > 0
        pool.running = False


def test_the_main_search_hits_entries_the_helper_process_wrote() -> None:
    """Cross-process hits, counted by the writer bit: the helper alone fills the table, then
    the main search (no helper running) answers from it, with fewer nodes than from an
    empty table, and finds nothing foreign in a table only it wrote."""
    game = ConnectFour()
    position = game.parse_position("4453")
    alone = Engine(game, Settings(tt_size=1 << 14)).search(position, SearchLimits(depth=6))
    assert alone.shared_hits == alone.shared_cutoffs == alone.helper_nodes == 0
    with Engine(game, Settings(threads=2, tt_size=1 << 14)) as engine:
        pool = engine._helpers()
        assert pool is not None
        pool.start(position, (engine.table.generation + 1) & 63, max_depth=6)
        assert pool._collect() > 0
        pool.running = False
        clock = Clock(SearchLimits(depth=6))
        last = list(engine.searcher.iterate(position, clock, 6))[-1]
        searcher = engine.searcher
        assert searcher.shared_hits > 0 and searcher.shared_cutoffs > 0
        assert searcher.nodes < alone.nodes and last.score == alone.score


def test_a_table_entry_keeps_its_fields_with_the_writer_bit_and_drops_a_huge_move_index() -> None:
    data = pack(-1234, 7, UPPER, 41, 5, HELPER_BIT)
    assert unpack(data) == (-1234, 7, UPPER, 41) and data & HELPER_BIT
    assert unpack(pack(0, 1, EXACT, MAX_MOVE_INDEX, 0)) == (0, 1, EXACT, MAX_MOVE_INDEX)
    assert unpack(pack(0, 1, EXACT, MAX_MOVE_INDEX + 1, 0))[3] == NO_MOVE


USERS_GAME = '''
from perfectplay.game import Game

class BigPile(Game[int, int]):
    """Take 1-3 from a million sticks; the last to take wins. Far too deep to solve by search
    here, but the evaluation knows that multiples of four lose."""
    name = "bigpile"
    def start(self) -> int: return 1_000_003
    def moves(self, pile: int) -> list[int]: return [t for t in (1, 2, 3) if t <= pile]
    def play(self, pile: int, take: int) -> int: return pile - take
    def evaluate(self, pile: int) -> int: return 10 if pile % 4 else -10
    def parse_position(self, text: str) -> int: return int(text)
'''


def test_engine_plays_a_users_own_game_by_its_evaluation(cli, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "bigpile.py"
    path.write_text(USERS_GAME)
    done = cli("solve", f"{path}:BigPile", "999998", "--algorithm", "engine", "--depth", "6")
    assert done.returncode == 0, done.stderr
    assert "best moves: 2" in done.stdout and "estimate +10 (depth 6, not exact)" in done.stdout
    match = cli("match", f"{path}:BigPile", "--first", "depth=2", "--second", "depth=2", "--pairs", "1",
                "--max-plies", "30", "--quiet")
    assert match.returncode == 0, match.stderr
    assert "2 games adjudicated drawn at the ply limit" in match.stdout


def test_engine_proves_the_published_figures_of_a_score_game_and_nim() -> None:
    from perfectplay import Limits, registry
    for name, text, expected in (("crates", "3 9 1", 11), ("crates", "4 1 7 2 9", 9),
                                 ("nim", "3 4 5", V.win_in(11))):
        game, position = registry.load(name, {}, text)
        found = solve(game, position, algorithm="engine", limits=Limits(depth=30))
        assert (found.value, found.exact) == (expected, True)


class SlowLeaves(Game[int, int]):
    """A hundred moves from the start, each to a leaf whose evaluation takes 2 ms: depth 1
    alone needs 0.2 s. Move 70 is the best (a leaf is valued for its own mover)."""

    name = "slow-leaves"

    def start(self) -> int:
        return 0

    def moves(self, position: int) -> list[int]:
        return list(range(1, 101)) if position == 0 else [0]

    def play(self, position: int, move: int) -> int:
        return move if position == 0 else -1

    def evaluate(self, position: int) -> int:
        import time
        time.sleep(0.002)
        return abs(position - 70)


def test_the_hard_time_limit_holds_inside_the_first_iteration() -> None:
    # Chess's depth 1 (a full quiescence search) once took 7.8 s against a 0.15 s limit,
    # because the clock let the first iteration finish whatever it cost.
    game = SlowLeaves()
    result = Engine(game).search(game.start(), SearchLimits(time=0.07))
    # Depth 1 was cut short: its best root move so far is played, and said to be partial.
    assert result.partial and result.depth == 1 and result.best_move in game.moves(game.start())
    # The clock is polled every 32 nodes (64 ms here) and the bound is 50 ms past the limit.
    assert result.elapsed_s < 0.07 + 0.05 + 0.07
    whole = Engine(game).search(game.start(), SearchLimits(depth=1))
    assert whole.best_move == 70


def test_late_move_reductions_search_fewer_nodes_and_still_prove_exact_values() -> None:
    game = ConnectFour()
    reduced = Settings(lmr=True)
    full_nodes = reduced_nodes = 0
    for position in live_positions(game, 30, seed=8):
        full_nodes += searched(game, position, Settings(), 6).nodes
        reduced_nodes += searched(game, position, reduced, 6).nodes
    assert reduced_nodes < 0.9 * full_nodes
    # A reduced search that reaches the end of every line it cut short is still a proof.
    assert len(proved_like_the_solver(reduced, 15, seed=9, depth=60)) >= 10


def test_late_move_reductions_are_a_player_setting_with_checked_numbers() -> None:
    from perfectplay.engine.spec import parse_spec

    spec = parse_spec("lmr=on,lmr-from=4", Settings(), SearchLimits())
    assert spec.settings.lmr and spec.settings.lmr_moves == 4
    with pytest.raises(BadOption, match="lmr-from=0 is out of range: give 1 to 256"):
        parse_spec("lmr-from=0", Settings(), SearchLimits())

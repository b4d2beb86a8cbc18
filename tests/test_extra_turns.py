"""Extra turns: after some moves the same player moves again. Every
algorithm must take such a child's value without negation; each is checked here against a
brute force over player identities that knows nothing of negamax (tests/extra_turn_games.py)."""

from __future__ import annotations

import random

import pytest
from extra_turn_games import (
    PASS,
    ExtraTurnHeaps,
    LoopyExtraTurns,
    brute_value,
    loopy_brute_values,
    random_heaps,
)

from perfectplay import analyze, solve
from perfectplay import value as V
from perfectplay.engine import Engine, SearchLimits
from perfectplay.search.limits import Limits
from perfectplay.search.perft import perft
from perfectplay.search.rules import Rules, final_points
from perfectplay.store import lookup
from perfectplay.store.build import build

SEARCHES = ("minimax", "memo", "alphabeta", "tt", "id", "table")


def positions(count: int, seed: int) -> list:
    rng = random.Random(seed)
    return [random_heaps(rng) for _ in range(count)]


def test_the_heaps_game_has_a_chain_of_extra_turns_and_a_pass() -> None:
    game = ExtraTurnHeaps()
    position = ((1, 1, 0), 0, 1, 1)
    assert PASS in game.moves(position)
    after = game.play(position, (0, 1))
    assert game.keeps_turn(position, (0, 1)) and after[1] == 0
    assert game.keeps_turn(after, (1, 1)) and game.play(after, (1, 1))[1] == 0
    assert not game.keeps_turn(position, PASS) and game.play(position, PASS)[1] == 1


def test_the_brute_force_sees_what_an_extra_turn_is_worth() -> None:
    # Emptying the only heap gives player 0 another move, and none is left: a loss in one
    # ply. Negating the child's value (a loss for its mover, player 0 again) calls it a win.
    game = ExtraTurnHeaps()
    assert brute_value(game, ((1,), 0, 0, 0)) == -(V.WIN - 1)
    assert solve(game, ((1,), 0, 0, 0), algorithm="minimax").value == -(V.WIN - 1)
    # A chain: two heaps emptied in one turn, then no move: a loss in two plies.
    assert brute_value(game, ((1, 1), 0, 0, 0)) == -(V.WIN - 2)
    # With a pass to spare, player 0 passes first and player 1 meets the same fate.
    assert brute_value(game, ((1,), 0, 1, 0)) == V.WIN - 2


@pytest.mark.parametrize("score", [False, True], ids=["win-loss", "score"])
@pytest.mark.parametrize("algorithm", SEARCHES)
def test_every_search_matches_the_brute_force(algorithm: str, score: bool) -> None:
    game = ExtraTurnHeaps(score=score)
    for position in positions(60, seed=11):
        assert solve(game, position, algorithm=algorithm).value == brute_value(game, position), \
            (algorithm, position)


@pytest.mark.parametrize("score", [False, True], ids=["win-loss", "score"])
@pytest.mark.parametrize("algorithm", SEARCHES)
def test_every_analysis_values_each_move_as_the_brute_force_does(algorithm: str, score: bool) -> None:
    game = ExtraTurnHeaps(score=score)
    for position in positions(25, seed=12):
        expected = sorted((game.format_move(position, move), move_value(game, position, move))
                          for move in game.moves(position))
        found = sorted((mv.notation, mv.value) for mv in analyze(game, position, algorithm=algorithm))
        assert found == expected, (algorithm, position)


def move_value(game: ExtraTurnHeaps, position, move) -> int:
    """A move's value for its player, from the brute force of the child by identity."""
    child = game.play(position, move)
    child_value = brute_value(game, child)
    for_mover = child_value if child[1] == position[1] else -child_value
    if game.properties.is_score:
        return game.gain(position, move) + for_mover
    return int(V.from_table(for_mover, 1))


@pytest.mark.parametrize("algorithm", SEARCHES)
def test_best_moves_and_the_line_keep_the_value(algorithm: str) -> None:
    game = ExtraTurnHeaps(score=True)
    for position in positions(25, seed=13):
        solution = solve(game, position, algorithm=algorithm)
        best = {mv.notation for mv in analyze(game, position, algorithm="minimax")
                if mv.value == solution.value}
        assert set(solution.best_moves) == best
        # Replaying the line by identities earns exactly the value for the player to move.
        node, earned = position, 0
        for notation in solution.pv:
            move = game.parse_move(node, notation)
            earned += game.gain(node, move) * (1 if node[1] == position[1] else -1)
            node = game.play(node, move)
        assert earned == solution.value and not game.moves(node)


def test_final_points_follow_the_mover_through_extra_turns() -> None:
    game = ExtraTurnHeaps(score=True)
    position = ((2, 0, 1), 0, 0, 0)
    # 0:2 empties heap 0 (2 points, again), 2:1 empties heap 2 (2 more): all four for the mover.
    line = [(0, 2), (2, 1)]
    assert final_points(game, Rules(game), position, 4, line) == (4, 0)


@pytest.mark.parametrize("score", [False, True], ids=["win-loss", "score"])
def test_outcome_only_and_the_engine_agree_with_the_brute_force(score: bool) -> None:
    game = ExtraTurnHeaps(score=score)
    with Engine(game) as engine:
        for position in positions(40, seed=14):
            expected = brute_value(game, position)
            if not game.moves(position):
                continue
            result = engine.search(position, SearchLimits(depth=40))
            assert result.exact and result.score == expected, position
            if not score:
                quick = solve(game, position, algorithm="tt", outcome_only=True)
                assert quick.value == (expected > 0) - (expected < 0)


def test_the_engine_analysis_values_moves_after_an_extra_turn_from_the_movers_side() -> None:
    game = ExtraTurnHeaps(score=True)
    for position in positions(15, seed=15):
        expected = sorted((game.format_move(position, move), move_value(game, position, move))
                          for move in game.moves(position))
        found = sorted((mv.notation, mv.value)
                       for mv in analyze(game, position, algorithm="engine", limits=Limits(depth=40)))
        assert found == expected, position


def test_retrograde_analysis_matches_the_brute_force_on_an_acyclic_game() -> None:
    game = ExtraTurnHeaps()
    for position in positions(30, seed=16):
        assert solve(game, position, algorithm="retro").value == brute_value(game, position)


@pytest.mark.parametrize("seed", range(12))
def test_retrograde_analysis_of_a_loopy_game_with_extra_turns_matches_sweeps_by_identity(seed: int) -> None:
    game = LoopyExtraTurns(seed)
    expected = loopy_brute_values(game)
    for position, value in expected.items():
        assert solve(game, position, algorithm="retro").value == value, (seed, position)


def test_the_retro_oracle_reads_extra_turns_too() -> None:
    from perfectplay.retro.brute import fixpoint_values
    for seed in range(12):
        game = LoopyExtraTurns(seed)
        expected = loopy_brute_values(game)
        for position in ((0, 0), (1, 1)):
            assert fixpoint_values(game, position)[position] == expected[position]


@pytest.mark.parametrize("score", [False, True], ids=["win-loss", "score"])
def test_a_database_build_backs_up_extra_turns(score: bool, tmp_path) -> None:
    game = ExtraTurnHeaps(score=score, heaps=(2, 1, 2))
    root = game.start()
    build(game, root, tmp_path / "heaps.db")
    store = lookup.open_store(tmp_path / "heaps.db", game)
    try:
        reached = sorted(game.tabulation(root))
        assert store.values(game, reached) == [brute_value(game, node) for node in reached]
    finally:
        store.close()
    stored = solve(game, root, database=str(tmp_path / "heaps.db"))
    assert stored.algorithm == "database" and stored.value == brute_value(game, root)
    assert stored.best_moves == solve(game, root, algorithm="minimax").best_moves


def test_perft_counts_move_sequences_whoever_moves() -> None:
    game = ExtraTurnHeaps()
    position = ((1, 1), 0, 0, 0)
    # 0:1 (again) then 1:1, or 1:1 (again) then 0:1: two sequences of two moves.
    assert perft(game, position, 2).count == 2
    assert perft(game, position, 1).count == 2


def test_a_play_session_keeps_the_side_after_an_extra_turn() -> None:
    from perfectplay.play.session import Session
    game = ExtraTurnHeaps(score=True, heaps=(1, 2))
    session = Session(game)
    session.play((0, 1))  # empties heap 0: the first player moves again
    assert session.side_to_move == 0
    session.play((1, 1))
    assert session.side_to_move == 1
    session.play((1, 1))  # empties heap 1: the second player again, and the game is over
    assert session.side_to_move == 1 and session.scores() == (0, -1)
    assert session.undo(1) and session.side_to_move == 1


def test_the_web_payload_names_the_side_to_move_after_extra_turns() -> None:
    from perfectplay.web.positions import side_to_move
    game = ExtraTurnHeaps(heaps=(1, 2))
    assert side_to_move(game, game.start(), [(0, 1)]) == 0
    assert side_to_move(game, game.start(), [(0, 1), (1, 1)]) == 1
    assert side_to_move(game, game.start(), [PASS]) == 1


def test_mate_search_refuses_a_game_with_extra_turns_in_one_line() -> None:
    from perfectplay.errors import UnsupportedSearch
    with pytest.raises(UnsupportedSearch, match="extra turns"):
        solve(ExtraTurnHeaps(), ((1, 1), 0, 0, 0), mate=2)


def test_the_compiled_retro_engine_refuses_extra_turns_with_a_reason() -> None:
    from perfectplay.errors import UnsupportedSearch
    from perfectplay.retro import choose_engine
    with pytest.raises(UnsupportedSearch, match="extra turns"):
        choose_engine(LoopyExtraTurns(1), "compiled")
    assert choose_engine(LoopyExtraTurns(1), "auto") == "python"

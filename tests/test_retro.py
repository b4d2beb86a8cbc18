"""Retrograde analysis (perfectplay.retro): against search on every tic-tac-toe position,
against the value-iteration fixpoint on every loopy game, compiled against Python, and the
published values (Dodgem 3x3 a first-player win; 4x4 a draw)."""

from __future__ import annotations

import random

import pytest

from perfectplay import value as V
from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.games.chopsticks import Chopsticks
from perfectplay.games.dodgem import Dodgem
from perfectplay.games.morris3 import Tapatan, ThreeMensMorris
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.retro import Progress, solve_all
from perfectplay.retro.brute import fixpoint_values
from perfectplay.search.limits import Budget
from perfectplay.search.rules import Rules
from perfectplay.search.solver import make_searcher
from perfectplay.solving import analyze, solve

LOOPY = (Dodgem, Chopsticks, ThreeMensMorris, Tapatan)


class EveryTicTacToePosition(TicTacToe):
    """Tic-tac-toe without symmetry folding: one key per position, 5,478 in all."""

    def key(self, position: int) -> int:
        return position


def test_retro_values_every_tictactoe_position_as_search_does() -> None:
    game = EveryTicTacToePosition()
    result = solve_all(game)
    assert len(result) == 5478
    searcher = make_searcher("memo", Rules(game), Budget(), 1 << 16)
    for key, position, value in zip(result.keys, result.positions, result.values, strict=True):
        assert key == position
        assert searcher.search(position, -V.INFINITY, V.INFINITY, 0, 1 << 40) == value, \
            game.format_position(position)
    assert result.counts() == {"win": 2836, "loss": 1574, "draw": 1068}


@pytest.mark.parametrize("make", LOOPY)
def test_retro_agrees_with_the_value_iteration_fixpoint_on_every_position(make: type) -> None:
    game = make()
    result = solve_all(game)
    brute = fixpoint_values(game, game.start())
    assert len(brute) >= len(result)  # the fixpoint does not fold keys
    for position, value in brute.items():
        assert result.value(game.key(position)) == value, game.format_position(position)


@pytest.mark.parametrize("make, value", [
    (Dodgem, V.win_in(20)),           # Winning Ways: a first-player win
    (Chopsticks, V.loss_in(26)),      # these rules: the second player wins
    (ThreeMensMorris, 0),
    (Tapatan, V.win_in(9)),           # only the centre wins
])
def test_start_values_are_those_in_the_docs(make: type, value: int) -> None:
    game = make()
    assert solve(game).value == value
    assert fixpoint_values(game, game.start())[game.start()] == value


@pytest.mark.parametrize("make", (Dodgem, Chopsticks, ThreeMensMorris, Tapatan, TicTacToe))
def test_compiled_kernel_agrees_with_the_python_engine(make: type) -> None:
    game = make()
    python, compiled = solve_all(game, engine="python"), solve_all(game, engine="compiled")
    assert len(python) == len(compiled)
    assert sorted(zip(python.keys, python.values.tolist(), strict=True)) == \
        sorted(zip(compiled.keys.tolist(), compiled.values.tolist(), strict=True))


def test_dodgem_4x4_never_ends_with_perfect_play() -> None:
    # David des Jardins (1996): 4x4 Dodgem is a draw.
    game = Dodgem(4)
    result = solve_all(game, engine="compiled")
    assert result.root_value == 0
    assert len(result) == 395_294
    assert result.counts() == {"win": 210_883, "loss": 149_130, "draw": 35_281}


def test_random_positions_of_loopy_games_agree_with_the_fixpoint() -> None:
    rng = random.Random(7)
    for make in LOOPY:
        game = make()
        for _ in range(8):
            position = game.random_position(rng)
            brute = fixpoint_values(game, position)
            assert solve(game, position).value == brute[position]
            for move in analyze(game, position):
                assert move.value == -V.from_table(brute[game.play(position, move.move)], 1)


def test_a_winner_follows_the_line_to_the_end_and_every_best_move_keeps_the_value() -> None:
    game = Dodgem()
    solution = solve(game)
    assert solution.best_moves == ["a3-b3"] and len(solution.pv) == 20
    position = game.start()
    for notation in solution.pv:
        position = game.play(position, game.parse_move(position, notation))
    assert game.moves(position) == []  # Blue, to move, has both cars off: Blue won


def test_a_drawn_line_stops_when_a_position_comes_back() -> None:
    game = ThreeMensMorris()
    solution = solve(game)
    assert solution.describe() == "draw" and 0 < len(solution.pv) < 40


def test_search_algorithms_refuse_a_loopy_game_with_the_reason() -> None:
    for algorithm in ("minimax", "memo", "alphabeta", "tt", "id", "table"):
        with pytest.raises(UnsupportedSearch, match="loopy"):
            solve(Chopsticks(), algorithm=algorithm)
    with pytest.raises(UnsupportedSearch, match="--depth"):
        from perfectplay.search.limits import Limits
        solve(Dodgem(), limits=Limits(depth=3))
    with pytest.raises(UnsupportedSearch, match="score game"):
        from perfectplay.games.crates import CrateLine
        solve(CrateLine((3, 9, 1)), algorithm="retro")


def test_outcome_only_gives_the_sign() -> None:
    assert solve(Dodgem(), outcome_only=True).value == V.WIN_ONLY
    assert solve(Chopsticks(), outcome_only=True).value == -V.WIN_ONLY


def test_result_batches_counts_and_lookups() -> None:
    result = solve_all(Chopsticks())
    batches = list(result.batches(50))
    assert [len(keys) for keys, _ in batches] == [50, 50, 50, 41]
    assert sum(result.counts().values()) == len(result) == 191
    assert result.index_of(-1) is None and result.value("no such key") is None
    assert result.longest() >= 26
    with pytest.raises(ValueError):
        list(result.batches(0))


@pytest.mark.parametrize("engine", ["python", "compiled"])
def test_a_position_limit_stops_the_analysis(engine: str) -> None:
    with pytest.raises(LimitReached, match="more than 1,000 positions"):
        solve_all(Dodgem(4), engine=engine, max_positions=1000)


def test_progress_is_reported_by_phase() -> None:
    seen: list[Progress] = []
    solve_all(Dodgem(4), engine="compiled", progress=seen.append)
    phases = [p.phase for p in seen]
    assert phases.index("enumerate") < phases.index("parents") < phases.index("retrograde")
    assert seen[-1].done == seen[-1].total == 395_294


def test_a_poll_that_raises_stops_the_analysis() -> None:
    class Stop(Exception):
        pass

    def poll(done: int) -> None:
        raise Stop

    with pytest.raises(Stop):
        solve_all(Dodgem(4), poll=poll)

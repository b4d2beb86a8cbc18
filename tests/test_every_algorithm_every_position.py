"""Every algorithm on every finished tic-tac-toe position and an even sample of the others
(`analyze --algorithm id` once listed moves after X had already won, and crashed on full
boards, while every other algorithm answered "no moves")."""

from __future__ import annotations

import json
from functools import cache

import pytest
from conftest import run_main

from perfectplay import analyze, solve
from perfectplay import value as V
from perfectplay.game import Outcome
from perfectplay.games.tictactoe.rules import TicTacToe
from perfectplay.search.limits import Limits
from perfectplay.search.perft import reachable_positions

GAME = TicTacToe()
POSITIONS = sorted(reachable_positions(GAME, GAME.start()))
FINISHED = [p for p in POSITIONS if GAME.outcome(p) is not None or not GAME.moves(p)]
# (algorithm, depth limit): id both unlimited and with a depth that reaches every end.
# Every finished position (where the defects were), and a third (analyze) or a half (solve)
# of the others, taken evenly: every one of them took 77 s of the suite on a busy machine.
ANALYZED = sorted(set(FINISHED) | set(POSITIONS[::3]))
SOLVED = sorted(set(FINISHED) | set(POSITIONS[::2]))
VARIANTS = [("memo", None), ("alphabeta", None), ("tt", None), ("id", None), ("id", 9), ("auto", None)]


@cache
def reference(position: int) -> int:
    """Plain negamax with remoteness, written out here as the independent reference."""
    ending = GAME.outcome(position)
    if ending is not None:
        return {Outcome.WIN: V.WIN, Outcome.LOSS: -V.WIN, Outcome.DRAW: 0}[ending]
    moves = GAME.moves(position)
    if not moves:
        return -V.WIN
    return max(_one_ply_further(-reference(GAME.play(position, move))) for move in moves)


def _one_ply_further(value: int) -> int:
    """A child's value seen from its parent: a decisive result is one ply further away."""
    if value >= V.DECISIVE:
        return value - 1
    if value <= -V.DECISIVE:
        return value + 1
    return value


def test_the_walk_finds_every_position_and_every_finished_one() -> None:
    # 5,478 reachable positions (a known count); 958 of them finished.
    assert (len(POSITIONS), len(FINISHED)) == (5478, 958)


@pytest.mark.parametrize("algorithm, depth", VARIANTS)
def test_analyze_agrees_with_the_reference_on_every_position(algorithm: str, depth: int | None) -> None:
    limits = Limits(depth=depth)
    for position in ANALYZED:
        found = analyze(GAME, position, algorithm=algorithm, limits=limits, table_size=4096)
        expected = {} if position in FINISHED else {
            GAME.format_move(position, move): _one_ply_further(-reference(GAME.play(position, move)))
            for move in GAME.moves(position)}
        assert {move.notation: move.value for move in found} == expected, \
            (algorithm, depth, GAME.format_position(position))


@pytest.mark.parametrize("algorithm, depth", VARIANTS)
def test_solve_agrees_with_the_reference_on_every_position(algorithm: str, depth: int | None) -> None:
    limits = Limits(depth=depth)
    for position in SOLVED:
        found = solve(GAME, position, algorithm=algorithm, limits=limits, table_size=4096, pv_limit=0)
        text = GAME.format_position(position)
        assert found.value == reference(position), (algorithm, depth, text)
        if position in FINISHED:
            assert found.best_moves == [], (algorithm, depth, text)


def test_id_with_a_short_depth_lists_no_move_on_any_finished_position() -> None:
    for position in FINISHED:
        assert analyze(GAME, position, algorithm="id", limits=Limits(depth=4), table_size=4096) == []


def test_minimax_agrees_with_the_reference_from_three_stones_on() -> None:
    for position in POSITIONS:
        if bin(position).count("1") < 3 and position not in FINISHED:
            continue
        found = analyze(GAME, position, algorithm="minimax")
        expected = {} if position in FINISHED else {
            GAME.format_move(position, move): _one_ply_further(-reference(GAME.play(position, move)))
            for move in GAME.moves(position)}
        assert {move.notation: move.value for move in found} == expected
        assert solve(GAME, position, algorithm="minimax", pv_limit=0).value == reference(position)


@pytest.mark.parametrize("args", [
    ("tictactoe", "XXX/OO./...", "--algorithm", "id", "--depth", "4"),
    ("tictactoe", "XOX/XOO/OXX", "--algorithm", "id"),
    ("nim", "0", "0", "--algorithm", "id"),
    ("connect4", "1212121", "--algorithm", "id", "--depth", "3", "--engine", "python"),
])
def test_analyze_id_lists_no_move_once_the_game_is_over(args: tuple[str, ...]) -> None:
    ran = run_main("analyze", *args, "--json")
    assert ran.code == 0, ran.stderr
    assert json.loads(ran.stdout)["moves"] == []
    text = run_main("analyze", *args)
    assert (text.code, text.stdout.strip()) == (0, "no legal moves: the game is over")

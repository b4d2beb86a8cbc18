"""Othello: rules with passes, the WOF count, notation, published move counts (perft) and the
solved 4x4 board (second player wins 11-3 with two cells empty: margin -10 for Black)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from perfectplay import registry, solve
from perfectplay.errors import BadOption, BadPosition
from perfectplay.search.perft import perft


def othello(size: int = 8, text: str | None = None):  # type: ignore[no-untyped-def]
    return registry.load("othello", {"size": size}, text)


def test_the_start_has_the_four_standard_moves() -> None:
    game, start = othello()
    assert sorted(game.format_move(start, move) for move in game.moves(start)) == ["c4", "d3", "e6", "f5"]
    assert game.format_position(start).split()[0].split("/")[3] == "...WB..."


def test_move_counts_match_the_published_perft_of_8x8() -> None:
    game, start = othello()
    assert [perft(game, start, depth).count for depth in (1, 2, 3, 4, 5)] == [4, 12, 56, 244, 1396]


def test_4x4_is_a_second_player_win_by_ten() -> None:
    # 4x4 Othello is a win for White, 11-3 with two cells left empty; the WOF count gives the
    # empty cells to the winner: 13-3, margin -10 for Black, who moves first.
    game, start = othello(4)
    for algorithm in ("tt", "pns"):
        solution = solve(game, start, algorithm=algorithm)
        assert solution.value == -10 and solution.exact
    assert solve(game, start).best_moves == ["b1", "a2", "d3", "c4"]


def test_a_player_without_a_move_passes_and_two_passes_end_the_game() -> None:
    # Black on a1, White on c1 only: Black cannot move (nothing to bracket), White neither.
    game, position = othello(4, "B.W./..../..../.... B")
    assert [game.format_move(position, move) for move in game.moves(position)] == ["pass"]
    after_one = game.play(position, game.moves(position)[0])
    assert [game.format_move(after_one, move) for move in game.moves(after_one)] == ["pass"]
    # The second pass ends the game: the 14 empty cells go to nobody on a tie.
    assert game.gain(after_one, game.moves(after_one)[0]) == 0
    ended = game.play(after_one, game.moves(after_one)[0])
    assert game.moves(ended) == []
    assert solve(game, position).value == 0


def test_the_empty_cells_go_to_the_leader_when_both_pass() -> None:
    game, position = othello(4, "BB../..../..../.... W")  # White has no disc and no move
    # White passes, Black passes: 16-0 in the end, from 0-2 now: the margin to come is -14.
    assert game.margin(position) == -2 and solve(game, position).value == -14


def test_a_move_gains_one_plus_two_per_flipped_disc() -> None:
    game, start = othello()
    d3 = game.parse_move(start, "d3")
    assert game.gain(start, d3) == 3
    after = game.play(start, d3)
    assert game.margin(after) == -3  # White to move, three behind


def test_moves_and_rows_read_the_same_position() -> None:
    game, by_moves = othello(4, "b1 a1")
    _, by_rows = othello(4, "WB../.WB./.BW./.... B")
    assert game.key(by_moves) == game.key(by_rows)
    assert "Black 3, White 3; Black to move" in game.render(by_moves)


@pytest.mark.parametrize("text, message", [
    ("a1", "not legal"), ("z9", "not legal"), ("..../..../..../.... X", "give 4 rows"),
])
def test_bad_positions_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(BadPosition, match=message):
        othello(4, text)


def test_odd_or_huge_boards_are_refused() -> None:
    with pytest.raises(BadOption, match="--size 5"):
        othello(5)


def test_the_command_line_solves_4x4_and_calls_8x8_too_big() -> None:
    run = [sys.executable, "-m", "perfectplay"]
    done = subprocess.run([*run, "solve", "othello", "--size", "4"], capture_output=True, text=True)
    assert done.returncode == 0 and "value: -10" in done.stdout
    big = subprocess.run([*run, "solve", "othello"], capture_output=True, text=True)
    assert big.returncode == 2 and "too big to solve" in big.stderr

"""`play nim 10^30` is played, not refused: the computer's moves, the hints and the
review come from Sprague-Grundy theory, and a person's move is checked for legality
without listing the 10^30 moves of a heap (Game.is_legal)."""

from __future__ import annotations

import re

from conftest import run_main

from perfectplay import registry
from perfectplay.impartial.theory import grundy_of

BIG = 10**30
HEAPS = f"{BIG} {BIG + 12345}"  # Nim sum not 0: the player to move wins by 2:12345


def moves_played(printed: str, who: str) -> list[tuple[int, int]]:
    return [(int(row), int(take)) for row, take in re.findall(rf"{who} play (\d+):(\d+)", printed)]


def test_the_computer_plays_the_winning_move_in_heaps_of_10_to_the_30() -> None:
    ran = run_main("play", "nim", *HEAPS.split(), "--first", "computer", stdin="quit\n")
    assert ran.code == 0, ran.stderr
    [(row, take)] = moves_played(ran.stdout, "I")
    game, piles = registry.load("nim", {}, HEAPS)
    after = game.play(piles, (row - 1, take))
    assert grundy_of(game, after)[0] == 0  # the only kind of move that wins
    assert after == (BIG, BIG)


def test_a_hint_names_the_winning_move_and_says_the_rest_lose() -> None:
    ran = run_main("play", "nim", *HEAPS.split(), stdin="hint\nquit\n")
    assert ran.code == 0, ran.stderr
    assert "  win  2:12345" in ran.stdout
    assert "(too many moves to list them all; every other move loses)" in ran.stdout


def test_a_persons_moves_are_checked_without_listing_them() -> None:
    script = f"1 {BIG + 1}\n3 1\n1 0\nmoves\n1 5\nquit\n"
    ran = run_main("play", "nim", str(BIG), stdin=script)
    assert ran.code == 0, ran.stderr
    assert f"row 1 has only {BIG} sticks" in ran.stdout
    assert "there is no row 3" in ran.stdout
    assert "take at least one stick" in ran.stdout
    assert f"too many legal moves to list; best: 1:{BIG}" in ran.stdout
    # 1:5 is legal and loses: the computer answers with the winning reply, taking all.
    assert moves_played(ran.stdout, "You") == [(1, 5)]
    assert moves_played(ran.stdout, "I") == [(1, BIG - 5)]
    # The review values the person's move by theory, though it was not among those listed.
    assert "you played 1:5 (loss) from a won position" in ran.stdout
    assert f"Better was 1:{BIG} (win)" in ran.stdout


def test_misere_nim_with_a_huge_heap_is_played_by_its_rule() -> None:
    # Misère, heaps 10^30 and 1: the winning move leaves an odd number of heaps of size 1.
    ran = run_main("play", "nim", str(BIG), "1", "--misere", "--first", "computer", stdin="quit\n")
    assert ran.code == 0, ran.stderr
    assert moves_played(ran.stdout, "I") == [(1, BIG)]


def test_a_game_with_short_move_lists_checks_moves_as_before() -> None:
    # The protocol's default is_legal looks the move up in moves().
    game, start = registry.load("tictactoe")
    assert game.is_legal(start, 4) and game.has_moves(start)
    after = game.play(start, 4)
    assert not game.is_legal(after, 4)

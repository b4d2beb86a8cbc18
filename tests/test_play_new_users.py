"""What new users met in `perfectplay play`: each case is the
command, the lines typed, and what the game must print. Run in-process (plain text)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_main

from perfectplay import registry
from perfectplay.games.connect4.rules import winning_four
from perfectplay.games.nim import sticks
from perfectplay.play.analyst import Analyst
from perfectplay.play.game_loop import game_summary


def play(*args: str, typed: str = "quit\n") -> str:
    ran = run_main("play", *args, stdin=typed)
    assert ran.code == 0, ran.stderr
    assert "Traceback" not in ran.stdout + ran.stderr
    return ran.stdout


def test_large_nim_is_played_perfectly_by_theory() -> None:
    # 20 30 40: the only winning move is 3:30 (20 ^ 30 = 10); 99 200 300: 3:129 (99 ^ 200 = 171).
    assert "I play 3:30 (takes 30 sticks from row 3)." in play("nim", "20", "30", "40", "--first", "computer")
    assert "I play 3:129 (takes 129 sticks from row 3)." in play("nim", "99", "200", "300",
                                                                   "--first", "computer")


def test_large_nim_hints_are_exact_and_name_the_winning_move() -> None:
    text = play("nim", "20", "30", "40", typed="hint\nquit\n")
    assert "I have solved this game exactly" in text
    hint = text[text.index("Your moves, best first"):]
    assert hint.startswith("Your moves, best first: exact values\n  win ")
    assert hint.splitlines()[1].split()[-1] == "3:30"


def test_connect_four_says_its_moves_and_hints_are_estimates_with_their_depth() -> None:
    # A board no book covers and no search solves in 0.3 s: the perfect level too plays
    # estimates, and says so, and so do hints (on 7x6 past the book the value may fit, and
    # then the perfect level proves its moves). 8x7 is past Connect Four's declared reach
    # (ConnectFour.solvable), so the perfect level does not spend its long first look
    # (VALUE_PROBE_CPU, 10 s of CPU) on the value.
    text = play("connect4", "--width", "8", "--height", "7", "--first", "computer",
                "--think-time", "0.3", typed="hint\nquit\n")
    assert "four in a row on the 8x7 board" in text  # it said "7x6 board"
    assert "Looking further" not in text
    assert "This game is too big for me to solve in 0.3 s a move" in text
    assert "(My move is from estimates: too big to solve in the time allowed, searched" in text
    assert "Your moves, best first: estimates: too big to solve in the time allowed, searched " in text
    assert "moves deep" in text
    assert "exact values" not in text


def test_play_help_does_not_promise_perfection_it_cannot_keep() -> None:
    ran = run_main("play", "--help")
    assert "never errs" not in ran.stdout
    assert "perfect where the game is solved" in " ".join(ran.stdout.split())


def test_tictactoe_from_a_given_position_names_the_mark_the_person_plays() -> None:
    text = play("tictactoe", "X.O/.X./...")
    assert "You move next; you are O." in text
    assert "You move first; you are X." in play("tictactoe")


def test_connect_four_names_the_persons_piece_and_marks_the_last_move() -> None:
    text = play("connect4", "4455", "--think-time", "0.3")
    assert "you are X" in text
    assert "1 2 3 4 5 6 7\n        ^ last move" in text


def test_connect_four_highlights_the_winning_four() -> None:
    text = play("connect4", "1212121", typed="")
    assert "Four in a row for X." in text
    assert "The position was already over (I had won) before any move was played." in text
    game, position = registry.load("connect4", {}, "1212121")
    four = winning_four(position[1] ^ position[0], game.height)
    assert four == sum(1 << row for row in range(4))  # column 1, rows 1-4


def test_crate_moves_say_what_they_took_and_hints_speak_words() -> None:
    text = play("crates", "3", "9", "1", "4", "--first", "computer", "--seed", "1", typed="hint\nquit\n")
    assert "I play LL (takes the crates [3] [9] on the left: 12 points)." in text
    assert "you outscore me by" in text or "I outscore you by" in text
    coins = play("coins", "8", "15", "3", "7", typed="R\nquit\n")
    assert "You play R (takes the coin [7] on the right: 7 points)." in coins


def test_the_review_names_moves_that_gave_points_away() -> None:
    # Crates 3 9 1 4: LL (12) is best; L wins too but scores less. Play L, then best moves.
    analyst = Analyst(registry.load("crates", {}, "3 9 1 4")[0])
    assert analyst.analyze((0, 4)).best()[0].notation == "LL"
    text = play("crates", "3", "9", "1", "4", "--seed", "2", typed="L\nL\nL\nL\nR\nquit\n")
    assert "Points you gave away: move 1 (L: LL scored" in text


def test_nim_with_a_large_pile_fits_the_screen_and_shares_the_matchgame_layout() -> None:
    text = play("nim", "300", "5")
    row = next(line for line in text.splitlines() if line.startswith("row 1: "))
    assert len(row) < 80 and row.endswith("(300)") and "..." in row
    assert sticks((7, 5, 3, 1)).splitlines()[0] == "row 1: | | | | | | |  (7)"
    assert "row 1: | | | | | | |  (7)" in play("matchgame")


def test_headers_speak_plainly_and_show_the_rows_in_play() -> None:
    text = play("matchgame", "3", "3")
    assert "rows of matches (3 3)" in text and "7 5 3 1" not in text
    assert "(seed" not in text
    assert "(seed" not in play("crates", "3", "9", "1")


def test_the_header_names_the_board_size_played() -> None:
    game, start = registry.load("connect4", {}, "")
    assert game_summary(game, start).startswith("four in a row on a 7x6 board")
    game, start = registry.load("connect4", {"width": 5, "height": 4}, "")
    assert game_summary(game, start) == "four in a row on the 5x4 board"


def test_history_save_and_load_replay_a_game(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    text = play("matchgame", "--seed", "1", typed=f"1 1\nhistory\nsave {saved}\nquit\n")
    assert "Moves so far: 1. 1:1 (you), 2. " in text
    record = json.loads(saved.read_text())
    assert record["game"] == "matchgame" and record["moves"][0] == "1:1"
    again = play("--load", str(saved), typed="history\nquit\n")
    assert "Moves so far: 1. 1:1 (you), 2. " in again


def test_a_bad_saved_file_is_one_line_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    ran = run_main("play", "--load", str(bad))
    assert (ran.code, ran.stderr.strip()) == (2, f"error: --load '{bad}': not a game saved by "
                                                 "perfectplay (not JSON)")


def test_new_swaps_sides_and_keeps_a_running_score() -> None:
    # Tic-tac-toe: the person resigns by quitting nothing; two drawn-out games via new.
    text = play("takeaway", "2", typed="2\nnew\nquit\n")
    assert "You won in 1 move." in text
    assert "New game from the first position; I move first this time. Games so far: you 1, " \
           "computer 0, 0 draws." in text


def test_level_a_without_two_computers_is_refused() -> None:
    ran = run_main("play", "matchgame", "--level-a", "easy")
    assert ran.code == 2
    assert ran.stderr.startswith("error: --level-a and --level-b set the two computers")


def test_watching_two_computers_capitalises_each_sentence() -> None:
    text = play("tictactoe", "--computer-vs-computer", "--delay", "0", "--seed", "2", typed="")
    assert "Computer A (perfect) plays" in text and "\ncomputer A" not in text

"""Whole games of `perfectplay play` typed at a pseudo-terminal, with every command and
the bad input people type."""

from __future__ import annotations

import subprocess
import sys

import pexpect
from play_driver import Person, environment, spawn

from perfectplay import registry
from perfectplay.games.crates import CrateLine


def run_play(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    """`perfectplay play ARGS` with ``typed`` on a pipe (not a terminal)."""
    command = [sys.executable, "-m", "perfectplay", "play", *args]
    return subprocess.run(command, input=typed, capture_output=True, text=True,
                          env=environment(), timeout=30, check=False)


def matchgame() -> object:
    return registry.load("matchgame")[0]


def test_matchgame_board_shows_rows_of_sticks_with_row_numbers() -> None:
    person = Person(matchgame(), "matchgame")
    text = person.read()
    assert "row 1: | | | | | | |  (7)" in text
    assert "row 4: |              (1)" in text
    assert "You move first. Level: perfect." in text
    person.child.sendline("quit")
    assert person.finish() == 0
    assert "Bye (you quit)." in person.seen


def test_matchgame_person_beats_the_computer_after_every_command_and_bad_input() -> None:
    # 7 5 3 1 is lost for the player to move, so the computer moving first can be beaten.
    person = Person(matchgame(), "matchgame", "--first", "computer", "--seed", "7")
    text = person.read()
    assert "I move first." in text and "You can still win." in text
    assert person.board() in text
    assert "Type a move (e.g." in person.type("")
    assert "'abc' is not a move; write ROW COUNT" in person.type("abc")
    assert "there is no row 9; rows are 1 to 4" in person.type("9 1")
    row, size = next((r + 1, s) for r, s in enumerate(person.mirror.position) if s)
    assert f"row {row} has only {size} sticks" in person.type(f"{row} {size + 1}")
    assert "take at least one stick" in person.type(f"{row} 0")
    hint = person.type("hint")
    assert "Your moves, best first: exact values" in hint and "win in" in hint and "loss in" in hint
    assert "Legal moves: 1:" in person.type("moves")
    assert "undo" in person.type("help") and "quit" in person.seen
    # A losing move, taken back: the game goes on from where it was.
    before = person.mirror.position
    loser = person.analyst.analyze(before).moves[-1].notation
    person.move(loser)
    undone = person.type("undo")
    person.mirror.undo(1)
    assert "Took back" in undone and person.mirror.position == before
    assert person.board() in undone
    answer = person.play_best_to_the_end()
    assert "You won in" in answer and "Well played!" in answer
    assert "The game is over, so '1 1' cannot be played" in person.type("1 1")
    person.child.sendline("quit")
    assert person.finish() == 0


def test_a_lost_game_names_the_first_mistake_and_the_better_move() -> None:
    # Misère 3 4 5 is won for the player to move; throwing it away is the first mistake.
    game = registry.load("matchgame", {}, "3 4 5")[0]
    person = Person(game, "matchgame", "3", "4", "5", "--seed", "1", start=(3, 4, 5))
    person.read()
    analysis = person.analyst.analyze(person.mirror.position)
    assert analysis.best_value > 0
    blunder = analysis.moves[-1].notation
    answer = person.move(blunder)
    while not person.over:
        answer = person.move(person.analyst.analyze(person.mirror.position).moves[0].notation)
    assert "I won in" in answer
    assert f"Your first mistake was move 1 (your move 1): you played {blunder} (loss in" in answer
    assert "from a won position." in answer
    assert f"Better was {analysis.best()[0].notation} (win in" in answer or "Better was" in answer
    # Undo after the end takes back the last turn and the game goes on.
    assert "Took back" in person.type("undo") and not person.over
    person.child.sendeof()
    assert person.finish() == 0
    assert "Game left after" in person.seen and "(end of input)" in person.seen


def test_tictactoe_best_play_draws_and_bad_squares_are_refused() -> None:
    game = registry.load("tictactoe")[0]
    person = Person(game, "tictactoe", "--seed", "3")
    text = person.read()
    assert "you are X" in text
    assert " 1 | 2 | 3\n---+---+---\n 4 | 5 | 6" in text
    person.move("5")
    taken = next(square for square in "12346789" if square not in person.notations())
    assert f"'{taken}' is not a legal move here; legal moves:" in person.type(taken)
    assert "'0' is not a legal move here" in person.type("0")
    assert "'x' is not a legal move here" in person.type("x")
    assert "Draw" in person.type("hint") or "draw" in person.seen
    answer = person.play_best_to_the_end()
    assert "A draw after 9 moves." in answer
    assert "The game is over: there is nothing left to hint at." in person.type("hint")
    assert "The game is over: no moves are left." in person.type("moves")
    person.child.sendline("q")
    assert person.finish() == 0


def test_crates_shows_both_totals_and_the_person_wins_with_best_play() -> None:
    values = (3, 9, 1, 4, 8, 2)
    person = Person(CrateLine(values), "crates", *map(str, values), "--seed", "5")
    text = person.read()
    assert "[3]  [9]  [1]  [4]  [8]  [2]" in text and "Score: you 0, computer 0." in text
    hint = person.type("hint")
    assert "you outscore me by 13 from here: you win by 13  LL" in hint
    assert "'LR' is not a legal move here; legal moves: L, LL, R" in person.type("LR")
    assert "Nothing to undo: you have not moved yet." in person.type("undo")
    answer = person.play_best_to_the_end()
    assert "Final score: you" in answer and "You won in" in answer
    assert "The game is over, so 'L' cannot be played" in person.type("L")
    assert "The game is over: type undo, new or quit." in person.type("")
    person.child.sendline("quit")
    assert person.finish() == 0


def test_ctrl_c_ends_the_game_with_one_line_and_exit_code_zero() -> None:
    person = Person(matchgame(), "matchgame")
    person.read()
    person.child.sendintr()
    assert person.finish() == 0
    assert "Bye (interrupted)." in person.seen


def test_end_of_input_at_the_first_prompt_exits_cleanly() -> None:
    person = Person(matchgame(), "matchgame")
    person.read()
    person.child.sendeof()
    assert person.finish() == 0
    assert "Bye (end of input)." in person.seen


def test_without_a_game_the_person_picks_one_from_the_list() -> None:
    child = spawn("play")
    child.expect_exact("Which game?")
    assert "3. matchgame" in child.before and "6. tictactoe" in child.before
    child.sendline("99")
    child.expect_exact("is not one of the games")
    child.sendline("ttt")
    child.expect_exact("your move> ")
    assert "tictactoe: three in a row" in child.before
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_piped_output_is_plain_text_and_a_terminal_gets_colour() -> None:
    piped = run_play("matchgame", typed="quit\n")
    assert piped.returncode == 0 and "row 1: | | | | | | |" in piped.stdout
    assert "\x1b[" not in piped.stdout
    coloured = spawn("play", "matchgame", colour=True)
    coloured.expect_exact("move> ")
    assert "\x1b[" in coloured.before
    coloured.sendline("quit")
    coloured.expect(pexpect.EOF)


def test_two_computers_play_a_whole_game() -> None:
    run = run_play("tictactoe", "--computer-vs-computer", "--delay", "0", "--seed", "2")
    assert run.returncode == 0
    assert "Computer A (perfect) moves first against computer B (perfect)" in run.stdout
    assert run.stdout.rstrip().endswith("A draw after 9 moves.")


def test_quiet_keeps_the_computers_view_to_itself() -> None:
    loud = run_play("matchgame", "--seed", "1", typed="1 1\n")
    quiet = run_play("matchgame", "--seed", "1", "--quiet", typed="1 1\n")
    assert "I win in" in loud.stdout and "I win in" not in quiet.stdout
    assert "I play" in quiet.stdout


def test_bad_options_are_errors_with_exit_code_two() -> None:
    for args in (["matchgame", "--level", "godlike"], ["nosuchgame"],
                 ["tictactoe", "--take", "1,2"], ["matchgame", "--think-time", "0"]):
        run = run_play(*args)
        assert run.returncode == 2, args
        assert "error" in run.stderr.lower() and "Traceback" not in run.stderr, run.stderr


def test_ctrl_c_while_the_computer_thinks_about_a_big_game_ends_cleanly() -> None:
    # Too big to solve within the node budget: the computer deepens under the clock.
    # (Big Nim is answered by theory at once now; Connect Four still needs the clock.)
    # An 8x7 board: the opening book (7x6) does not cover it, and it is far too big to solve.
    game, start = registry.load("connect4", {"width": 8, "height": 7})
    # The hard level: the perfect one first looks for the value for up to 10 s of CPU (the
    # next test).
    person = Person(game, "connect4", "--width", "8", "--height", "7", "--think-time", "2",
                    "--level", "hard", start=start)
    person.read()
    person.child.sendline("4")
    person.child.expect_exact("Thinking (up to 2 s)...")
    person.child.sendintr()
    assert person.finish() == 0
    assert "Game left after 1 move (interrupted). Bye." in person.seen


def test_the_perfect_level_shows_its_look_for_a_games_value_and_ctrl_c_ends_it() -> None:
    # The perfect level gives the start position's value up to VALUE_PROBE_CPU seconds of CPU
    # where the game declares it in reach: one stone past Connect Four's book, `4444422233`
    # needs about 1 s, more than half the 1 s think time, and the look says so rather than
    # leaving the screen silent. (A board past the declared reach, 8x7, gets no look at all:
    # tests/test_play_new_users.py.)
    child = spawn("play", "connect4", "4444422233", "--think-time", "1")
    child.expect_exact("Looking further for this position's value, to see whether I can play "
                       "it exactly (up to 10 s of CPU)...")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_stops_two_computers_with_exit_code_zero() -> None:
    child = spawn("play", "tictactoe", "--computer-vs-computer", "--delay", "5")
    child.expect_exact("moves first")
    child.sendintr()
    child.expect_exact("Stopped after 0 moves.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_without_a_game_on_a_pipe_the_list_says_how_to_start() -> None:
    run = run_play()
    assert run.returncode == 0
    assert "1. takeaway" in run.stdout and "3. matchgame" in run.stdout
    assert "Start one with: perfectplay play GAME" in run.stdout


def test_each_computer_plays_at_its_own_level() -> None:
    run = run_play("nim", "3", "4", "5", "--computer-vs-computer", "--delay", "0", "--seed", "1",
                   "--level-a", "easy", "--level-b", "perfect")
    assert run.returncode == 0
    assert "Computer A (easy) moves first against computer B (perfect)" in run.stdout
    assert "won in" in run.stdout

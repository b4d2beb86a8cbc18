"""A user's own game with a bug gets one line naming the method, the class, the position and
the line of their code, and exit code 2; never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_main

from perfectplay.game_faults import GameFault, check_game, explain

FILE = str(Path(__file__).parent / "fixtures" / "buggy_games.py")


@pytest.mark.parametrize("name, expected", [
    ("MovesRaise", "error: your game's MovesRaise.moves raised ZeroDivisionError: division by zero "
                   f"on position 3 ({FILE}:10: return [1 / 0])"),
    ("StartRaise", "error: your game's StartRaise.start raised RuntimeError: no start "
                   f"({FILE}:18: raise RuntimeError(\"no start\"))"),
    ("PlayRaise", "error: your game's PlayRaise.play raised KeyError: 3 on position 3 "
                  f"({FILE}:32: raise KeyError(pile))"),
    ("MovesNone", "error: MovesNone.moves() returned None on position 5: it must return a list "
                  "of moves (an empty list when no move is left)"),
    ("Unhashable", "error: Unhashable.start() returned the position [5], which cannot be hashed: "
                   "positions must be immutable (a tuple, not a list; a frozenset, not a set)"),
    ("MovesGenerator", "error: MovesGenerator.moves() returned a generator on position 5: it must "
                       "return a list of moves (an empty list when no move is left)"),
])
def test_a_buggy_game_gets_one_line_naming_its_method_and_position(name: str, expected: str) -> None:
    ran = run_main("play", f"{FILE}:{name}", "--first", "computer")
    assert ran.code == 2
    assert ran.stderr.strip() == expected
    assert "Traceback" not in ran.stdout + ran.stderr


def test_check_game_raises_a_specific_error_in_the_library() -> None:
    sys.path.insert(0, str(Path(FILE).parent))
    try:
        import buggy_games
    finally:
        sys.path.pop(0)
    with pytest.raises(GameFault, match="returned None"):
        check_game(buggy_games.MovesNone())
    try:
        buggy_games.MovesRaise().moves(3)
    except ZeroDivisionError as error:
        assert explain(error) is not None and "MovesRaise.moves" in explain(error)  # type: ignore[operator]


def test_play_with_an_empty_module_name_is_refused_in_one_line() -> None:
    ran = run_main("play", ":")
    assert (ran.code, ran.stderr.strip()) == (2, "error: cannot load game ':': Empty module name")


def test_play_with_standard_input_closed_says_goodbye_and_exits_0() -> None:
    # fd 0 closed, not merely empty: only a real process shows it.
    done = subprocess.run([sys.executable, "-m", "perfectplay", "play", "matchgame"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: os.close(0))
    assert done.returncode == 0, done.stderr
    assert "Bye (end of input)." in done.stdout
    assert "Traceback" not in done.stderr


def test_a_bug_of_perfectplays_own_is_one_line_with_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    import perfectplay.cli.catalogue as catalogue
    monkeypatch.setattr(catalogue.registry, "entries", lambda: None)  # iterating it raises TypeError
    ran = run_main("games")
    assert ran.code == 3
    assert ran.stderr.startswith("internal error: TypeError")
    assert "Traceback" not in ran.stderr


LIST_KEY = ("error: ListKey.key() returned [5] on position 5, which cannot be hashed: keys must "
            "be immutable (a tuple, not a list; a frozenset, not a set)")


@pytest.mark.parametrize("command", [["solve"], ["analyze"], ["play", "--first", "computer"],
                                     ["verify", "--cases", "3"]])
def test_a_key_that_returns_a_list_is_named_in_one_line_by_every_command(command: list[str]) -> None:
    # It once ended in "TypeError: unhashable type" from tt.py, exit 3.
    ran = run_main(command[0], f"{FILE}:ListKey", *command[1:])
    assert (ran.code, ran.stderr.strip()) == (2, LIST_KEY)


def test_a_key_that_returns_a_list_only_deep_in_the_game_is_named_where_it_does() -> None:
    ran = run_main("solve", f"{FILE}:DeepListKey")
    assert ran.code == 2
    assert ran.stderr.strip() == ("error: DeepListKey.key() returned [2] on position 2, which cannot "
                                  "be hashed: keys must be immutable (a tuple, not a list; a "
                                  "frozenset, not a set)")


@pytest.mark.parametrize("algorithm", ["tt", "minimax", "id"])
def test_an_outcome_that_returns_a_word_is_named_not_read_as_a_loss(algorithm: str) -> None:
    # outcome() returning "win" was once silently read as "loss in 0".
    ran = run_main("solve", f"{FILE}:OutcomeWord", "--algorithm", algorithm,
                   *(["--depth", "9"] if algorithm == "id" else []))
    assert ran.code == 2
    assert ran.stderr.strip().splitlines()[-1] == (
        "error: OutcomeWord.outcome() returned 'win' on position 0: it must return None while the "
        "game goes on, else Outcome.WIN, Outcome.LOSS or Outcome.DRAW for the player to move (from "
        "perfectplay import Outcome)")


def test_a_checked_game_still_pickles_for_worker_processes(tmp_path: Path) -> None:
    import pickle

    from perfectplay import registry
    (tmp_path / "pickled_sticks.py").write_text(
        "from perfectplay import Game\n\nclass Sticks(Game):\n    def start(self): return 5\n"
        "    def moves(self, pile): return [1] if pile else []\n"
        "    def play(self, pile, take): return pile - take\n")
    game, start = registry.load(f"{tmp_path / 'pickled_sticks.py'}:Sticks")
    copy = pickle.loads(pickle.dumps(game))
    assert copy.key(7) == 7 and copy.outcome(7) is None
    assert vars(copy)["key"].game is copy  # the check travels with the game, bound to the copy


def test_a_game_file_that_exits_while_loading_says_so(tmp_path: Path) -> None:
    # sys.exit(5) in a game file once made perfectplay exit 5 with no word.
    (tmp_path / "quits.py").write_text("import sys\nsys.exit(5)\n")
    done = subprocess.run([sys.executable, "-m", "perfectplay", "solve", "quits.py:Game"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == ("error: cannot load game 'quits.py:Game': the file exited "
                                   "(sys.exit(5)) while loading; a game file should define its "
                                   "game, not run a program")


def test_a_game_file_that_raises_while_loading_names_its_line(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("x = 1\nraise RuntimeError('not ready')\n")
    ran = run_main("solve", f"{tmp_path / 'broken.py'}:Game")
    assert ran.code == 2
    assert ran.stderr.strip() == (f"error: cannot load game '{tmp_path / 'broken.py'}:Game': its code "
                                  "raised RuntimeError: not ready while loading "
                                  f"({tmp_path / 'broken.py'}:2: raise RuntimeError('not ready'))")

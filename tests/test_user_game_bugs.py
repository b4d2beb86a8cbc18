"""A user's own game with a bug gets one line naming the method, the class, the position and
the line of their code, and exit code 2; never a traceback (issue 13, section 3)."""

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

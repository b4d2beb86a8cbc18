"""The perfect level never plays an unproved move while it is called perfect: its patience
is CPU time, which a busy machine does not shrink; it shows where a
long proof stands; and one slow move does not make it give up on the rest of the game."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest
from play_driver import environment

from perfectplay import deciding
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.play import analyst as analyst_module
from perfectplay.play.analyst import Analyst, CpuWatch
from perfectplay.play.talk import estimate_words
from perfectplay.search.limits import Budget

# At 444442227 (in the book, score +2) only column 2 wins; proving it takes about 1.7 s of
# CPU here (columns 4, 3 and 5 are refuted first): more than the old 10 s of patience on the
# clock when two other programs share the two cores.
ONLY_WIN = "444442227"
# Far shorter than the proof on any machine (CI's idle one proved it within 1.5 s, the
# default think time's share), so the proof runs past it and shows a progress line: one comes
# as each column's test starts, the fourth (column 2) after 1.1 s of CPU here, so a machine
# up to eight times faster still prints one past the 0.15 s share.
THINK_TIME = "0.2"
# A CPU-bound process that ends by itself when the process that started it does (a killed
# test run leaves no burner behind).
BURNER = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"


@pytest.fixture
def busy_machine() -> Iterator[None]:
    """Two CPU-bound processes beside the test, as many as this machine has cores."""
    burners = [subprocess.Popen([sys.executable, "-c", BURNER]) for _ in range(2)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def test_the_perfect_level_plays_the_only_win_on_a_busy_machine(busy_machine: None) -> None:
    command = [sys.executable, "-m", "perfectplay", "play", "connect4", ONLY_WIN,
               "--first", "computer", "--level", "perfect", "--think-time", THINK_TIME]
    ran = subprocess.run(command, input="quit\n", capture_output=True, text=True,
                         env=environment(), timeout=600, check=False)
    assert ran.returncode == 0, ran.stderr
    assert "I can solve this game: at the perfect level every move I play is proved" in ran.stdout
    assert "I play 2." in ran.stdout
    assert "My move is from estimates" not in ran.stdout
    # The proof runs past the think time, and says where it stands: which move it is proving
    # when the think time ends depends on the machine (and its load).
    assert re.search(r"Still proving: column [1-7] \(move [1-7] of 7\), [0-9.]+ s of CPU so far",
                     ran.stdout), ran.stdout


def test_the_cpu_watch_counts_cpu_time_not_the_clock() -> None:
    budget = Budget()
    watch = CpuWatch(budget, 0.1)
    watch.thread.start()
    try:
        time.sleep(0.4)  # the clock runs, the CPU does not: a machine busy with others
        assert not budget.stop.is_set()
        began = time.process_time()
        while time.process_time() - began < 0.3 and not budget.stop.is_set():
            pass
        assert budget.stop.wait(1.0)
    finally:
        watch.done.set()


def test_one_slow_move_does_not_make_the_perfect_level_impatient(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = ConnectFour()
    # The kernel's loading (numba's cache, or the compiler) is paid first: the patience
    # measured here is the search's, and loading cannot be stopped halfway.
    deciding.warm_up(game)
    analyst = Analyst(game, think_time=0.01)
    # A patience far too short for this position's proof: the level must say so...
    monkeypatch.setattr(analyst_module, "PERFECT_PATIENCE", 0.05)
    slow = analyst.best_moves(game.parse_position(ONLY_WIN))
    assert not slow.exact and slow.unproved_after is not None
    assert estimate_words(slow).startswith("estimates: no move proved optimal in 0 s of CPU")
    # ... and the next move gets its patience again, and is proved.
    assert not analyst.impatient
    monkeypatch.setattr(analyst_module, "PERFECT_PATIENCE", 60.0)
    late = game.parse_position("335662333565")  # Test_L1_R2, line 2: score -2
    proved = analyst.best_moves(late)
    assert proved.exact and game.score_of(late, proved.best_value) == -2


def test_the_banner_calls_a_book_position_solved_though_its_moves_take_seconds() -> None:
    # Before, the first look analysed every move of such a position in 1 s, failed, said "too big"
    # and played estimates all game long.
    analyst = Analyst(ConnectFour())
    assert analyst.probe(ConnectFour().parse_position(ONLY_WIN))
    assert not analyst.impatient


# Past the book (10 stones): the value itself costs about 1.1 s of CPU, and only column 2 wins.
VALUE_PAST_THE_BOOK = "4444422233"


def test_a_position_whose_value_takes_longer_than_half_the_think_time_is_played_exactly() -> None:
    # Before, the first look gave the value half the think time; with 1 s that is 0.5 s, too
    # little here, so the level judged exact play out of reach and played an estimate (the
    # web page's computer played 6, which does not win).
    game = ConnectFour()
    analyst = Analyst(game, think_time=1.0, value_probe=analyst_module.VALUE_PROBE_CPU)
    position = game.parse_position(VALUE_PAST_THE_BOOK)
    assert analyst.probe(position) and not analyst.impatient
    found = analyst.best_moves(position)
    assert found.exact
    assert [move.notation for move in found.moves] == ["2"]

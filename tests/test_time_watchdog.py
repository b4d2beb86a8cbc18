"""--time holds even when a game's own code is slow (issue 13): one call of a user's moves()
that sleeps cannot be interrupted by the search's polls, so the CLI's watchdog cuts the
command off with exit 1, as any limit does."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

SLOW_GAME = '''
import time
from perfectplay import Game

class SlowSticks(Game):
    name = "slow-sticks"
    def start(self): return 12
    def moves(self, pile):
        if pile == 5:
            time.sleep(60)  # one slow call the search cannot interrupt
        return [take for take in (1, 2) if take <= pile]
    def play(self, pile, take): return pile - take
'''
GUARD_SECONDS = 30  # against a hang, not a benchmark: without the watchdog a run takes 60 s


def run(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.perf_counter()
    ran = subprocess.run([sys.executable, "-m", "perfectplay", *args], cwd=folder, capture_output=True,
                         text=True, timeout=GUARD_SECONDS)
    return ran, time.perf_counter() - started


@pytest.mark.parametrize("command", [["solve"], ["analyze"], ["solve", "--algorithm", "id"]])
def test_a_time_limit_cuts_off_one_slow_call_of_a_users_moves(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "slow.py").write_text(SLOW_GAME)
    ran, elapsed = run(tmp_path, *command[:1], "slow.py:SlowSticks", *command[1:], "--time", "1")
    assert ran.returncode == 1, ran.stderr
    # --algorithm id prints each depth it completed before the last line.
    last = ran.stderr.splitlines()[-1]
    # The search's own stop, or the watchdog's if the search's caller missed it.
    assert last.startswith("stopped: by the time limit (1 s") and "without an answer" in last, ran.stderr
    assert ran.stdout == "" and "Traceback" not in ran.stderr
    assert elapsed < GUARD_SECONDS


def test_a_fast_game_under_a_time_limit_still_answers(tmp_path: Path) -> None:
    (tmp_path / "slow.py").write_text(SLOW_GAME.replace("pile == 5", "pile == -1"))
    ran, _ = run(tmp_path, "solve", "slow.py:SlowSticks", "--time", "5")
    assert ran.returncode == 0 and "value: loss in 8" in ran.stdout, ran.stderr  # 12 = 3 x 4


def test_the_watchdog_is_disarmed_when_the_command_ends_in_process() -> None:
    import signal

    from perfectplay.cli import main
    with pytest.raises(SystemExit) as done:
        main(["solve", "tictactoe", "--time", "5"])
    assert done.value.code == 0
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) in (signal.SIG_DFL, None)


def test_a_time_limit_that_strikes_while_the_game_is_being_checked_is_a_limit(tmp_path: Path) -> None:
    # The start position's moves() is slow: the watchdog strikes in the check of a user's
    # game on load, which must not report the limit as a bug of the game (exit 2).
    (tmp_path / "slow.py").write_text(SLOW_GAME.replace("pile == 5", "pile == 12"))
    ran, _ = run(tmp_path, "solve", "slow.py:SlowSticks", "--time", "1")
    assert ran.returncode == 1, ran.stderr
    assert ran.stderr.splitlines()[-1].startswith("stopped: by the time limit (1 s, --time)"), ran.stderr


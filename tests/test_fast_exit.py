"""The console script leaves without the interpreter's teardown once numba is loaded or after
Ctrl-C (0.7-0.9 s of freeing numba's objects once made Ctrl-C take 0.8 s and every
compiled run slower), but only after what matters outside the process: the atexit handlers,
and every byte of stdout and stderr."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

GUARD_SECONDS = 120  # against a hang only: the first compiled run may compile its kernel

# Runs the CLI as the console script does (main() with no arguments), with an atexit handler
# and an object whose finalizer runs only in the interpreter's teardown.
PROGRAM = """
import atexit, sys
atexit.register(lambda: print("atexit ran", file=sys.stderr))

class Teardown:
    def __del__(self):
        print("teardown ran", file=sys.stderr)

kept = Teardown()
sys.argv = ["perfectplay", *sys.argv[1:]]
from perfectplay.cli import main
main()
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], capture_output=True, text=True,
                          timeout=GUARD_SECONDS)


def test_a_compiled_solve_prints_everything_runs_atexit_and_skips_the_teardown() -> None:
    ran = run("solve", "tictactoe", "--engine", "compiled", "--json")
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["value"] == "draw"  # the whole JSON arrived
    assert "atexit ran" in ran.stderr
    assert "teardown ran" not in ran.stderr


def test_a_pure_python_solve_still_ends_normally() -> None:
    ran = run("solve", "tictactoe", "--engine", "python")
    assert ran.returncode == 0 and "value: draw" in ran.stdout
    assert "atexit ran" in ran.stderr and "teardown ran" in ran.stderr


def test_ctrl_c_exits_130_with_one_line_and_the_atexit_handlers() -> None:
    process = subprocess.Popen([sys.executable, "-c", PROGRAM, "solve", "connect4", "--engine", "compiled",
                                "--book", "none"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # loading numba, or already searching: Ctrl-C is answered alike
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=GUARD_SECONDS)
    assert process.returncode == 130, err
    assert "interrupted: stopped by Ctrl-C" in err and "Traceback" not in err
    assert "atexit ran" in err and "teardown ran" not in err

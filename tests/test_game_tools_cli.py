"""The commands of tools only one game has (Connect Four's book, chess's endgame tables), as a
new user runs them: closed pipes, relative paths from another folder, a
path under a file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def _closed_early(*args: str, cwd: Path) -> tuple[int, bytes]:
    """Run a command whose reader goes away before it writes (`| head -0`): its exit code
    and what it said on stderr."""
    reader = subprocess.Popen([sys.executable, "-m", "perfectplay", *args], cwd=cwd,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # before the interpreter has even started: every write fails
    code = reader.wait(timeout=120)
    return code, reader.stderr.read()


@pytest.mark.parametrize("command", [("book", "info"), ("tablebase", "info")])
def test_a_game_tools_info_exits_0_quietly_when_the_reader_has_gone(command: tuple[str, ...],
                                                                     tmp_path: Path) -> None:
    assert _closed_early(*command, cwd=tmp_path) == (0, b"")


def test_tablebase_build_under_a_file_is_one_line_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a folder")
    done = subprocess.run([sys.executable, "-m", "perfectplay", "tablebase", "build", "KQK",
                           "--dir", "notes.txt/tables"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == "error: --dir 'notes.txt/tables': 'notes.txt' is a file, not a folder\n"

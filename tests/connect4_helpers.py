"""What the Connect Four tests share: the test sets (Pascal Pons', ../shared/data/connect4)
and running the CLI in-process."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfectplay.cli import main

DATA = Path(__file__).parents[1] / "../shared/data/connect4"


def sample(name: str, every: int) -> list[tuple[str, int]]:
    """Every ``every``-th line of test set ``name``: (moves, score)."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"test set {path} is absent (see ../shared/data/connect4/README.md)")
    lines = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return [(moves, int(score)) for moves, score in lines[::every]]


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The exit code, standard output and standard error of ``perfectplay ARGS``."""
    try:
        main(list(args))
        code = 0
    except SystemExit as done:
        code = int(done.code or 0)
    captured = capsys.readouterr()
    return code, captured.out, captured.err

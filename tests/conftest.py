"""Shared helpers for the tests."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from perfectplay import registry, solve


def run_cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a fresh process, as a user would."""
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def solved(name: str, position: str | None = None, options: dict[str, Any] | None = None,
           **kwargs: Any) -> Any:
    game, start = registry.load(name, options or {}, position)
    return solve(game, start, **kwargs)


@pytest.fixture
def cli() -> Any:
    return run_cli

"""Shared helpers for the tests."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from perfectplay import registry, solve

# Tests that load the machine on purpose (CPU burners) or start a Ray cluster: `make test` runs
# them after the others, one at a time, so they neither disturb nor are disturbed by the tests
# that run two at a time (pytest-xdist).
SERIAL_TESTS = (
    "tests/test_play_perfect.py::",
    "tests/test_store_cli.py::test_a_local_ray_instance_builds_the_same_database",
    "tests/test_store_cli.py::test_a_build_joins_a_running_ray_cluster_at_its_address",
)


def _keep_absls_handler_off_pytests_capture() -> None:
    """OpenSpiel's Python algorithms import absl, whose logging handler keeps the stderr of
    the moment it is made (pytest's capture file) and closes it when a later
    ``logging.config.dictConfig`` (uvicorn's, as `serve` starts) shuts every handler down
    while sys.stderr is another stream (click's test runner): every later test in that
    worker then failed with "I/O operation on closed file". Pointed at the process's own
    stderr, which absl never closes, the handler leaves pytest's file alone."""
    try:
        import absl.logging
    except ImportError:
        return
    absl.logging.get_absl_handler().python_handler.stream = sys.__stderr__


_keep_absls_handler_off_pytests_capture()


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        if item.nodeid.startswith(SERIAL_TESTS):
            item.add_marker(pytest.mark.serial)


def pytest_configure(config: Any) -> None:
    """A suite started in the background by a shell without job control inherits Ctrl-C
    ignored (SIG_IGN), and so would every process it starts: then Python raises no
    KeyboardInterrupt, and every Ctrl-C test fails (eleven did, in a run started with `&`).
    Hear Ctrl-C as a terminal's would be heard, here and in the programs the tests start."""
    config.addinivalue_line("markers", "serial: run alone, after the parallel part of the suite")
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run_cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real command line in a fresh process, as a user would."""
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout)


@dataclass
class Ran:
    """What one in-process run of the command line printed, and its exit code."""

    code: int
    stdout: str
    stderr: str


def run_main(*args: str, stdin: str | bytes = "") -> Ran:
    """Run ``perfectplay.cli.main`` in this process (much faster than a subprocess), with
    standard input, output and error replaced, and return what it printed and its exit code.
    ``stdin`` as bytes is read through a strict UTF-8 reader, as a process in a UTF-8 locale
    reads them."""
    from perfectplay.cli import main
    out, err = io.StringIO(), io.StringIO()
    code = 0
    saved_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin) if isinstance(stdin, str) else \
        io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(list(args))
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    finally:
        sys.stdin = saved_stdin
    return Ran(code, out.getvalue(), err.getvalue())


def solved(name: str, position: str | None = None, options: dict[str, Any] | None = None,
           **kwargs: Any) -> Any:
    game, start = registry.load(name, options or {}, position)
    return solve(game, start, **kwargs)


@pytest.fixture
def cli() -> Any:
    return run_cli


# -- The Chromium tests' server, browser and screenshot folder (tests/web_server.py) -----------

@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """`perfectplay serve` started as a user would, once for each process of the suite (a
    server and a browser cost seconds to start); its URL."""
    from web_server import served
    with served() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from web_server import chromium
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def shots(tmp_path_factory: Any) -> Path:
    """Where screenshots go: $PERFECTPLAY_SCREENSHOTS, else a temporary folder."""
    where = os.environ.get("PERFECTPLAY_SCREENSHOTS")
    folder = Path(where) if where else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder

"""`perfectplay serve` pays each offered game's one-off costs at start, through the hook its
methods declare (Method.warm_up, run by perfectplay.deciding.warm_up), so that the first late
Connect Four position answers as fast as the rest; no game is named in web/ or cli/."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest
from click.testing import CliRunner

from perfectplay import deciding, methods, registry
from perfectplay.cli import cli
from perfectplay.search.results import MoveValue, Solution
from perfectplay.web import catalog as web_catalog
from perfectplay.web.catalog import builtin_catalog


def _unused_solve(game: Any, position: Any, request: methods.Request) -> Solution:
    raise AssertionError("a warm-up test solves nothing")


def _unused_analyze(game: Any, position: Any, request: methods.Request) -> list[MoveValue]:
    raise AssertionError("a warm-up test analyses nothing")


@pytest.fixture
def recording_method() -> Any:
    """A method for Nim alone whose warm-up records the games it warmed."""
    warmed: list[str] = []
    methods.register(methods.Method(
        "warm-up-test", "records its warm-up", _unused_solve, _unused_analyze,
        handles=lambda game: game.name == "nim", warm_up=lambda game: warmed.append(game.name)))
    yield warmed
    # Only this one goes: the methods the warm-up loaded stay registered (and marked loaded).
    methods._METHODS[:] = [method for method in methods._METHODS if method.name != "warm-up-test"]


def test_the_server_warms_every_offered_game_through_its_methods_hook(recording_method: list[str]) -> None:
    offered = builtin_catalog()
    warmed = web_catalog.warm_up(offered)
    assert recording_method == ["nim"]  # only the game the method handles, once
    assert set(warmed) <= set(offered.names()) and "nim" in warmed and "connect4" in warmed


def test_serve_starts_the_warm_up_in_the_background(monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from perfectplay.web.workers import ProcessThinkers
    started = threading.Event()
    seen: list[Any] = []

    def warm_up(catalog: Any) -> list[str]:
        seen.append(catalog)
        started.set()
        return []
    monkeypatch.setattr(web_catalog, "warm_up", warm_up)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.setattr(ProcessThinkers, "prestart", lambda self: None)
    ran = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert ran.exit_code == 0, ran.output
    assert started.wait(10) and "connect4" in seen[0].names()


def test_connect_fours_warm_up_compiles_its_kernel_before_the_first_answer() -> None:
    pytest.importorskip("numba")
    game, _ = registry.load("connect4", {}, None)
    deciding.warm_up(game)
    kernel = sys.modules["perfectplay.games.connect4.kernel"]
    assert kernel.narrow.signatures and kernel.at_least.signatures  # compiled, or loaded from the cache


def test_every_kernel_declares_its_warm_up_and_the_decider_runs_it_once(recording_method: list[str]) -> None:
    # The first budgeted answer on a game with a kernel paid the compiler (or numba's cache
    # load) out of its think time: Kalah, Dots and Hex declared no warm-up.
    for name in ("connect4", "kalah", "dots", "hex"):
        game, _ = registry.load(name, {}, None)
        deciding.warm_up(game)
        kernels = [m for m in methods.registered("compiled") if m.handles(game)]
        assert kernels and all(m.warm_up is not None for m in kernels), name
    nim, _ = registry.load("nim", {}, "3 4 5")
    deciding.warm_up(nim)
    deciding.warm_up(nim)
    assert recording_method == ["nim"]  # once a process

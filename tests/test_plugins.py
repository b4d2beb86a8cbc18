"""Games are plugins: a distribution someone else publishes adds a game to every
command, the web page included, through the entry point group ``perfectplay.games``, and the
built-in games are found the same way. The plugin here is a real installed distribution's
metadata (a ``.dist-info`` folder with ``entry_points.txt``) on ``sys.path``, as pip leaves it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from conftest import run_main

from perfectplay import registry, solve

PLUGIN = '''
import click

from perfectplay import Game, solve
from perfectplay.diagram import Heap, Heaps
from perfectplay.entry import Entry, TourStop, from_text


class Subtract14(Game[int, int]):
    """Take 1 or 4 sticks; taking the last wins. Losing piles: 0, 2, 5, 7, 10, 12, ..."""

    name = "subtract14"

    def start(self) -> int:
        return 10

    def moves(self, pile: int) -> list[int]:
        return [take for take in (1, 4) if take <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def parse_position(self, text: str) -> int:
        return int(text)

    def diagram(self, pile: int, history=()) -> Heaps:
        # The pile as sticks on the web page: a click on the j-th takes it and all right of it.
        takes = tuple(str(pile - j) if pile - j in (1, 4) else None for j in range(pile))
        return Heaps(style="sticks", heaps=(Heap(pile, takes),), numbered=False)


def _load(options, text):
    return from_text(Subtract14(), text)


@click.command("losing-piles")
@click.argument("upto", type=click.IntRange(min=0))
def losing_piles(upto):
    """The piles up to UPTO that the player to move loses, each solved."""
    click.echo(" ".join(str(n) for n in range(upto + 1) if solve(Subtract14(), n).value < 0))


def tour_lines(solve):
    return ["subtract14: 10 is " + solve(Subtract14(), 10).describe()]


ENTRY = Entry("subtract14", "a plugin's game: take 1 or 4 sticks; last stick wins", "PILE, e.g. 10",
              _load, aliases=("s14",), commands={"losing-piles": "perfectplay_subtract14:losing_piles"},
              tour=(TourStop(1000, "perfectplay_subtract14:tour_lines"),))
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder as pip leaves an installed distribution: the module and its .dist-info."""
    root = tmp_path_factory.mktemp("site")
    (root / "perfectplay_subtract14.py").write_text(PLUGIN)
    info = root / "perfectplay_subtract14-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: perfectplay-subtract14\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[perfectplay.games]\nsubtract14 = perfectplay_subtract14:ENTRY\n")
    return root


@pytest.fixture
def installed(site: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(site))
    registry.forget_entries()
    yield
    registry.forget_entries()


def _cli(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "perfectplay", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def test_the_built_in_games_are_entry_points_of_perfectplay_itself() -> None:
    from importlib.metadata import distribution
    points = {point.name: point.value for point in distribution("perfectplay").entry_points
              if point.group == registry.ENTRY_POINT_GROUP}
    assert set(points) == {entry.name for entry in registry.entries()}
    assert points["connect4"] == "perfectplay.games.connect4:ENTRY"


def test_a_plugin_game_is_found_by_name_and_alias_and_solved(installed: Any) -> None:
    assert registry.find("s14").name == "subtract14"
    assert registry.entries()[-1].name == "subtract14"  # listed after the built-in games
    game, position = registry.load("subtract14", {}, "7")
    assert solve(game, position).value < 0  # 7 is a losing pile of the subtraction set {1, 4}
    assert solve(game, registry.load("subtract14")[1]).value < 0  # so is 10
    assert solve(game, 8).best_moves == ["1"]


def test_a_plugin_game_reaches_every_command_from_another_directory(site: Path, tmp_path: Path) -> None:
    listed = json.loads(_cli(site, "games", "--json", cwd=tmp_path).stdout)
    assert "subtract14" in [row["name"] for row in listed["games"]]
    solved = _cli(site, "solve", "s14", "12", "--json", cwd=tmp_path)
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["value"] == "loss"  # 12 loses
    table = _cli(site, "table", "subtract14", "1..8", cwd=tmp_path)
    assert table.returncode == 2 and "subtract14 has no size to vary" in table.stderr


def test_a_plugin_game_is_on_the_web_page(installed: Any) -> None:
    from perfectplay.web.app import create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
        client = TestClient(create_app())
    names = [game["name"] for game in client.get("/api/games").json()["games"]]
    assert "subtract14" in names
    payload = client.get("/api/subtract14/position", params={"moves": "1"}).json()
    assert {row["move"] for row in payload["moves"]} == {"1", "4"}
    # The plugin draws its own board: 9 sticks, the last one and the fourth from the end
    # the places that take 1 and 4.
    board = payload["board"]
    assert board["kind"] == "heaps" and board["heaps"][0]["size"] == 9
    assert board["heaps"][0]["takes"] == [None] * 5 + ["4", None, None, "1"]


def test_a_broken_plugin_is_named_in_one_line(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    info = broken / "perfectplay_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: perfectplay-broken\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[perfectplay.games]\nbroken = no_such_module_here:ENTRY\n")
    env = {**os.environ, "PYTHONPATH": str(broken)}
    done = subprocess.run([sys.executable, "-m", "perfectplay", "games"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "'broken'" in done.stderr and "no_such_module_here" in done.stderr


def test_a_plugin_games_own_command_is_in_the_help_and_runs(site: Path, tmp_path: Path) -> None:
    # No front-end line names the plugin: its entry's commands are the CLI's.
    helped = _cli(site, "--help", cwd=tmp_path)
    assert helped.returncode == 0, helped.stderr
    assert any(line.split()[:1] == ["losing-piles"] and "The piles up to UPTO" in line
               for line in helped.stdout.splitlines())
    ran = _cli(site, "losing-piles", "12", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["0", "2", "5", "7", "10", "12"]  # n mod 5 in {0, 2}
    bad = _cli(site, "losing-piles", "-1", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")


def test_a_plugin_game_is_played_and_toured_without_a_front_end_line(installed: Any) -> None:
    stops = [stop for stop in registry.tour_stops() if stop.lines and "subtract14" in stop.lines]
    assert stops and registry.attribute(stops[0].lines)(solve) == ["subtract14: 10 is loss in 4"]
    played = run_main("play", "subtract14", "--first", "computer", stdin="q\n")
    assert played.code == 0, played.stderr
    assert "subtract14" in played.stdout

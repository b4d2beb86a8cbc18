"""A game that loops without declaring itself loopy: every search stops with one line naming
the repeated position, never recursing without end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from perfectplay import Game
from perfectplay.errors import RepeatedPosition
from perfectplay.search.limits import Limits
from perfectplay.solving import analyze, solve

RING = '''
from perfectplay import Game


class Ring(Game):
    """Five positions in a ring; a move steps one or two places on: it never ends."""
    name = "ring"
    def start(self): return 0
    def moves(self, p): return [1, 2]
    def play(self, p, m): return (p + m) % 5
'''


class Ring(Game[int, int]):
    name = "ring"

    def start(self) -> int:
        return 0

    def moves(self, position: int) -> list[int]:
        return [1, 2]

    def play(self, position: int, move: int) -> int:
        return (position + move) % 5


class LongLeadIn(Game[int, int]):
    """100 plies of a plain walk before a ring of three: the repeat is deep in the tree."""

    name = "lead-in"

    def start(self) -> int:
        return -100

    def moves(self, position: int) -> list[int]:
        return [1]

    def play(self, position: int, move: int) -> int:
        return position + 1 if position < 0 else (position + 1) % 3


@pytest.mark.parametrize("algorithm", ["minimax", "memo", "alphabeta", "tt", "id"])
def test_every_search_names_the_repeated_position(algorithm: str) -> None:
    with pytest.raises(RepeatedPosition, match=r"position '\d' repeats on the search path"):
        solve(Ring(), algorithm=algorithm)
    with pytest.raises(RepeatedPosition, match="does not declare itself loopy"):
        analyze(Ring(), algorithm=algorithm)


@pytest.mark.parametrize("algorithm", ["memo", "tt", "id"])
def test_a_repeat_far_down_the_tree_is_found_too(algorithm: str) -> None:
    with pytest.raises(RepeatedPosition, match=r"plies 10\d and 10\d"):
        solve(LongLeadIn(), algorithm=algorithm)


def test_id_under_a_time_limit_stops_on_the_repeat_rather_than_the_clock() -> None:
    with pytest.raises(RepeatedPosition):
        solve(Ring(), algorithm="id", limits=Limits(time=30))


def test_a_deep_acyclic_game_is_not_mistaken_for_a_loop() -> None:
    from perfectplay.games.takeaway import TakeAway
    assert solve(TakeAway((1, 2, 3)), 5000, algorithm="memo").describe() == "loss in 2500"


def test_the_cli_prints_one_line_and_exits_2(tmp_path: Path) -> None:
    source = tmp_path / "ring.py"
    source.write_text(RING)
    for command in (["solve", f"{source}:Ring"], ["analyze", f"{source}:Ring", "--algorithm", "id"]):
        done = subprocess.run([sys.executable, "-m", "perfectplay", *command], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "repeats on the search path" in done.stderr
        assert "Traceback" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "perfectplay", "solve", f"{source}:Ring",
                           "--algorithm", "retro"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "value: draw" in done.stdout

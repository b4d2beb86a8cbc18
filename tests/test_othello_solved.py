"""6x6 Othello's start answered at once from what a long run proved and stored
(perfectplay.games.othello.solved and .proved; benchmarks/othello_6x6.py writes the file). Here the file
holds Feinstein's published value (1993: White wins 20-16, -4 for Black, every opening)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perfectplay import analyze, solve
from perfectplay.errors import UnsupportedSearch
from perfectplay.games.othello import proved
from perfectplay.games.othello.rules import Othello


@pytest.fixture
def stored_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Othello:
    game = Othello(6)
    start = game.start()
    openings = [game.format_move(start, move) for move in game.moves(start)]
    entry = {"value": -4, "best": openings, "moves": dict.fromkeys(openings, -4),
             "how": "proved by a test's run"}
    path = tmp_path / "solved_6x6.json"
    path.write_text(json.dumps({"positions": {f"6x6 {game.format_position(start)}": entry}}))
    monkeypatch.setattr(proved, "STORE", path)
    return game


def test_the_stored_start_is_answered_at_once_and_says_how(stored_start: Othello) -> None:
    game = stored_start
    assert game.solvable(game.start())
    solution = solve(game, game.start())
    assert solution.value == -4 and solution.exact and solution.totals == (16, 20)
    assert sorted(solution.best_moves) == ["b3", "c2", "d5", "e4"]
    assert solution.algorithm == "othello-solved (proved by a test's run)"
    assert [move.value for move in analyze(game, game.start())] == [-4] * 4
    # one move in, the position is not stored: the kernel's reach decides
    after = game.play(game.start(), game.moves(game.start())[0])
    assert not game.solvable(after)


def test_the_shipped_file_holds_6x6_proved_at_feinsteins_value() -> None:
    # written by benchmarks/othello_6x6.py --store once its run proved the start
    game = Othello(6)
    start = game.start()
    entry = proved.stored(game, start)
    assert entry is not None and entry["value"] == -4
    assert sorted(entry["best"]) == sorted(game.format_move(start, move) for move in game.moves(start))
    assert "nodes" in entry["how"] and "CPU s" in entry["how"]


def test_without_the_file_the_start_is_out_of_reach(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(proved, "STORE", tmp_path / "absent.json")
    game = Othello(6)
    assert not game.solvable(game.start())
    with pytest.raises(UnsupportedSearch, match="too big to solve exactly"):
        solve(game, game.start())

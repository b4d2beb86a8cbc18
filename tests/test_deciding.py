"""One decider: play, the web page and the CLI answer a position the same way, exactly where
any exact method finishes within the think time (perfectplay.deciding)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from starlette.testclient import TestClient

from perfectplay import deciding, registry
from perfectplay import value as V
from perfectplay.deciding import Think
from perfectplay.play.analyst import Analyst
from perfectplay.solving import analyze
from perfectplay.web.app import Server, create_app
from perfectplay.web.positions import Analyses, quick_analysis

# 8x8 Othello endgames (random play from the start): 10 empty squares (tt: 0.3 s, 22 thousand
# nodes) and 12 (3 s). The board's size used to refuse both without a limit.
OTHELLO_10 = "BBBBW.../BBB.WWB./BB.BWBW./BBBBW.WW/BBWBWBWW/BWBBWBWW/WWWWWWBW/BBBB.B.B B"
OTHELLO_12 = "W.BW.BBB/WWWWWWWW/WWWWWWWW/WBWBWWWW/WWWBBWWW/WBW.BB../WBBBBBB./..W...B. B"


def stream_done(client: TestClient, path: str, params: dict[str, str]) -> dict[str, Any]:
    done: dict[str, Any] = {}
    with client.stream("GET", path, params=params) as response:
        for line in response.iter_lines():
            if line.startswith("data:"):
                done = json.loads(line[5:])
    return done


def cli_values(game: str, *words: str) -> dict[str, int]:
    run = subprocess.run([sys.executable, "-m", "perfectplay", "analyze", game, *words, "--json"],
                         capture_output=True, text=True, check=True)
    return {row["move"]: row["value"] for row in json.loads(run.stdout)["moves"]}


@pytest.mark.parametrize("game", ["hex", "dots"])
def test_the_web_thinks_exactly_about_hex_and_dots_as_the_cli_solves_them(game: str) -> None:
    # The default boards (4x4 Hex, 3x3 Dots), marked "solved exactly" on the home page,
    # showed "0 (estimate)" on every move, where the CLI's kernels solve them in seconds.
    client = TestClient(create_app())
    done = stream_done(client, f"/api/{game}/think", {"seconds": "10"})
    assert done["exact"] and done["status"] == "exact" and done["reason"] == "exact", done
    assert all(row["exact"] for row in done["moves"])
    # Move by move, the page's values are the CLI's (the same words in both JSON answers).
    assert {row["move"]: row["value"] for row in done["moves"]} == cli_values(game)


@pytest.mark.parametrize("game", ["hex", "dots"])
def test_play_values_hex_and_dots_exactly_as_the_cli_does(game: str) -> None:
    loaded, start = registry.load(game, {})
    analysis = Analyst(loaded, think_time=10.0).analyze(start)
    assert analysis.exact and analysis.estimator is None
    assert {move.notation: move.value for move in analysis.moves} == \
        {move.notation: move.value for move in analyze(loaded, start, engine="auto")}


@pytest.mark.parametrize("text", [OTHELLO_10, OTHELLO_12])
def test_an_othello_endgame_is_solved_without_a_limit(text: str) -> None:
    game, position = registry.load("othello", {}, text)
    assert game.properties.too_big_to_solve and game.solvable(position)
    moves = analyze(game, position)
    assert moves and all(move.exact for move in moves)
    run = subprocess.run([sys.executable, "-m", "perfectplay", "solve", "othello", text, "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["value"] == moves[0].value


def test_the_othello_start_is_still_refused_without_a_limit() -> None:
    run = subprocess.run([sys.executable, "-m", "perfectplay", "solve", "othello"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "too big to solve exactly" in run.stderr


def test_chess_is_not_called_solved_on_the_home_page(monkeypatch: pytest.MonkeyPatch) -> None:
    server = Server()
    loading = server.catalog.load

    def without_python_chess(name: str, *args: Any) -> Any:
        if name == "chess":  # python-chess not installed: the game cannot start
            raise ImportError("No module named 'chess'")
        return loading(name, *args)
    monkeypatch.setattr(server.catalog, "load", without_python_chess)
    rows = {row["name"]: row for row in server.game_rows()}
    assert rows["chess"]["exact"] is False
    assert rows["tictactoe"]["exact"] and rows["hex"]["exact"] and not rows["othello"]["exact"]


# (game, options, position) answered by play's analyst, the web page and solve alike.
SAME_POSITIONS = [
    ("tictactoe", {}, None),
    ("nim", {}, "3 4 5"),
    ("hex", {}, None),
    ("dots", {}, None),
    ("connect4", {}, "573154743"),
    ("othello", {}, OTHELLO_10),
    ("chess", {}, "8/8/8/8/8/2k5/8/1QK5 w - - 0 1"),
]


@pytest.mark.parametrize(("name", "options", "text"), SAME_POSITIONS)
def test_play_the_web_and_solve_choose_the_same_answer(name: str, options: dict[str, str],
                                                        text: str | None) -> None:
    game, position = registry.load(name, options, text)
    decided = deciding.decide(game, position, Think(seconds=20.0))
    assert decided.exact, (name, decided.source)
    played = Analyst(game, think_time=20.0).analyze(position)
    web = quick_or_exact(game, position)
    solved = analyze(game, position, engine="auto")
    values = {move.notation: move.value for move in decided.moves}
    for moves in (played.moves, web.moves):
        assert {move.notation: move.value for move in moves} == values, name
    # solve without a budget may answer by theory that counts no plies (Nim: Sprague-Grundy):
    # the same outcome of every move, and the same value wherever it counts them.
    assert {move.notation: V.outcome_word(move.value) for move in solved} == \
        {notation: V.outcome_word(value) for notation, value in values.items()}
    if name != "nim":
        assert {move.notation: move.value for move in solved} == values


def quick_or_exact(game: Any, position: Any) -> Any:
    """The web's answer: its quick one, else the thinking stream's exact try (the decider's,
    with the page's default think time)."""
    from perfectplay.web.positions import exact_within
    from perfectplay.web.thinking import DEFAULT_SECONDS
    known = quick_analysis(game, position, Analyses())
    if known is None or not known.exact:
        known = exact_within(game, position, Think(seconds=2 * DEFAULT_SECONDS))
    assert known is not None and known.exact
    return known

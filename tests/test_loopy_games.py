"""The built-in loopy games as a user meets them: rules in `perfectplay games`, notation, the
CLI's solve, analyze, verify and play, and one-line errors for bad input."""

from __future__ import annotations

import json
import random

import pytest
from conftest import run_cli

from perfectplay import registry
from perfectplay.play.session import Session

LOOPY = ("dodgem", "chopsticks", "morris3", "tapatan")


def test_games_lists_each_loopy_game_with_its_rules() -> None:
    listing = run_cli("games")
    text = " ".join(listing.stdout.split())
    for name in LOOPY:
        assert name in text
    # Chopsticks' value depends on these rules, so the listing states them.
    assert "cutoff" in text and "rollover" in text
    entry = registry.find("chopsticks")
    assert "split" in entry.summary and "reviving" in entry.summary and "no mere swap" in entry.summary


@pytest.mark.parametrize("name, value, remoteness, best", [
    ("dodgem", "win", 20, ["a3-b3"]),
    ("chopsticks", "loss", 26, ["LL", "LR", "RL", "RR"]),
    ("morris3", "draw", None, ["5", "1", "3", "7", "9", "2", "4", "6", "8"]),
    ("tapatan", "win", 9, ["5"]),
])
def test_solve_reports_the_documented_start_values(name: str, value: str, remoteness: int | None,
                                                    best: list[str]) -> None:
    payload = json.loads(run_cli("solve", name, "--json").stdout)
    assert (payload["value"], payload["remoteness"], payload["algorithm"]) == (value, remoteness, "retro")
    assert payload["best_moves"] == best


def test_analyze_and_the_compiled_engine_give_the_same_values() -> None:
    python = json.loads(run_cli("analyze", "chopsticks", "2 0 / 1 3", "--json").stdout)["moves"]
    compiled = json.loads(run_cli("analyze", "chopsticks", "2 0 / 1 3", "--json",
                                  "--engine", "compiled").stdout)["moves"]
    assert python == compiled
    assert python[0] == {"move": "LR", "value": "win", "remoteness": 17, "exact": True}


@pytest.mark.parametrize("args, quoted", [
    (["solve", "chopsticks", "5 1 / 1 1"], "'5 1 / 1 1'"),
    (["solve", "chopsticks", "0 0 / 0 0"], "'0 0 / 0 0'"),
    (["solve", "chopsticks", "1 1 / 0 0"], "game ended"),
    (["solve", "morris3", "XXX/OOO/... O"], "already has three in a line"),
    (["solve", "dodgem", "B../B../.RR"], "'B../B../.RR'"),
    (["solve", "dodgem", "BBB/.../.RR B"], "'BBB/.../.RR B'"),
    (["solve", "morris3", "XOX/OXO/..."], "'XOX/OXO/...'"),
    (["solve", "tapatan", "XXXX/.../... O"], "'XXXX/.../... O'"),
    (["solve", "dodgem", "--width", "6"], "--width 6"),
    (["analyze", "dodgem", "--algorithm", "tt"], "loopy"),
    (["solve", "morris3", "--depth", "4"], "--depth"),
    (["solve", "dodgem", "--engine", "compiled", "--algorithm", "memo"], "retro"),
])
def test_bad_input_gets_one_line_and_exit_2(args: list[str], quoted: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, result.stderr
    assert quoted in result.stderr and result.stderr.count("\n") == 1


def test_a_position_limit_stops_with_exit_1() -> None:
    result = run_cli("solve", "dodgem", "--width", "4", "--nodes", "1000")
    assert result.returncode == 1 and "more than 1,000 positions" in result.stderr


def test_verify_checks_loopy_games_against_the_brute_force() -> None:
    result = run_cli("verify", "tapatan", "--cases", "2")  # 8 checks; about a second each
    assert result.returncode == 0
    assert "2 random positions, 8 checks, 0 mismatches" in result.stdout


def test_computers_playing_a_drawn_loopy_game_stop_at_the_third_repetition() -> None:
    result = run_cli("play", "morris3", "--computer-vs-computer", "--seed", "1", "--quiet",
                     "--delay", "0", timeout=60)
    assert result.returncode == 0
    assert "A draw after" in result.stdout and "third time" in result.stdout


def test_a_perfect_dodgem_player_wins_as_blue() -> None:
    result = run_cli("play", "dodgem", "--computer-vs-computer", "--seed", "3", "--quiet", "--delay", "0",
                     "--level-b", "easy", timeout=60)
    assert "Computer A (perfect) won" in result.stdout


def test_session_draws_on_the_third_repetition_only_in_loopy_games() -> None:
    game, start = registry.load("chopsticks")
    session = Session(game, start)
    for _ in range(2):
        for text in ("split 2 0", "split 2 0", "split 1 1", "split 1 1"):
            session.play(session.parse(text))
    assert session.is_over() and session.result() is not None
    assert session.result().winner is None and session.result().repetition  # type: ignore[union-attr]


@pytest.mark.parametrize("name", LOOPY)
def test_notation_round_trips(name: str) -> None:
    game, start = registry.load(name)
    rng = random.Random(5)
    for _ in range(30):
        position = game.random_position(rng)
        assert game.parse_position(game.format_position(position)) == position
        for move in game.moves(position):
            assert game.parse_move(position, game.format_move(position, move)) == move
        assert game.render(position)


def test_the_web_api_answers_loopy_games_exactly() -> None:
    import warnings

    from perfectplay.web.app import create_app
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
        client = TestClient(create_app())
    payload = client.get("/api/dodgem/position").json()
    assert (payload["status"], payload["value"], payload["remoteness"]) == ("exact", "win", 20)
    assert payload["moves"][0] == {**payload["moves"][0], "move": "a3-b3", "value": "win", "remoteness": 20}
    payload = client.get("/api/chopsticks/position", params={"moves": "LL,split 0 3"}).json()
    assert (payload["status"], payload["value"]) == ("exact", "loss")

"""OpenSpiel's games as perfectplay games (``openspiel:NAME``): values agree with OpenSpiel's own
exact search (open_spiel.python.algorithms.minimax.alpha_beta_search) and with published
results; games perfectplay cannot solve are refused in one line naming the missing property."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import run_main
from open_spiel.python.algorithms import minimax  # the test extra installs OpenSpiel

from perfectplay import analyze, registry, solve
from perfectplay.errors import UnknownGame
from perfectplay.value import outcome_word


def their_value(game: object, state: object) -> float:
    """OpenSpiel's alpha-beta value for the player to move at ``state``."""
    value, _ = minimax.alpha_beta_search(game, state=state, maximum_depth=100)
    return float(value)


def our_value(game: object, position: object) -> int:
    return solve(game, position, pv_limit=0).value  # type: ignore[arg-type]


def sign(number: float) -> int:
    return (number > 0) - (number < 0)


def test_tic_tac_toe_is_a_draw_and_every_first_move_draws() -> None:
    game, start = registry.load("openspiel:tic_tac_toe")
    assert game.name == "openspiel:tic_tac_toe"
    assert solve(game, start).outcome == "draw"
    assert {row.describe() for row in analyze(game, start)} == {"draw"}


def test_tic_tac_toe_agrees_with_openspiels_alpha_beta_on_random_positions() -> None:
    game, start = registry.load("openspiel:tic_tac_toe")
    rng = random.Random(38)
    checked = 0
    while checked < 25:
        position = start
        for _ in range(rng.randrange(1, 7)):
            moves = game.moves(position)
            if not moves:
                break
            position = game.play(position, rng.choice(list(moves)))
        if position.state.is_terminal():
            continue
        ours = outcome_word(our_value(game, position))
        assert ours == {1: "win", 0: "draw", -1: "loss"}[sign(their_value(game.spiel, position.state))], \
            game.format_position(position)
        checked += 1


@pytest.mark.parametrize("spec", ["nim(pile_sizes=1;3;5,is_misere=false)", "nim(pile_sizes=2;3;4)",
                                  "clobber(rows=2,columns=3)", "breakthrough(rows=3,columns=3)"])
def test_small_games_agree_with_openspiels_alpha_beta(spec: str) -> None:
    game, start = registry.load(f"openspiel:{spec}")
    assert outcome_word(our_value(game, start)) == {1: "win", 0: "draw", -1: "loss"}[
        sign(their_value(game.spiel, start.state))]


def test_nim_values_follow_bouton() -> None:
    # Normal play: the mover wins exactly when the XOR of the piles is not 0 (1^3^5 = 7,
    # 1^2^3 = 0); misere (OpenSpiel's default) differs only where every pile is 0 or 1.
    for piles, wins in (("1;3;5", True), ("1;2;3", False), ("2;2", False), ("4;1", True)):
        game, start = registry.load(f"openspiel:nim(pile_sizes={piles},is_misere=false)")
        assert (our_value(game, start) > 0) == wins, piles
    game, start = registry.load("openspiel:nim(pile_sizes=1;1)")  # misere: take one, the other takes the last
    assert our_value(game, start) > 0


def test_a_margin_game_with_extra_turns_agrees_with_openspiel() -> None:
    # Dots and Boxes gives the player who completes a box another move; with utility_margin
    # the utility is the box margin, a score game here.
    spec = "dots_and_boxes(num_rows=1,num_cols=2,utility_margin=true)"
    game, start = registry.load(f"openspiel:{spec}")
    assert game.properties.is_score and game.properties.extra_turns
    assert our_value(game, start) == their_value(game.spiel, start.state)
    position = game.parse_position("0")
    assert our_value(game, position) == their_value(game.spiel, position.state)


def test_every_algorithm_family_agrees_on_a_small_breakthrough() -> None:
    game, start = registry.load("openspiel:breakthrough(rows=3,columns=3)")
    values = {algorithm: solve(game, start, algorithm=algorithm, pv_limit=0).value
              for algorithm in ("minimax", "alphabeta", "tt", "pns")}
    assert len({outcome_word(value) for value in values.values()}) == 1, values


def test_positions_are_read_by_action_id_or_name() -> None:
    game, by_id = registry.load("openspiel:tic_tac_toe", {}, "4 0")
    _, by_name = registry.load("openspiel:tic_tac_toe", {}, "x(1,1) o(0,0)")
    assert by_id == by_name and game.format_position(by_name) == "4 0"


@pytest.mark.parametrize(("spec", "words"), [
    ("kuhn_poker", "not deterministic"),
    ("matrix_rps", "not sequential"),
    ("leduc_poker", "not deterministic"),
    ("dark_hex", "not of perfect information"),
    ("matching_pennies_3p", "not two-player"),
])
def test_a_game_perfectplay_cannot_solve_is_refused_naming_what_it_lacks(spec: str, words: str) -> None:
    with pytest.raises(UnknownGame, match=words):
        registry.load(f"openspiel:{spec}")


def test_the_command_line_solves_an_openspiel_game_and_refuses_in_one_line() -> None:
    ran = run_main("solve", "openspiel:tic_tac_toe", "4 1")  # O on an edge beside X's centre loses
    assert ran.code == 0 and "value: win in 5" in ran.stdout, ran.stdout
    for spec in ("openspiel:kuhn_poker", "openspiel:nosuch", "openspiel:tic_tac_toe(foo=1)"):
        ran = run_main("solve", spec)
        assert ran.code == 2 and len(ran.stderr.strip().splitlines()) == 1 and spec in ran.stderr, ran.stderr
        assert "Traceback" not in ran.stderr
    ran = run_main("solve", "openspiel:tic_tac_toe", "4 4")
    assert ran.code == 2 and "'4' is not a legal move" in ran.stderr


def test_monte_carlo_plays_an_openspiel_game() -> None:
    ran = run_main("solve", "openspiel:tic_tac_toe", "4 0 8", "--algorithm", "mcts", "--nodes", "2000")
    assert ran.code == 0, ran.stderr


def test_a_database_of_openspiel_tic_tac_toe_holds_its_5478_positions(tmp_path: Path) -> None:
    # 5,478: the tic-tac-toe positions reachable from the empty board, a known count that the
    # built-in game's tests pin too (test_every_algorithm_every_position.py).
    database = tmp_path / "ttt.db"
    ran = run_main("db", "build", "openspiel:tic_tac_toe", "--db", str(database))
    assert ran.code == 0, ran.stderr
    assert "5,478 records" in ran.stdout + ran.stderr
    ran = run_main("solve", "openspiel:tic_tac_toe", "4 1", "--db", str(database))
    assert ran.code == 0 and "value: win in 5" in ran.stdout and "from database" in ran.stdout


def test_the_web_page_offers_and_answers_an_openspiel_game() -> None:
    import warnings

    from perfectplay.web.app import Server, create_app
    from perfectplay.web.catalog import add_game_file
    server = Server()
    add_game_file(server.catalog, "openspiel:tic_tac_toe")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Starlette's test client warns about httpx
        from starlette.testclient import TestClient
        client = TestClient(create_app(server))
    assert "openspiel:tic_tac_toe" in [game["name"] for game in client.get("/api/games").json()["games"]]
    payload = client.get("/api/openspiel:tic_tac_toe/position", params={"moves": "4,1"}).json()
    assert payload["status"] == "exact" and payload["position"] == "4 1"
    assert {line["value"] for line in payload["lines"]} <= {"win", "draw"}
    assert payload["lines"][0]["value"] == "win"


def test_without_openspiel_an_openspiel_name_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if OpenSpiel were not installed
    with pytest.raises(UnknownGame, match=r"pip install 'perfectplay\[openspiel\]'"):
        registry.load("openspiel:tic_tac_toe")


def test_naming_a_built_in_game_imports_no_optional_library() -> None:
    import subprocess
    import sys
    code = ("import sys\nfrom perfectplay import registry, solve\n"
            "game, start = registry.load('tictactoe')\nsolve(game, start)\n"
            "optional = ('pyspiel', 'pettingzoo', 'gymnasium', 'nbclient')\n"
            "print(sorted(m for m in optional if m in sys.modules))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_verify_finds_every_algorithm_agreeing_with_minimax_on_openspiel_tic_tac_toe() -> None:
    ran = run_main("verify", "openspiel:tic_tac_toe", "--cases", "30")
    assert ran.code == 0, ran.stderr
    assert re.search(r"30 random positions, \d+ checks, 0 mismatches", ran.stdout), ran.stdout


def test_a_person_plays_an_openspiel_game_in_the_terminal() -> None:
    ran = run_main("play", "openspiel:tic_tac_toe", stdin="4\nq\n")
    assert ran.code == 0, ran.stderr
    assert "You play x(1,1)." in ran.stdout and "I play o(" in ran.stdout

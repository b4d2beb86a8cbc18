"""The command line as a user runs it: real processes, real output, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli, run_main


def test_table_takeaway_prints_the_published_outcome_line() -> None:
    result = run_cli("table", "takeaway", "1..8")
    assert result.returncode == 0
    assert result.stdout.strip() == "1:win 2:win 3:win 4:lose 5:win 6:win 7:win 8:lose"


def test_solve_json_has_the_documented_fields_for_a_score_game() -> None:
    result = run_cli("solve", "crates", "4", "1", "7", "2", "9", "--json")
    payload = json.loads(result.stdout)
    assert payload["value"] == 9
    assert payload["totals"] == {"mover": 16, "other": 7}
    assert payload["remoteness"] is None
    assert payload["best_moves"] == ["R"]
    assert {"pv", "nodes", "elapsed_s"} <= payload.keys()


def test_solve_json_reports_win_loss_and_remoteness() -> None:
    payload = json.loads(run_cli("solve", "takeaway", "20", "--algorithm", "memo", "--json").stdout)
    assert (payload["value"], payload["remoteness"], payload["nodes"]) == ("loss", 10, 58)
    assert payload["best_moves"] == ["1", "2", "3"]


def test_solve_prints_value_best_moves_and_statistics() -> None:
    result = run_cli("solve", "tictactoe", "--algorithm", "minimax")
    assert result.returncode == 0
    assert "value: draw" in result.stdout
    assert "549,946 nodes" in result.stdout


def test_analyze_json_values_every_claim_move_numbered_from_zero() -> None:
    payload = json.loads(run_cli("analyze", "claim", "5", "--json").stdout)
    values = {row["move"]: row["value"] for row in payload["moves"]}
    assert values == {"0": "loss", "1": "loss", "2": "win", "3": "loss", "4": "loss"}


def test_a_depth_limited_analysis_gives_estimates_not_outcomes() -> None:
    # Before, `analyze` with a depth limit marked every move exact: Connect Four's empty board
    # (a first-player win) came out a draw at depth 3, with a test-set score of 0, and
    # chess's first moves came out wins in the JSON (an evaluation of +20).
    for args in (("connect4", "--algorithm", "id", "--engine", "python", "--depth", "3"),
                 ("connect4", "--algorithm", "tt", "--engine", "python", "--depth", "3"),
                 ("chess", "--algorithm", "id", "--depth", "1")):
        ran = run_main("analyze", *args, "--json")
        assert ran.code == 0, (args, ran.stderr)
        rows = json.loads(ran.stdout)["moves"]
        assert rows and all(row["exact"] is False for row in rows), (args, rows)
        assert all(isinstance(row["value"], int) and "score" not in row for row in rows), rows
        table = run_main("analyze", *args).stdout
        assert "estimate" in table and "draw" not in table and "win" not in table, table
    # A depth that reaches every end is no limit: exact, in words.
    rows = json.loads(run_main("analyze", "tictactoe", "--algorithm", "id", "--depth", "9",
                               "--json").stdout)["moves"]
    assert rows[0] == {"move": "5", "value": "draw", "remoteness": None, "exact": True}


def test_perft_json() -> None:
    payload = json.loads(run_cli("perft", "tictactoe", "--depth", "6", "--json").stdout)
    assert payload["depth"] == 6 and payload["count"] == 54_720


def test_compare_reports_the_calls_the_table_saves() -> None:
    result = run_cli("compare", "takeaway", "20", "--algorithms", "minimax,memo", "--json")
    rows = {row["algorithm"]: row for row in json.loads(result.stdout)["rows"]}
    assert rows["minimax"]["nodes"] == 266_079 and rows["memo"]["nodes"] == 58
    assert rows["memo"]["saved_vs_first"] == 266_079 - 58


def test_verify_reports_zero_mismatches_and_exits_zero() -> None:
    result = run_cli("verify", "crates", "--cases", "30", "--seed", "2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 mismatches" in result.stdout


def test_games_lists_every_builtin_game() -> None:
    names = {game["name"] for game in json.loads(run_cli("games", "--json").stdout)["games"]}
    assert {"takeaway", "nim", "matchgame", "crates", "claim", "tictactoe"} <= names


@pytest.mark.parametrize("args,quoted", [
    (("solve", "checkers"), "'checkers'"),
    (("solve", "nim", "3", "x"), "'x'"),
    (("solve", "nim", "3", "-2"), "'-2'"),
    (("solve", "takeaway", "ten"), "'ten'"),
    (("solve", "crates", "3", "9.5"), "'9.5'"),
    (("solve", "tictactoe", "XXX"), "'XXX'"),
    (("solve", "tictactoe", "XXXOOO..."), "'XXXOOO...'"),
    (("solve", "claim", "..xx.."), "'..xx..'"),
    (("solve", "nim", "3", "--block", "right"), "--block"),
    (("solve", "claim", "5", "--block", "left"), "'left'"),
    (("solve", "nim", "3", "--algorithm", "magic"), "'magic'"),
    (("solve", "nim", "3", "--tt-size", "lots"), "'lots'"),
    (("solve", "crates", "3", "--outcome-only"), "score game"),
    (("table", "takeaway", "8..1"), "'8..1'"),
    (("perft", "nim", "3", "--depth", "-1"), "-1"),
    (("compare", "nim", "3", "--algorithms", "minimax,fast"), "'fast'"),
])
def test_bad_input_gets_one_line_quoting_it_and_exit_code_2(args: tuple[str, ...], quoted: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert quoted in lines[0]
    assert "Traceback" not in result.stderr


def test_an_exact_search_out_of_budget_stops_with_a_clear_message() -> None:
    result = run_cli("solve", "tictactoe", "--algorithm", "minimax", "--nodes", "1000")
    assert result.returncode == 1
    assert "stopped" in result.stderr and "Traceback" not in result.stderr


SCORED_GAME = '''
from perfectplay import Game
from perfectplay.game import ValueNote


class Pile(Game[int, int]):
    name = "pile"

    def start(self) -> int:
        return 3

    def moves(self, pile: int) -> list[int]:
        return [take for take in (1, 2) if take <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def parse_position(self, text: str) -> int:
        return int(text)

    def score_of(self, pile: int, value: int) -> int:  # a method of its own, not a declaration
        return 99


class Noted(Pile):
    def value_note(self, pile: int, value: int) -> ValueNote:
        return ValueNote("moves left", pile, "this game's own count")
'''


def test_solve_prints_the_note_a_game_declares_and_probes_for_none(tmp_path: Path) -> None:
    # solve once printed a "score" for any game with a method called score_of.
    path = tmp_path / "scored.py"
    path.write_text(SCORED_GAME)
    plain = run_main("solve", f"{path}:Pile", "3")
    assert plain.code == 0 and "score" not in plain.stdout
    assert "score" not in json.loads(run_main("solve", f"{path}:Pile", "3", "--json").stdout)
    noted = run_main("solve", f"{path}:Noted", "3")
    assert "moves left: +3 (this game's own count)" in noted.stdout
    assert json.loads(run_main("solve", f"{path}:Noted", "3", "--json").stdout)["moves left"] == 3
    rows = json.loads(run_main("analyze", f"{path}:Noted", "3", "--json").stdout)["moves"]
    assert [row["moves left"] for row in rows] == [3, 3]

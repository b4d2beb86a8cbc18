"""The late games in the JSON API: Dodgem, Three Men's Morris, Tapatan, Chopsticks and chess
get boards of their own, each move's value agrees with `analyze`, chess is answered as
estimates; and `perfectplay serve --db` answers the positions a database holds from it."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from web_server import stream_events

from perfectplay import analyze, registry
from perfectplay import value as V
from perfectplay.store.build import build
from perfectplay.web.app import Server, create_app
from perfectplay.web.positions import Analyses

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def _client(server: Server | None = None) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app(server))


@pytest.fixture(scope="module")
def client() -> Any:
    return _client()


def _expected(name: str, position_text: str | None, moves: list[str]) -> list[tuple[str, str, Any]]:
    game, position = registry.load(name, {}, position_text)
    for text in moves:
        position = game.play(position, game.parse_move(position, text))
    return [(mv.notation, V.outcome_word(mv.value), mv.remoteness) for mv in analyze(game, position)]


@pytest.mark.parametrize("name, position, moves, kind", [
    ("dodgem", None, [], "grid"),
    ("dodgem", None, ["a3-b3", "b1-b2"], "grid"),
    ("morris3", None, ["5", "1"], "grid"),
    ("morris3", "XO./OXO/X.. X", [], "grid"),
    ("tapatan", "XO./OXO/X.. X", [], "grid"),
    ("chopsticks", None, ["LL"], "hands"),
])
def test_each_move_value_agrees_with_analyze(client: Any, name: str, position: str | None,
                                              moves: list[str], kind: str) -> None:
    params = {"moves": ",".join(moves)} | ({"position": position} if position else {})
    payload = client.get(f"/api/{name}/position", params=params).json()
    assert payload["board"]["kind"] == kind and payload["status"] == "exact"
    rows = [(row["move"], row["value"], row["remoteness"]) for row in payload["moves"]]
    assert sorted(rows, key=str) == sorted(_expected(name, position, moves), key=str)
    # Every move the board can show is a place to click: one click, or two (a step).
    board = payload["board"]
    on_board = {cell["move"] for cell in board.get("cells", []) if cell["move"]} | {
        step["move"] for step in board.get("steps", [])}
    assert on_board <= {row["move"] for row in payload["moves"]}
    assert {row["move"] for row in payload["moves"] if not row["move"].startswith("split")} <= on_board


def marks(board: dict[str, Any]) -> list[str]:
    """A grid's marks row by row from the top, '.' for an empty place."""
    cells = [cell["mark"] or "." for cell in board["cells"]]
    return ["".join(cells[r * board["columns"]:(r + 1) * board["columns"]]) for r in range(board["rows"])]


def test_connect4_board_names_the_piece_to_move_as_the_page_draws_it(client: Any) -> None:
    boards = [client.get("/api/connect4/position", params={"moves": moves}).json()["board"]
              for moves in ("", "4")]
    assert [board["to_move"] for board in boards] == ["X", "O"]
    assert [boards[0]["pieces"][mark]["colour"] for mark in "XO"] == ["#e03c31", "#f2c81d"]  # red, yellow
    assert boards[1]["drops"] == ["1", "2", "3", "4", "5", "6", "7"]
    assert {"place": "4.1", "why": "last"} in boards[1]["highlights"]


def test_connect4_board_highlights_a_winning_four_and_drops_no_more(client: Any) -> None:
    board = client.get("/api/connect4/position", params={"moves": "1,2,1,2,1,2,1"}).json()["board"]
    won = {mark["place"] for mark in board["highlights"] if mark["why"] == "win"}
    assert won == {"1.1", "1.2", "1.3", "1.4"}
    assert board["drops"] == [None] * 7


def test_dodgem_board_counts_cars_driven_off(client: Any) -> None:
    params = {"position": "..B/B../.RR B", "moves": "c3-off"}
    payload = client.get("/api/dodgem/position", params=params).json()
    board = payload["board"]
    assert (board["kind"], board["rows"], board["to_move"]) == ("grid", 3, "R")
    assert marks(board) == ["...", "B..", ".RR"]
    assert board["off"] == "top" and board["status"][0]["text"] == "off the board: Blue 1, Red 0"
    assert {"move": "b1-b2", "source": "b1", "target": "b2"} in board["steps"]
    # Winning Ways ch. 22: on 3x3 the first player (Blue) wins.
    assert client.get("/api/dodgem/position").json()["value"] == "win"
    params = {"width": "4", "position": "B.../..../..../.R.. B"}
    wide = client.get("/api/dodgem/position", params=params).json()
    assert wide["board"]["rows"] == 4 and wide["board"]["status"][0]["text"] == "off the board: Blue 2, Red 2"
    assert wide["board"]["off"] == "right"


def test_morris_moving_phase_moves_are_from_and_to(client: Any) -> None:
    board = client.get("/api/morris3/position", params={"position": "XO./OXO/X.. X"}).json()
    assert board["board"]["status"][0]["text"] == "X to move (moving)" and len(board["board"]["lines"]) == 6
    assert {(step["source"], step["target"]) for step in board["board"]["steps"]} == {("5", "8"), ("7", "8")}
    assert {row["move"] for row in board["moves"]} == {"5-8", "7-8"}
    tapatan = client.get("/api/tapatan/position", params={"position": "XO./OXO/X.. X"}).json()
    assert len(tapatan["board"]["lines"]) == 8
    assert {row["move"] for row in tapatan["moves"]} == {"5-3", "5-8", "5-9", "7-8"}
    placing = client.get("/api/morris3/position").json()["board"]
    assert marks(placing) == ["..."] * 3 and placing["to_move"] == "X" and placing["look"] == "points"
    assert [cell["move"] for cell in placing["cells"]] == [str(n) for n in range(1, 10)]
    assert placing["status"][0]["text"] == "X to move (placing)"


def test_chopsticks_board_shows_both_players_hands(client: Any) -> None:
    payload = client.get("/api/chopsticks/position", params={"moves": "LL"}).json()
    board = payload["board"]
    assert board["kind"] == "hands"
    assert [hand["fingers"] for hand in board["bottom"]] == [2, 1]
    assert [hand["fingers"] for hand in board["top"]] == [1, 1]
    assert {step["move"]: (step["source"], step["target"]) for step in board["steps"]}["LR"] == ("mL", "tR")
    assert {"LL", "LR", "RL", "RR"} <= {row["move"] for row in payload["moves"]}


def test_chess_board_and_its_values_are_estimates(client: Any) -> None:
    payload = client.get("/api/chess/position", params={"moves": "e4"}).json()
    board = payload["board"]
    assert board["kind"] == "grid" and board["to_move"] == "b" and board["units"] == "centipawns"
    assert marks(board)[0] == "rnbqkbnr" and marks(board)[4] == "....P..."  # e4
    assert not [mark for mark in board["highlights"] if mark["why"] == "check"]
    assert len(board["steps"]) == 20
    assert payload["status"] == "pending" and len(payload["moves"]) == 20
    # 5 s: the quick exact try (about a second here) comes first, and the machine is shared.
    name, done = stream_events(client, "/api/chess/think", {"moves": "e4", "seconds": "5"})[-1]
    assert name == "done" and done["status"] == "estimate" and done["exact"] is False
    assert done["depth_reached"] >= 1 and all(row["exact"] is False for row in done["moves"])


def test_chess_promotions_and_check(client: Any) -> None:
    payload = client.get("/api/chess/position", params={"position": "4k3/P7/8/8/8/8/8/4K2R w K - 0 1",
                                                          "moves": "Rh8+"}).json()
    assert {"place": "e8", "why": "check"} in payload["board"]["highlights"]  # the black king, in check
    promoting = client.get("/api/chess/position", params={"position": "7k/P7/8/8/8/8/8/K7 w - - 0 1"}).json()
    assert {"a7a8q", "a7a8r", "a7a8b", "a7a8n"} <= {row["move"] for row in promoting["moves"]}
    # A promotion by click makes a queen; the other pieces are move buttons.
    assert [step["move"] for step in promoting["board"]["steps"] if step["source"] == "a7"] == ["a7a8q"]


def test_a_database_answers_the_positions_it_holds_and_says_so(tmp_path: Path) -> None:
    game, _ = registry.load("tictactoe")
    root = game.play(game.start(), game.parse_move(game.start(), "5"))
    path = tmp_path / "centre.db"
    build(game, root, path)
    client = _client(Server(memory=Analyses(database=str(path))))
    stored = client.get("/api/tictactoe/position", params={"moves": "5,1"}).json()
    assert stored["source"] == f"from database {path}"
    by_move = {row["move"]: row["value"] for row in stored["moves"]}
    after = game.parse_position("O...X....")
    assert by_move == {mv.notation: V.outcome_word(mv.value) for mv in analyze(game, after)}
    searched = client.get("/api/tictactoe/position").json()
    assert searched["source"] == f"not in database {path}: answered by search"
    assert searched["value"] == "draw"
    other = client.get("/api/nim/position", params={"position": "1,2"}).json()
    assert other["source"].startswith("not in database") and other["value"] == "win"
    plain = _client().get("/api/tictactoe/position", params={"moves": "5,1"}).json()
    assert "source" not in plain


def test_serve_refuses_a_missing_database_in_one_line(cli: Any, tmp_path: Path) -> None:
    done = cli("serve", "--port", "0", "--db", str(tmp_path / "none.db"), timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "none.db" in done.stderr

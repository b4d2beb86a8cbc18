"""The chess board's web API as a lichess user needs it, through Starlette's test client: SAN
labels and a numbered score sheet that agree with python-chess, a board that turns round, PGN
in and out (read back by python-chess), the analysis's cap, and a proven mate's whole line."""

from __future__ import annotations

import io
import json
import random
import warnings
from typing import Any

import pytest
from web_server import served, stream_events

pytest.importorskip("chess")
import chess  # noqa: E402
import chess.pgn  # noqa: E402

from perfectplay.web.app import UNTIL_THE_CAP, _seconds, create_app  # noqa: E402
from perfectplay.web.thinking import MAX_SECONDS  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

# Win at Chess-style mate in 2 from docs/chess.md: 1. Nf6+ gxf6 2. Bxf7#.
MATE_IN_2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"


@pytest.fixture(scope="module")
def client() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app())


def test_move_labels_are_python_chess_san_on_random_games(client: Any) -> None:
    rng = random.Random(33)
    for _ in range(6):
        board, played = chess.Board(), []
        for _ in range(rng.randrange(4, 40)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            played.append(move.uci())
            board.push(move)
        payload = client.get("/api/chess/position", params={"moves": ",".join(played)}).json()
        labels = {label["move"]: label["text"] for label in payload["board"]["labels"]}
        assert labels == {move.uci(): board.san(move) for move in board.legal_moves}
        assert payload["board"]["flippable"] is True


def test_the_score_sheet_numbers_the_moves_played(client: Any) -> None:
    payload = client.get("/api/chess/position", params={"moves": "e2e4,e7e5,g1f3,b8c6,f1b5"}).json()
    sheet = [(row["number"], row["text"]) for row in payload["board"]["record"]]
    assert sheet == [("1.", "e4"), ("", "e5"), ("2.", "Nf3"), ("", "Nc6"), ("3.", "Bb5")]
    # A game from a FEN with Black to move starts "12... ".
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 12"
    payload = client.get("/api/chess/position", params={"position": fen, "moves": "g8f6,f1c4"}).json()
    sheet = [(row["number"], row["text"]) for row in payload["board"]["record"]]
    assert sheet == [("12...", "Nf6"), ("13.", "Bc4")]


def test_a_game_copied_as_pgn_reads_back_in_python_chess(client: Any) -> None:
    moves = ["f2f3", "e7e5", "g2g4", "d8h4"]
    record = client.get("/api/chess/record", params={"moves": ",".join(moves)}).json()
    assert record["format"] == "PGN"
    game = chess.pgn.read_game(io.StringIO(record["text"]))
    assert game is not None and [move.uci() for move in game.mainline_moves()] == moves
    assert game.headers["Result"] == "0-1" and "1. f3 e5 2. g4 Qh4#" in record["text"]
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"
    record = client.get("/api/chess/record", params={"position": fen, "moves": "e2e4"}).json()
    game = chess.pgn.read_game(io.StringIO(record["text"]))
    assert game is not None and game.headers["FEN"] == fen and game.headers["SetUp"] == "1"


def test_a_pasted_pgn_loads_its_start_and_moves(client: Any) -> None:
    text = ('[Event "Casual"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 {the usual} (2. f4 exf4) Nc6!? '
            "3. Bb5 a6 $1 4. O-O 1-0")
    loaded = client.post("/api/chess/record", content=text).json()
    assert loaded == {"format": "PGN", "position": "",
                      "moves": ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]}
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 40"
    loaded = client.post("/api/chess/record", content=f'[SetUp "1"]\n[FEN "{fen}"]\n\n40. e4 Kd7 *').json()
    assert loaded["position"] == fen and loaded["moves"] == ["e2e4", "e8d7"]


@pytest.mark.parametrize(("text", "says"), [
    ("1. e4 e5 2. Nf9 Nc6", "PGN '1. e4 e5 2. Nf9 Nc6': move 2 for White, 'Nf9', is not a legal move"),
    ("hello\nworld", "PGN 'hello world': move 1 for White, 'hello', is not a legal move"),
    ("1. e4 -- 2. d4", "move 1 for Black, '--', is not a legal move"),
    ('[FEN "8/8/8"]\n1. e4', "its FEN tag '8/8/8' is not a position"),
    ("", "no moves and no FEN tag"),
])
def test_a_bad_pgn_is_one_line_quoting_it(client: Any, text: str, says: str) -> None:
    answer = client.post("/api/chess/record", content=text)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert says in error and "\n" not in error


def test_only_a_game_with_a_record_format_offers_one(client: Any) -> None:
    assert client.get("/api/chess/position").json()["record_format"] == "PGN"
    assert client.get("/api/tictactoe/position").json()["record_format"] is None
    answer = client.post("/api/tictactoe/record", content="1. e4")
    assert answer.status_code == 400 and "declares no game record format" in answer.json()["error"]


def test_the_analysis_runs_to_the_servers_cap_and_says_so(client: Any) -> None:
    assert _seconds(UNTIL_THE_CAP) == MAX_SECONDS  # what the page asks for: on until the cap
    events = stream_events(client, "/api/chess/think", {"seconds": "1", "lines": "1"})
    assert events and all(data["seconds"] == 1 and data["cap_s"] == MAX_SECONDS for _, data in events)
    answer = client.get("/api/chess/think", params={"seconds": "forever"})
    assert answer.status_code == 400 and "'max'" in answer.json()["error"]


def test_a_proven_mate_shows_its_whole_line() -> None:
    # Read from a server of its own until the depth after the one that proved the mate (its
    # line came whole from that search; the next finds the mate in the table, which cut the
    # line to its first move), however long a busy machine takes to get there.
    import httpx
    proven: list[dict[str, Any]] = []
    query = {"position": MATE_IN_2, "seconds": "60", "lines": "1"}
    with served() as url, httpx.Client(timeout=60) as http, \
            http.stream("GET", url + "api/chess/think", params=query) as stream:
        for line in stream.iter_lines():
            if not line.startswith("data:"):
                continue
            data = json.loads(line[5:])
            if data["lines"] and data["lines"][0]["exact"]:
                proven.append(data)
            if len(proven) >= 2 or data["reason"]:
                break
    assert len(proven) >= 2, [data["depth_reached"] for data in proven]
    for data in proven:
        line = data["lines"][0]
        assert line["remoteness"] == 3 and line["text"] == "1. Nf6+ gxf6 2. Bxf7#", data["depth_reached"]
        board = chess.Board(MATE_IN_2)
        for move in line["moves"]:
            board.push_uci(move)
        assert board.is_checkmate() and data["line"] == line["moves"]


def test_a_mate_seen_but_not_proven_is_never_shown_as_its_internal_value(client: Any) -> None:
    # Mate in 2 (1. Qg6 and 2. Qh7#): the search sees it at depth 3, a depth before it proves it.
    fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1"
    events = stream_events(client, "/api/chess/think", {"position": fen, "seconds": "3", "lines": "2"})
    seen = [data for _, data in events if data["status"] == "estimate" and "seen" in data]
    assert seen, [data["status"] for _, data in events]  # the depth that saw it, unproven
    for data in seen:
        assert data["seen"] == 3 and data["estimate"] > 0
        rows = data["moves"] + data["lines"]
        assert all(("seen" in row) == (abs(row["estimate"]) > 10**6) for row in rows if "estimate" in row)

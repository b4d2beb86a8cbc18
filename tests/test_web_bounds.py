"""Every request has a bounded cost: what a search cannot finish within
the page's bounds is a 422 with the reason, fast; oversized requests are 400 or 414; the game
tree is offered only where it can be drawn; a game too big to solve is never searched exactly
before the engine."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from web_server import stream_events

from perfectplay import registry
from perfectplay import value as V
from perfectplay.search.results import MoveValue
from perfectplay.web.app import MAX_QUERY_BYTES, Server, create_app
from perfectplay.web.positions import MAX_LEGAL_MOVES, RETRO_SECONDS, Known, describe

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    server = Server()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield TestClient(create_app(server), raise_server_exceptions=False)
    server.thinkers.close()  # its worker processes end with it
    server.players.close()


def timed(client: Any, url: str, **params: str) -> tuple[Any, float]:
    began = time.perf_counter()
    answer = client.get(url, params=params)
    return answer, time.perf_counter() - began


def test_dodgem_too_big_for_retro_is_a_422_with_the_reason_then_at_once(client: Any) -> None:
    answer, seconds = timed(client, "/api/dodgem/position", width="5")
    assert answer.status_code == 422, answer.text
    assert "retrograde analysis did not value every position" in answer.json()["error"]
    assert seconds < RETRO_SECONDS + 4
    again, seconds = timed(client, "/api/dodgem/position", width="5", moves="")
    assert again.status_code == 422 and seconds < 1.0


def test_a_seed_of_5000_digits_is_a_400(client: Any) -> None:
    answer = client.get("/api/tictactoe/computer", params={"seed": "7" * 5000})
    assert answer.status_code == 400 and "at most 30 digits" in answer.json()["error"]


def test_a_query_longer_than_the_bound_is_a_414_before_any_parsing(client: Any) -> None:
    heaps = " ".join(["3"] * 5000)  # Nim with 5,000 heaps: a 10 KB URL
    answer, seconds = timed(client, "/api/nim/position", position=heaps)
    assert answer.status_code == 414 and f"{MAX_QUERY_BYTES:,}" in answer.json()["error"]
    assert seconds < 1.0


def test_a_position_with_too_many_moves_is_a_422_fast(client: Any) -> None:
    answer, seconds = timed(client, "/api/nim/position", position=" ".join(["3"] * 300))
    assert answer.status_code == 422, answer.text
    assert f"more than {MAX_LEGAL_MOVES} legal moves" in answer.json()["error"]
    assert seconds < 1.0
    assert client.get("/api/nim/think", params={"position": " ".join(["3"] * 300)}).status_code == 422
    assert client.get("/api/nim/computer", params={"position": " ".join(["3"] * 300)}).status_code == 422


def test_answers_stay_small(client: Any) -> None:
    answer = client.get("/api/nim/position", params={"position": " ".join(["4"] * 60)})
    assert answer.status_code == 200 and len(answer.content) < 200_000


def test_the_tree_link_only_where_a_tree_is_drawn(client: Any) -> None:
    assert client.get("/api/tictactoe/position").json()["tree"] is True
    for game in ("connect4", "chess", "dodgem", "chopsticks"):
        assert client.get(f"/api/{game}/position").json()["tree"] is False, game
    answer, seconds = timed(client, "/api/connect4/tree.svg")
    assert answer.status_code == 422 and "too long a search" in answer.json()["error"]
    assert seconds < 10
    assert client.get("/api/chess/tree.svg").status_code == 400
    assert client.get("/api/dodgem/tree.svg").status_code == 400


def test_chess_is_never_searched_exactly_first(client: Any) -> None:
    answer, seconds = timed(client, "/api/chess/position", moves="e2e4")
    payload = answer.json()
    assert payload["status"] == "pending" and payload["too_big"] is True
    assert len(payload["moves"]) == 20
    assert seconds < 1.0  # no 40,000-node exact try (1.1 s of CPU on an idle machine)


def test_a_chess_endgame_in_the_tables_is_exact_at_once(client: Any) -> None:
    payload = client.get("/api/chess/position", params={"position": "8/8/8/8/8/3k4/8/3KQ3 w - - 0 1"}).json()
    assert payload["status"] == "exact" and payload["value"] == "win" and payload["remoteness"] > 0


def test_a_proven_win_in_an_estimate_shows_as_a_win_not_a_raw_number() -> None:
    game, position = registry.load("connect4", {}, "4455")
    moves = [MoveValue(move, game.format_move(position, move), 3 if n else V.win_in(3), False, n == 0)
             for n, move in enumerate(game.moves(position))]
    payload = describe("connect4", game, position, [], position, Known(tuple(moves), False, 4))
    assert payload["status"] == "exact" and payload["value"] == "win" and payload["remoteness"] == 3
    assert V.win_in(3) not in (payload["value"], payload.get("estimate"))


def test_an_estimate_carries_its_best_value_for_the_status_line() -> None:
    game, position = registry.load("connect4", {}, "4455")
    moves = [MoveValue(move, game.format_move(position, move), 7 - n, False, False)
             for n, move in enumerate(game.moves(position))]
    payload = describe("connect4", game, position, [], position, Known(tuple(moves), False, 4))
    assert payload["status"] == "estimate" and payload["estimate"] == 7 and payload["depth"] == 4


def test_chess_thinking_deepens_with_scores_for_every_move_and_a_line(client: Any) -> None:
    events = stream_events(client, "/api/chess/think", {"seconds": "2"})
    depths = [payload for name, payload in events if name == "depth"]
    assert depths, events
    first = depths[0]
    assert first["depth_reached"] == 1 and len(first["moves"]) == 20
    assert all(isinstance(row["estimate"], int) for row in first["moves"])
    assert first["line"] and first["line"][0] in first["best_moves"] + [row["move"] for row in first["moves"]]
    name, done = events[-1]
    assert name == "done" and done["reason"] == "time" and done["depth_reached"] >= 2


def test_the_chess_computer_answers_within_its_think_time(client: Any) -> None:
    answer, seconds = timed(client, "/api/chess/computer", moves="e2e4", seconds="1")
    assert answer.status_code == 200, answer.text
    assert answer.json()["exact"] is False and answer.json()["depth"] >= 1
    assert seconds < 1.0 + 0.5  # the think time and a margin for a busy machine


def test_a_finished_game_names_its_winner(client: Any) -> None:
    won = client.get("/api/tictactoe/position", params={"moves": "1,4,2,5,3"}).json()
    assert won["over"] and won["result"] == "X wins"
    red = client.get("/api/connect4/position", params={"moves": "1,2,1,2,1,2,1"}).json()
    assert red["result"] == "Red (X) wins"
    drawn = client.get("/api/tictactoe/position", params={"moves": "1,5,9,2,8,7,3,6,4"}).json()
    assert drawn["result"] == "draw"


def test_the_favicon_is_served(client: Any) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200 and answer.text.startswith("<svg")


def test_connect4_past_the_book_goes_straight_to_the_engine(client: Any) -> None:
    answer, seconds = timed(client, "/api/connect4/position", moves="1,2,3,4,5,6,7,1,2,3")
    assert answer.json()["status"] == "pending" and seconds < 1.0  # no 40,000-node exact try
    # A level below perfect plays the engine's estimate within its think time...
    choice, seconds = timed(client, "/api/connect4/computer", moves="1,2,3,4,5,6,7,1,2,3",
                            seconds="1", level="hard")
    assert choice.status_code == 200 and choice.json()["exact"] is False
    assert seconds < 1.0 + 0.5  # the think time and a margin for a busy machine
    # ...while the perfect level plays only a proved move, past the think time
    # if it must.
    choice, seconds = timed(client, "/api/connect4/computer", moves="1,2,3,4,5,6,7,1,2,3",
                            seconds="1", level="perfect")
    assert choice.status_code == 200 and choice.json()["exact"] is True


def test_a_slow_analysis_runs_outside_the_servers_process() -> None:
    import resource
    server = Server()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app(server))
    stream_events(client, "/api/chess/think", {"seconds": "0.5", "moves": "d2d4"})  # workers up
    before = resource.getrusage(resource.RUSAGE_SELF)
    events = stream_events(client, "/api/chess/think", {"seconds": "2", "moves": "e2e4"})
    after = resource.getrusage(resource.RUSAGE_SELF)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert events[-1][1]["depth_reached"] >= 1 and events[-1][1]["elapsed_s"] >= 1.9
    assert used < 1.0, used  # two seconds of search, nearly none of it in this process
    server.thinkers.close()
    server.players.close()


def test_exact_answers_are_kept_as_bytes_within_their_bound() -> None:
    from perfectplay.web.answers import Answers
    server = Server(answers=Answers(max_bytes=3_000))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app(server))
    first = client.get("/api/tictactoe/position", params={"moves": "5"})
    assert client.get("/api/tictactoe/position", params={"moves": "5"}).content == first.content
    assert len(server.answers) == 1
    for move in "12346789":
        client.get("/api/tictactoe/position", params={"moves": move})
    assert server.answers.bytes_held <= 3_000 and len(server.answers) < 9
    server.thinkers.close()
    server.players.close()


def test_an_estimate_never_shows_a_move_better_than_the_position(client: Any) -> None:
    # It once showed "estimate 0 (depth 3)" while a move was marked "+1". The main line's move
    # comes first with the position's score, and the deeper search bounds every other move.
    events = stream_events(client, "/api/connect4/think", {"seconds": "2", "moves": "1,2,3,4,5,6,7,1,2,3"})
    for _, payload in events:
        if payload["status"] != "estimate":
            continue
        scores = [row["estimate"] for row in payload["moves"] if "estimate" in row]
        assert payload["estimate"] == payload["moves"][0]["estimate"] == max(scores)
        assert payload["line"][0] == payload["moves"][0]["move"] in payload["best_moves"]

"""The JSON API of `perfectplay serve`, through Starlette's test client: values agree with
`analyze`, keys match the CLI's --json, and bad input of every kind is a 400 quoting it."""

from __future__ import annotations

import json
import random
import time
import warnings
from typing import Any

import pytest
from web_server import stream_events

from perfectplay import analyze, registry
from perfectplay.search.perft import reachable_positions
from perfectplay.web.app import Server, create_app
from perfectplay.web.catalog import add_game_file

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return TestClient(create_app())


def test_the_game_list_offers_every_builtin_game(client: Any) -> None:
    names = [game["name"] for game in client.get("/api/games").json()["games"]]
    assert names == [entry.name for entry in registry.entries()]


def test_tictactoe_move_values_agree_with_analyze_on_random_positions(client: Any) -> None:
    game, _ = registry.load("tictactoe")
    rng = random.Random(12)
    for _ in range(40):
        line, position = [], game.start()
        for _ in range(rng.randrange(0, 8)):
            if game.outcome(position) is not None:
                break
            move = rng.choice(game.moves(position))
            line.append(str(move + 1))
            position = game.play(position, move)
        payload = client.get("/api/tictactoe/position", params={"moves": ",".join(line)}).json()
        expected = {m.notation: m.as_dict() for m in analyze(game, position)}
        got = {row["move"]: {key: row[key] for key in ("move", "value", "remoteness", "exact")}
               for row in payload["moves"]}
        assert got == expected
        assert payload["position"] == game.format_position(position)


def test_position_answer_has_the_cli_json_keys(client: Any, cli: Any) -> None:
    payload = client.get("/api/nim/position", params={"position": "3 4 5"}).json()
    # The page wants remoteness, so it searches (tt) where the CLI's auto would use theory.
    printed = json.loads(cli("analyze", "nim", "3", "4", "5", "--algorithm", "tt", "--json").stdout)
    keys = ("move", "value", "remoteness", "exact")
    assert [{key: row[key] for key in keys} for row in payload["moves"]] == printed["moves"]
    assert payload["value"] == "win" and payload["remoteness"] == 11  # nim 3 4 5: win in 11 (README)
    assert payload["moves"][0]["position"] in ("1 4 5", "3 2 5", "3 4 1")


def test_each_move_gives_the_position_it_leads_to(client: Any) -> None:
    payload = client.get("/api/tictactoe/position", params={"moves": "5,1"}).json()
    for row in payload["moves"]:
        after = client.get("/api/tictactoe/position", params={"moves": "5,1," + row["move"]}).json()
        assert after["position"] == row["position"]


def test_score_games_report_the_difference_and_gains(client: Any) -> None:
    payload = client.get("/api/crates/position", params={"position": "3 9 1"}).json()
    assert payload["value"] == 11  # the crate-line contest's first sample: diff 11
    best = payload["moves"][0]
    assert best["move"] == "LL" and best["gain"] == 12


def test_connect4_columns_carry_the_test_set_score(client: Any) -> None:
    payload = client.get("/api/connect4/position", params={"position": "44667461156563424431"}).json()
    scores = {row["move"]: row.get("score") for row in payload["moves"]}
    assert payload["status"] == "exact"
    assert scores["6"] == 11 and scores["7"] == 7  # win with the 21st stone: (43 - 20) // 2 = 11
    assert all(score is not None for score in scores.values())


def test_every_position_of_tictactoe_answers(client: Any) -> None:
    game, _ = registry.load("tictactoe")
    # Every reachable position by its text: the API reads what it writes.
    for position in sorted(reachable_positions(game, game.start()))[::97]:
        text = game.format_position(position)
        answer = client.get("/api/tictactoe/position", params={"position": text})
        assert answer.status_code == 200, (text, answer.json())


BAD = [
    ("/api/checkers/position", "'checkers'"),
    ("/api/tictactoe/position?position=XXX", "'XXX'"),
    ("/api/tictactoe/position?position=XXXO.....", "X has 3"),
    ("/api/tictactoe/position?moves=5,5", "'5'"),
    ("/api/tictactoe/position?moves=10", "'10'"),
    ("/api/tictactoe/position?moves=1,4,2,5,3,6", "'6'"),
    ("/api/tictactoe/position?moves=%00", "'\\x00'"),
    ("/api/tictactoe/position?positon=X", "'positon'"),
    ("/api/nim/position?position=3 -4", "-4"),
    ("/api/nim/position?moves=1:9", "'1:9'"),
    ("/api/nim/position?width=3", "'width'"),
    ("/api/nim/position?misere=maybe", "'maybe'"),
    ("/api/connect4/position?width=x", "'x'"),
    ("/api/connect4/position?width=12", "12"),
    ("/api/connect4/position?position=4444444", "column 4 is full"),
    ("/api/connect4/position?position=4a", "'a'"),
    ("/api/crates/position?position=a b", "'a'"),
    ("/api/octal/position?code=0.9x", "0.9x"),
    ("/api/claim/position?position=xx..", "'xx..'"),
    ("/api/claim/position?block=left", "'left'"),
    ("/api/takeaway/position?take=0", "'0'"),
    ("/api/tictactoe/computer?level=godlike", "'godlike'"),
    ("/api/tictactoe/computer?seed=abc", "'abc'"),
    ("/api/tictactoe/think?seconds=-1", "'-1'"),
    ("/api/tictactoe/think?seconds=soon", "'soon'"),
    ("/api/tictactoe/tree.svg?depth=9", "'9'"),
    ("/api/tictactoe/tree.svg?depth=two", "'two'"),
    ("/api/tictactoe/tree.svg?depth=4", "more than 3000 nodes"),
    ("/api/growth?game=tictactoe", "tictactoe"),
    ("/api/growth?sizes=9..1", "'9..1'"),
    ("/api/growth?algorithms=fast", "'fast'"),
    ("/api/growth?sizes=1..100000", "'1..100000'"),
]


@pytest.mark.parametrize(("url", "quoted"), BAD)
def test_bad_input_is_a_400_that_quotes_it(client: Any, url: str, quoted: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 400, answer.text
    assert quoted in answer.json()["error"]


def test_a_long_position_is_refused_not_parsed(client: Any) -> None:
    answer = client.get("/api/connect4/position", params={"position": "1" * 2_000})
    assert answer.status_code == 400 and "too long" in answer.json()["error"]


def test_an_unknown_api_path_is_json_not_a_page(client: Any) -> None:
    answer = client.get("/api/nothing/here/at/all")
    assert answer.status_code == 404 and "error" in answer.json()


def test_thinking_on_connect4_reports_each_depth_then_an_estimate(client: Any) -> None:
    # Past the opening book (the book answers the first moves at once): Test_L1_R3, line 3,
    # which the kernel solves in 0.8 s of CPU here: a think time whose half is far less.
    events = stream_events(client, "/api/connect4/think", {"seconds": "0.3", "moves": "5,7,3,1,5,4,7,4,3"})
    depths = [payload["depth_reached"] for name, payload in events if name == "depth"]
    assert depths and depths == sorted(depths) and depths[0] == 1
    name, done = events[-1]
    assert name == "done" and done["exact"] is False and done["status"] == "estimate"
    assert done["reason"] == "time"


def test_thinking_on_connect4_is_exact_where_the_kernel_solves_within_the_think_time(client: Any) -> None:
    # The same position with 3 s: the kernel proves it (0.8 s of CPU here), as `perfectplay
    # analyze connect4 573154743` does; the page used to show the engine's estimate.
    think = {"seconds": "3", "moves": "5,7,3,1,5,4,7,4,3"}
    name, done = stream_events(client, "/api/connect4/think", think)[-1]
    assert name == "done" and done["exact"] and done["reason"] == "exact"
    assert done["best_moves"] == ["5"] and done["value"] == "win"


def test_thinking_ends_exact_where_the_search_sees_the_end(client: Any) -> None:
    name, done = stream_events(client, "/api/tictactoe/think", {"moves": "5"})[-1]
    assert name == "done" and done["exact"] and done["value"] == "draw"


def test_the_perfect_computer_plays_a_best_move(client: Any) -> None:
    for seed in range(5):
        choice = client.get("/api/tictactoe/computer", params={"moves": "1,5,9", "seed": str(seed)}).json()
        payload = client.get("/api/tictactoe/position", params={"moves": "1,5,9"}).json()
        assert choice["move"] in payload["best_moves"] and choice["kind"] == "best"
    assert set(payload["best_moves"]) == {"2", "4", "6", "8"}  # an edge draws; a corner loses


def test_growth_reproduces_the_take_away_call_counts(client: Any) -> None:
    growth = client.get("/api/growth", params={"sizes": "20..20", "algorithms": "minimax,memo"}).json()
    assert growth["nodes"] == {"minimax": [266_079], "memo": [58]}  # the published call counts


GAME_FILE = '''
from perfectplay import Game

class Sticks(Game):
    """Take one or two sticks; taking the last one wins."""
    name = "sticks"
    def start(self): return 7
    def moves(self, pile): return [take for take in (1, 2) if take <= pile]
    def play(self, pile, take): return pile - take
    def parse_position(self, text): return int(text)
'''


def test_a_users_game_gets_the_generic_view(tmp_path: Any) -> None:
    path = tmp_path / "sticks.py"
    path.write_text(GAME_FILE)
    server = Server()
    add_game_file(server.catalog, f"{path}:Sticks")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app(server))
    payload = client.get("/api/sticks/position", params={"moves": "1"}).json()
    assert payload["board"]["kind"] == "text" and payload["board"]["text"] == "6"
    assert payload["value"] == "loss"  # 6 is a multiple of 3
    assert client.get("/api/sticks/position", params={"position": "x"}).status_code == 400
    assert client.get("/api/sticks/position", params={"moves": "3"}).status_code == 400


BUGGY_GAME_FILE = GAME_FILE.replace(
    "def moves(self, pile): return",
    "def moves(self, pile):\n        if pile == 4: raise KeyError(pile)\n        return")


def test_a_bug_in_a_users_game_is_a_422_naming_the_method_and_position(tmp_path: Any) -> None:
    path = tmp_path / "sticks.py"
    path.write_text(BUGGY_GAME_FILE)
    server = Server()
    add_game_file(server.catalog, f"{path}:Sticks")  # start 7 and its moves are fine
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        client = TestClient(create_app(server), raise_server_exceptions=False)
    answer = client.get("/api/sticks/position", params={"position": "5"})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error.startswith("error: your game's Sticks.moves raised KeyError: 4 on position 4 (")
    assert "sticks.py:" in error and "if pile == 4: raise KeyError(pile)" in error
    # A bug of the server's own stays a 500.
    assert client.get("/api/tictactoe/position").status_code == 200


def test_the_tree_picture_is_served_as_svg(client: Any) -> None:
    answer = client.get("/api/tictactoe/tree.svg", params={"moves": "1", "depth": "2"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.startswith("<svg") and 'class="pruned"' in answer.text


def test_the_memory_of_analyses_is_bounded_by_the_bytes_it_holds() -> None:
    from perfectplay.web.positions import Analyses, measured_bytes, quick_analysis
    game, start = registry.load("tictactoe")
    first = game.play(start, game.moves(start)[0])
    one = Analyses()
    quick_analysis(game, first, one)
    size = one.bytes_held
    assert size == measured_bytes(one.get(game, first)) + measured_bytes(first) and size > 8 * 100
    memory = Analyses(max_bytes=int(2.5 * size))
    for move in game.moves(start):
        quick_analysis(game, game.play(start, move), memory)  # 8 moves each
    assert memory.bytes_held <= 2.5 * size and len(memory) == 2
    last = game.play(start, game.moves(start)[-1])
    assert memory.get(game, last) is not None  # the newest are kept
    assert memory.get(game, game.play(start, game.moves(start)[0])) is None


def test_the_perfect_computer_proves_its_move_past_the_think_time(client: Any) -> None:
    # At 444442227 only column 2 wins, and proving it takes seconds of CPU; a half
    # second of thinking must not turn the perfect level into a guess (it played 3 or 5).
    pytest.importorskip("numba")
    choice = client.get("/api/connect4/computer", params={"moves": "4,4,4,4,4,2,2,2,7",
                                                         "level": "perfect", "seconds": "0.5"}).json()
    assert (choice["move"], choice["exact"]) == ("2", True)


def test_the_perfect_computer_proves_a_move_whose_value_takes_longer_than_its_think_time(
        client: Any) -> None:
    # Past the book, 4444422233's value alone costs about 1.1 s of CPU and only 2 wins; with
    # a think time of 1 s the level judged exact play out of reach and played 6, "exact": false.
    pytest.importorskip("numba")
    choice = client.get("/api/connect4/computer", params={"position": "4444422233",
                                                         "level": "perfect", "seconds": "1"}).json()
    assert (choice["move"], choice["exact"]) == ("2", True)


def test_the_perfect_computer_plays_kalah_6_4s_start_from_its_opening_book(client: Any,
                                                                         tmp_path: Any,
                                                                         monkeypatch: Any) -> None:
    # Kalah(6,4)'s start takes the kernel 30 s of CPU with the endgame database (minutes
    # without): the page's perfect level answers it from the book at once, exactly, with no
    # database built, and plays pit 3 (the only move worth +10: Irving et al.).
    pytest.importorskip("numba")
    monkeypatch.setenv("PERFECTPLAY_KALAH_DIR", str(tmp_path))
    started = time.process_time()
    choice = client.get("/api/kalah/computer", params={"level": "perfect", "seconds": "0.5"}).json()
    assert (choice["move"], choice["exact"]) == ("3", True)
    assert time.process_time() - started < 5


@pytest.mark.parametrize(("game", "options", "rows"), [
    ("hex", {"size": "3"}, 3), ("othello", {"size": "4"}, 4), ("dots", {"width": "2", "height": "1"}, None),
    ("kalah", {"pits": "3", "seeds": "2"}, None)])
def test_size_options_from_a_query_string_build_the_game_of_that_size(
        client: Any, game: str, options: dict[str, str], rows: int | None) -> None:
    # The web read only width and height as numbers: /game/hex?size=3 and othello?size=4 were
    # a 400, since the games were given the text "3".
    answer = client.get(f"/api/{game}/position", params=options)
    assert answer.status_code == 200, answer.text
    if rows is not None:
        assert len(answer.json()["position"].split()[0].split("/")) == rows
    bad = client.get(f"/api/{game}/position", params={name: "x" for name in options})
    assert bad.status_code == 400 and "give a whole number" in bad.json()["error"]

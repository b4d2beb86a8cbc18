"""The web boards of Kalah, Dots and Boxes, Hex and Othello: boards.py's description
of start and mid-game positions, value by value; then each board in Chromium, played by a
click ON THE BOARD (not a move button), the position checked after it, and screenshots at a
desktop's width and a phone's into the directory tests/test_web_pages.py uses
($PERFECTPLAY_SCREENSHOTS, default: the test's temporary directory)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest
from web_server import WIDTHS, open_page

from perfectplay import registry
from perfectplay.web.boards import board_of

NEW_KINDS = {"kalah": "pits", "dots": "lines", "hex": "hex", "othello": "grid"}


def _board(name: str, moves: str = "", **options: Any) -> tuple[Any, Any, dict[str, Any]]:
    """The game, the position after ``moves`` (the game's notation, space separated) and
    its board, told the moves played."""
    game, position = registry.load(name, options)
    start, played = position, []
    for move in moves.split():
        played.append(game.parse_move(position, move))
        position = game.play(position, played[-1])
    return game, position, board_of(game, position, start, played)


def seeds(pits: list[dict[str, Any]]) -> list[int]:
    return [pit["seeds"] for pit in pits]


def marks(board: dict[str, Any]) -> list[str]:
    """A grid's or hex board's marks row by row from the top, '.' for an empty place."""
    n = board.get("columns", board.get("size"))
    cells = [cell["mark"] or "." for cell in board["cells"]]
    return ["".join(cells[r:r + n]) for r in range(0, len(cells), n)]


def status(board: dict[str, Any]) -> str:
    return board["status"][0]["text"]


# -- Kalah ---------------------------------------------------------------------------------

def test_kalah_start_has_four_seeds_a_pit_empty_stores_and_pit_3_keeps_the_turn() -> None:
    game, position, board = _board("kalah")
    assert board["kind"] == "pits" and len(board["bottom"]) == len(board["top"]) == 6
    assert seeds(board["bottom"]) == [4] * 6 and seeds(board["top"]) == [4] * 6
    assert (board["left"]["seeds"], board["right"]["seeds"]) == (0, 0) and board["to_move"] == "S"
    assert not board["over"] and not board["again"]
    # South's pits 1..6 left to right along the bottom, North's 6..1 along the top.
    assert [pit["name"] for pit in board["bottom"]] == ["S1", "S2", "S3", "S4", "S5", "S6"]
    assert [pit["name"] for pit in board["top"]] == ["N6", "N5", "N4", "N3", "N2", "N1"]
    assert [pit["move"] for pit in board["bottom"]] == ["1", "2", "3", "4", "5", "6"]
    assert all(pit["move"] is None for pit in board["top"])
    # Four seeds from pit 3 end in the store, three pits and the store away: an extra turn.
    assert [pit["number"] for pit in board["bottom"] if pit["again"]] == [3]
    assert status(board) == "South to move (bottom row, store at the right)"


def test_kalah_after_an_extra_turn_and_a_sowing_into_norths_pits() -> None:
    game, position, board = _board("kalah", "3")
    assert seeds(board["bottom"]) == [4, 4, 0, 5, 5, 5] and board["right"] == {"side": "S", "label": "South",
                                                                               "seeds": 1}
    # South again (the last seed in the store); no pit ends in the store now.
    assert board["to_move"] == "S" and board["again"] and not any(pit["again"] for pit in board["bottom"])
    assert status(board) == "South moves again: last seed in the store"
    game, position, board = _board("kalah", "3 6")
    # Pit 6's five seeds: one in the store, four in North's pits 1 to 4.
    assert seeds(board["bottom"]) == [4, 4, 0, 5, 5, 0] and seeds(board["top"])[::-1] == [5, 5, 5, 5, 4, 4]
    assert board["right"]["seeds"] == 2 and board["to_move"] == "N" and not board["again"]
    again = [pit["number"] for pit in board["top"] if pit["again"]]
    assert again and sorted(again) == [pit for pit in game.legal_moves(position)
                                       if game.keeps_turn(position, pit)]


def test_kalah_with_a_side_empty_is_over_and_the_seeds_are_in_the_stores() -> None:
    game, position = registry.load("kalah", {"pits": 2, "seeds": 1}, "0 0 3 / 0 0 1 S")
    board = board_of(game, position)
    assert board["over"] and not any(pit["again"] or pit["move"] for pit in board["bottom"] + board["top"])
    assert (board["right"]["seeds"], board["left"]["seeds"]) == (3, 1)
    assert status(board) == "Game over: South 3, North 1"


# -- Dots and Boxes ------------------------------------------------------------------------

def test_dots_start_lists_every_line_and_box_by_notation() -> None:
    game, position, board = _board("dots")
    assert (board["columns"], board["rows"]) == (3, 3)
    assert len(board["edges"]) == 24 and not any(line["drawn"] for line in board["edges"])
    assert board["edges"][0] == {"move": "a1-b1", "source": [0, 0], "target": [0, 1], "drawn": False}
    assert board["edges"][12] == {"move": "a1-a2", "source": [0, 0], "target": [1, 0], "drawn": False}
    assert board["boxes"] == [] and board["to_move"] == "A"
    assert [count["label"] for count in board["counts"]] == ["A: 0", "B: 0"]
    # Every line's notation is a move the game reads back as that line.
    assert all(game.format_move(position, game.parse_move(position, line["move"])) == line["move"]
               for line in board["edges"])


def test_dots_a_completed_box_scores_and_keeps_the_turn() -> None:
    game, position, board = _board("dots", "a1-b1 a2-b2 a1-a2 b1-b2", width=2, height=2)
    assert [line["move"] for line in board["edges"] if line["drawn"]] == ["a1-b1", "a2-b2", "a1-a2", "b1-b2"]
    # B drew the fourth side: B took the box, scores it and moves again.
    assert board["boxes"] == [{"row": 0, "column": 0, "owner": "B"}]
    assert [count["label"] for count in board["counts"]] == ["A: 0", "B: 1"]
    assert board["to_move"] == "B" and board["again"] and not board["over"]
    assert status(board) == "B completed a box: B moves again"


def test_dots_a_box_completed_before_the_moves_given_has_no_owner() -> None:
    game, position = registry.load("dots", {"width": 2, "height": 2}, "a1-b1,a2-b2,a1-a2,b1-b2 B 0-1")
    board = board_of(game, position, position, [])
    assert board["boxes"] == [{"row": 0, "column": 0, "owner": None}] and not board["again"]


# -- Hex -----------------------------------------------------------------------------------

def test_hex_start_and_a_mid_game_position_in_rows_from_the_top() -> None:
    game, position, board = _board("hex")
    assert board["kind"] == "hex" and board["size"] == 4 and marks(board) == ["...."] * 4
    assert board["to_move"] == "X" and board["highlights"] == []
    assert (board["vertical"], board["horizontal"]) == ("X", "O")
    assert [cell["move"] for cell in board["cells"][:4]] == ["a1", "b1", "c1", "d1"]
    game, position, board = _board("hex", "b2 c2 b3")
    assert marks(board) == ["....", ".XO.", ".X..", "...."] and board["to_move"] == "O"
    assert {"place": "b3", "why": "last"} in board["highlights"]


def chain(board: dict[str, Any]) -> list[str]:
    return [mark["place"] for mark in board["highlights"] if mark["why"] == "win"]


def test_hex_a_won_board_shows_the_chain_joining_top_and_bottom_without_a_loose_stone() -> None:
    game, position, board = _board("hex", "a1 b1 d4 b2 a2 b3 a3 c1 a4")
    assert status(board) == "Red (X) has joined top and bottom"
    assert chain(board) == ["a1", "a2", "a3", "a4"]  # d4 is X's but joins nothing
    assert not any(cell["move"] for cell in board["cells"])  # the game is over


def test_hex_a_chain_across_bends_along_the_board_for_blue() -> None:
    # O joins a2 to d1 through b2, c1 (c, r: +1 column, -1 row is a neighbour).
    game, position = registry.load("hex", {}, "..OO/OO../XXX./X...")
    board = board_of(game, position)
    assert status(board) == "Blue (O) has joined left and right" and chain(board) == ["c1", "d1", "a2", "b2"]


# -- Othello -------------------------------------------------------------------------------

def test_othello_start_has_four_discs_and_black_to_move() -> None:
    game, position, board = _board("othello")
    assert marks(board)[3] == "...WB..." and marks(board)[4] == "...BW..."
    assert [count["label"] for count in board["counts"]] == ["Black 2", "White 2"] and board["to_move"] == "B"
    assert board["passing"] is None and not board["over"] and status(board) == "Black to move"
    assert sorted(cell["move"] for cell in board["cells"] if cell["move"]) == ["c4", "d3", "e6", "f5"]


def test_othello_after_d3_black_has_turned_d4() -> None:
    game, position, board = _board("othello", "d3")
    assert marks(board)[2] == "...B...." and marks(board)[3] == "...BB..."
    assert [count["label"] for count in board["counts"]] == ["Black 4", "White 1"] and board["to_move"] == "W"


def test_othello_a_player_with_no_move_must_pass_and_the_pass_is_shown() -> None:
    game, position = registry.load("othello", {}, "WB....../" + "/".join(["........"] * 7) + " B")
    board = board_of(game, position)
    assert board["passing"] == "pass" and not board["over"] and board["to_move"] == "B"
    assert status(board) == "Black has no legal move and must pass:"
    after = game.play(position, game.parse_move(position, "pass"))
    board = board_of(game, after)
    assert status(board) == "White to move (Black had no move and passed)" and board["to_move"] == "W"
    assert board["passing"] is None


def test_othello_two_passes_end_the_game() -> None:
    game, position = registry.load("othello", {}, "BB....../" + "/".join(["........"] * 7) + " W")
    for _ in range(2):
        assert board_of(game, position)["passing"] == "pass"
        position = game.play(position, game.parse_move(position, "pass"))
    board = board_of(game, position)
    assert board["over"] and status(board) == "Game over: Black 2, White 0"


def test_the_home_page_list_gives_the_four_games_their_own_boards() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

        from perfectplay.web.app import create_app
        games = TestClient(create_app()).get("/api/games").json()["games"]
    kinds = {game["name"]: game["board"]["kind"] for game in games if game["name"] in NEW_KINDS}
    assert kinds == NEW_KINDS


# -- In Chromium ---------------------------------------------------------------------------

def _settled(page: Any) -> None:
    """Wait until the values are in: no thinking, or the thinking (one second) is done."""
    page.wait_for_function("() => document.getElementById('thinking').hidden"
                           " || document.getElementById('thinking-text').textContent.startsWith('Done')",
                           timeout=20_000)


def _played(page: Any, name: str, position: str) -> None:
    """Wait for the page to show ``position`` (the server's notation, in the title)."""
    page.wait_for_function("(wanted) => document.getElementById('title').textContent === wanted",
                           arg=f"{name} — {position}", timeout=20_000)


def _fits_the_phone(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS["phone"][0]
    box = page.locator("#board-svg").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTHS["phone"][0] + 1


# (game, url of the page, the board element clicked, the position after it, checks on the board)
PLAYS = [
    ("kalah", "game/kalah?pits=3&seeds=3&seconds=1", "[data-pit='S1']", "0 4 4 1 / 3 3 3 0 S",
     [".board-status[data-again='1']", "[data-store-count='S']:text('1')"]),
    ("dots", "game/dots?width=2&height=2&moves=a1-b1,a2-b2,a1-a2&seconds=1", "[data-move='b1-b2']",
     "a1-b1,a2-b2,a1-a2,b1-b2 B 0-1", [".board-status[data-again='1']", "[data-box='0'][data-owner='B']"]),
    ("hex", "game/hex?position=..../.XO./.XO./....&seconds=1", "[data-cell='b4']", "..../.XO./.XO./.X..",
     ["[data-stone='X'] >> nth=2", "[data-edge='O']"]),
    ("othello", "game/othello?seconds=1", "[data-cell='d3']",
     "......../......../...B..../...BB.../...BW.../......../......../........ W",
     ["[data-count='B']:text('Black 4')", "[data-count='W']:text('White 1')"]),
]


@pytest.mark.parametrize("name, url, target, after, checks", PLAYS, ids=[play[0] for play in PLAYS])
def test_a_click_on_the_board_plays_the_move(server: str, browser: Any, shots: Path, name: str, url: str,
                                             target: str, after: str, checks: list[str]) -> None:
    page, errors = open_page(browser, "desktop")
    page.goto(server + url)
    page.click(f"#board {target}")
    _played(page, name, after)
    for check in checks:
        assert page.locator(f"#board {check}").count() >= 1, check
    _settled(page)
    page.screenshot(path=str(shots / f"board-{name}-desktop.png"), full_page=True)
    phone, phone_errors = open_page(browser, "phone")
    phone.goto(page.url)
    _played(phone, name, after)
    _settled(phone)
    _fits_the_phone(phone)
    phone.screenshot(path=str(shots / f"board-{name}-phone.png"), full_page=True)
    page.close()
    phone.close()
    assert not errors + phone_errors, errors + phone_errors


def test_the_status_line_says_when_the_same_side_moves_again(server: str, browser: Any) -> None:
    page, errors = open_page(browser, "desktop")
    page.goto(server + "game/kalah?pits=3&seeds=3&seconds=1")
    page.click("#board [data-pit='S1']")  # three seeds: the last in South's store
    _played(page, "kalah", "0 4 4 1 / 3 3 3 0 S")
    # The page says the same side moves again; the board, in the game's words, who and why.
    page.wait_for_function("() => / to move again/.test(document.getElementById('status').textContent)")
    assert page.text_content("#board .board-status") == "South moves again: last seed in the store"
    page.click("#board [data-pit='S2']")  # four seeds: the last in North's first pit
    page.wait_for_function("() => document.querySelector('#board .board-status').textContent"
                           ".startsWith('North to move')")
    assert " again" not in page.text_content("#status")
    assert "another turn" in page.inner_text("#legend")  # Kalah's own legend, not the generic one
    page.close()
    assert not errors, errors


def test_dots_lines_take_clicks_at_a_phones_width(server: str, browser: Any) -> None:
    page, errors = open_page(browser, "phone")
    page.goto(server + "game/dots?width=2&height=2")
    page.click("#board [data-move='b2-b3']")
    _played(page, "dots", "b2-b3 B 0-0")
    assert page.locator("#board [data-line='b2-b3'][data-drawn='1']").count() == 1
    assert page.locator("#board .board-status[data-again='0']").count() == 1  # no box: B's turn
    page.close()
    assert not errors, errors


def test_kalah_a_sowing_that_ends_in_a_pit_passes_the_turn(server: str, browser: Any) -> None:
    page, errors = open_page(browser, "desktop")
    page.goto(server + "game/kalah?pits=3&seeds=3&moves=1")
    page.click("#board [data-pit='S2']")  # four seeds: pit 3, the store, North's pits 1 and 2
    _played(page, "kalah", "0 0 5 2 / 4 4 3 0 N")
    assert page.locator("#board .board-status[data-again='0']").count() == 1
    assert "North to move" in (page.text_content("#board .board-status") or "")
    page.close()
    assert not errors, errors


def test_othello_the_pass_is_a_button_on_the_board(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser, "phone")
    rows = "WB....../" + "/".join(["........"] * 7)
    page.goto(server + f"game/othello?seconds=1&position={rows}%20B")
    assert "no legal move and must pass" in page.text_content("#board .board-status")
    page.screenshot(path=str(shots / "board-othello-pass-phone.png"), full_page=True)
    page.click("#board [data-pass]")
    _played(page, "othello", f"{rows} W passes 1")
    assert "Black had no move and passed" in page.text_content("#board .board-status")
    assert page.locator("#board [data-move='c1']").count() == 1  # White's reply, on the board
    page.close()
    assert not errors, errors


def test_the_home_cards_draw_the_four_boards(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser, "desktop")
    page.goto(server)
    for name in NEW_KINDS:
        thumb = page.locator(f".card[data-card='{name}'] .thumb svg")
        thumb.wait_for()
        box = thumb.bounding_box()
        assert box is not None and box["width"] >= 60 and 20 <= box["height"] <= 96, (name, box)
    page.locator(".card[data-card='kalah']").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "board-home-cards.png"), full_page=True)
    page.close()
    assert not errors, errors


def test_the_thinking_box_speaks_only_of_the_position_on_show(server: str, browser: Any) -> None:
    """The box said "Done: exact, ..." of the position left behind after the position
    changed (Kalah, Hex): it clears when another position is on show (here by Undo, which
    shows a position the opening book answers at once, so no new search writes over the box).
    Nine stones: one past the book, so the page thinks."""
    page, errors = open_page(browser, "desktop")
    page.goto(server + "game/connect4?moves=5,7,3,1,5,4,7,4,3&seconds=2")
    done = "() => document.getElementById('thinking-text').textContent.startsWith('Done')"
    page.wait_for_function(done, timeout=30_000)
    page.click("#undo")
    _played(page, "connect4", "57315474")
    shown = page.evaluate("() => [document.getElementById('thinking').hidden,"
                          " document.getElementById('thinking-text').textContent]")
    assert shown == [True, ""], shown
    page.close()
    assert not errors, errors

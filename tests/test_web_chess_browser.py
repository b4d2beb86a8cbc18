"""The chess board in Chromium as a lichess user expects it, at a desktop's width and a
phone's: SAN buttons and a numbered move list that goes back on a click and with the arrow
keys, the last move highlighted, the board turned round, no rings from a level estimate, the
evaluation bar kept at checkmate (the board does not move), a proven mate's whole line, PGN
pasted and copied, and the analysis going on within the server's cap.

Screenshots go to $PERFECTPLAY_SCREENSHOTS (default: the test's temporary directory); the
ones in docs/screenshots are `PERFECTPLAY_SCREENSHOTS=docs/screenshots pytest
tests/test_web_chess_browser.py`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_server import WIDTHS, open_page

pytest.importorskip("chess")

MATE_IN_2 = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
GAME = '[Event "Casual"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 {the Spanish} a6 4. Ba4 Nf6 5. O-O Be7 *'


def _moves_in_url(page: Any) -> str:
    return str(page.evaluate("new URL(location.href).searchParams.get('moves') ?? ''"))


def _square_centre(page: Any, name: str) -> tuple[float, float]:
    """A square's centre on the page; the board is drawn again as each depth of the thinking
    arrives, so a box asked for at that moment may be missing: ask again."""
    for _ in range(50):
        box = page.locator(f"#board [data-square='{name}']").bounding_box()
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.wait_for_timeout(100)
    raise AssertionError(f"no square {name} on the board")


def _board_box(page: Any) -> Any:
    for _ in range(50):
        box = page.locator("#board-svg").bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(100)
    raise AssertionError("no board")


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_san_move_list_goes_back_by_click_and_arrow_keys(server: str, browser: Any, shots: Path,
                                                         width: str) -> None:
    page, errors = open_page(browser, width)
    page.goto(server + "game/chess?moves=e2e4,e7e5,g1f3&seconds=2")
    page.wait_for_selector("#line .ply[data-ply='3'].current")
    assert page.locator("#line .ply").all_inner_texts() == ["start", "e4", "e5", "Nf3"]
    assert page.locator("#line .move-number").all_inner_texts() == ["1.", "2."]
    page.wait_for_selector("button.move[data-move='b8c6']")
    assert page.inner_text("button.move[data-move='b8c6']").startswith("Nc6")
    assert page.inner_text("button.move[data-move='g8f6']").startswith("Nf6")
    # The last move is highlighted: g1 and f3.
    assert sorted(page.locator("#board .highlight-last").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.highlight)")) == ["f3", "g1"]
    page.screenshot(path=str(shots / f"web-chess-move-list-{width}.png"), full_page=True)
    page.click("#line .ply[data-ply='1']")  # back to the position after 1. e4
    page.wait_for_function("() => new URL(location.href).searchParams.get('moves') === 'e2e4'")
    page.wait_for_selector("#board .highlight-last[data-highlight='e4']")
    assert page.locator("#line .ply").count() == 4  # the moves after it stay, to go forward
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => new URL(location.href).searchParams.get('moves') === 'e2e4,e7e5'")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => !new URL(location.href).searchParams.get('moves')")
    assert page.locator("#board .highlight-last").count() == 0
    page.keyboard.press("End")
    page.wait_for_function("() => new URL(location.href).searchParams.get('moves') === 'e2e4,e7e5,g1f3'")
    page.wait_for_selector("#line .ply[data-ply='3'].current")
    page.close()
    assert not errors, errors


def test_the_board_turns_round(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/chess?seconds=1")
    page.wait_for_selector("#board [data-square='a1']")
    a1, h8 = _square_centre(page, "a1"), _square_centre(page, "h8")
    assert a1[1] > h8[1] and a1[0] < h8[0]  # White's side: a1 at the bottom left
    page.click("#flip")
    page.wait_for_function("() => new URL(location.href).searchParams.get('flip') === '1'")
    a1, h8 = _square_centre(page, "a1"), _square_centre(page, "h8")
    assert a1[1] < h8[1] and a1[0] > h8[0]  # Black's side: a1 at the top right
    # Still played by clicking: e7-e5 is not White's, e2-e4 is.
    page.click("#board [data-square='e2']")
    page.click("#board [data-move='e2e4']")
    page.wait_for_function("() => new URL(location.href).searchParams.get('moves') === 'e2e4'")
    page.keyboard.press("f")  # the key turns it back
    page.wait_for_function("() => !new URL(location.href).searchParams.get('flip')")
    # A board that does not turn round offers no button.
    page.goto(server + "game/tictactoe")
    page.wait_for_selector("#board svg")
    assert page.locator("#flip").is_hidden()
    page.close()
    assert not errors, errors


def test_a_level_position_rings_no_piece(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/chess?seconds=3")
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 2", timeout=30_000)
    movable = page.locator("#board [data-from]")
    assert movable.count() == 10  # the pawns and knights can move
    widths = movable.evaluate_all("nodes => nodes.map((n) => n.getAttribute('stroke-width'))")
    assert set(widths) == {"1.5"}, widths  # no ring: a level estimate says nothing about a piece
    page.close()
    assert not errors, errors


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_at_checkmate_the_bar_stays_and_the_board_stays_put(server: str, browser: Any, shots: Path,
                                                            width: str) -> None:
    page, errors = open_page(browser, width)
    page.goto(server + "game/chess?moves=f2f3,e7e5,g2g4&seconds=2")
    page.wait_for_selector("#board [data-from='d8']")
    page.wait_for_function("() => !document.getElementById('eval-bar').hidden")
    before = _board_box(page)
    page.click("#board [data-square='d8']")
    page.click("#board [data-move='d8h4']")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Game over')")
    assert page.inner_text("#status") == "Game over: Black wins."
    assert page.locator("#eval-bar").is_visible()
    assert page.get_attribute("#eval-bar", "data-share") == "0"  # all Black's
    after = _board_box(page)
    assert abs(after["x"] - before["x"]) < 1 and abs(after["width"] - before["width"]) < 1
    assert page.locator("#line .ply").all_inner_texts()[-1] == "Qh4#"
    page.screenshot(path=str(shots / f"web-chess-mate-{width}.png"), full_page=True)
    page.close()
    assert not errors, errors


def test_a_proven_mate_shows_the_whole_mating_line(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/chess?seconds=40&lines=2&position=" + MATE_IN_2.replace(" ", "%20"))
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 4", timeout=40_000)
    first = page.locator(".pv-line").first
    assert first.get_attribute("data-exact") == "true"
    assert first.locator(".pv-moves").inner_text() == "1. Nf6+ gxf6 2. Bxf7#"
    assert first.locator(".pv-score").inner_text() == "mate in 2"
    page.screenshot(path=str(shots / "web-chess-proven-mate.png"), full_page=True)
    page.close()
    assert not errors, errors


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_pgn_pasted_loads_the_game_and_copies_back(server: str, browser: Any, shots: Path,
                                                   width: str) -> None:
    page, errors = open_page(browser, width)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(server + "game/chess?seconds=2")
    page.wait_for_selector("#record-box:not([hidden])")
    assert page.inner_text("#record-paste") == "Load PGN"
    page.fill("#record-text", "1. e4 e5 2. Nf9 Nc6")
    page.click("#record-paste")
    page.wait_for_selector("#error:not([hidden])")
    error = page.inner_text("#error")
    assert error.startswith("Error: PGN '1. e4 e5 2. Nf9 Nc6': move 2 for White, 'Nf9', is not a legal move")
    assert "\n" not in error and _moves_in_url(page) == ""
    page.fill("#record-text", GAME)
    page.click("#record-paste")
    page.wait_for_function("() => new URL(location.href).searchParams.get('moves')?.endsWith('e1g1,f8e7')")
    assert page.locator("#error").is_hidden()
    assert page.locator("#line .ply").all_inner_texts() == [
        "start", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 1", timeout=30_000)
    page.screenshot(path=str(shots / f"web-chess-pgn-{width}.png"), full_page=True)
    page.keyboard.press("Home")
    page.wait_for_function("() => !new URL(location.href).searchParams.get('moves')")
    page.click("#record-copy")  # the whole game of the move list, though the board shows its start
    page.wait_for_function("() => document.getElementById('record-text').value.includes('[Result')")
    text = page.input_value("#record-text")
    assert "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *" in text
    assert page.evaluate("navigator.clipboard.readText()") == text
    page.close()
    # The bad PGN's answer (HTTP 400) is the one error the console may show.
    assert [error for error in errors if "status of 400" not in error] == [], errors


def test_the_analysis_goes_on_within_the_servers_cap(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/chess?moves=e2e4")
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 3", timeout=30_000)
    thinking = page.inner_text("#thinking-text")
    assert thinking.startswith("Depth ") and " kN/s" in thinking, thinking
    assert "until the position changes (the server stops at 60 s)" in thinking, thinking
    assert page.evaluate("document.body.dataset.cap") == "60"
    page.screenshot(path=str(shots / "web-chess-analysis.png"), full_page=True)
    page.close()
    assert not errors, errors

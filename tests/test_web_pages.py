"""Every game's page in Chromium, at a desktop's width and a phone's: it draws,
fits (no sideways scrolling at 390 px), names the side to move, says nothing raw; the home
page's cards and growth chart; the analysis board deepening on chess; a chess game against
the computer within its think time; and the bad requests, asked from the page.

Screenshots go to $PERFECTPLAY_SCREENSHOTS (default: the test's temporary directory).
Figures measured here are printed (-s) and only loosely bounded: the machine may be busy.
"""

from __future__ import annotations

import colorsys
import re
import time
from pathlib import Path
from typing import Any

import pytest
from web_server import WIDTHS, open_page

from perfectplay import registry


def lightness(css: str) -> float:
    red, green, blue = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])
    return colorsys.rgb_to_hls(red, green, blue)[1]


def _board_box(page: Any) -> Any:
    """The board's box on the page; the board is drawn again as each depth of the thinking
    arrives, so a box asked for at that moment may be missing: ask again."""
    for _ in range(50):
        box = page.locator("#board-svg, #board pre").first.bounding_box()
        if box is not None:
            return box
        page.wait_for_timeout(100)
    return None


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_every_games_page_draws_and_fits(server: str, browser: Any, shots: Path, width: str) -> None:
    page, errors = open_page(browser, width)
    names = [entry.name for entry in registry.entries()]
    for name in names:
        page.goto(server + "game/" + name + "?seconds=1")
        page.wait_for_selector("#board > *")
        page.wait_for_function("() => document.getElementById('status').textContent.includes(' to move')")
        status = page.inner_text("#status")
        assert "null" not in status and "999" not in status and "undefined" not in status, (name, status)
        assert re.match(r"^(\S.*) to move", status), (name, status)
        # Fits the window: nothing scrolls sideways, the board is inside the viewport.
        assert page.evaluate("document.documentElement.scrollWidth") <= WIDTHS[width][0], name
        box = _board_box(page)
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTHS[width][0] + 1, name
        assert page.inner_text("#legend").strip(), name
        page.screenshot(path=str(shots / f"page-{name}-{width}.png"), full_page=True)
    page.close()
    assert not errors, errors


def test_the_home_page_shows_cards_and_a_readable_growth_chart(server: str, browser: Any,
                                                                shots: Path) -> None:
    page, errors = open_page(browser)
    page.goto(server)
    page.wait_for_selector("#growth-svg .growth-legend")
    cards = page.locator(".card")
    assert cards.count() == len(registry.entries())
    for entry in registry.entries():
        card = page.locator(f".card[data-card='{entry.name}']")
        assert card.locator(".thumb svg, .thumb pre").count() == 1, entry.name
        assert entry.summary in card.inner_text()
    assert "estimated by the engine" in page.inner_text(".card[data-card='chess']")
    assert "solved exactly" in page.inner_text(".card[data-card='tictactoe']")
    # The legend's names lie within the chart; the axis title crosses no tick label.
    inside = page.evaluate("""() => {
        const svg = document.getElementById('growth-svg');
        const width = svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('.growth-legend')].map((t) => {
            const b = t.getBBox(); return b.x >= 0 && b.x + b.width <= width; });
    }""")
    assert inside == [True] * 4
    overlap = page.evaluate("""() => {
        const title = document.getElementById('growth-axis-title').getBoundingClientRect();
        const ticks = [...document.querySelectorAll('#growth-svg text')]
            .filter((t) => /^(1e\\d|\\d+)$/.test(t.textContent)).map((t) => t.getBoundingClientRect());
        return ticks.filter((b) => b.left < title.right && b.right > title.left
            && b.top < title.bottom && b.bottom > title.top).length;
    }""")
    assert overlap == 0
    page.screenshot(path=str(shots / "home.png"), full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(shots / "home-phone.png"), full_page=True)
    page.close()
    assert not errors, errors


def test_the_analysis_board_deepens_on_chess(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/chess?seconds=6")
    page.wait_for_selector("#board [data-from='e2']")
    began = time.perf_counter()
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 1")
    every_move_scored = time.perf_counter() - began
    buttons = page.locator("button.move")
    assert buttons.count() == 20
    assert all(re.search(r": [+-]?\d+\.\d\d$", text) for text in buttons.all_inner_texts())
    page.wait_for_function("() => Number(document.body.dataset.depth || 0) >= 3", timeout=30_000)
    assert page.locator("#eval-bar").is_visible()
    # The best line as a chess player writes it: SAN with move numbers ("1. e4 e5 2. Nf3").
    line = page.inner_text("#best-line").split()
    assert line[0] == "1." and len(line) >= 3, line
    san = [word for word in line if not re.fullmatch(r"\d+\.(\.\.)?", word)]
    assert all(re.fullmatch(r"(O-O(-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?)[+#]?", move)
               for move in san), line
    assert page.locator(".pv-arrow").count() >= 1
    status = page.inner_text("#status")
    assert re.search(r"White to move: estimate [+-]?\d+\.\d\d \(engine, depth \d+\)", status), status
    page.wait_for_selector("text=/^Done: /", timeout=30_000)
    depth = int(page.evaluate("document.body.dataset.depth"))
    page.screenshot(path=str(shots / "chess-analysis.png"), full_page=True)
    # A click updates the board at once (the engine then searches the new position).
    page.click("#board [data-square='g1']")
    page.click("#board [data-move='g1f3']")
    page.wait_for_function("() => document.body.dataset.lastClickMs !== undefined")
    click_ms = float(page.evaluate("document.body.dataset.lastClickMs"))
    page.wait_for_selector("#eval-history-svg .history-point")
    print(f"\nchess analysis: every move scored after {every_move_scored:.2f} s, depth {depth} in 6 s, "
          f"click to board {click_ms:.0f} ms")
    assert click_ms < 2000  # a guard; the target (150 ms) is measured above
    page.close()
    assert not errors, errors


def test_a_chess_game_against_the_computer(server: str, browser: Any, shots: Path) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/chess?mode=computer&computer=second&think=1")
    page.wait_for_selector("#board [data-from='e2']")
    waits = []
    for ply in range(2):
        if ply == 0:
            page.click("#board [data-square='e2']")
            page.click("#board [data-move='e2e4']")
        else:  # any legal move, whatever the computer answered
            page.click("button.move >> nth=0")
        page.wait_for_function(f"() => (new URL(location.href).searchParams.get('moves') || '')"
                               f".split(',').length === {2 * ply + 2}", timeout=20_000)
        waits.append(int(page.evaluate("document.body.dataset.computerMs")))
    moves = page.evaluate("new URL(location.href).searchParams.get('moves')").split(",")
    game, position = registry.load("chess")
    for move in moves:  # every move legal, in order
        position = game.play(position, game.parse_move(position, move))
    page.screenshot(path=str(shots / "chess-computer.png"), full_page=True)
    print(f"\nchess computer (think 1 s): answered in {waits} ms")
    assert max(waits) < 1000 + 1500  # the target is think + 200 ms: measured above, loose for a busy machine
    page.close()
    assert not errors, errors


def test_game_over_names_the_winner_and_morris_men_are_distinct(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/tictactoe?moves=1,4,2,5,3")
    page.wait_for_selector("text=Game over")
    assert page.inner_text("#status") == "Game over: X wins."
    page.goto(server + "game/connect4?moves=1,2,1,2,1,2,1")
    page.wait_for_selector("text=Game over")
    assert page.inner_text("#status") == "Game over: Red (X) wins."
    page.goto(server + "game/tapatan?moves=1,5")
    page.wait_for_selector("#board [data-piece='O']")
    o_fill = page.eval_on_selector("#board [data-piece='O']", "node => getComputedStyle(node).fill")
    empty_fill = page.eval_on_selector("#board [data-point='9']",
                                       "node => node.getAttribute('data-base-fill')")
    assert lightness(o_fill) < 0.5 and o_fill != empty_fill
    assert page.locator("#board text.plies").filter(has_text=re.compile(r"\d")).count() >= 1
    # Nim too big to search is valued by theory, with no distance: "win", never "win in null".
    page.goto(server + "game/nim?position=" + "+".join(["30", "31", "33", "34", "35"]).replace("+", "%20"))
    page.wait_for_selector("button.move")
    assert "null" not in page.inner_text("#moves") and "null" not in page.inner_text("#status")
    page.close()
    assert not errors, errors


def test_the_tree_link_and_bad_requests_seen_from_the_page(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/tictactoe")
    page.wait_for_selector("#board [data-move]")
    assert page.locator("#tree").is_visible()
    for game in ("connect4", "chess", "dodgem"):
        page.goto(server + "game/" + game)
        page.wait_for_selector("#board > *")
        page.wait_for_function("() => document.getElementById('status').textContent.length > 0")
        assert not page.locator("#tree").is_visible(), game
    long_seed = "7" * 5000
    heaps = "%20".join(["3"] * 5000)
    some_heaps = "%20".join(["3"] * 300)
    answers = page.evaluate("""async (urls) => {
        const found = [];
        for (const url of urls) {
            const began = performance.now();
            const response = await fetch(url);
            const body = await response.json();
            found.push([response.status, body.error ?? '', performance.now() - began]);
        }
        return found;
    }""", ["/api/dodgem/position?width=5", f"/api/tictactoe/computer?seed={long_seed}",
           f"/api/nim/position?position={heaps}", f"/api/nim/position?position={some_heaps}",
           "/api/connect4/tree.svg", "/api/chess/tree.svg"])
    statuses = [status for status, _, _ in answers]
    assert statuses == [422, 400, 414, 422, 422, 400], answers
    assert "retrograde analysis" in answers[0][1] and "30 digits" in answers[1][1]
    shown = ", ".join(f"{status} {ms:.0f}" for status, _, ms in answers)
    print(f"\nbad requests from the page (HTTP status, ms): {shown}")
    assert all(ms < 15_000 for _, _, ms in answers)
    page.close()
    assert not [error for error in errors if "Failed to load resource" not in error], errors

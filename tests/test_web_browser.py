"""The page in a real browser: headless Chromium (Debian's package) driven by Playwright.

A real `perfectplay serve` on a free port; a whole tic-tac-toe game played by clicking, each
square's colour checked against `analyze`; undo; a Connect Four hint; the value-history
chart; a bad position in the URL. Screenshots go to $PERFECTPLAY_SCREENSHOTS (default: the
test's temporary directory). Click latencies are printed (-s) and only loosely bounded.
"""

from __future__ import annotations

import colorsys
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_server import served

from perfectplay import analyze, registry
from perfectplay import value as V


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    opened = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert not errors, errors


def hue_class(css: str) -> str:
    """'win', 'draw' or 'loss' from a computed colour: green, yellow or red."""
    red, green, blue = (int(part) / 255 for part in re.findall(r"\d+", css)[:3])
    hue, _, _ = colorsys.rgb_to_hls(red, green, blue)
    degrees = hue * 360
    return "win" if 90 <= degrees <= 170 else "draw" if 35 <= degrees < 90 else "loss"


def wait_for_moves(page: Any, count: int) -> None:
    page.wait_for_function(f"() => (new URL(location.href).searchParams.get('moves') || '')"
                           f".split(',').filter(Boolean).length === {count}")
    page.wait_for_selector("#board svg")


def test_a_whole_tictactoe_game_to_a_draw_by_clicking(server: str, page: Any, shots: Path) -> None:
    game, position = registry.load("tictactoe")
    page.goto(server + "game/tictactoe")
    page.wait_for_selector("#board [data-move]")
    latencies = []
    for ply in range(9):
        expected = {m.notation: m for m in analyze(game, position)}
        cells = page.locator("#board rect[data-move]")
        seen = {}
        for index in range(cells.count()):
            cell = cells.nth(index)
            fill = cell.evaluate("node => getComputedStyle(node).fill")
            seen[cell.get_attribute("data-move")] = (cell.get_attribute("data-class"), hue_class(fill),
                                                     cell.get_attribute("data-remoteness"))
        assert set(seen) == set(expected)
        for notation, move in expected.items():
            word = move.as_dict()["value"]
            remoteness = "" if move.remoteness is None else str(move.remoteness)
            assert seen[notation] == (word, word, remoteness), (ply, notation)
        best = max(expected.values(), key=lambda m: m.value)  # perfect play from both sides
        page.click(f"#board rect[data-move='{best.notation}']")
        wait_for_moves(page, ply + 1)
        page.wait_for_function("() => document.body.dataset.lastClickMs !== undefined")
        latencies.append(float(page.evaluate("document.body.dataset.lastClickMs")))
        position = game.play(position, best.move)
    assert game.format_position(position).count(".") == 0
    page.wait_for_selector("text=Game over")
    assert "draw" in page.inner_text("#status")
    # The value history: ten positions, both sides drawn, all on the draw line.
    assert page.locator("#history-svg .history-point.side-0").count() == 10
    assert page.locator("#history-svg .history-point.side-1").count() == 10
    assert page.locator("#first-mistake").count() == 0
    page.screenshot(path=str(shots / "web-tictactoe-draw.png"), full_page=True)
    print(f"\ntic-tac-toe click to new position with every move's value: "
          f"median {sorted(latencies)[4]:.1f} ms, max {max(latencies):.1f} ms")
    assert max(latencies) < 2000  # a guard against hangs; the target (100 ms) is measured, above
    page.click("#undo")
    wait_for_moves(page, 8)
    assert page.locator("#board rect[data-move]").count() == 1


def test_the_first_mistake_is_marked_on_the_value_history(server: str, page: Any, shots: Path) -> None:
    # 5 then 2: an edge reply to the centre loses for O (X wins), the second move is the mistake.
    page.goto(server + "game/tictactoe?moves=5,2")
    page.wait_for_selector("#first-mistake", state="attached")
    assert "move 2" in page.inner_text("#history")
    page.screenshot(path=str(shots / "web-tictactoe-mistake.png"), full_page=True)


def test_a_connect4_hint_shows_the_best_columns(server: str, page: Any, shots: Path) -> None:
    line = "44667461156563424431"  # 20 stones
    game, position = registry.load("connect4", {}, line)
    moves = analyze(game, position, engine="auto")
    best = {m.notation for m in moves if m.value == moves[0].value}
    page.goto(server + f"game/connect4?position={line}")
    page.wait_for_selector(".column-badge")
    page.click("#hint")
    page.wait_for_selector("#board [data-move].hint")
    hinted = {node.get_attribute("data-move") for node in page.locator("#board [data-move].hint").all()}
    assert hinted == best
    scores = {node.get_attribute("data-badge"): node for node in page.locator(".column-badge").all()}
    assert set(scores) == {m.notation for m in moves}
    # 20 stones: the first player's piece, drawn red, is to move (not "X to move").
    assert page.inner_text("#status").startswith("Red (X) to move")
    page.screenshot(path=str(shots / "web-connect4-hint.png"), full_page=True)
    # A click on a losing column answers with the new position and every value.
    latencies = []
    for column in ("1", "2"):
        page.goto(server + f"game/connect4?position={line}")
        page.wait_for_selector(".column-badge")
        page.click(f"#board rect[data-move='{column}']")
        wait_for_moves(page, 1)
        page.wait_for_selector(".column-badge")
        latencies.append(float(page.evaluate("document.body.dataset.lastClickMs")))
    print(f"\nConnect Four (20 stones) click to new position with every move's value: "
          f"{', '.join(f'{ms:.1f}' for ms in latencies)} ms")


def test_connect4_thinking_shows_depths_and_can_be_cancelled(server: str, page: Any, shots: Path) -> None:
    # 8x7: past what the kernel proves (the 7x6 board's 42 empty squares), so the engine
    # estimates at once; on 7x6 the kernel proves every position past the book in seconds.
    page.goto(server + "game/connect4?width=8&height=7&seconds=30")
    page.wait_for_selector("text=/Depth \\d+: estimate/")
    page.screenshot(path=str(shots / "web-connect4-thinking.png"), full_page=True)
    page.click("#cancel")
    assert "cancelled" in page.inner_text("#thinking-text")
    assert page.locator("#board [data-move]").count() == 8  # still playable


def fill_class(page: Any, selector: str) -> str:
    return hue_class(page.eval_on_selector(selector, "node => getComputedStyle(node).fill"))


def test_dodgem_cars_are_driven_by_clicking_car_then_square(server: str, page: Any, shots: Path) -> None:
    game, position = registry.load("dodgem")
    expected = {m.notation: m for m in analyze(game, position)}
    page.goto(server + "game/dodgem")
    page.wait_for_selector("#board [data-from='a3']")
    assert page.locator("#board [data-move]").count() == 0  # nothing moves before a car is picked
    page.click("#board [data-square='a3']")
    page.wait_for_selector("#board [data-move='a3-b3']")
    assert fill_class(page, "#board [data-move='a3-b3']") == V.outcome_word(expected["a3-b3"].value) == "win"
    page.click("#board [data-square='a2']")  # another car: its own moves
    page.wait_for_selector("#board [data-move='a2-a1']")
    assert fill_class(page, "#board [data-move='a2-a1']") == V.outcome_word(expected["a2-a1"].value) == "loss"
    page.click("#board [data-square='a3']")
    page.click("#board [data-move='a3-b3']")
    wait_for_moves(page, 1)
    page.wait_for_selector("#board [data-from='b1']")  # Red to move: Red's cars are picked now
    page.click("#board [data-square='c1']")
    page.click("#board [data-move='c1-c2']")
    wait_for_moves(page, 2)
    page.screenshot(path=str(shots / "web-dodgem.png"), full_page=True)


def test_one_chess_move_by_clicking_from_and_to(server: str, page: Any, shots: Path) -> None:
    page.goto(server + "game/chess")
    page.wait_for_selector("#board [data-from='e2']")
    page.click("#board [data-square='e2']")
    page.click("#board [data-move='e2e4']")
    wait_for_moves(page, 1)
    assert "e2e4" in page.url
    page.wait_for_selector("#board [data-from='e7']")  # Black to move
    page.wait_for_selector("text=/Depth \\d+: estimate/")
    page.screenshot(path=str(shots / "web-chess.png"), full_page=True)


def test_a_bad_position_in_the_url_shows_the_error(server: str, page: Any, shots: Path) -> None:
    page.goto(server + "game/tictactoe?position=XXO")
    page.wait_for_selector("#error:not([hidden])")
    assert "'XXO'" in page.inner_text("#error")
    page.screenshot(path=str(shots / "web-bad-position.png"))
    page.goto(server + "game/connect4?moves=4,4,9")
    page.wait_for_selector("#error:not([hidden])")
    assert "'9'" in page.inner_text("#error")


def test_the_game_list_and_the_growth_chart(server: str, page: Any, shots: Path) -> None:
    page.goto(server)
    page.wait_for_selector("#growth-svg .growth-line")
    names = {node.get_attribute("data-game") for node in page.locator("#games a").all()}
    assert names == {entry.name for entry in registry.entries()}
    drawn = {node.get_attribute("data-algorithm") for node in page.locator(".growth-line").all()}
    assert drawn == {"minimax", "memo", "alphabeta", "tt"}
    page.screenshot(path=str(shots / "web-games.png"), full_page=True)


def test_playing_the_computer_it_answers_each_move(server: str, page: Any) -> None:
    page.goto(server + "game/tictactoe?mode=computer&level=perfect&computer=second")
    page.wait_for_selector("#board [data-move]")
    page.click("#board rect[data-move='1']")
    wait_for_moves(page, 2)  # the computer replied
    moves = page.evaluate("new URL(location.href).searchParams.get('moves')").split(",")
    assert moves[1] == "5"  # the only reply to a corner that does not lose


OWN_GAME = '''
from perfectplay import Game

class Sticks(Game):
    """Take one or two sticks; whoever takes the last one wins."""
    name = "sticks"
    def start(self): return 7
    def moves(self, pile): return [take for take in (1, 2) if take <= pile]
    def play(self, pile, take): return pile - take
    def render(self, pile): return "|" * pile + f" ({pile} sticks)"
'''


def test_a_game_file_named_at_start_is_played_in_the_generic_view(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "sticks.py"
    path.write_text(OWN_GAME)
    with served(f"{path}:Sticks") as url:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector("a[data-game='sticks']")
        page.click("a[data-game='sticks']")
        page.wait_for_selector("button.move")
        assert page.inner_text("pre.render") == "||||||| (7 sticks)"
        # 7 sticks: taking 1 leaves 6, a multiple of three, so it wins; taking 2 loses.
        classes = {b.get_attribute("data-move"): b.get_attribute("data-class")
                   for b in page.locator("button.move").all()}
        assert classes == {"1": "win", "2": "loss"}
        page.click("button.move[data-move='1']")
        page.wait_for_function("() => document.querySelector('pre.render').textContent.startsWith('||||||')"
                               " && !document.querySelector('pre.render').textContent.startsWith('|||||||')")
        page.close()

"""What a new user saw on the page, in Chromium: a small Othello board's tallies and status
lines drawn whole, the title of a position emptied by play, and move buttons that name the
points a move scores only where it scores some."""

from __future__ import annotations

from typing import Any

from web_server import open_page

OTHELLO_4X4_TO_THE_END = "b1,c1,d1,a1,d3,d4,c4,b4,a2,a3,a4,d2"


def _captions_overflow(page: Any) -> list[str]:
    """The texts of the board's picture that reach past its left or right edge."""
    return page.evaluate("""() => {
      const svg = document.querySelector('#board svg');
      const width = svg.viewBox.baseVal.width;
      return [...svg.querySelectorAll('text')].filter((t) => {
        const box = t.getBBox();
        return t.textContent && (box.x < 0 || box.x + box.width > width);
      }).map((t) => t.textContent);
    }""")


def test_othello_4x4_tallies_and_final_status_fit_the_picture(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    for moves in ("", OTHELLO_4X4_TO_THE_END):
        page.goto(server + f"game/othello?size=4&moves={moves}")
        page.wait_for_selector("#board svg [data-count]")
        assert _captions_overflow(page) == [], moves
    assert "Black 5, White 11" in page.inner_text("#board")
    page.close()
    assert not errors, errors


def test_a_row_taken_to_its_end_is_titled_empty_not_start(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/crates?position=3 9 1")
    page.wait_for_selector("#board svg")
    assert page.inner_text("#title") == "crates — 3 9 1"
    page.goto(server + "game/crates?position=3 9 1&moves=LL,L")
    page.wait_for_selector("text=Game over")
    assert page.inner_text("#title") == "crates — (empty)"
    page.goto(server + "game/connect4")
    page.wait_for_selector("#board svg")
    assert page.inner_text("#title") == "connect4 — (start)"
    page.close()
    assert not errors, errors


def test_move_buttons_name_the_points_a_move_scores_only_when_it_scores(server: str, browser: Any) -> None:
    page, errors = open_page(browser)
    page.goto(server + "game/crates?position=3 9 1")
    page.wait_for_selector("#moves button.move")
    assert page.inner_text("#moves button[data-move='LL']") == "LL (scores 12): +11"
    page.goto(server + "game/dots?width=2&height=2")
    page.wait_for_selector("#moves button.move")
    texts = page.locator("#moves button.move").all_inner_texts()
    assert texts and not any("takes" in t or "scores 0" in t for t in texts), texts
    assert "a1-b1: +2" in texts
    page.close()
    assert not errors, errors

"""perfectplay in Jupyter (perfectplay.notebook): every game's board as SVG from the diagram it
gives the web page, solutions and analyses as tables on the web page's colours, and the
IPython extension that shows them."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

from perfectplay import analyze, registry, solve
from perfectplay.diagram import Grid, HexBoard
from perfectplay.notebook import board, html, table
from perfectplay.notebook.colours import colour, move_colours
from perfectplay.search.results import MoveValue

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def drawn_marks(svg: str) -> list[str]:
    return [node.attrib["data-mark"] for node in parsed(svg).iter() if "data-mark" in node.attrib]


@pytest.mark.parametrize("name", [entry.name for entry in registry.entries()])
def test_every_game_draws_its_start_as_well_formed_svg_of_its_own_kind(name: str) -> None:
    game, start = registry.load(name)
    drawn = parsed(board(game, start).svg())
    assert drawn.tag == SVG + "svg" and drawn.attrib["data-kind"] == game.diagram(start).kind
    assert float(drawn.attrib["width"]) > 0 and float(drawn.attrib["height"]) > 0
    diagram = game.diagram(start)
    if isinstance(diagram, (Grid, HexBoard)):  # one drawn piece for every marked place
        marked = sorted(cell.mark for cell in diagram.cells if cell.mark in diagram.pieces)
        assert sorted(drawn_marks(board(game, start).svg())) == marked


def test_chess_start_shows_thirty_two_glyphs_sixteen_a_side() -> None:
    game, start = registry.load("chess")
    marks = drawn_marks(board(game, start).svg())
    assert len(marks) == 32
    assert sum(mark.isupper() for mark in marks) == 16


def test_connect_four_after_4453_shows_two_discs_of_each_colour() -> None:
    game, position = registry.load("connect4", {}, "4453")
    svg = board(game, position).svg()
    assert sorted(drawn_marks(svg)) == ["O", "O", "X", "X"]
    fills = [node.attrib.get("fill") for node in parsed(svg).iter(SVG + "circle")
             if "data-mark" in node.attrib]
    assert sorted(fills) == ["#e03c31", "#e03c31", "#f2c81d", "#f2c81d"]


def test_colours_are_the_web_pages_shades_for_each_value() -> None:
    # values.js: win green (130), loss red (0), draw yellow; lightness 68 - 40 * closeness,
    # closeness 1/sqrt(remoteness): win in 1 is 28%, loss in 2 is round(68 - 40/sqrt 2) = 40%.
    game, position = registry.load("tictactoe", {}, "XX.OO....")
    rows = analyze(game, position)
    assert {row.notation: row.describe() for row in rows} == {
        "3": "win in 1", "6": "draw", "7": "loss in 2", "8": "loss in 2", "9": "loss in 2"}
    assert move_colours(rows) == {"3": "hsl(130, 70%, 28%)", "6": "hsl(50, 90%, 55%)",
                                  "7": "hsl(0, 70%, 40%)", "8": "hsl(0, 70%, 40%)", "9": "hsl(0, 70%, 40%)"}
    # Score games shade by the margin against the largest among the moves.
    assert colour(MoveValue("L", "L", 5, True), scale=10) == "hsl(130, 70%, 48%)"
    assert colour(MoveValue("L", "L", 0, True)) == "hsl(50, 90%, 55%)"


def test_an_analysis_colours_the_places_its_moves_play() -> None:
    game, position = registry.load("tictactoe", {}, "XX.OO....")
    svg = board(game, position, analyze(game, position)).svg()
    fills = [node.attrib["fill"] for node in parsed(svg).iter(SVG + "rect")]
    assert fills.count("hsl(0, 70%, 40%)") == 3 and fills.count("hsl(130, 70%, 28%)") == 1


def test_a_solution_is_a_table_with_its_value_on_its_colour() -> None:
    game, position = registry.load("tictactoe", {}, "XX.OO....")
    shown = html(solve(game, position))
    assert shown is not None
    assert "win in 1" in shown and "background:hsl(130, 70%, 28%)" in shown
    assert ">3<" in shown  # the one winning move
    solution = solve(game, position)
    assert table(solution)._repr_html_() == html(solution)


def test_an_analysis_is_a_table_with_a_row_a_move() -> None:
    game, position = registry.load("nim", {}, "3 4 5")
    rows = analyze(game, position)
    shown = html(rows)
    assert shown is not None and shown.count("<tr>") == len(rows) + 1
    # 3 4 5: the one winning move takes 2 from the first heap (3 XOR 4 XOR 5 = 2).
    assert "1:2" in shown and shown.count("hsl(130") == 1


def test_html_leaves_every_other_object_alone() -> None:
    assert html([1, 2, 3]) is None and html([]) is None and html("text") is None


def test_the_ipython_extension_shows_solutions_and_analyses_as_html() -> None:
    from IPython.core.interactiveshell import InteractiveShell
    shell: Any = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "perfectplay.notebook")
    try:
        game, position = registry.load("nim", {}, "3 4 5")
        formatted, _ = shell.display_formatter.format(solve(game, position))
        assert "perfectplay-solution" in formatted["text/html"]
        formatted, _ = shell.display_formatter.format(analyze(game, position))
        assert "perfectplay-analysis" in formatted["text/html"]
        formatted, _ = shell.display_formatter.format([1, 2])
        assert "text/html" not in formatted
        formatted, _ = shell.display_formatter.format(board(game, position))
        assert formatted["image/svg+xml"].startswith("<svg")
    finally:
        shell.run_line_magic("unload_ext", "perfectplay.notebook")
        InteractiveShell.clear_instance()

"""docs/tutorial.ipynb runs from top to bottom in a real kernel (nbclient), and its cells show
what the prose around them says."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.ipynb"


@pytest.fixture(scope="module")
def outputs() -> list[list[dict[str, Any]]]:
    """Each code cell's outputs, after running the whole notebook; a failing cell fails here."""
    import nbformat
    from nbclient import NotebookClient
    notebook = nbformat.read(TUTORIAL, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(TUTORIAL.parent)}}).execute()
    return [cell.outputs for cell in notebook.cells if cell.cell_type == "code"]


def shown(outputs: list[dict[str, Any]], kind: str) -> str:
    return "".join(output.get("data", {}).get(kind, "") for output in outputs)


def test_the_tutorial_runs_without_an_error(outputs: list[list[dict[str, Any]]]) -> None:
    assert [output for cell in outputs for output in cell if output["output_type"] == "error"] == []


def test_the_take_away_game_is_won_by_taking_one(outputs: list[list[dict[str, Any]]]) -> None:
    # 21 sticks, take 1-3, last stick wins: take 1 to leave a multiple of 4; 21 = 4*5 + 1.
    table = next(shown(cell, "text/html") for cell in outputs if shown(cell, "text/html"))
    assert "perfectplay-solution" in table and "win in 11" in table


def test_the_node_counts_rank_the_algorithms(outputs: list[list[dict[str, Any]]]) -> None:
    printed = "".join(output.get("text", "") for cell in outputs for output in cell)
    nodes = {name: int(count.replace(",", ""))
             for name, count in re.findall(r"^(\w+)\s+win in 7\s+([\d,]+) nodes$", printed, re.MULTILINE)}
    assert set(nodes) == {"minimax", "memo", "alphabeta", "tt"}
    # A memo calls the search once for each move into each of the piles 0..14 (13 piles with
    # three moves, pile 2 with two, pile 1 with one: 42) and for the root; the others revisit.
    assert nodes["memo"] == nodes["tt"] == 43
    assert nodes["memo"] < nodes["alphabeta"] < nodes["minimax"]


def test_the_best_move_completes_the_line(outputs: list[list[dict[str, Any]]]) -> None:
    printed = "".join(output.get("text", "") for cell in outputs for output in cell)
    assert "X plays 3; for O, to move: loss in 0" in printed


def test_the_boards_and_the_growth_chart_are_pictures(outputs: list[list[dict[str, Any]]]) -> None:
    pictures = [shown(cell, "image/svg+xml") for cell in outputs if shown(cell, "image/svg+xml")]
    assert len(pictures) == 5
    assert sum('data-kind="grid"' in picture for picture in pictures) == 4

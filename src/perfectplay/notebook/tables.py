"""A solution and an analysis as HTML tables, each value on the web page's colour for it."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from perfectplay.notebook.colours import colour, score_scale, text_colour
from perfectplay.search.results import MoveValue, Solution

STYLE = "border-collapse:collapse;font-family:sans-serif;font-size:13px"
CELL = "border:1px solid #ccd;padding:3px 8px;text-align:left"


def _cell(text: str, fill: str | None = None, header: bool = False) -> str:
    tag = "th" if header else "td"
    look = CELL + (f";background:{fill};color:{text_colour(fill)}" if fill else "")
    return f'<{tag} style="{look}">{escape(text)}</{tag}>'


def _value_cell(row: MoveValue, scale: int) -> str:
    return _cell(row.describe(), colour(row, scale))


def analysis_html(rows: Sequence[MoveValue]) -> str:
    """Every move with its value for the player who plays it, best first as given."""
    scale = score_scale(rows)
    body = "".join(f"<tr>{_cell(row.notation)}{_value_cell(row, scale)}"
                   f"{_cell(row.source or '')}</tr>" for row in rows)
    head = f"<tr>{_cell('move', header=True)}{_cell('value', header=True)}{_cell('from', header=True)}</tr>"
    return f'<table style="{STYLE}" class="perfectplay-analysis">{head}{body}</table>'


def solution_html(solution: Solution) -> str:
    """The value on its colour, the optimal moves, the principal variation and the work done."""
    as_row = MoveValue(None, "", solution.value, solution.score_game, exact=solution.exact)
    stats = solution.stats
    work = f"{stats.nodes:,} nodes" + (f" (+{stats.extra_nodes:,} to find every optimal move)"
                                       if stats.extra_nodes else "")
    rows = [("game", _cell(solution.game)), ("position", _cell(solution.position)),
            ("value", _cell(solution.describe(), colour(as_row, max(1, abs(solution.value))))),
            ("best moves", _cell(" ".join(solution.best_moves))),
            ("principal variation", _cell(" ".join(solution.pv))),
            ("algorithm", _cell(solution.algorithm)),
            ("work", _cell(f"{work}, {stats.elapsed_s * 1000:.1f} ms"))]
    body = "".join(f"<tr>{_cell(name, header=True)}{cell}</tr>" for name, cell in rows)
    table = f'<table style="{STYLE}" class="perfectplay-solution">{body}</table>'
    return table + (analysis_html(solution.moves) if solution.moves else "")

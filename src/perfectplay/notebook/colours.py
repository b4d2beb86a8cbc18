"""The web page's colours for values (web/static/values.js), in Python: a move's colour is
its value for the player who would play it, as GamesmanUni shows values. Win green, draw
yellow, loss red, the sooner the end the darker; score games green ahead, red behind,
darker by a bigger margin; estimates pale."""

from __future__ import annotations

import math
from collections.abc import Sequence

from perfectplay import value as V
from perfectplay.search.results import MoveValue

NEUTRAL = "#c8c8c8"
DRAW = "hsl(50, 90%, 55%)"


def kind(row: MoveValue) -> str:
    """"win", "draw", "loss", "estimate" or "unknown" (a placeholder), as the page sorts rows."""
    if row.placeholder:
        return "unknown"
    if not row.exact:
        return "estimate"
    if row.score_game:
        return "win" if row.value > 0 else "loss" if row.value < 0 else "draw"
    return V.outcome_word(row.value)


def _lightness(closeness: float) -> int:
    """From 28% (the end is next move) to 68% (far away, or a small margin)."""
    return round(68 - 40 * max(0.0, min(1.0, closeness)))


def colour(row: MoveValue, scale: int = 1) -> str:
    """The fill of ``row``'s move; ``scale`` is the largest margin among the moves (score games
    shade by it)."""
    found = kind(row)
    if found == "unknown":
        return NEUTRAL
    if found == "estimate":
        lean = math.tanh(row.value / 20)
        if abs(lean) < 0.05:
            return "hsl(50, 45%, 80%)"
        return f"hsl({130 if lean > 0 else 0}, 35%, {round(86 - 16 * abs(lean))}%)"
    if found == "draw":
        return DRAW
    if row.score_game:
        closeness = abs(row.value) / max(scale, 1)
    else:
        closeness = 1 / math.sqrt(row.remoteness) if row.remoteness else 1.0
    return f"hsl({130 if found == 'win' else 0}, 70%, {_lightness(closeness)}%)"


def text_colour(fill: str) -> str:
    """White on the dark shades, black on the light ones."""
    if fill.startswith("hsl("):
        return "#fff" if int(fill.rsplit(",", 1)[1].strip(" %)")) < 50 else "#111"
    return "#111"


def score_scale(rows: Sequence[MoveValue]) -> int:
    return max([1, *(abs(row.value) for row in rows if row.score_game and row.exact)])


def move_colours(rows: Sequence[MoveValue]) -> dict[str, str]:
    """Each move's notation and its fill, for a board coloured by an analysis."""
    scale = score_scale(rows)
    return {row.notation: colour(row, scale) for row in rows}

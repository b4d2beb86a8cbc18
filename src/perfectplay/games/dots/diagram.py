"""Dots and Boxes on the web page: the dots, every line (drawn, or the move that draws it),
each completed box in the colour of who took it, and the score.

Who took a box is not in the position (only the score): the moves played tell it, and a box
completed before them is drawn without an owner."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Box, Count, Edge, Lines, Piece, Words

PIECES = {"A": Piece("fill", "#2f62c9", "A", tint="#cddcf7"),
          "B": Piece("fill", "#c4501f", "B", tint="#f7d6c6")}
AGAIN = "#0b3d91"
HELP = ("Click a free line to draw it: its colour is that move's value (the final margin of boxes with best "
        "play). Completing a box scores it and gives you another turn.")


def owners(game: Any, history: Sequence[tuple[Any, Any]]) -> dict[int, str]:
    """Each box completed by one of the moves played, and who completed it."""
    taken: dict[int, str] = {}
    for (drawn, mover, _), line in history:
        after = drawn | 1 << line
        for box in game.boxes_of[line]:
            mask = game.box_masks[box]
            if after & mask == mask:
                taken[box] = "AB"[mover]
    return taken


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]]) -> Lines:
    drawn, mover, scores = position
    edges = tuple(Edge(game.format_move(position, line), game._ends(line)[0], game._ends(line)[1],
                       bool(drawn >> line & 1)) for line in range(game.edges))
    known = owners(game, history)
    boxes = tuple(Box(box // game.width, box % game.width, known.get(box))
                  for box, mask in enumerate(game.box_masks)
                  if drawn & mask == mask)
    again = bool(history) and game.keeps_turn(*history[-1])
    over = drawn == game.full
    side = "AB"[mover]
    if over:
        status = Words(f"Game over: A {scores[0]}, B {scores[1]}")
    elif again:
        status = Words(f"{side} completed a box: {side} moves again", AGAIN, True)
    else:
        status = Words(f"Player {side} to move: draw a line")
    return Lines(rows=game.height, columns=game.width, edges=edges, boxes=boxes, pieces=PIECES,
                 counts=(Count("A", f"A: {scores[0]}"), Count("B", f"B: {scores[1]}")), over=over,
                 column_names=tuple("abcdefgh"[:game.width + 1]),
                 row_names=tuple(str(r + 1) for r in range(game.height + 1)),
                 to_move=side, again=again, status=(status,), help=HELP)

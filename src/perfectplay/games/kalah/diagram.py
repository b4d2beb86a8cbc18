"""Kalah on the web page: South's pits 1..m left to right along the bottom, North's 1..m
right to left along the top (pit k of a side is opposite pit m + 1 - k of the other), the
stores at each player's right; a pit whose last seed lands in its owner's store is marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Pit, Pits, Store, Words

NAMES = {"S": "South", "N": "North"}
AGAIN = "#0b3d91"
HELP = ("Click one of your pits to sow it: its colour and number are that move's value (the final "
        "margin of seeds with best play); \u21bb marks a pit whose last seed lands in your store, which "
        "gives you another turn.")


def draw(game: Any, position: Any, history: Sequence[tuple[Any, Any]]) -> Pits:
    cells, mover = position
    m, side = game.pits, "SN"[mover]
    legal = set(game.legal_moves(position))

    def pit(owner: int, number: int) -> Pit:
        mine = owner == mover and number in legal
        return Pit(f"{'SN'[owner]}{number}", number, cells[owner * (m + 1) + number - 1],
                   str(number) if mine else None, mine and game.keeps_turn(position, number))

    again = bool(history) and game.keeps_turn(*history[-1])
    return Pits(top=tuple(pit(1, k) for k in range(m, 0, -1)),
                bottom=tuple(pit(0, k) for k in range(1, m + 1)),
                left=Store("N", "North", cells[-1]), right=Store("S", "South", cells[m]), over=not legal,
                to_move=side, again=again, status=_status(game, position, again, not legal), help=HELP)


def _status(game: Any, position: Any, again: bool, over: bool) -> tuple[Words, ...]:
    cells, mover = position
    name = NAMES["SN"[mover]]
    if over:
        return (Words(f"Game over: South {cells[game.pits]}, North {cells[-1]}"),)
    if again:
        first = Words(f"{name} moves again: last seed in the store", AGAIN, True)
    else:
        where = "bottom row, store at the right" if mover == 0 else "top row, store at the left"
        first = Words(f"{name} to move ({where})")
    if any(game.keeps_turn(position, pit) for pit in game.legal_moves(position)):
        return first, Words("\u21bb the last seed lands in your store: you move again", "#444")
    return (first,)

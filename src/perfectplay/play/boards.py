"""The board as the person sees it: the game's own picture, plus what play adds for some games
(issue 13, section 5): which mark is whose, Connect Four's last move and winning four, and
rows of sticks that never wrap across the screen."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Sticks drawn at most: past this a row shows the first ones, "..." and its count, so a pile
# of 300 does not wrap across an 80-column screen (the count is always shown).
STICKS_SHOWN = 60
SPACED_UP_TO = 30  # rows this short are drawn "| | |", longer ones "|||"


@dataclass(frozen=True)
class Board:
    """``marks`` are (line, column, style) of characters to highlight on a terminal; the
    plain text says the same in ``caption`` and in a marker row."""

    text: str
    marks: list[tuple[int, int, str]] = field(default_factory=list)
    caption: str | None = None


def board_of(game: Any, position: Any) -> Board:
    from perfectplay.games.connect4 import ConnectFour
    from perfectplay.games.nim import Nim
    if isinstance(game, Nim):
        return Board(sticks(position))
    if isinstance(game, ConnectFour):
        return connect_four_board(game, position)
    return Board(game.render(position))


def sticks(piles: tuple[int, ...]) -> str:
    """One layout for Nim and the matchgame: 'row 1: | | |  (3)', counts always shown."""
    widest = min(max(piles, default=0), STICKS_SHOWN)
    spaced = widest <= SPACED_UP_TO
    lines = []
    for row, size in enumerate(piles):
        shown = min(size, STICKS_SHOWN - 3) if size > STICKS_SHOWN else size
        bars = (" ".join("|" * shown) if spaced else "|" * shown) + ("..." if shown < size else "")
        lines.append(f"row {row + 1}: {bars.ljust(2 * widest if spaced else widest)} ({size})")
    return "\n".join(lines)


def marks_to_move(game: Any, position: Any) -> tuple[str, str] | None:
    """The marks of the side to move at ``position`` and of the other side, in games whose
    players have marks (X moves first in tic-tac-toe and Connect Four)."""
    from perfectplay.games.connect4 import ConnectFour
    from perfectplay.games.tictactoe import TicTacToe
    if isinstance(game, TicTacToe):
        x_stones, o_stones = game.x_and_o(position)
        x_to_move = x_stones.bit_count() == o_stones.bit_count()
    elif isinstance(game, ConnectFour):
        x_to_move = len(position[2]) % 2 == 0
    else:
        return None
    return ("X", "O") if x_to_move else ("O", "X")


def connect_four_board(game: Any, position: Any) -> Board:
    mover, occupied, history = position
    text = game.render(position)
    marks: list[tuple[int, int, str]] = []
    caption = None
    if history:
        column = int(history[-1]) - 1
        top = (occupied & game.column_masks[column]).bit_length() - 1 - column * (game.height + 1)
        marks.append((game.height - 1 - top, 2 * column, "underline bold"))
        text += "\n" + " " * (2 * column) + "^ last move"
    four = winning_four(mover ^ occupied, game.height)
    if four:
        for bit in range(four.bit_length()):
            if four >> bit & 1:
                column, row = divmod(bit, game.height + 1)
                marks.append((game.height - 1 - row, 2 * column, "reverse bold"))
        winner = "X" if len(history) % 2 == 1 else "O"
        caption = f"Four in a row for {winner}."
    return Board(text, marks, caption)


def winning_four(stones: int, height: int) -> int:
    """Every stone of ``stones`` that is part of a four in a row (Connect Four's bitboard)."""
    found = 0
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> shift)
        starts = pairs & (pairs >> 2 * shift)
        found |= starts | starts << shift | starts << 2 * shift | starts << 3 * shift
    return found

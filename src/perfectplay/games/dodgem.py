"""Dodgem on 3x3 (Colin Vout; Berlekamp, Conway and Guy, Winning Ways, ch. 22): a loopy game.

Rules as implemented:

* A 3x3 board, squares a1-c3 (files a-c from the left, ranks 1-3 from the bottom). Blue has
  cars on a2 and a3, Red on b1 and c1; a1 is empty. Blue moves first.
* A turn moves one of your cars one square onto an empty square: Blue forward (right) or
  sideways (up, down); Red forward (up) or sideways (left, right). Never backward.
* A car on the far edge (Blue: file c; Red: rank 3) may drive forward off the board and is
  out of the game.
* You win when it is your turn and you have no legal move: both your cars are off the board,
  or the cars you have left are blocked. (So blocking your opponent completely loses.)

Cars can shuffle sideways for ever, so positions repeat: the game declares itself loopy and
is solved by retrograde analysis. Winning Ways shows the first player (Blue) wins.

A position is one int, from the side to move: bits 0-8 the mover's cars, bits 9-17 the
opponent's, bit 18 set when Red is to move. Square index = 3 * (rank - 1) + file. The rule
functions below use only ints and tuples so numba can compile them unchanged for the
retrograde kernel (compiled_spec).
"""

from __future__ import annotations

import random
import re
from typing import Any

from perfectplay.errors import BadPosition
from perfectplay.game import Game, Properties

CELLS = 0x1FF
RED_TO_MOVE = 1 << 18
OFF = 9  # the "square" a car leaves the board to
# A move is from * 16 + to (to = OFF: off the board).
# Steps per colour, forward first: (file change, rank change).
BLUE_STEPS = ((1, 0), (0, 1), (0, -1))
RED_STEPS = ((0, 1), (-1, 0), (1, 0))
START = (1 << 3 | 1 << 6) | (1 << 1 | 1 << 2) << 9


def car_moves(state: int, out: Any) -> int:
    """Write the mover's legal moves into ``out``, forward moves first; return how many."""
    mine, theirs = state & CELLS, state >> 9 & CELLS
    taken = mine | theirs
    red = state & RED_TO_MOVE
    count = 0
    for step in range(3):
        if red:
            dx, dy = RED_STEPS[step]
        else:
            dx, dy = BLUE_STEPS[step]
        for square in range(9):
            if mine >> square & 1:
                x, y = square % 3 + dx, square // 3 + dy
                if (red and y == 3) or (not red and x == 3):
                    out[count] = square * 16 + OFF
                    count += 1
                elif 0 <= x < 3 and 0 <= y < 3 and not taken >> (3 * y + x) & 1:
                    out[count] = square * 16 + 3 * y + x
                    count += 1
    return count


def car_play(state: int, move: int) -> int:
    mine, theirs = state & CELLS, state >> 9 & CELLS
    source, target = move >> 4, move & 15
    mine &= ~(1 << source)
    if target != OFF:
        mine |= 1 << target
    return theirs | mine << 9 | (state & RED_TO_MOVE ^ RED_TO_MOVE)


def car_outcome(state: int) -> int:
    """The compiled engine's ONGOING (2): Dodgem ends only when the mover cannot move."""
    return 2


def square_name(square: int) -> str:
    return "abc"[square % 3] + str(square // 3 + 1)


_SQUARE = re.compile(r"^([abc])([123])$")
_MOVE = re.compile(r"^\s*([a-cA-C][1-3])\s*-\s*([a-cA-C][1-3]|off)\s*$", re.IGNORECASE)


class Dodgem(Game[int, int]):
    name = "dodgem"
    # No legal move wins for the player to move: the misère rule of the protocol.
    properties = Properties(misere=True, loopy=True)

    def start(self) -> int:
        return START

    def moves(self, position: int) -> list[int]:
        out = [0] * 6
        return out[:car_moves(position, out)]

    def play(self, position: int, move: int) -> int:
        return car_play(position, move)

    def colours(self, position: int) -> tuple[int, int]:
        """(Blue's cars, Red's cars) as bit sets."""
        mine, theirs = position & CELLS, position >> 9 & CELLS
        return (theirs, mine) if position & RED_TO_MOVE else (mine, theirs)

    def format_move(self, position: int, move: int) -> str:
        target = move & 15
        return f"{square_name(move >> 4)}-{'off' if target == OFF else square_name(target)}"

    def format_position(self, position: int) -> str:
        blue, red = self.colours(position)
        rows = []
        for rank in (2, 1, 0):
            rows.append("".join("B" if blue >> (3 * rank + f) & 1 else "R" if red >> (3 * rank + f) & 1
                                else "." for f in range(3)))
        return "/".join(rows) + (" R" if position & RED_TO_MOVE else " B")

    def parse_position(self, text: str) -> int:
        parts = text.replace("/", " ").split()
        cells = "".join(parts[:-1]).upper() if len(parts) > 1 else ""
        side = parts[-1].upper() if parts else ""
        if len(cells) != 9 or set(cells) - set("BR.") or side not in ("B", "R"):
            raise BadPosition(f"dodgem position {text!r}: give 3 rows of B, R and . from the top, "
                              "then B or R for the side to move, e.g. 'B../B../.RR B'")
        blue = red = 0
        for index, cell in enumerate(cells):
            square = 3 * (2 - index // 3) + index % 3
            if cell == "B":
                blue |= 1 << square
            elif cell == "R":
                red |= 1 << square
        if bin(blue).count("1") > 2 or bin(red).count("1") > 2:
            raise BadPosition(f"dodgem position {text!r}: each player has at most two cars")
        if side == "B":
            return blue | red << 9
        return red | blue << 9 | RED_TO_MOVE

    def render(self, position: int) -> str:
        blue, red = self.colours(position)
        lines = []
        for rank in (2, 1, 0):
            cells = ["B" if blue >> (3 * rank + f) & 1 else "R" if red >> (3 * rank + f) & 1 else "."
                     for f in range(3)]
            lines.append(f"{rank + 1}  {' '.join(cells)}")
        lines.append("   a b c")
        off_blue, off_red = 2 - bin(blue).count("1"), 2 - bin(red).count("1")
        mover = "Red" if position & RED_TO_MOVE else "Blue"
        lines.append(f"off the board: Blue {off_blue}, Red {off_red}; {mover} to move "
                     "(Blue drives right, Red drives up)")
        return "\n".join(lines)

    def random_position(self, rng: random.Random) -> int:
        position = START
        for _ in range(rng.randrange(0, 12)):
            legal = self.moves(position)
            if not legal:
                break
            position = self.play(position, rng.choice(legal))
        return position

    def compiled_spec(self) -> Any:
        """These rules for the compiled retrograde kernel (the functions compile unchanged)."""
        from numba import njit

        from perfectplay.compiled.generic import Spec
        return Spec(moves=njit(car_moves), play=njit(car_play), outcome=njit(car_outcome),
                    max_moves=6, max_length=1, misere=True)

"""Dodgem on 3x3 (Colin Vout; Berlekamp, Conway and Guy, Winning Ways, ch. 22): a loopy game.

Rules as implemented:

* A 3x3 board, squares a1-c3 (files a-c from the left, ranks 1-3 from the bottom). Blue has
  cars on a2 and a3, Red on b1 and c1; a1 is empty. Blue moves first. (``--width 4`` or 5
  plays on 4x4 or 5x5 with n - 1 cars each, along the left and bottom edges.)
* A turn moves one of your cars one square onto an empty square: Blue forward (right) or
  sideways (up, down); Red forward (up) or sideways (left, right). Never backward.
* A car on the far edge (Blue: file c; Red: rank 3) may drive forward off the board and is
  out of the game.
* You win when it is your turn and you have no legal move: both your cars are off the board,
  or the cars you have left are blocked. (So blocking your opponent completely loses.)

Cars can shuffle sideways for ever, so positions repeat: the game declares itself loopy and
is solved by retrograde analysis. Winning Ways shows the first player (Blue) wins on 3x3;
David des Jardins (1996) showed that 4x4 and 5x5 never end with perfect play (draws).

A position is one int, from the side to move: on n x n, bits 0 to n*n - 1 the mover's cars,
the next n*n bits the opponent's, the bit above set when Red is to move. Square index =
n * (rank - 1) + file. The rule functions below use only ints and tuples (a numpy array
when compiled) so numba compiles them unchanged for the retrograde kernel (compiled_spec).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Cell, Diagram, Grid, Piece, Step, Words
from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game, Properties
from perfectplay.games._loopy import retro_brute_force

OFF = 31  # the "square" a car leaves the board to
SIZES = (3, 4, 5)
# A move is from * 32 + to (to = OFF: off the board).
# Steps per colour, forward first: (file change, rank change).
BLUE_STEPS = ((1, 0), (0, 1), (0, -1))
RED_STEPS = ((0, 1), (-1, 0), (1, 0))


def _target(n: int, square: int, step: int, red: bool) -> int:
    dx, dy = (RED_STEPS if red else BLUE_STEPS)[step]
    x, y = square % n + dx, square // n + dy
    if (red and y == n) or (not red and x == n):
        return OFF
    return n * y + x if 0 <= x < n and 0 <= y < n else -1


def make_rules(n: int, compiled: bool = False) -> tuple[Any, Any, Any]:
    """The (moves, play, outcome) functions of the n x n board, numba-compilable. A state
    holds the mover's cars in bits 0 to n*n - 1, the opponent's in the next n*n bits, and
    the bit above them when Red is to move. ``compiled`` keeps the step table in a numpy
    array (fastest under numba) instead of a tuple (fastest in CPython)."""
    cells = (1 << n * n) - 1
    shift = n * n
    red_to_move = 1 << 2 * n * n

    # For each colour, square and step (forward first): the target square, OFF, or -1 when
    # the step leaves the board sideways (not allowed).
    flat = [_target(n, square, step, red) for red in (False, True)
            for square in range(n * n) for step in range(3)]
    targets: Any = tuple(flat)
    if compiled:
        import numpy as np  # only the compiled engine needs it
        targets = np.array(flat, dtype=np.int64)
    red_offset = 3 * n * n

    def car_moves(state: int, out: Any) -> int:
        """Write the mover's legal moves into ``out``; return how many."""
        mine, theirs = state & cells, state >> shift & cells
        taken = mine | theirs
        offset = red_offset if state & red_to_move else 0
        count = 0
        for square in range(n * n):
            if mine >> square & 1:
                for step in range(3):
                    target = targets[offset + 3 * square + step]
                    if target == OFF or (target >= 0 and not taken >> target & 1):
                        out[count] = square * 32 + target
                        count += 1
        return count

    def car_play(state: int, move: int) -> int:
        mine, theirs = state & cells, state >> shift & cells
        source, target = move >> 5, move & 31
        mine &= ~(1 << source)
        if target != OFF:
            mine |= 1 << target
        return theirs | mine << shift | (state & red_to_move ^ red_to_move)

    def car_outcome(state: int) -> int:
        """The compiled engine's ONGOING (2): Dodgem ends only when the mover cannot move."""
        return 2

    return car_moves, car_play, car_outcome


class Dodgem(Game[int, int]):
    name = "dodgem"
    # No legal move wins for the player to move: the misère rule of the protocol.
    properties = Properties(misere=True, loopy=True)

    def __init__(self, size: int = 3) -> None:
        if size not in SIZES:
            raise BadOption(f"dodgem --width {size}: the board is 3x3, 4x4 or 5x5")
        self.size = n = size
        self.cells, self.shift, self.red_to_move = (1 << n * n) - 1, n * n, 1 << 2 * n * n
        self._moves, self._play, _ = make_rules(n)
        blue = sum(1 << n * rank for rank in range(1, n))
        red = sum(1 << file for file in range(1, n))
        self._start = blue | red << self.shift

    def start(self) -> int:
        return self._start

    def moves(self, position: int) -> list[int]:
        out = [0] * (3 * self.size)
        return out[:self._moves(position, out)]

    def play(self, position: int, move: int) -> int:
        return self._play(position, move)

    def colours(self, position: int) -> tuple[int, int]:
        """(Blue's cars, Red's cars) as bit sets."""
        mine, theirs = position & self.cells, position >> self.shift & self.cells
        return (theirs, mine) if position & self.red_to_move else (mine, theirs)

    def square_name(self, square: int) -> str:
        return "abcde"[square % self.size] + str(square // self.size + 1)

    def format_move(self, position: int, move: int) -> str:
        target = move & 31
        return f"{self.square_name(move >> 5)}-{'off' if target == OFF else self.square_name(target)}"

    def _rows(self, position: int) -> list[str]:
        blue, red = self.colours(position)
        n = self.size
        return ["".join("B" if blue >> (n * rank + f) & 1 else "R" if red >> (n * rank + f) & 1
                        else "." for f in range(n)) for rank in reversed(range(n))]

    def format_position(self, position: int) -> str:
        return "/".join(self._rows(position)) + (" R" if position & self.red_to_move else " B")

    def parse_position(self, text: str) -> int:
        n = self.size
        parts = text.replace("/", " ").split()
        cells = "".join(parts[:-1]).upper() if len(parts) > 1 else ""
        side = parts[-1].upper() if parts else ""
        if len(cells) != n * n or set(cells) - set("BR.") or side not in ("B", "R"):
            example = "/".join(self._rows(self._start)) + " B"
            raise BadPosition(f"dodgem position {text!r}: give {n} rows of B, R and . from the top, "
                              f"then B or R for the side to move, e.g. {example!r}")
        blue = red = 0
        for index, cell in enumerate(cells):
            square = n * (n - 1 - index // n) + index % n
            if cell == "B":
                blue |= 1 << square
            elif cell == "R":
                red |= 1 << square
        if bin(blue).count("1") > n - 1 or bin(red).count("1") > n - 1:
            raise BadPosition(f"dodgem position {text!r}: each player has at most {n - 1} cars")
        if side == "B":
            return blue | red << self.shift
        return red | blue << self.shift | self.red_to_move

    def side_names(self, position: int) -> tuple[str, str]:
        return ("Red", "Blue") if position & self.red_to_move else ("Blue", "Red")

    def render(self, position: int) -> str:
        n = self.size
        lines = [f"{n - r}  {' '.join(row)}" for r, row in enumerate(self._rows(position))]
        lines.append("   " + " ".join("abcde"[:n]))
        blue, red = self.colours(position)
        off_blue, off_red = n - 1 - bin(blue).count("1"), n - 1 - bin(red).count("1")
        mover = "Red" if position & self.red_to_move else "Blue"
        lines.append(f"off the board: Blue {off_blue}, Red {off_red}; {mover} to move "
                     "(Blue drives right, Red drives up)")
        return "\n".join(lines)

    def diagram(self, position: int, history: Sequence[tuple[int, int]] = ()) -> Diagram:
        """The board with Blue's cars (arrows right) and Red's (arrows up); a car, then its
        square or the strip beyond the edge it leaves by ("off")."""
        n, rows = self.size, self._rows(position)
        cells = tuple(Cell("abcde"[f] + str(n - r), "" if mark == "." else mark)
                      for r, row in enumerate(rows) for f, mark in enumerate(row))
        steps = tuple(Step(notation, *notation.split("-"))
                      for notation in (self.format_move(position, m) for m in self.moves(position)))
        blue, red = self.colours(position)
        red_moves = bool(position & self.red_to_move)
        words = f"off the board: Blue {n - 1 - blue.bit_count()}, Red {n - 1 - red.bit_count()}"
        return Grid(rows=n, columns=n, cells=cells, pieces=DODGEM_PIECES, steps=steps,
                    off="top" if red_moves else "right", to_move="R" if red_moves else "B",
                    column_names=tuple("abcde"[:n]), row_names=tuple(str(n - r) for r in range(n)),
                    status=(Words(words, "#555"),), help=DODGEM_HELP)

    def compiled_spec(self) -> Any:
        """These rules for the compiled retrograde kernel (the functions compile unchanged)."""
        from numba import njit

        from perfectplay.compiled.generic import Spec
        moves, play, outcome = make_rules(self.size, compiled=True)
        return Spec(moves=njit(moves), play=njit(play), outcome=njit(outcome),
                    max_moves=3 * (self.size - 1), max_length=1, misere=True)


DODGEM_PIECES = {"B": Piece("fill", "#2f6fd6", "▶"), "R": Piece("fill", "#d6452f", "▲")}
DODGEM_HELP = ("Click a car (ringed in the colour of its best move), then a square or \"off\": each is "
               "filled by that move's value. Hover for \"win in N\".")


def _load(options: Options, text: str | None) -> Loaded:
    if options.get("height") is not None:
        raise BadOption("dodgem is played on a square board: give --width only")
    width = options.get("width")
    return from_text(Dodgem(3 if width is None else width), text)


# Loopy games (positions repeat) come after the others; perfectplay.retro solves them.
ENTRY = Entry("dodgem", "loopy: 3x3 Dodgem (Winning Ways); two cars each drive across and off the "
              "board (Blue right, Red up, or sideways, never back); you win when you cannot move",
              "3 rows from the top of B, R and ., then the side to move, e.g. 'B../B../.RR B'",
              _load, options=("width",), brute_force=retro_brute_force, order=100)

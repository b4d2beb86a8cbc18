"""Three Men's Morris and Tapatan: three men each on a 3x3 board, placed, then moved.

Rules as implemented (both games):

* Nine points, numbered 1-9 row by row from the top left, as in tic-tac-toe. X and O have
  three men each. X moves first.
* Placement: in turn, each player puts one man on an empty point until both have three.
* Moving: then each turn moves one of your men to an adjacent empty point along a line of
  the board. Moving is compulsory; a player who cannot move loses.
* Three of your men on one line wins at once, in either phase.

The boards differ in their lines:

* **Three Men's Morris** (``morris3``): the lines are the three rows and three columns;
  men move orthogonally (up, down, left, right).
* **Tapatan** (``tapatan``, the Philippine game): the two diagonals are lines too, for
  winning and for moving (a corner and the centre are adjacent).

Men can move back and forth for ever, so the game declares itself loopy and is solved by
retrograde analysis.

A position is one int from the side to move: bits 0-8 the mover's men, 9-17 the
opponent's, bit 18 set when O is to move (for notation only: the key drops it, since the
rules do not depend on colour). A move is the target point (0-8) when placing, and
``9 * (from + 1) + to`` when moving. The rule functions use only ints and tuples so numba
compiles them unchanged for the retrograde kernel (compiled_spec).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Cell, Diagram, Grid, Piece, Step, Words
from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.errors import BadPosition
from perfectplay.game import Game, Outcome, Properties
from perfectplay.games._loopy import retro_brute_force

CELLS = 0x1FF
O_TO_MOVE = 1 << 18
MEN = 3
ORTHOGONAL_LINES = (0o007, 0o070, 0o700, 0o111, 0o222, 0o444)
DIAGONAL_LINES = (0o421, 0o124)
# Neighbours of each point as bit sets: orthogonal, and with Tapatan's diagonals.
ORTHOGONAL_NEIGHBOURS = (0o012, 0o025, 0o042, 0o121, 0o252, 0o424, 0o210, 0o520, 0o240)
DIAGONAL_NEIGHBOURS = (0o020, 0, 0o020, 0, 0o505, 0, 0o020, 0, 0o020)
# Points that lie on most lines first.
ORDER = (4, 0, 2, 6, 8, 1, 3, 5, 7)


def popcount9(bits: int) -> int:
    count = 0
    for square in range(9):
        count += bits >> square & 1
    return count


def make_rules(diagonals: bool) -> tuple[Any, Any, Any]:
    """The (moves, play, outcome) functions of one board, numba-compilable."""
    lines = ORTHOGONAL_LINES + DIAGONAL_LINES if diagonals else ORTHOGONAL_LINES
    neighbours = tuple(o | (d if diagonals else 0)
                       for o, d in zip(ORTHOGONAL_NEIGHBOURS, DIAGONAL_NEIGHBOURS, strict=True))

    def men_moves(state: int, out: Any) -> int:
        mine, theirs = state & CELLS, state >> 9 & CELLS
        empty = ~(mine | theirs) & CELLS
        placed = 0
        for square in range(9):
            placed += mine >> square & 1
        count = 0
        if placed < MEN:
            for square in ORDER:
                if empty >> square & 1:
                    out[count] = square
                    count += 1
            return count
        for source in ORDER:
            if mine >> source & 1:
                targets = neighbours[source] & empty
                for target in range(9):
                    if targets >> target & 1:
                        out[count] = 9 * (source + 1) + target
                        count += 1
        return count

    def men_play(state: int, move: int) -> int:
        mine, theirs = state & CELLS, state >> 9 & CELLS
        if move >= 9:
            mine &= ~(1 << (move // 9 - 1))
        mine |= 1 << (move % 9)
        return theirs | mine << 9 | (state & O_TO_MOVE ^ O_TO_MOVE)

    def men_outcome(state: int) -> int:
        """LOSS (-1) when the opponent has a line (they just made it), WIN (1) when the
        mover has one (only in a position typed in), else ONGOING (2)."""
        mine, theirs = state & CELLS, state >> 9 & CELLS
        for line in lines:
            if theirs & line == line:
                return -1
        for line in lines:
            if mine & line == line:
                return 1
        return 2

    return men_moves, men_play, men_outcome


def colour_key(state: int) -> int:
    return state & 0x3FFFF


_CODES = {-1: Outcome.LOSS, 1: Outcome.WIN}


# The web page's board: X's men blue, O's orange-brown; the points' lines as index pairs.
MORRIS_PIECES = {"X": Piece("fill", "#1b4f9c", "X"), "O": Piece("fill", "#c0571b", "O")}
MORRIS_LINES = ((0, 2), (3, 5), (6, 8), (0, 6), (1, 7), (2, 8))
MORRIS_DIAGONALS = ((0, 8), (2, 6))
MORRIS_HELP = ("Place a man by clicking a point; once all are placed, click a man (ringed in the colour "
               "of its best move), then a point. Each point you can play is filled by that move's value; "
               "the number on it is plies to the end with best play.")


class ThreeMensMorris(Game[int, int]):
    name = "morris3"
    properties = Properties(loopy=True)
    diagonals = False

    def __init__(self) -> None:
        self._moves, self._play, self._outcome = make_rules(self.diagonals)

    def start(self) -> int:
        return 0

    def moves(self, position: int) -> list[int]:
        out = [0] * 24
        return out[:self._moves(position, out)]

    def play(self, position: int, move: int) -> int:
        return self._play(position, move)

    def outcome(self, position: int) -> Outcome | None:
        return _CODES.get(self._outcome(position))

    def key(self, position: int) -> int:
        return colour_key(position)

    # -- notation: points 1-9, X and O ----------------------------------------------------
    def format_move(self, position: int, move: int) -> str:
        if move < 9:
            return str(move + 1)
        return f"{move // 9}-{move % 9 + 1}"

    def x_and_o(self, position: int) -> tuple[int, int]:
        mine, theirs = position & CELLS, position >> 9 & CELLS
        return (theirs, mine) if position & O_TO_MOVE else (mine, theirs)

    def format_position(self, position: int) -> str:
        x, o = self.x_and_o(position)
        cells = "".join("X" if x >> s & 1 else "O" if o >> s & 1 else "." for s in range(9))
        return f"{cells[:3]}/{cells[3:6]}/{cells[6:]} {'O' if position & O_TO_MOVE else 'X'}"

    def parse_position(self, text: str) -> int:
        match = re.fullmatch(r"\s*([XxOo./\-_ ]+?)(?:\s+([XxOo]))?\s*", text)
        cells = "" if match is None else re.sub(r"[/\s]", "", match.group(1)).upper().replace("-", ".")
        cells = cells.replace("_", ".")
        if match is None or len(cells) != 9:
            raise BadPosition(f"{self.name} position {text!r}: give 9 points of X, O and . row by "
                              "row, then X or O for the side to move, e.g. 'X.O/.X./... O'")
        x = sum(1 << s for s, cell in enumerate(cells) if cell == "X")
        o = sum(1 << s for s, cell in enumerate(cells) if cell == "O")
        xs, os = popcount9(x), popcount9(o)
        if match.group(2) is None and xs == os == MEN:
            raise BadPosition(f"{self.name} position {text!r}: both have placed their three men, so "
                              "say who is to move: add X or O, e.g. 'XOX/OXO/... O'")
        side = match.group(2).upper() if match.group(2) else ("X" if xs == os else "O")
        if xs > MEN or os > MEN or xs - os not in (0, 1) or (os < MEN and side != "XO"[xs - os]):
            raise BadPosition(f"{self.name} position {text!r}: X has {xs} men and O {os} with "
                              f"{side} to move; X places first, three men each")
        mover = x if side == "X" else o
        lines = ORTHOGONAL_LINES + DIAGONAL_LINES if self.diagonals else ORTHOGONAL_LINES
        if any(mover & line == line for line in lines):
            raise BadPosition(f"{self.name} position {text!r}: {side} to move already has three in "
                              "a line; the game ended when the line was made, on the other's move")
        return x | o << 9 if side == "X" else o | x << 9 | O_TO_MOVE

    def side_names(self, position: int) -> tuple[str, str]:
        return ("O", "X") if position & O_TO_MOVE else ("X", "O")

    def render(self, position: int) -> str:
        x, o = self.x_and_o(position)
        cells = ["X" if x >> s & 1 else "O" if o >> s & 1 else str(s + 1) for s in range(9)]
        joint = " | \\ | / |" if self.diagonals else " |   |   |"
        rows = [f" {cells[3 * r]} - {cells[3 * r + 1]} - {cells[3 * r + 2]}" for r in range(3)]
        lower = joint.replace("\\", "#").replace("/", "\\").replace("#", "/")
        side = "O" if position & O_TO_MOVE else "X"
        phase = "placing" if popcount9(position & CELLS) < MEN else "moving"
        return "\n".join([rows[0], joint, rows[1], lower, rows[2], f"{side} to move ({phase})"])

    def diagram(self, position: int, history: Sequence[tuple[int, int]] = ()) -> Diagram:
        """Points 1-9 row by row from the top left, joined by the board's lines: a placement
        is one click on a point, a move two (a man, then the point it goes to)."""
        cells, side = self.format_position(position).replace("/", "").split()
        notations = [self.format_move(position, move) for move in self.moves(position)]
        placements = {notation for notation in notations if "-" not in notation}
        points = tuple(Cell(str(s + 1), "" if mark == "." else mark,
                            str(s + 1) if str(s + 1) in placements else None, str(s + 1))
                       for s, mark in enumerate(cells))
        steps = tuple(Step(notation, *notation.split("-")) for notation in notations if "-" in notation)
        phase = "placing" if popcount9(position & CELLS) < MEN else "moving"
        return Grid(rows=3, columns=3, cells=points, pieces=MORRIS_PIECES, look="points", steps=steps,
                    lines=MORRIS_LINES + (MORRIS_DIAGONALS if self.diagonals else ()), to_move=side,
                    status=(Words(f"{side} to move ({phase})"),), help=MORRIS_HELP)

    def compiled_spec(self) -> Any:
        """These rules for the compiled retrograde kernel (the functions compile unchanged)."""
        from numba import njit

        from perfectplay.compiled.generic import Spec
        moves, play, outcome = make_rules(self.diagonals)
        return Spec(moves=njit(moves), play=njit(play), outcome=njit(outcome),
                    key=njit(colour_key), max_moves=24, max_length=1)


class Tapatan(ThreeMensMorris):
    name = "tapatan"
    diagonals = True


def _load(options: Options, text: str | None) -> Loaded:
    return from_text(ThreeMensMorris(), text)


def _load_tapatan(options: Options, text: str | None) -> Loaded:
    return from_text(Tapatan(), text)


ENTRY = Entry("morris3", "loopy: Three Men's Morris; place 3 men each, then move one to an "
              "orthogonally adjacent empty point; 3 in a row or column wins; no move loses",
              "9 points of X, O and . row by row, then the side to move, e.g. 'X.O/.X./... O'",
              _load, aliases=("three-mens-morris", "morris"), brute_force=retro_brute_force,
              order=120)
TAPATAN_ENTRY = Entry("tapatan", "loopy: Tapatan; Three Men's Morris with the diagonals as lines, "
                      "for moving and for winning",
                      "9 points of X, O and . row by row, then the side to move, e.g. 'X.O/.X./... O'",
                      _load_tapatan, brute_force=retro_brute_force, order=130)

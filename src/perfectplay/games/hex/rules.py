"""Hex (Piet Hein 1942, John Nash 1948) on an n x n rhombus, without the swap rule.

Rules as implemented: two players take turns placing a stone of their own on any empty cell.
X moves first and wins by joining the top row to the bottom row with a chain of adjacent X
stones; O wins by joining the left column to the right column. The board cannot fill up
without one chain (Gale 1979), so there are no draws, and by Nash's strategy-stealing
argument X wins on every board; which first moves win is what solving tells.

Coordinates as HexWiki writes them: columns a, b, c, ... from the left, rows 1, 2, 3, ...
from the top; a1 is an acute corner (two neighbours). Cell (column c, row r) touches
(c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1), (c + 1, r - 1) and (c - 1, r + 1).

A position is ``(x, o)``: two bit sets over cells numbered r * (n + 1) + c. The spare column
c = n is never set, so shifting a set by 1 cannot wrap a chain from one row's end to the next
row's start: the neighbours of every cell are the shifts by 1, n and n + 1 both ways. X is to
move when both have the same number of stones.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import Any

from perfectplay.compiled import numba_available
from perfectplay.diagram import Diagram
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game, Outcome, Picture, Properties
from perfectplay.games.hex.own_methods import METHODS

MAX_SIZE = 11
COLUMNS = "abcdefghijk"
# Past this size no exact search in Python finishes in minutes (df-pn proves 4x4 in seconds;
# 5x5 was out of reach in a session, docs/pns.md): the game says so; play uses Monte Carlo.
SOLVABLE_SIZE = 4
# A position with this few empty cells (a 4x4 board's start) is solved on any board.
SOLVABLE_EMPTIES = SOLVABLE_SIZE * SOLVABLE_SIZE
# With numba, the connection solver (solver_method) proves any position up to 6x6 (a 6x6
# opening in at most minutes, docs/pns.md); on 7x7 the opening book's positions only.
COMPILED_SOLVABLE_SIZE = 6

Position = tuple[int, int]


class Hex(Game[Position, int]):
    name = "hex"
    # Proofs in Hex are narrow (one good reply refutes a move): df-pn needs 6 to 29 times
    # fewer nodes than alpha-beta on 4x4 (docs/pns.md), so auto chooses it.
    default_algorithm = "pns"
    method_modules = METHODS  # declared once, beside the entry

    def __init__(self, size: int = 4) -> None:
        if not 1 <= size <= MAX_SIZE:
            raise BadOption(f"hex --size {size}: the board is 1x1 to {MAX_SIZE}x{MAX_SIZE}")
        self.size = n = size
        self.stride = n + 1
        self.cells = [r * self.stride + c for r in range(n) for c in range(n)]
        self.board = sum(1 << cell for cell in self.cells)
        self.o_shift = n * self.stride  # above every cell's bit
        self.top = sum(1 << c for c in range(n))
        self.bottom = self.top << (n - 1) * self.stride
        self.left = sum(1 << r * self.stride for r in range(n))
        self.right = self.left << (n - 1)
        self.compiled = numba_available()
        self.properties = Properties(max_length=n * n, too_big_to_solve=size > (
            COMPILED_SOLVABLE_SIZE if self.compiled else SOLVABLE_SIZE))
        # Centre cells first: alpha-beta and the proof-number searches try them first.
        middle = (n - 1) / 2
        self.order = sorted(self.cells, key=lambda cell: (
            abs(cell // self.stride - middle) + abs(cell % self.stride - middle), cell))

    def solvable(self, position: Position) -> bool:
        x, o = position
        if self.size * self.size - (x | o).bit_count() <= SOLVABLE_EMPTIES:
            return True
        if not self.compiled:
            return False
        from perfectplay.games.hex.book import settles_every_move
        return self.size <= COMPILED_SOLVABLE_SIZE or settles_every_move(self, position)

    def options(self) -> dict[str, object]:
        return {"size": self.size}

    # -- rules ---------------------------------------------------------------------------
    def start(self) -> Position:
        return (0, 0)

    def x_to_move(self, position: Position) -> bool:
        x, o = position
        return x.bit_count() == o.bit_count()

    def moves(self, position: Position) -> list[int]:
        x, o = position
        taken = x | o
        return [cell for cell in self.order if not taken >> cell & 1]

    def play(self, position: Position, move: int) -> Position:
        x, o = position
        if x.bit_count() == o.bit_count():
            return (x | 1 << move, o)
        return (x, o | 1 << move)

    def connected(self, stones: int, source: int, target: int) -> bool:
        """Whether a chain of ``stones`` joins the edge ``source`` to the edge ``target``:
        a flood fill over bit sets, one shift per neighbour direction."""
        stride, n = self.stride, self.size
        reached = stones & source
        while reached:
            grown = reached | stones & (reached << 1 | reached >> 1 | reached << n | reached >> n
                                        | reached << stride | reached >> stride)
            if grown == reached:
                break
            reached = grown
        return bool(reached & target)

    def winner(self, position: Position) -> str | None:
        """'X' or 'O' when a chain is complete, else None."""
        x, o = position
        if self.connected(x, self.top, self.bottom):
            return "X"
        if self.connected(o, self.left, self.right):
            return "O"
        return None

    def outcome(self, position: Position) -> Outcome | None:
        # In play only the player who just moved can have completed a chain (the side to move
        # lost); a board given as text may hold the mover's own chain, made before the other
        # side moved on (the mover has won). The mover's chain is looked for only when its
        # stones touch both of its edges, so search pays one flood fill a node, as before.
        x, o = position
        if x.bit_count() > o.bit_count():
            just_moved, mover = (x, self.top, self.bottom), (o, self.left, self.right)
        else:
            just_moved, mover = (o, self.left, self.right), (x, self.top, self.bottom)
        if just_moved[0] and self.connected(*just_moved):
            return Outcome.LOSS
        stones, source, target = mover
        if stones & source and stones & target and self.connected(stones, source, target):
            return Outcome.WIN
        return None

    def key(self, position: Position) -> int:
        """X's cells, and O's above them: one int, the state of the compiled builder's rules
        (an int64 up to 5x5)."""
        x, o = position
        return x | o << self.o_shift

    def tier(self, position: Position) -> int:
        """The stones on the board: every move adds one."""
        x, o = position
        return (x | o).bit_count()

    def tier_spec(self) -> Any:
        """The rules as ``@njit`` functions of the key, for the compiled database builder
        (games/hex/tiers.py; numba is imported only there); None from 6x6 up."""
        from perfectplay.games.hex.tiers import make_spec
        return make_spec(self.size, self.o_shift, self.top, self.bottom, self.left, self.right,
                         self.board)

    def estimated_positions(self, position: Position) -> int:
        """An upper bound: every way to fill k of the empty cells in turn, for every k (games
        that end earlier are counted as if they went on)."""
        x, o = position
        empty = self.size * self.size - (x | o).bit_count()
        x_first = x.bit_count() == o.bit_count()
        return sum(comb(empty, k) * comb(k, (k + x_first) // 2) for k in range(empty + 1))

    def player_to_move(self, position: Position) -> int:
        return 0 if self.x_to_move(position) else 1

    # -- notation ------------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return f"{COLUMNS[cell % self.stride]}{cell // self.stride + 1}"

    def format_move(self, position: Position, move: int) -> str:
        return self.cell_name(move)

    def parse_cell(self, text: str) -> int | None:
        """The cell written as ``text`` ('c3'), or None when it names no cell of this board."""
        word = text.strip().lower()
        if len(word) < 2 or word[0] not in COLUMNS[:self.size] or not word[1:].isdigit():
            return None
        row = int(word[1:])
        if not 1 <= row <= self.size:
            return None
        return (row - 1) * self.stride + COLUMNS.index(word[0])

    def parse_move(self, position: Position, text: str) -> int:
        cell = self.parse_cell(text)
        if cell is not None and cell in self.moves(position) and self.outcome(position) is None:
            return cell
        return super().parse_move(position, text)

    def diagram(self, position: Position, history: Sequence[tuple[Position, int]] = ()) -> Diagram:
        from perfectplay.games.hex.diagram import draw
        return draw(self, position, history)

    def rows(self, position: Position) -> list[str]:
        x, o = position
        return ["".join("X" if x >> r * self.stride + c & 1 else "O" if o >> r * self.stride + c & 1
                        else "." for c in range(self.size)) for r in range(self.size)]

    def format_position(self, position: Position) -> str:
        return "/".join(self.rows(position))

    def parse_position(self, text: str) -> Position:
        words = text.replace(",", " ").split()
        if not words:
            return self.start()
        if all(set(word.upper()) <= set("XO./") for word in words):
            return self._parse_board(text)
        return self._parse_moves(text, words)

    def _parse_board(self, text: str) -> Position:
        n = self.size
        cells = "".join(text.replace("/", " ").split()).upper()
        if len(cells) != n * n:
            example = "/".join(["." * n] * n)
            raise BadPosition(f"hex position {text!r}: give {n} rows of {n} cells (X, O or .) "
                              f"from the top, e.g. {example!r}")
        x = o = 0
        for index, mark in enumerate(cells):
            cell = index // n * self.stride + index % n
            if mark == "X":
                x |= 1 << cell
            elif mark == "O":
                o |= 1 << cell
        if x.bit_count() - o.bit_count() not in (0, 1):
            raise BadPosition(f"hex position {text!r}: X moves first, so X has as many stones as "
                              f"O or one more (here X {x.bit_count()}, O {o.bit_count()})")
        position = (x, o)
        if self.connected(x, self.top, self.bottom) and self.connected(o, self.left, self.right):
            raise BadPosition(f"hex position {text!r}: both players have a winning chain")
        return position

    def _parse_moves(self, text: str, words: list[str]) -> Position:
        position = self.start()
        for word in words:
            if self.outcome(position) is not None:
                raise BadPosition(f"hex moves {text!r}: the game is over before {word!r}")
            cell = self.parse_cell(word)
            if cell is None:
                raise BadPosition(f"hex moves {text!r}: {word!r} is not a cell of the "
                                  f"{self.size}x{self.size} board (a1 to "
                                  f"{COLUMNS[self.size - 1]}{self.size})")
            x, o = position
            if (x | o) >> cell & 1:
                raise BadPosition(f"hex moves {text!r}: {word!r} is already taken")
            position = self.play(position, cell)
        return position

    def render(self, position: Position) -> str:
        n = self.size
        lines = ["   " + " ".join(COLUMNS[:n])]
        for r, row in enumerate(self.rows(position)):
            lines.append(f"{' ' * r}{r + 1:>2}  {' '.join(row)}  {r + 1}")
        lines.append(" " * (n + 3) + " ".join(COLUMNS[:n]))
        winner = self.winner(position)
        if winner is not None:
            lines.append(f"{winner} has joined {'top and bottom' if winner == 'X' else 'left and right'}")
        else:
            mover = "X" if self.x_to_move(position) else "O"
            lines.append(f"{mover} to move (X joins top and bottom, O left and right)")
        return "\n".join(lines)

    def picture(self, position: Position) -> Picture:
        return Picture(self.render(position))

    def player_marks(self, position: Position) -> tuple[str, str]:
        return ("X", "O") if self.x_to_move(position) else ("O", "X")

    def side_names(self, position: Position) -> tuple[str, str]:
        """As the page draws the stones: X red, O blue."""
        names = ("Red (X)", "Blue (O)")
        return names if self.x_to_move(position) else (names[1], names[0])

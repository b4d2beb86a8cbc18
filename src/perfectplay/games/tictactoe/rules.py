"""Tic-tac-toe: a draw with best play; plain minimax visits the full game tree's 549,946
nodes. Squares are numbered 1-9 row by row from the top left. X moves first.

A position is one int, always from the side to move (as sunfish keeps its board): bits 0-8
are the mover's stones, bits 9-17 the opponent's. Who is X follows from the stone counts.
The table key folds the eight symmetries of the board into one canonical position, so a
table holds 765 keys instead of 5,478 positions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Diagram
from perfectplay.errors import BadPosition
from perfectplay.game import Game, Outcome, Properties, zobrist_numbers
from perfectplay.games.tictactoe.board import FULL, HAS_LINE, LINES, ORDER, SYMMETRY_TABLES

# Zobrist numbers for the engine's table: X on square s, O on square s, O to move.
ZOBRIST = zobrist_numbers(19, seed=3)
ZOBRIST_O_TO_MOVE = ZOBRIST[18]


def popcount(stones: int) -> int:
    return bin(stones).count("1")


class TicTacToe(Game[int, int]):
    name = "tictactoe"
    properties = Properties(can_draw=True, max_length=9)

    def __init__(self) -> None:
        self._canonical: dict[int, int] = {}

    def compiled_spec(self) -> Any:
        """The rules as @njit functions for the generic compiled engine and the retrograde
        kernel (games/tictactoe/compiled.py; numba is imported only here)."""
        from perfectplay.games.tictactoe.compiled import SPEC
        return SPEC

    def __init_subclass__(cls, **options: Any) -> None:
        # The spec compiles these rules and this key; a subclass may change them (a key
        # without the symmetries), so it gets no spec unless it gives its own.
        super().__init_subclass__(**options)
        if "compiled_spec" not in cls.__dict__:
            cls.compiled_spec = Game.compiled_spec  # type: ignore[method-assign]

    def start(self) -> int:
        return 0

    def moves(self, position: int) -> list[int]:
        taken = (position | position >> 9) & FULL
        return [square for square in ORDER if not taken >> square & 1]

    def play(self, position: int, square: int) -> int:
        mine, theirs = position & FULL, position >> 9
        return theirs | (mine | 1 << square) << 9

    def outcome(self, position: int) -> Outcome | None:
        mine, theirs = position & FULL, position >> 9
        if HAS_LINE[theirs]:
            return Outcome.LOSS
        if HAS_LINE[mine]:  # only in a position typed in with a line for the side to move
            return Outcome.WIN
        if mine | theirs == FULL:
            return Outcome.DRAW
        return None

    def evaluate(self, position: int) -> int:
        """Lines still open to the mover minus lines still open to the opponent (a line is
        open to a player while the other has no stone on it): the classic heuristic for a
        depth-limited search with a side-to-move evaluation."""
        mine, theirs = position & FULL, position >> 9
        return sum((not line & theirs) - (not line & mine) for line in LINES)

    def key(self, position: int) -> int:
        canonical = self._canonical.get(position)
        if canonical is None:
            mine, theirs = position & FULL, position >> 9
            canonical = min(table[mine] | table[theirs] << 9 for table in SYMMETRY_TABLES)
            self._canonical[position] = canonical
        return canonical

    # -- structure for databases (perfectplay.store) -------------------------------------
    def tier(self, position: int) -> int:
        """Stones on the board: every move adds one."""
        return popcount(position)

    def rank(self, position: int) -> int:
        """The canonical position (symmetries folded, as key() does) read as nine base-3
        digits, 0 empty, 1 the mover's stone, 2 the opponent's: an index below 3**9."""
        canonical = self.key(position)
        index = 0
        for square in reversed(range(9)):
            digit = 1 if canonical >> square & 1 else 2 if canonical >> (square + 9) & 1 else 0
            index = index * 3 + digit
        return index

    def unrank(self, index: int) -> int:
        position = 0
        for square in range(9):
            index, digit = divmod(index, 3)
            if digit:
                position |= 1 << (square + 9 * (digit - 1))
        return position

    def index_size(self) -> int:
        return 3 ** 9

    # -- 64-bit Zobrist keys for the depth-limited engine (perfectplay.engine) -----------
    def hash_key(self, position: int) -> int:
        x, o = self.x_and_o(position)
        key = ZOBRIST_O_TO_MOVE if popcount(x) > popcount(o) else 0
        for square in range(9):
            if x >> square & 1:
                key ^= ZOBRIST[square]
            elif o >> square & 1:
                key ^= ZOBRIST[9 + square]
        return key

    def key_after(self, position: int, square: int, key: int) -> int:
        mine, theirs = position & FULL, position >> 9
        o_moves = theirs.bit_count() > mine.bit_count()
        return key ^ ZOBRIST[9 * o_moves + square] ^ ZOBRIST_O_TO_MOVE

    def player_to_move(self, position: int) -> int:
        mine, theirs = position & FULL, position >> 9
        return int(theirs.bit_count() > mine.bit_count())

    # -- notation: absolute X and O ------------------------------------------------------
    def player_marks(self, position: int) -> tuple[str, str]:
        x_stones, o_stones = self.x_and_o(position)
        return ("X", "O") if x_stones.bit_count() == o_stones.bit_count() else ("O", "X")

    def x_and_o(self, position: int) -> tuple[int, int]:
        mine, theirs = position & FULL, position >> 9
        x_to_move = popcount(mine) == popcount(theirs)
        return (mine, theirs) if x_to_move else (theirs, mine)

    def format_move(self, position: int, square: int) -> str:
        return str(square + 1)

    def diagram(self, position: int, history: Sequence[tuple[int, int]] = ()) -> Diagram:
        from perfectplay.games.tictactoe.diagram import draw
        return draw(self, position, history)

    def format_position(self, position: int) -> str:
        x, o = self.x_and_o(position)
        return "".join("X" if x >> s & 1 else "O" if o >> s & 1 else "." for s in range(9))

    def parse_position(self, text: str) -> int:
        cells = text.replace("/", "").replace(" ", "").upper().replace("-", ".").replace("_", ".")
        if len(cells) != 9 or set(cells) - set("XO."):
            raise BadPosition(f"tic-tac-toe position {text!r}: give 9 cells of X, O and . "
                              "row by row, e.g. 'X.O/.X./...'")
        x = sum(1 << s for s, cell in enumerate(cells) if cell == "X")
        o = sum(1 << s for s, cell in enumerate(cells) if cell == "O")
        xs, os = popcount(x), popcount(o)
        if xs - os not in (0, 1):
            raise BadPosition(f"tic-tac-toe position {text!r}: X has {xs} stones and O {os}; "
                              "X moves first, so X has as many as O or one more")
        if HAS_LINE[x] and HAS_LINE[o]:
            raise BadPosition(f"tic-tac-toe position {text!r}: both players have a line")
        if (HAS_LINE[x] and xs == os) or (HAS_LINE[o] and xs > os):
            raise BadPosition(f"tic-tac-toe position {text!r}: the game ended earlier; "
                              "the winner must have moved last")
        return x | o << 9 if xs == os else o | x << 9

    def render(self, position: int) -> str:
        cells = self.format_position(position)
        rows = []
        for r in range(3):
            rows.append(" " + " | ".join(
                cells[3 * r + c] if cells[3 * r + c] != "." else str(3 * r + c + 1) for c in range(3)))
        return "\n---+---+---\n".join(rows)

    def random_position(self, rng: random.Random) -> int:
        position = 0
        # At least two stones, so plain minimax (the reference) stays under 10,000 nodes.
        for _ in range(rng.randrange(2, 9)):
            if self.outcome(position) is not None:
                break
            position = self.play(position, rng.choice(self.moves(position)))
        return position

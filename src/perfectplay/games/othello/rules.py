"""Othello on an n x n board (n even, 4 to 10): a score game whose passes are moves.

Rules as implemented (the World Othello Federation's, on any even board):

* The four centre cells start with two discs each, White on the diagonal from the top left
  (d4 and e5 on 8x8), Black on the other; Black moves first.
* A move places a disc of the mover's colour so that it brackets, in at least one of the eight
  directions, a run of the opponent's discs between it and another disc of the mover's; every
  such run is flipped.
* A player with no such move passes; that is the move ``pass``, and only then. Two passes in a
  row end the game, and so does a full board.
* The score is the disc difference at the end; empty cells (a game ended by two passes) go to
  the winner, as the WOF counts them.

The value is that of a score game (perfectplay.value): the disc margin the side to move gains
from here on with perfect play (``f(s) = max(gain - f(s'))``): a disc placed gains 1 plus 2
per flipped disc, and the pass that ends the game gains the empty cells if the passer leads
(loses them if behind). From the start position this is the final margin: 6x6 is a loss by 4
for Black (16-20, Feinstein 1993), 4x4 a loss by 10 (White wins 11-3 with two cells left
empty, which the WOF count gives White: 13-3; tests/games/othello).

A position is ``(mine, theirs, black_to_move, passes)``: bit sets of the mover's and the
opponent's discs over cells numbered r * (n + 1) + c (row r from the top, column c from the
left; the spare column n keeps a shift from wrapping a row into the next), whose colour is to
move, and how many passes were just played (2: the game is over).
"""

from __future__ import annotations

from collections.abc import Sequence

from perfectplay.compiled import numba_available
from perfectplay.diagram import Diagram
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import CompiledPlayouts, Game, Picture, Properties
from perfectplay.games.othello.own_methods import METHODS

SIZES = (4, 6, 8, 10)
COLUMNS = "abcdefghij"
PASS = -1
# 4x4 is solved in a second; 6x6 took Feinstein two weeks of CPU in C (1993): past 4x4 the
# game says so, and play thinks with Monte Carlo tree search.
SOLVABLE_SIZE = 4
# An endgame with this many empty squares or fewer is solved exactly whatever the board (the
# 4x4 start has 12): on 8x8 in Python, 10 empties take tt 0.3 s and 22 thousand nodes, 12
# take 3 s, 14 ran past a minute.
SOLVABLE_EMPTIES = 12
# The compiled endgame search (kernel_method, boards up to 8x8) reaches further: from random
# games, 8x8 endgames of 20 empties took 0.65 s of CPU at the median and 1.3 s at most, 22
# took 9.8 s and 58 s; 6x6 endgames of 22 took 2.5 s and 3.9 s (benchmarks/othello_reach.py,
# docs/othello.md).
KERNEL_SOLVABLE_EMPTIES = {6: 22, 8: 20}
# The largest board the kernel's 64-bit words hold (bitboard, playout, kernel).
KERNEL_MAX_SIZE = 8
# The board whose start position a long run solved and stored (games/othello/proved.py).
STORED_SIZE = 6

Position = tuple[int, int, bool, int]


class Othello(Game[Position, int]):
    name = "othello"
    method_modules = METHODS  # declared once, beside the entry

    def __init__(self, size: int = 8) -> None:
        if size not in SIZES:
            raise BadOption(f"othello --size {size}: the board is 4x4, 6x6, 8x8 or 10x10")
        self.size = n = size
        self.stride = s = n + 1
        self.cells = [r * s + c for r in range(n) for c in range(n)]
        self.board = sum(1 << cell for cell in self.cells)
        self.directions = (1, -1, s, -s, s + 1, -s - 1, s - 1, -s + 1)
        self.properties = Properties(kind=Properties().kind.SCORE, max_length=2 * n * n,
                                     value_bound=n * n, too_big_to_solve=size > SOLVABLE_SIZE)
        self.kernel_reach = KERNEL_SOLVABLE_EMPTIES.get(size, 0) if numba_available() else 0
        corners = {0, n - 1, (n - 1) * s, (n - 1) * s + n - 1}
        edges = {cell for cell in self.cells if cell % s in (0, n - 1) or cell // s in (0, n - 1)}
        # Corners first, then edges, then the rest: a cheap order that finds cutoffs early.
        self.order = sorted(self.cells, key=lambda cell: (cell not in corners, cell not in edges, cell))
        self._playouts: CompiledPlayouts | None = None

    def compiled_playouts(self) -> CompiledPlayouts | None:
        """Random playouts on the kernel's bitboards (games/othello/playout.py), boards up to
        8x8 where numba imports; built once per game."""
        if self._playouts is None and self.size <= KERNEL_MAX_SIZE and numba_available():
            from perfectplay.games.othello.playout import RandomPlayouts
            self._playouts = RandomPlayouts(self)
        return self._playouts

    def solvable(self, position: Position) -> bool:
        """Whether an exact answer can be expected at once or in seconds: 4x4 always, a
        position solved and stored (6x6's start, proved by a long run), larger boards
        from few enough empty squares: more with numba (the kernel's reach) than without."""
        if not self.properties.too_big_to_solve:
            return True
        if self.size == STORED_SIZE:
            from perfectplay.games.othello.proved import stored
            if stored(self, position) is not None:
                return True  # answered at once (games/othello/proved.py)
        empties = self.board.bit_count() - (position[0] | position[1]).bit_count()
        return empties <= max(SOLVABLE_EMPTIES, self.kernel_reach)

    def options(self) -> dict[str, object]:
        return {"size": self.size}

    def shift(self, bits: int, direction: int) -> int:
        return (bits << direction if direction > 0 else bits >> -direction) & self.board

    # -- rules ---------------------------------------------------------------------------
    def start(self) -> Position:
        h, s = self.size // 2, self.stride
        white = 1 << (h - 1) * s + h - 1 | 1 << h * s + h
        black = 1 << (h - 1) * s + h | 1 << h * s + h - 1
        return (black, white, True, 0)

    def placements(self, mine: int, theirs: int) -> int:
        """The cells where the mover may place a disc, as a bit set."""
        empty = self.board & ~(mine | theirs)
        found = 0
        for direction in self.directions:
            run = self.shift(mine, direction) & theirs
            for _ in range(self.size - 3):
                run |= self.shift(run, direction) & theirs
            found |= self.shift(run, direction) & empty
        return found

    def flips(self, mine: int, theirs: int, cell: int) -> int:
        """The opponent's discs a disc placed on ``cell`` turns over."""
        flipped = 0
        for direction in self.directions:
            run = 0
            probe = self.shift(1 << cell, direction)
            while probe & theirs:
                run |= probe
                probe = self.shift(probe, direction)
            if probe & mine:
                flipped |= run
        return flipped

    def moves(self, position: Position) -> list[int]:
        mine, theirs, _, passes = position
        if passes >= 2 or (mine | theirs) == self.board:
            return []
        legal = self.placements(mine, theirs)
        if not legal:
            return [PASS]
        return [cell for cell in self.order if legal >> cell & 1]

    def play(self, position: Position, move: int) -> Position:
        mine, theirs, black, passes = position
        if move == PASS:
            return (theirs, mine, not black, passes + 1)
        flipped = self.flips(mine, theirs, move)
        return (theirs & ~flipped, mine | flipped | 1 << move, not black, 0)

    def gain(self, position: Position, move: int) -> int:
        mine, theirs, _, passes = position
        if move != PASS:
            return 1 + 2 * self.flips(mine, theirs, move).bit_count()
        if passes == 0:
            return 0
        # The second pass ends the game: the empty cells go to whoever leads.
        lead = mine.bit_count() - theirs.bit_count()
        empty = self.board.bit_count() - (mine | theirs).bit_count()
        return empty if lead > 0 else -empty if lead < 0 else 0

    holds_points = True

    def points(self, position: Position) -> tuple[int, int]:
        """The discs of the mover and of the other side; once the game is over, the empty
        cells go to the winner, half each in a draw (the WOF's count), so 4x4 ends 13-3, not
        11-3."""
        mine, theirs = position[0].bit_count(), position[1].bit_count()
        if self.moves(position):
            return mine, theirs
        empty = self.size * self.size - mine - theirs
        if mine == theirs:
            return mine + empty // 2, theirs + empty // 2
        return (mine + empty, theirs) if mine > theirs else (mine, theirs + empty)

    def total_points(self, position: Position) -> int:
        """The empty cells while the game goes on: the discs still to be placed, or given
        to the winner at the end (points counts them then)."""
        if not self.moves(position):
            return 0
        return self.size * self.size - (position[0] | position[1]).bit_count()

    def side_names(self, position: Position) -> tuple[str, str]:
        return ("Black", "White") if position[2] else ("White", "Black")

    def key(self, position: Position) -> tuple[int, int, int]:
        mine, theirs, _, passes = position
        return (mine, theirs, passes)

    def player_to_move(self, position: Position) -> int:
        return 0 if position[2] else 1

    def colours(self, position: Position) -> tuple[int, int]:
        """(Black's discs, White's discs)."""
        mine, theirs, black, _ = position
        return (mine, theirs) if black else (theirs, mine)

    def margin(self, position: Position) -> int:
        """The mover's discs minus the opponent's, now."""
        return position[0].bit_count() - position[1].bit_count()

    # -- notation ------------------------------------------------------------------------
    def cell_name(self, cell: int) -> str:
        return f"{COLUMNS[cell % self.stride]}{cell // self.stride + 1}"

    def format_move(self, position: Position, move: int) -> str:
        return "pass" if move == PASS else self.cell_name(move)

    def parse_cell(self, text: str) -> int | None:
        word = text.strip().lower()
        if word == "pass":
            return PASS
        if len(word) < 2 or word[0] not in COLUMNS[:self.size] or not word[1:].isdigit():
            return None
        row = int(word[1:])
        return (row - 1) * self.stride + COLUMNS.index(word[0]) if 1 <= row <= self.size else None

    def parse_move(self, position: Position, text: str) -> int:
        move = self.parse_cell(text)
        if move is not None and move in self.moves(position):
            return move
        return super().parse_move(position, text)

    def diagram(self, position: Position, history: Sequence[tuple[Position, int]] = ()) -> Diagram:
        from perfectplay.games.othello.diagram import draw
        return draw(self, position, history)

    def rows(self, position: Position) -> list[str]:
        black, white = self.colours(position)
        s = self.stride
        return ["".join("B" if black >> r * s + c & 1 else "W" if white >> r * s + c & 1 else "."
                        for c in range(self.size)) for r in range(self.size)]

    def format_position(self, position: Position) -> str:
        side = "B" if position[2] else "W"
        passes = f" passes {position[3]}" if position[3] else ""
        return "/".join(self.rows(position)) + f" {side}{passes}"

    def parse_position(self, text: str) -> Position:
        words = text.replace(",", " ").split()
        if not words:
            return self.start()
        if "/" in text or len(words[0]) >= self.size and set(words[0].upper()) <= set("BW."):
            return self._parse_board(text)
        return self._parse_moves(text, words)

    def _parse_board(self, text: str) -> Position:
        n, s = self.size, self.stride
        parts = text.replace("/", " ").split()
        passes = _passes(parts, text)
        side = parts[-1].upper() if parts else ""
        cells = "".join(parts[:-1]).upper()
        if len(cells) != n * n or set(cells) - set("BW.") or side not in ("B", "W"):
            example = self.format_position(self.start())
            raise BadPosition(f"othello position {text!r}: give {n} rows of B, W and . from the "
                              f"top, then B or W for the side to move, and 'passes 1' after a "
                              f"pass (2: the game is over), e.g. {example!r}")
        black = white = 0
        for index, mark in enumerate(cells):
            cell = index // n * s + index % n
            if mark == "B":
                black |= 1 << cell
            elif mark == "W":
                white |= 1 << cell
        return (black, white, True, passes) if side == "B" else (white, black, False, passes)

    def _parse_moves(self, text: str, words: list[str]) -> Position:
        position = self.start()
        for word in words:
            move = self.parse_cell(word)
            if move is None or move not in self.moves(position):
                legal = ", ".join(self.format_move(position, m) for m in self.moves(position)) or "none"
                raise BadPosition(f"othello moves {text!r}: {word!r} is not legal there "
                                  f"(legal: {legal})")
            position = self.play(position, move)
        return position

    def render(self, position: Position) -> str:
        n = self.size
        lines = ["   " + " ".join(COLUMNS[:n])]
        for r, row in enumerate(self.rows(position)):
            lines.append(f"{r + 1:>2} {' '.join(row)}")
        black, white = self.colours(position)
        if not self.moves(position):
            state = "game over" + self._final_words(position)
        else:
            state = f"{'Black' if position[2] else 'White'} to move"
        lines.append(f"Black {black.bit_count()}, White {white.bit_count()}; {state}")
        return "\n".join(lines)

    def _final_words(self, position: Position) -> str:
        """', White wins 13-3 (the empty cells go to the winner)' at a finished position."""
        mine, theirs = self.points(position)
        if mine == theirs:
            return f": a draw {mine}-{theirs}"
        winner = self.side_names(position)[0 if mine > theirs else 1]
        empty = "" if (position[0] | position[1]) == self.board else \
            " (the empty cells go to the winner)"
        return f": {winner} wins {max(mine, theirs)}-{min(mine, theirs)}{empty}"

    def picture(self, position: Position) -> Picture:
        return Picture(self.render(position))

    def player_marks(self, position: Position) -> tuple[str, str]:
        return ("B", "W") if position[2] else ("W", "B")


def _passes(parts: list[str], text: str) -> int:
    """Takes a trailing 'passes N' (the passes just played, as format_position writes them)
    off ``parts`` and returns N (0 without it)."""
    if len(parts) < 2 or parts[-2].lower() != "passes":
        return 0
    count = parts[-1]
    if count not in ("0", "1", "2"):
        raise BadPosition(f"othello position {text!r}: 'passes {count}' counts the passes just "
                          "played: 0, 1 or 2")
    del parts[-2:]
    return int(count)

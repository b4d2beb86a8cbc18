"""Connect Four on a bitboard, in pure Python (the compiled kernel is perfectplay.compiled).

Board layout (Pascal Pons' layout, "Solving Connect 4", blog part 6): column ``c`` owns bits
``c*(height+1) .. c*(height+1)+height-1`` from the bottom up, and one more bit above them that
is always empty. That sentinel row stops a line from wrapping round from the top of one column
to the bottom of the next, so a four in a row is found by shifts alone: by 1 (vertical),
``height+1`` (horizontal), ``height`` and ``height+2`` (the two diagonals).

A position is ``(mover, occupied, history)``: the side to move's stones, every stone, and the
columns played as the digit string the test sets use (so a position prints as its moves).
Only ``mover`` and ``occupied`` decide the game; :meth:`ConnectFour.key` ignores the history.

The test sets' score (data README, from Pons' blog part 2) is kept beside perfectplay's value:
``score_of`` and ``value_of_score`` convert between them. A win whose last stone is played
with ``m`` stones already on the board scores ``(width*height + 1 - m) // 2``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from perfectplay import value as V
from perfectplay.diagram import Diagram
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game, Outcome, Picture, Properties, ValueNote, zobrist_numbers
from perfectplay.games.connect4.own_methods import METHODS

Position = tuple[int, int, str]

STANDARD_WIDTH, STANDARD_HEIGHT = 7, 6
# The kernel proves the standard board from its start (42 empty squares) in minutes; a larger
# board is out of reach of an exact search until this few squares are left.
SOLVABLE_EMPTIES = STANDARD_WIDTH * STANDARD_HEIGHT
# Moves are single column digits, as in the test sets.
MAX_WIDTH = 9
# Zobrist numbers for the engine's table: first player's stone on bit b, second player's
# stone on bit b (64 + b), second player to move (128).
ZOBRIST = zobrist_numbers(129, seed=4)


def check_size(width: int, height: int) -> None:
    """Reject a board that the notation or a 64-bit bitboard cannot hold."""
    if not 1 <= width <= MAX_WIDTH:
        raise BadOption(f"--width {width}: Connect Four columns are written as one digit, "
                        f"so the width must be 1 to {MAX_WIDTH}")
    if height < 1:
        raise BadOption(f"--height {height}: the height must be at least 1")
    if (height + 1) * width > 64:
        raise BadOption(f"a {width}x{height} board does not fit a 64-bit bitboard: "
                        f"(height + 1) * width = {(height + 1) * width} > 64")


def has_four(stones: int, height: int) -> bool:
    """Whether ``stones`` hold four in a row, by shifting the board onto itself."""
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_squares(stones: int, occupied: int, height: int, board: int) -> int:
    """The empty squares where one more stone of ``stones`` would make four in a row
    (played or not yet playable)."""
    found = (stones << 1) & (stones << 2) & (stones << 3)  # three stacked below
    for shift in (height + 1, height, height + 2):
        two_below = (stones << shift) & (stones << 2 * shift)
        found |= two_below & (stones << 3 * shift)
        found |= two_below & (stones >> shift)
        two_above = (stones >> shift) & (stones >> 2 * shift)
        found |= two_above & (stones << shift)
        found |= two_above & (stones >> 3 * shift)
    return found & (board ^ occupied)


class ConnectFour(Game[Position, int]):
    """Moves are 0-based column numbers inside the engine, written 1-based."""

    name = "connect4"
    default_algorithm = "tt"
    method_modules = METHODS  # declared once, beside the entry

    def __init__(self, width: int = STANDARD_WIDTH, height: int = STANDARD_HEIGHT) -> None:
        check_size(width, height)
        self.width, self.height = width, height
        self.cells = width * height
        self.properties = Properties(can_draw=True, max_length=self.cells)
        column = (1 << height) - 1
        self.column_masks = tuple(column << c * (height + 1) for c in range(width))
        self.bottoms = tuple(1 << c * (height + 1) for c in range(width))
        self.tops = tuple(1 << (height - 1 + c * (height + 1)) for c in range(width))
        self.board = sum(self.column_masks)
        self.bottom_row = sum(self.bottoms)
        # Centre columns first: they take part in the most lines (Pons, part 4).
        self.order = tuple(sorted(range(width), key=lambda c: (abs(2 * c - (width - 1)), c)))

    # -- rules ---------------------------------------------------------------------------
    def start(self) -> Position:
        return (0, 0, "")

    def moves(self, position: Position) -> list[int]:
        """Every legal column, best-looking first, as the compiled kernel orders them (without
        it the Python engine once needed 43 M nodes where ordering needs a few thousand): a
        winning move first; then a move that blocks the opponent's immediate win; then the
        moves that do not put a stone under an opponent's winning square, most new threats
        first (Pons, "Solving Connect 4", part 10); the centre breaks ties. Moves are only
        ordered, never dropped: the search still sees every one."""
        mover, occupied, _ = position
        free = [c for c in self.order if not occupied & self.tops[c]]
        if len(free) < 2:
            return free
        height, board, masks = self.height, self.board, self.column_masks
        landing = (occupied + self.bottom_row) & board
        mine = winning_squares(mover, occupied, height, board)
        for column in free:
            if landing & mine & masks[column]:
                return [column, *(c for c in free if c != column)]
        theirs = winning_squares(mover ^ occupied, occupied, height, board)
        urgent = landing & theirs
        ranked = []
        for rank, column in enumerate(free):
            stone = landing & masks[column]
            threats = winning_squares(mover | stone, occupied | stone, height, board)
            ranked.append((not stone & urgent, bool(stone << 1 & theirs), -threats.bit_count(),
                           rank, column))
        ranked.sort()
        return [entry[-1] for entry in ranked]

    def solvable(self, position: Position) -> bool:
        return self.cells - position[1].bit_count() <= SOLVABLE_EMPTIES

    def legal_moves(self, position: Position) -> list[int]:
        """Every free column, unordered: what a database build needs (moves() ranks them for
        search, which took over 40% of a build's time, docs/benchmarks-log.md)."""
        occupied, tops = position[1], self.tops
        return [c for c in range(self.width) if not occupied & tops[c]]

    def play(self, position: Position, column: int) -> Position:
        mover, occupied, history = position
        return (mover ^ occupied, occupied | (occupied + self.bottoms[column]),
                history + str(column + 1))

    def outcome(self, position: Position) -> Outcome | None:
        mover, occupied, _ = position
        if has_four(mover ^ occupied, self.height):
            return Outcome.LOSS
        if occupied == self.board:
            return Outcome.DRAW
        return None

    def key(self, position: Position) -> int:
        # mover + occupied is unique: adding sets one bit above each column's stack.
        return position[0] + position[1]

    def evaluate(self, position: Position) -> int:
        """Open threats of the side to move minus the opponent's: cheap and inside the bounds."""
        mover, occupied, _ = position
        mine = winning_squares(mover, occupied, self.height, self.board)
        theirs = winning_squares(mover ^ occupied, occupied, self.height, self.board)
        return mine.bit_count() - theirs.bit_count()

    def headline(self, start: Position) -> str | None:
        """The catalogue's summary names the standard 7x6 board; another size names its own."""
        if (self.width, self.height) == (STANDARD_WIDTH, STANDARD_HEIGHT):
            return None
        return f"four in a row on the {self.width}x{self.height} board"

    # -- structure for databases (perfectplay.store) -------------------------------------
    def options(self) -> dict[str, object]:
        return {"width": self.width, "height": self.height}

    def tier(self, position: Position) -> int:
        """Stones on the board: every move adds one."""
        return position[1].bit_count()

    def tier_spec(self) -> Any:
        """The rules as @njit functions of the key, for the compiled database builder
        (games/connect4/tier_spec.py; numba is imported only there)."""
        from perfectplay.games.connect4.tier_spec import make_spec
        return make_spec(self.width, self.height)

    def rank(self, position: Position) -> int:
        """The key itself: mover + occupied fills each column's (height + 1) bits with a
        distinct number per column content, so it indexes ``2 ** ((height + 1) * width)``
        records (33.5 M for 5x4)."""
        return position[0] + position[1]

    def index_size(self) -> int:
        return 1 << ((self.height + 1) * self.width)

    def estimated_positions(self, position: Position) -> int:
        """An upper bound for `db build`'s size check: every way gravity allows to add m stones
        to this position's columns, times the ways to colour them with the side to move
        placing every other one, summed over m (as if no four ended a game). 201,755 for 4x4
        (161,029 reachable), 7.1 x 10^13 for 7x6 (John Tromp counts 4,531,985,219,092)."""
        from math import comb

        occupied = position[1]
        ways = [1]  # ways[m]: the ways to add m stones to the columns seen so far
        for mask in self.column_masks:
            room = self.height - (occupied & mask).bit_count()
            ways = [sum(ways[max(0, m - room):m + 1]) for m in range(len(ways) + room)]
        return sum(count * comb(m, (m + 1) // 2) for m, count in enumerate(ways))

    # -- 64-bit Zobrist keys for the depth-limited engine (perfectplay.engine) -----------
    def hash_key(self, position: Position) -> int:
        mover, occupied, history = position
        second = len(history) & 1
        first_stones = mover ^ occupied if second else mover
        key = ZOBRIST[128] if second else 0
        for bit in range(occupied.bit_length()):
            if occupied >> bit & 1:
                key ^= ZOBRIST[bit if first_stones >> bit & 1 else 64 + bit]
        return key

    def key_after(self, position: Position, column: int, key: int) -> int:
        occupied = position[1]
        bit = ((occupied + self.bottoms[column]) & ~occupied).bit_length() - 1
        return key ^ ZOBRIST[(len(position[2]) & 1) * 64 + bit] ^ ZOBRIST[128]

    def player_to_move(self, position: Position) -> int:
        return len(position[2]) & 1

    # -- the test sets' score ------------------------------------------------------------
    def stones(self, position: Position) -> int:
        return position[1].bit_count()

    def score_of(self, position: Position, value: int) -> int:
        """The test sets' score of a position whose exact value is ``value``."""
        if value == 0:
            return 0
        stones_before_last = self.stones(position) + V.remoteness(value) - 1
        score = (self.cells + 1 - stones_before_last) // 2
        return score if value > 0 else -score

    def value_note(self, position: Position, value: int) -> ValueNote:
        """The test sets' score, which solve and analyze print beside an exact value."""
        return ValueNote("score", self.score_of(position, value), "the Connect Four test sets' convention")

    def value_of_score(self, position: Position, score: int) -> int:
        """perfectplay's value (win or loss with its distance) of a position with ``score``."""
        if score == 0:
            return 0
        stones = self.stones(position)
        # The winner's last stone goes in with m stones on the board, m = cells + 1 - 2|s| or
        # one less; the right one has the winner's parity (the mover plays at m = stones).
        last = self.cells + 1 - 2 * abs(score)
        winner_parity = stones % 2 if score > 0 else (stones + 1) % 2
        if last % 2 != winner_parity:
            last -= 1
        plies = last - stones + 1
        return V.win_in(plies) if score > 0 else V.loss_in(plies)

    # -- notation ------------------------------------------------------------------------
    def format_move(self, position: Position, column: int) -> str:
        return str(column + 1)

    def diagram(self, position: Position, history: Sequence[tuple[Position, int]] = ()) -> Diagram:
        from perfectplay.games.connect4.diagram import draw
        return draw(self, position, history, winning_four(position[0] ^ position[1], self.height))

    def format_position(self, position: Position) -> str:
        return position[2]

    def parse_position(self, text: str) -> Position:
        """Column digits from the empty board, e.g. '4455'; '' is the empty board."""
        position = self.start()
        for index, char in enumerate("".join(text.split()), start=1):
            position = self._parse_step(position, index, char)
        return position

    def _parse_step(self, position: Position, index: int, char: str) -> Position:
        where = f"move {index} ({char!r})"
        if not char.isdigit():
            raise BadPosition(f"connect4: {where} is not a column digit 1-{self.width}")
        column = int(char) - 1
        if not 0 <= column < self.width:
            raise BadPosition(f"connect4: {where}: column {char} is outside the board "
                              f"(columns 1-{self.width})")
        if self.outcome(position) is not None:
            raise BadPosition(f"connect4: {where} comes after the game ended at move {index - 1}")
        if position[1] & self.tops[column]:
            raise BadPosition(f"connect4: {where}: column {char} is full")
        return self.play(position, column)

    def player_marks(self, position: Position) -> tuple[str, str]:
        return ("X", "O") if len(position[2]) % 2 == 0 else ("O", "X")  # X moves first

    def side_names(self, position: Position) -> tuple[str, str]:
        """As the page draws the discs (X red, O yellow), with the marks the text board uses."""
        named = {"X": "Red (X)", "O": "Yellow (O)"}
        mover, other = self.player_marks(position)
        return named[mover], named[other]

    def picture(self, position: Position) -> Picture:
        """The board with the last move and any winning four marked (and said in words)."""
        mover, occupied, history = position
        text = self.render(position)
        marks: list[tuple[int, int, str]] = []
        caption = None
        if history:
            column = int(history[-1]) - 1
            top = (occupied & self.column_masks[column]).bit_length() - 1 - column * (self.height + 1)
            marks.append((self.height - 1 - top, 2 * column, "underline bold"))
            text += "\n" + " " * (2 * column) + "^ last move"
        four = winning_four(mover ^ occupied, self.height)
        if four:
            for bit in range(four.bit_length()):
                if four >> bit & 1:
                    column, row = divmod(bit, self.height + 1)
                    marks.append((self.height - 1 - row, 2 * column, "reverse bold"))
            winner = "X" if len(history) % 2 == 1 else "O"
            caption = f"Four in a row for {winner}."
        return Picture(text, marks, caption)

    def render(self, position: Position) -> str:
        mover, occupied, history = position
        first = mover if len(history) % 2 == 0 else mover ^ occupied
        rows = []
        for row in reversed(range(self.height)):
            cells = []
            for column in range(self.width):
                bit = 1 << (row + column * (self.height + 1))
                cells.append("." if not occupied & bit else "X" if first & bit else "O")
            rows.append(" ".join(cells))
        rows.append(" ".join(str(c + 1) for c in range(self.width)))
        return "\n".join(rows)

    def random_position(self, rng: random.Random) -> Position:
        """A position some plies short of the end, small enough for the Python engine."""
        return random_late_position(self, rng, remaining=rng.randrange(4, 13))


def random_late_position(game: ConnectFour, rng: random.Random, remaining: int) -> Position:
    """Play random moves until ``remaining`` empty squares are left or the game is about to end;
    never plays a move that ends the game, so the result is always a live position."""
    position = game.start()
    while game.cells - game.stones(position) > remaining:
        live = [c for c in game.moves(position) if game.outcome(game.play(position, c)) is None]
        if not live:
            break
        position = game.play(position, rng.choice(live))
    return position


def winning_four(stones: int, height: int) -> int:
    """Every stone of ``stones`` that is part of a four in a row (the bitboard's shifts)."""
    found = 0
    for shift in (1, height + 1, height, height + 2):
        pairs = stones & (stones >> shift)
        starts = pairs & (pairs >> 2 * shift)
        found |= starts | starts << shift | starts << 2 * shift | starts << 3 * shift
    return found

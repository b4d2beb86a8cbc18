"""Dots and Boxes on a board of ``height`` x ``width`` boxes: players take turns drawing a line
between two neighbouring dots; a player who completes a box (its fourth side) scores it and
must move again (an extra turn: ``Properties(extra_turns=True)``, ``keeps_turn``). The game
ends when every line is drawn; the value is the margin of boxes still to win, from the side
to move, so at the start it is the final margin.

Lines are numbered 0..E-1: first the horizontal ones, row by row of dots (``height + 1``
rows of ``width``), then the vertical ones, row by row of boxes (``height`` rows of
``width + 1``). A position is ``(drawn, mover, scores)``: ``drawn`` the bitmask of lines
drawn, ``mover`` 0 for the first player (A) and 1 for the second (B), ``scores`` the boxes
each has taken. What is still to win depends on the lines alone, so the table key is
``drawn``. A line is written by its two dots, columns a, b, ... and rows 1, 2, ... from the
top: ``a1-b1`` (horizontal), ``a1-a2`` (vertical).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Diagram
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game, Kind, Properties
from perfectplay.games.dots.own_methods import METHODS

Position = tuple[int, int, tuple[int, int]]
MAX_SIDE = 6
PLAYERS = "AB"
_DOT = re.compile(r"^([a-z])(\d+)$")


# The largest board the numba table values (games/dots/kernel.py's MAX_LINES).
TABLED_LINES = 25
# On a board past the table, a position with this few lines left is searched exactly: by the
# chain-rule kernel (games/dots/chains.py; on six random 4x4 positions with 30 lines left,
# 0.3-1.2 CPU s each: benchmarks/dots_positions.py --left 30 --count 6), or in Python
# without numba.
CHAINS_LINES = 30
SEARCHED_LINES = 16


class DotsAndBoxes(Game[Position, int]):
    name = "dots"
    method_modules = METHODS  # declared once, beside the entry

    def __init__(self, width: int = 3, height: int = 3) -> None:
        for option, size in (("width", width), ("height", height)):
            if not 1 <= size <= MAX_SIDE:
                raise BadOption(f"--{option} {size}: Dots and Boxes takes 1 to {MAX_SIDE} boxes")
        self.width, self.height = width, height
        self.horizontal = (height + 1) * width
        self.edges = self.horizontal + height * (width + 1)
        self.boxes = width * height
        # Each box's four lines as a mask, and each line's one or two boxes.
        self.box_masks = [self._box_mask(row, column) for row in range(height) for column in range(width)]
        self.boxes_of = [[box for box, mask in enumerate(self.box_masks) if mask >> line & 1]
                         for line in range(self.edges)]
        self.full = (1 << self.edges) - 1
        # Past the table's 25 lines (3x4 boxes has 31) an exact search from an ordinary
        # position is too long for a user's command (the book holds solved openings).
        self.properties = Properties(kind=Kind.SCORE, extra_turns=True, max_length=self.edges,
                                     value_bound=self.boxes, too_big_to_solve=self.edges > TABLED_LINES)

    def _box_mask(self, row: int, column: int) -> int:
        top = row * self.width + column
        bottom = top + self.width
        left = self.horizontal + row * (self.width + 1) + column
        return 1 << top | 1 << bottom | 1 << left | 1 << (left + 1)

    def solvable(self, position: Position) -> bool:
        if self.edges <= TABLED_LINES:
            return True
        from perfectplay.compiled import numba_available
        from perfectplay.games.dots.book import answers
        undrawn = self.edges - position[0].bit_count()
        return answers(self, position) is not None or undrawn <= (
            CHAINS_LINES if numba_available() else SEARCHED_LINES)

    def options(self) -> dict[str, object]:
        return {"width": self.width, "height": self.height}

    # -- rules -----------------------------------------------------------------------
    def start(self) -> Position:
        return 0, 0, (0, 0)

    def completed(self, drawn: int, line: int) -> int:
        """Boxes that drawing ``line`` completes (0, 1 or 2)."""
        after = drawn | 1 << line
        return sum(1 for box in self.boxes_of[line]
                   if after & self.box_masks[box] == self.box_masks[box])

    def legal_moves(self, position: Position) -> list[int]:
        drawn = position[0]
        return [line for line in range(self.edges) if not drawn >> line & 1]

    def moves(self, position: Position) -> list[int]:
        """Lines that complete a box first, then lines that give no box away (leave no box
        with three sides), then the rest: the order alpha-beta prunes best with."""
        drawn = position[0]
        scoring, safe, rest = [], [], []
        for line in self.legal_moves(position):
            if self.completed(drawn, line):
                scoring.append(line)
            elif self._gives_away(drawn, line):
                rest.append(line)
            else:
                safe.append(line)
        return scoring + safe + rest

    def _gives_away(self, drawn: int, line: int) -> bool:
        after = drawn | 1 << line
        return any(bin(after & self.box_masks[box]).count("1") == 3 for box in self.boxes_of[line])

    def play(self, position: Position, move: int) -> Position:
        drawn, mover, scores = position
        taken = self.completed(drawn, move)
        if taken:
            new_scores = (scores[0] + taken, scores[1]) if mover == 0 else (scores[0], scores[1] + taken)
            return drawn | 1 << move, mover, new_scores
        return drawn | 1 << move, 1 - mover, scores

    def keeps_turn(self, position: Position, move: int) -> bool:
        return self.completed(position[0], move) > 0

    def gain(self, position: Position, move: int) -> int:
        return self.completed(position[0], move)

    holds_points = True

    def points(self, position: Position) -> tuple[int, int]:
        """The boxes the mover and the other player have taken."""
        _, mover, scores = position
        return scores[mover], scores[1 - mover]

    def side_names(self, position: Position) -> tuple[str, str]:
        mover = position[1]
        return (f"Player {PLAYERS[mover]}", f"Player {PLAYERS[1 - mover]}")

    def key(self, position: Position) -> int:
        return position[0]

    def tier(self, position: Position) -> int:
        return bin(position[0]).count("1")

    def tier_spec(self) -> Any:
        """The rules as ``@njit`` functions of the lines drawn, for the compiled database
        builder (games/dots/tiers.py; numba is imported only there)."""
        from perfectplay.games.dots.tiers import make_spec
        return make_spec(self.width, self.height, self.edges, tuple(self.box_masks),
                         tuple(tuple(boxes) for boxes in self.boxes_of))

    def rank(self, position: Position) -> int:
        """The key, the lines drawn as bits: a dense record file holds one record for each
        set of lines (16.8 million on 3x3)."""
        return position[0]

    def index_size(self) -> int:
        return 1 << self.edges

    def estimated_positions(self, position: Position) -> int:
        """Exact: every set of the lines not yet drawn can be drawn (the key is the lines)."""
        return 1 << self.edges - bin(position[0]).count("1")

    def total_points(self, position: Position) -> int:
        """Boxes not yet taken: what the two players will share from here."""
        drawn = position[0]
        return sum(1 for mask in self.box_masks if drawn & mask != mask)

    def player_to_move(self, position: Position) -> int:
        return position[1]

    def random_position(self, rng: random.Random) -> Position:
        position = self.start()
        # At most eight lines left: plain minimax (verify's reference) tries every order.
        for _ in range(rng.randrange(max(0, self.edges - 8), self.edges + 1)):
            legal = self.legal_moves(position)
            if not legal:
                break
            position = self.play(position, rng.choice(legal))
        return position

    # -- notation --------------------------------------------------------------------
    def _ends(self, line: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The line's two dots as (row, column)."""
        if line < self.horizontal:
            row, column = divmod(line, self.width)
            return (row, column), (row, column + 1)
        row, column = divmod(line - self.horizontal, self.width + 1)
        return (row, column), (row + 1, column)

    def format_move(self, position: Position, move: int) -> str:
        return "-".join(f"{chr(ord('a') + column)}{row + 1}" for row, column in self._ends(move))

    def diagram(self, position: Position, history: Sequence[tuple[Position, int]] = ()) -> Diagram:
        from perfectplay.games.dots.diagram import draw
        return draw(self, position, history)

    def parse_move(self, position: Position, text: str) -> int:
        """A line by its two dots in either order (``a1-b1`` or ``b1-a1``)."""
        wanted = text.strip().lower()
        legal = {self.format_move(position, line): line for line in self.legal_moves(position)}
        for spelling in (wanted, "-".join(reversed(wanted.split("-")))):
            if spelling in legal:
                return legal[spelling]
        return super().parse_move(position, text)  # raises IllegalMove, quoting the text

    def typed_move(self, notation: str) -> str:
        return notation

    def move_in_words(self, position: Position | None, move: int, notation: str) -> str:
        if position is None:
            return f"line {notation}"
        taken = self.completed(position[0], move)
        if not taken:
            return f"line {notation}"
        return f"line {notation} (completes {taken} box{'es' * (taken > 1)}: moves again)"

    def format_position(self, position: Position) -> str:
        """The lines drawn (or ``-``), the player to move, the score: ``a1-b1,a1-a2 B 0-0``."""
        drawn, mover, scores = position
        lines = ",".join(self.format_move(position, line) for line in range(self.edges)
                         if drawn >> line & 1) or "-"
        return f"{lines} {PLAYERS[mover]} {scores[0]}-{scores[1]}"

    def parse_position(self, text: str) -> Position:
        words = text.split()
        example = "e.g. 'a1-b1,a1-a2 B 0-0' or '- A 0-0' (no line yet)"
        if len(words) not in (1, 2, 3):
            raise BadPosition(f"dots position {text!r}: write the lines drawn, the player to "
                              f"move (A or B) and the score, {example}")
        mover = 0
        if len(words) >= 2:
            if words[1].upper() not in PLAYERS:
                raise BadPosition(f"dots position {text!r}: {words[1]!r} is not A or B")
            mover = PLAYERS.index(words[1].upper())
        drawn = 0
        if words[0] != "-":
            for written in words[0].split(","):
                line = self._line_of(written, text)
                if drawn >> line & 1:
                    raise BadPosition(f"dots position {text!r}: line {written!r} is drawn twice")
                drawn |= 1 << line
        boxes = self.boxes - self.total_points((drawn, 0, (0, 0)))
        scores = self._scores(words[2], text, boxes) if len(words) == 3 else _split(boxes, mover)
        return drawn, mover, scores

    def _line_of(self, written: str, text: str) -> int:
        ends = []
        for dot in written.strip().lower().split("-"):
            match = _DOT.match(dot)
            if not match:
                raise BadPosition(f"dots position {text!r}: {written!r} is not a line like a1-b1")
            ends.append((int(match.group(2)) - 1, ord(match.group(1)) - ord("a")))
        for line in range(self.edges):
            if sorted(ends) == sorted(self._ends(line)):
                return line
        raise BadPosition(f"dots position {text!r}: {written!r} is not a line between "
                          f"neighbouring dots of a {self.height}x{self.width} board")

    def _scores(self, word: str, text: str, boxes: int) -> tuple[int, int]:
        parts = word.split("-")
        if len(parts) != 2 or not all(part.isdigit() for part in parts):
            raise BadPosition(f"dots position {text!r}: the score {word!r} is not like 2-1")
        first, second = int(parts[0]), int(parts[1])
        if first + second != boxes:
            raise BadPosition(f"dots position {text!r}: the score {word} counts {first + second} "
                              f"boxes, but {boxes} are complete")
        return first, second

    def render(self, position: Position) -> str:
        drawn, mover, scores = position
        width = self.width
        lines = ["  " + "   ".join(chr(ord("a") + column) for column in range(width + 1))]
        for row in range(self.height + 1):
            dots = []
            for column in range(width):
                line = row * width + column
                dots.append("+" + ("---" if drawn >> line & 1 else "   "))
            lines.append(f"{row + 1} {''.join(dots)}+")
            if row == self.height:
                break
            cells = []
            for column in range(width + 1):
                line = self.horizontal + row * (width + 1) + column
                side = "|" if drawn >> line & 1 else " "
                box = row * width + column
                inside = ""
                if column < width:
                    mask = self.box_masks[box]
                    inside = " # " if drawn & mask == mask else "   "
                cells.append(side + inside)
            lines.append("  " + "".join(cells))
        if drawn == self.full:
            lines.append(f"game over: A {scores[0]}, B {scores[1]}")
        else:
            lines.append(f"{PLAYERS[mover]} to move; boxes A {scores[0]}, B {scores[1]}")
        return "\n".join(lines)

    def headline(self, start: Position) -> str | None:
        return (f"Dots and Boxes on {self.height}x{self.width} boxes: draw a line; complete a "
                "box to score it and move again")


def _split(boxes: int, mover: int) -> tuple[int, int]:
    """A score for a position given without one: the boxes already taken, all credited to
    the player to move (only the margin still to win matters to the search)."""
    return (boxes, 0) if mover == 0 else (0, boxes)


def brute_force_value(game: DotsAndBoxes, position: Position) -> int:
    """The margin still to win for the side to move, by max/min over the players A and B (A
    maximises A's final score minus B's) from the scores in the positions alone: it never
    asks gain or keeps_turn and never negates a child's value. Small boards only."""
    memo: dict[tuple[int, int], int] = {}

    def a_gains(node: Position) -> int:
        drawn, mover, scores = node
        found = memo.get((drawn, mover))
        if found is not None:
            return found
        moves = game.legal_moves(node)
        if not moves:
            value = 0
        else:
            results = []
            for move in moves:
                child = game.play(node, move)
                earned = (child[2][0] - scores[0]) - (child[2][1] - scores[1])
                results.append(earned + a_gains(child))
            value = max(results) if mover == 0 else min(results)
        memo[(drawn, mover)] = value
        return value

    value = a_gains(position)
    return value if position[1] == 0 else -value


def sized(width: object, height: object) -> DotsAndBoxes:
    return DotsAndBoxes(_whole(width, "width", 3), _whole(height, "height", 3))


def _whole(given: object, option: str, default: int) -> int:
    if given is None:
        return default
    try:
        return int(given)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise BadOption(f"--{option} {given!r}: give a whole number") from None

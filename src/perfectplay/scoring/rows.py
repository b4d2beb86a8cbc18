"""Row games: score games played on a row of values, where a move takes items from the ends.

The crate line (take the leftmost crate, the two leftmost, or the rightmost) and the coin
row ("take a coin from either end", the classic Optimal Strategy for a Game) are both row
games; they differ only in which end-takes are legal. A move is written by what it takes:
``"L"`` one from the left, ``"LL"`` two from the left, ``"R"`` one from the right, ``"LR"``
one from each end. The mover scores the sum of
what they take, so a position is just the range ``[left, right)`` still on the table, and the
value satisfies f(range) = max over moves (gain - f(rest)).

Every move shortens the range, so ordering ranges by length is an order in which every move
leads to an earlier position: that is what makes bottom-up tabulation possible
(perfectplay.search.tabulation, and the fast kernel in perfectplay.scoring.kernel).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import accumulate

from perfectplay.diagram import Diagram, Item, Row
from perfectplay.errors import BadPosition
from perfectplay.game import Game, Kind, Properties

Range = tuple[int, int]
# (taken from the left, taken from the right)
EndTake = tuple[int, int]


def take_name(take: EndTake) -> str:
    """'L' * left + 'R' * right: the crate line's L, LL and R."""
    left, right = take
    return "L" * left + "R" * right


class RowGame(Game[Range, str]):
    """A row of non-negative values; ``takes`` lists the legal end-takes in the order
    moves() offers them (alpha-beta and the line's tie-breaks follow this order)."""

    name = "row"
    takes: tuple[EndTake, ...] = ((1, 0), (0, 1))
    default_algorithm = "table"
    # Words used in error messages: "crate values", "coin values".
    item = "value"
    # How the web page draws an item: "blocks" (crates) or "discs" (coins).
    item_shape = "blocks"

    def __init__(self, values: Sequence[int]) -> None:
        bad = [value for value in values if not isinstance(value, int) or value < 0]
        if bad:
            raise BadPosition(f"{self.item} values must be whole numbers, 0 or more "
                              f"(got {bad[0]!r} in {list(values)!r})")
        self.values = tuple(values)
        # Exact Python ints: totals never overflow (2,000 values of 10^6 pass 32-bit int).
        self.prefix = (0, *accumulate(self.values))
        self.names = tuple(take_name(take) for take in self.takes)
        self._take_of = dict(zip(self.names, self.takes, strict=True))
        self.properties = Properties(kind=Kind.SCORE, value_bound=self.prefix[-1],
                                     max_length=len(self.values))

    def move_in_words(self, position: Range | None, move: str, notation: str) -> str:
        """'LL (takes the crates [3] [9] on the left: 12 points)'."""
        if position is None:
            return notation
        left, right = position
        taken_left = len(move) - len(move.lstrip("L"))
        taken_right = len(move) - taken_left
        parts = []
        if taken_left:
            parts.append(" ".join(f"[{v}]" for v in self.values[left:left + taken_left]) + " on the left")
        if taken_right:
            parts.append(" ".join(f"[{v}]" for v in self.values[right - taken_right:right]) + " on the right")
        items = self.item + ("s" if taken_left + taken_right > 1 else "")
        points = self.gain(position, move)
        worth = f"{points} point" + ("" if points == 1 else "s")
        return f"{notation} (takes the {items} {' and '.join(parts)}: {worth})"

    def diagram(self, span: Range, history: Sequence[tuple[Range, str]] = ()) -> Diagram:
        """The row with the items taken greyed; a click on an end item takes it alone (the
        move buttons play the other takes)."""
        left, right = span
        legal = set(self.moves(span))
        ends = {left: self._take_name((1, 0)), right - 1: self._take_name((0, 1))}
        items = tuple(Item(str(value), "" if left <= i < right else "gone",
                           ends[i] if i in ends and ends[i] in legal else None)
                      for i, value in enumerate(self.values))
        return Row(style=self.item_shape, items=items)

    def _take_name(self, take: EndTake) -> str | None:
        return self.names[self.takes.index(take)] if take in self.takes else None

    # -- rules ---------------------------------------------------------------------------
    def start(self) -> Range:
        return (0, len(self.values))

    def moves(self, span: Range) -> list[str]:
        length = span[1] - span[0]
        return [name for name, (left, right) in zip(self.names, self.takes, strict=True)
                if left + right <= length]

    def play(self, span: Range, move: str) -> Range:
        left, right = self._take_of[move]
        return (span[0] + left, span[1] - right)

    def gain(self, span: Range, move: str) -> int:
        left, right = self._take_of[move]
        prefix = self.prefix
        return (prefix[span[0] + left] - prefix[span[0]]
                + prefix[span[1]] - prefix[span[1] - right])

    def total_points(self, span: Range) -> int:
        return self.prefix[span[1]] - self.prefix[span[0]]

    def tabulation(self, span: Range) -> Iterator[Range]:
        """Every range inside ``span``, shortest first: a move always shortens the range."""
        first, last = span
        for length in range(last - first + 1):
            for left in range(first, last - length + 1):
                yield (left, left + length)

    # -- notation ------------------------------------------------------------------------
    def format_position(self, span: Range) -> str:
        return " ".join(map(str, self.values[span[0]:span[1]]))

    def parse_position(self, text: str) -> Range:
        """The range of the row whose values ``text`` lists, as format_position writes it:
        the leftmost such run (two runs of equal values have equal values to play for)."""
        wanted = tuple(self._numbers(text))
        size = len(wanted)
        for left in range(len(self.values) - size + 1):
            if self.values[left:left + size] == wanted:
                return (left, left + size)
        raise BadPosition(f"{self.item} values {text!r} are not a run of this row "
                          f"({self.format_position(self.start())!r})")

    def _numbers(self, text: str) -> list[int]:
        numbers = []
        for token in text.replace(",", " ").split():
            if not token.isdigit():
                raise BadPosition(f"{self.item} values {text!r}: {token!r} is not a whole "
                                  "number, 0 or more")
            numbers.append(int(token))
        return numbers

    def render(self, span: Range) -> str:
        left, right = span
        if left >= right:
            return f"(no {self.item}s left)"
        return "  ".join(f"[{value}]" for value in self.values[left:right])


def line_totals(game: RowGame, line: Sequence[str]) -> tuple[int, int]:
    """Points each player scores along ``line`` from the start (first player, second)."""
    earned = [0, 0]
    position = game.start()
    for ply, move in enumerate(line):
        earned[ply % 2] += game.gain(position, move)
        position = game.play(position, move)
    return earned[0], earned[1]

"""The claim line: items 0..n-1 in a row; a move claims an available item, one that is
unclaimed and not blocked; the player who cannot move loses. By default a claimed item blocks
both neighbours (the octal game 0.137, Dawson's chess); with block="right" it blocks only its
right neighbour (the octal game 0.37).

A position is (n, claimed bitmask). Its key is a compressed state, the set of
still-available items (plus a marker bit at n): claimed items never come back, so the
available set decides the rest of the game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from perfectplay import diagram
from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text, tour_solver
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game, Properties
from perfectplay.games._size import refuse_long_move_list
from perfectplay.impartial.sums import SPLIT_WINDOW, Component, Step, SumAdapter, heap_value

Row = tuple[int, int]
BLOCK_RULES = ("both", "right")


# The longest line the web page draws as squares.
DRAWN_ITEMS = 200


class ClaimLine(Game[Row, int]):
    name = "claim"

    def __init__(self, n: int = 12, *, block: str = "both") -> None:
        if block not in BLOCK_RULES:
            raise BadOption(f"block rule {block!r} is not one of: {', '.join(BLOCK_RULES)}")
        self.n = n
        self.block = block
        self.properties = Properties(impartial=True)

    def sum_adapter(self) -> SumAdapter:
        """Runs of available items, each a heap of an octal game (perfectplay.impartial)."""
        return ClaimAdapter(self)

    def available(self, row: Row) -> int:
        n, claimed = row
        full = (1 << n) - 1
        if self.block == "both":
            return ~(claimed | claimed << 1 | claimed >> 1) & full
        return ~(claimed | claimed << 1) & full

    def start(self) -> Row:
        return (self.n, 0)

    def diagram(self, row: Row, history: Sequence[tuple[Row, int]] = ()) -> diagram.Diagram:
        """The items as squares, claimed dark, blocked grey; a click on a free one claims it.
        A line too long to draw is its text."""
        n, claimed = row
        if n > DRAWN_ITEMS:
            return diagram.Text(text=self.format_position(row))
        free = self.available(row)
        return diagram.Row(style="squares", items=tuple(
            diagram.Item("", "claimed" if claimed >> i & 1 else "" if free >> i & 1 else "blocked",
                         self.format_move(row, i) if free >> i & 1 else None, str(i)) for i in range(n)))

    def moves(self, row: Row) -> list[int]:
        refuse_long_move_list(row[0], f"claim line of {row[0]:,} items")
        free = self.available(row)
        return [item for item in range(row[0]) if free >> item & 1]

    def play(self, row: Row, item: int) -> Row:
        return (row[0], row[1] | 1 << item)

    def key(self, row: Row) -> int:
        return self.available(row) | 1 << row[0]

    def runs(self, row: Row) -> list[tuple[int, int]]:
        """(first item, length) of each run of consecutive available items, from the claimed
        items alone, so a row of 10^18 items costs no more than its claims."""
        n, claimed = row
        gap = 2 if self.block == "both" else 1  # unavailable items left of a claimed one
        runs = []
        start = 0
        while claimed:
            item = (claimed & -claimed).bit_length() - 1
            claimed &= claimed - 1
            if item - gap + 1 > start:
                runs.append((start, item - gap + 1 - start))
            start = item + 2
        if n > start:
            runs.append((start, n - start))
        return runs

    def components(self, row: Row) -> list[Row]:
        # Claiming in one run never touches another, and a run of k available items plays
        # exactly like a fresh row of k items.
        return [(length, 0) for _start, length in self.runs(row)]

    def format_position(self, row: Row) -> str:
        n, claimed = row
        if not claimed and n > 10_000:
            return str(n)  # a row too long to draw; parse_position reads it back
        return "".join("x" if claimed >> item & 1 else "." for item in range(n))

    def parse_position(self, text: str) -> Row:
        text = text.strip()
        if text.isdigit():
            return (int(text), 0)
        if text.startswith("-") and text[1:].isdigit():
            raise BadPosition(f"claim position {text!r}: the row length {text} is below 0")
        if not text or set(text) - set(".xX"):
            raise BadPosition(f"claim position {text!r}: give a row length like 12, or a row "
                              "like '..x...' with x for claimed items")
        claimed = sum(1 << item for item, mark in enumerate(text) if mark in "xX")
        row = (len(text), claimed)
        # Under the default rule no two claimed items touch: whichever came second was blocked.
        blocked = claimed & (claimed << 1) if self.block == "both" else 0
        if blocked:
            item = (blocked & -blocked).bit_length() - 1
            raise BadPosition(f"claim position {text!r}: item {item} could not have been "
                              f"claimed next to item {item - 1}")
        return row

    def render(self, row: Row) -> str:
        n, claimed = row
        free = self.available(row)
        marks = ["X" if claimed >> i & 1 else "." if free >> i & 1 else "-" for i in range(n)]
        numbers = " ".join(f"{i:>2}" for i in range(n))
        return numbers + "\n" + " ".join(f"{m:>2}" for m in marks) + "\n(X claimed, - blocked, . available)"

    def random_position(self, rng: random.Random) -> Row:
        n = rng.randrange(1, 11)
        row = (n, 0)
        for _ in range(rng.randrange(0, 3)):
            legal = self.moves(row)
            if not legal:
                break
            row = self.play(row, rng.choice(legal))
        return row



class ClaimAdapter(SumAdapter):
    """Runs of available items of the claim line, components (first item, length). A run
    plays as the octal game 0.137 (a claim removes the item and both neighbours) or, with
    ``block="right"``, 0.37 (the item and its right neighbour); tests check both by search."""

    def __init__(self, game: ClaimLine) -> None:
        from perfectplay.impartial.octal import analysed

        self.game = game
        self.line = game
        self.both = game.block == "both"
        # 0.137 is certified from 256 values; 0.37 has no period we know of, so its values
        # are computed as far as a position needs (heap_value) rather than searched for one.
        self.analysis = analysed("0.137" if self.both else "0.37", 256)

    def split(self, row: Any) -> list[Component]:
        return self.line.runs(row)

    def value(self, component: Component) -> int:
        return heap_value(self.analysis, component[1])

    def steps(self, component: Component) -> Iterator[Step]:
        start, length = component
        for offset in self._offsets(length):
            if self.both:
                left, right_start = max(offset - 1, 0), offset + 2
            else:
                left, right_start = offset, offset + 2
            parts = [(start, left)] if left else []
            if right_start < length:
                parts.append((start + right_start, length - right_start))
            yield start + offset, parts

    def _offsets(self, length: int) -> Sequence[int]:
        if length <= 2 * SPLIT_WINDOW:
            return range(length)
        self.exhaustive = False
        middle = length // 2
        return (*range(SPLIT_WINDOW), *range(middle - SPLIT_WINDOW, middle + 1),
                *range(length - SPLIT_WINDOW, length))

    def notation(self, state: list[Component], index: int, move: Any) -> str:
        return str(move)

def _load(options: Options, text: str | None) -> Loaded:
    return from_text(ClaimLine(block=options.get("block") or "both"), text)


def _sized(options: Options, n: int) -> Loaded:
    return ClaimLine(n, block=options.get("block") or "both"), (n, 0)


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop: outcomes for n = 1..12, and n = 5 and 20 solved."""
    solved = tour_solver(solve, _load)
    claim = [solved(str(n)).outcome for n in range(1, 13)]
    five = solved("5")
    return ["claim line outcomes n=1..12: " + " ".join("W" if o == "win" else "L" for o in claim),
            f"  n=5: winning first moves {five.best_moves}; n=20: {solved('20').describe()}", ""]


def tour_at_scale(solve: TourSolve) -> list[str]:
    """The tour's first stop of theory at scale: a line of 10^18 items, by its period."""
    huge = tour_solver(solve, _load)(str(10**18))
    return ["Theory at scale:",
            f"  claim line with 10^18 items: {huge.outcome} (the claim line is octal game 0.137)"]


ENTRY = Entry("claim", "claim an item with no claimed neighbour; who cannot move loses",
              "N, or a row like '..x....' (x = claimed)", _load, aliases=("claim-line",),
              options=("block",), sized=_sized,
              contest="perfectplay.games.claim.command:claim_contest_command",
              tour=(TourStop(40, "perfectplay.games.claim:tour_lines"),
                    TourStop(60, "perfectplay.games.claim:tour_at_scale")), order=50)

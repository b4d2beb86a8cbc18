"""Nim (solved by Bouton 1902: the XOR of the piles): piles of sticks; a move takes any
positive number from one pile. Normal play: taking the last stick wins; misère play
(--misere): it loses.

Moves are written ROW:COUNT with rows numbered from 1 ("2:3" takes 3 from row 2); "2 3" and
"2,3" are read too.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import DRAWN_OBJECTS, Diagram, Heap, Heaps
from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text, tour_solver
from perfectplay.errors import IllegalMove
from perfectplay.game import Game, Picture, Properties
from perfectplay.games._parse import parse_ints
from perfectplay.games._size import refuse_long_move_list

Piles = tuple[int, ...]
Move = tuple[int, int]

# Sticks drawn at most: past this a row shows the first ones, "..." and its count, so a pile
# of 300 does not wrap across an 80-column screen (the count is always shown).
STICKS_SHOWN = 60
SPACED_UP_TO = 30  # rows this short are drawn "| | |", longer ones "|||"

_MOVE = re.compile(r"^\s*(\d+)\s*[:, ]\s*(\d+)\s*$")


STICKS_HELP = ("Click a stick to take it and every stick right of it. Hover for the value; buttons list "
               "every move.")


class Nim(Game[Piles, Move]):
    name = "nim"
    taken_item = "stick"

    def __init__(self, piles: Sequence[int] = (3, 4, 5), *, misere: bool = False) -> None:
        self.piles = tuple(piles)
        self.properties = Properties(misere=misere, impartial=True)

    # -- theory and presentation ----------------------------------------------------------
    def sum_adapter(self) -> Any:
        """Each pile is a component whose Grundy value is its size (Bouton 1902); misère
        play has its closed form too (perfectplay.impartial)."""
        from perfectplay.impartial.sums import NimAdapter
        return NimAdapter(self)

    def picture(self, piles: Piles) -> Picture:
        return Picture(sticks(piles))

    # How the web page draws a pile (perfectplay.diagram.Heaps' styles).
    heap_style = "sticks"

    def diagram(self, piles: Piles, history: Sequence[tuple[Piles, Move]] = ()) -> Diagram:
        """Each pile as a row of sticks: a click on one takes it and every stick right of it."""
        heaps = tuple(Heap(size, tuple(self.format_move(piles, (row, size - j))
                                       for j in range(min(size, DRAWN_OBJECTS))))
                      for row, size in enumerate(piles))
        return Heaps(style=self.heap_style, heaps=heaps, help=STICKS_HELP)

    def move_in_words(self, position: Piles | None, move: Move, notation: str) -> str:
        row, take = move
        return f"{notation} (takes {_count(take, 'stick')} from row {row + 1})"

    def typed_move(self, notation: str) -> str:
        return notation.replace(":", " ")  # rows of sticks read "ROW COUNT" most naturally

    def start(self) -> Piles:
        return self.piles

    def moves(self, piles: Piles) -> list[Move]:
        refuse_long_move_list(sum(piles), f"nim {self.format_position(piles)}")
        # Big takes first: they end the game sooner, which tightens the window early.
        return [(row, take) for row, size in enumerate(piles) for take in range(size, 0, -1)]

    def is_legal(self, piles: Piles, move: Move) -> bool:
        # Without listing moves: a heap of 10^30 has 10^30 of them (`play nim 10^30`).
        row, take = move
        return 0 <= row < len(piles) and 1 <= take <= piles[row]

    def has_moves(self, piles: Piles) -> bool:
        return any(piles)

    def play(self, piles: Piles, move: Move) -> Piles:
        row, take = move
        return piles[:row] + (piles[row] - take,) + piles[row + 1:]

    def key(self, piles: Piles) -> Piles:
        # The order of the piles and the empty ones do not change the game.
        return tuple(sorted(size for size in piles if size))

    def components(self, piles: Piles) -> list[Piles]:
        # Each pile is a game of its own: the sum is what the XOR rule solves.
        return [(size,) for size in piles if size]

    def format_move(self, piles: Piles, move: Move) -> str:
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, piles: Piles, text: str) -> Move:
        match = _MOVE.match(text)
        if not match:
            raise IllegalMove(f"{text!r} is not a move; write ROW COUNT, e.g. '1 3' takes 3 from row 1")
        row, take = int(match.group(1)), int(match.group(2))
        if not 1 <= row <= len(piles):
            raise IllegalMove(f"{text!r}: there is no row {row}; rows are 1 to {len(piles)}")
        if take < 1:
            raise IllegalMove(f"{text!r}: take at least one stick")
        if take > piles[row - 1]:
            raise IllegalMove(f"{text!r}: row {row} has only {piles[row - 1]} sticks")
        return (row - 1, take)

    def format_position(self, piles: Piles) -> str:
        return " ".join(map(str, piles))

    def parse_position(self, text: str) -> Piles:
        return tuple(parse_ints(text, "nim piles"))

    def render(self, piles: Piles) -> str:
        width = len(str(len(piles)))
        return "\n".join(f"{row + 1:>{width}}: {'|' * size} ({size})"
                         for row, size in enumerate(piles))

    def random_position(self, rng: random.Random) -> Piles:
        # Small enough for plain minimax, the reference of `perfectplay verify`.
        return tuple(rng.randrange(0, 5) for _ in range(rng.randrange(1, 4)))



def sticks(piles: tuple[int, ...]) -> str:
    """One layout for Nim and the matchgame: 'row 1: | | |  (3)', counts always shown."""
    widest = min(max(piles, default=0), STICKS_SHOWN)
    spaced = widest <= SPACED_UP_TO
    lines = []
    for row, size in enumerate(piles):
        shown = min(size, STICKS_SHOWN - 3) if size > STICKS_SHOWN else size
        bars = (" ".join("|" * shown) if spaced else "|" * shown) + ("..." if shown < size else "")
        lines.append(f"row {row + 1}: {bars.ljust(2 * widest if spaced else widest)} ({size})")
    return "\n".join(lines)


def _count(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"

def _load(options: Options, text: str | None) -> Loaded:
    return from_text(Nim(misere=bool(options.get("misere"))), text)


def _sized(options: Options, n: int) -> Loaded:
    game, _ = _load(options, None)
    return game, (n,)


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop: three positions by Sprague-Grundy theory and by tt."""
    solved = tour_solver(solve, _load)
    lines = ["Nim: Sprague-Grundy theory (instant) and search with remoteness (tt):"]
    for piles in ("3 4 5", "1 2 3", "7 5 3 1"):
        theory = solved(piles)
        searched = solved(piles, algorithm="tt")
        lines.append(f"  {piles:<8} {theory.outcome:<5} by XOR; {searched.describe():<12} by tt; "
                     f"best {' '.join(searched.best_moves)}")
    return lines


ENTRY = Entry("nim", "piles; take any number from one pile; last stick wins (--misere: loses)",
              "PILE..., e.g. 3 4 5", _load, options=("misere",), sized=_sized,
              tour=(TourStop(50, "perfectplay.games.nim:tour_lines"),
                    TourStop(91, suggestion="solve nim 3 4 5")), order=20)

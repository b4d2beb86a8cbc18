"""The take-away game (a subtraction game; Berlekamp, Conway and Guy, *Winning Ways*): one
pile, a move takes an amount from a subtraction set (1, 2 or 3 by default), and whoever takes
the last stick wins (loses under misère play)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from perfectplay.diagram import DRAWN_OBJECTS, Diagram, Heap, Heaps
from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text, tour_solver
from perfectplay.errors import BadOption
from perfectplay.game import Game, Properties
from perfectplay.games._parse import parse_count
from perfectplay.impartial.octal_code import subtraction_code
from perfectplay.impartial.sums import Component, HeapAdapter, Step, SumAdapter


class TakeAway(Game[int, int]):
    name = "takeaway"
    default_algorithm = "memo"
    taken_item = "stick"

    def __init__(self, takes: Sequence[int] = (1, 2, 3), *, sticks: int = 20,
                 misere: bool = False) -> None:
        if not takes or min(takes) < 1:
            raise BadOption(f"subtraction set {list(takes)!r} must hold positive amounts")
        # Ascending: the published call counts (266,079 plain, 58 memoized at 20) assume it.
        self.takes = tuple(sorted(set(takes)))
        self.sticks = sticks
        self.properties = Properties(misere=misere, impartial=True)

    def start(self) -> int:
        return self.sticks

    def moves(self, pile: int) -> list[int]:
        return [take for take in self.takes if take <= pile]

    def play(self, pile: int, take: int) -> int:
        return pile - take

    def tabulation(self, pile: int) -> range:
        """Piles by size: a move always makes the pile smaller."""
        return range(0, pile + 1)

    def components(self, pile: int) -> list[int]:
        # One pile, one component: declared so the Sprague-Grundy solver takes the game.
        return [pile]

    def sum_adapter(self) -> SumAdapter:
        return TakeAwayAdapter(self)

    def move_in_words(self, position: int | None, take: int, notation: str) -> str:
        return f"{notation} (takes {take} stick{'' if take == 1 else 's'})"

    def parse_position(self, text: str) -> int:
        return parse_count(text, "take-away pile")

    def diagram(self, pile: int, history: Sequence[tuple[int, int]] = ()) -> Diagram:
        """The pile as sticks: a click on one takes it and every stick right of it, where
        that many is a move."""
        takes = tuple(self.format_move(pile, pile - j) if pile - j in self.takes else None
                      for j in range(min(pile, DRAWN_OBJECTS)))
        return Heaps(style="sticks", heaps=(Heap(pile, takes),), numbered=False, help=(
            "Click a stick to take it and every stick right of it, where that many is a move."))

    def render(self, pile: int) -> str:
        return f"{pile} sticks: " + "|" * min(pile, 60) + ("..." if pile > 60 else "")

    def random_position(self, rng: random.Random) -> int:
        return rng.randrange(0, 25)



class TakeAwayAdapter(HeapAdapter):
    """One take-away pile for the Sprague-Grundy solver: a subtraction game, so a heap of the
    octal game with 3 at each amount it allows."""

    def __init__(self, game: TakeAway) -> None:
        super().__init__(game, subtraction_code(game.takes))
        self.takes = game.takes

    def split(self, pile: Any) -> list[Component]:
        return [pile] if pile else []

    def steps(self, component: Component) -> Iterator[Step]:
        for take in self.takes:
            if take <= component:
                yield take, [component - take] if take < component else []

    def game_move(self, state: list[Component], index: int, move: Any) -> Any:
        return move

# The largest amount a subtraction set may hold: its theory builds a rule of that many digits.
MAX_TAKE = 1_000_000


def subtraction_set(options: Options) -> tuple[int, ...]:
    """The amounts ``--take`` allows (1,2,3 when not given), checked."""
    text = options.get("take") or "1,2,3"
    try:
        takes = tuple(int(part) for part in str(text).replace(" ", "").split(",") if part)
    except ValueError:
        raise BadOption(f"--take {text!r}: give whole numbers separated by commas, e.g. 1,2,3") from None
    if not takes or min(takes) < 1:
        raise BadOption(f"--take {text!r}: amounts must be positive")
    if max(takes) > MAX_TAKE:
        raise BadOption(f"--take {text!r}: amounts must be at most {MAX_TAKE:,}")
    return takes


def _load(options: Options, text: str | None) -> Loaded:
    return from_text(TakeAway(subtraction_set(options), misere=bool(options.get("misere"))), text)


def _sized(options: Options, n: int) -> Loaded:
    game, _ = _load(options, None)
    return game, n


def tour_lines(solve: TourSolve) -> list[str]:
    """The tour's stop: outcomes for 1..8, and memoization's saving at n=20."""
    solved = tour_solver(solve, _load)
    outcomes = [solved(str(n)).outcome for n in range(1, 9)]
    plain = solved("20", algorithm="minimax")
    cached = solved("20", algorithm="memo")
    return ["take-away (take 1-3, last stick wins), outcomes for 1..8:",
            "  " + " ".join(f"{n}:{'lose' if o == 'loss' else o}" for n, o in enumerate(outcomes, 1)),
            f"  n=20: {plain.describe()}; calls: plain {plain.stats.nodes:,}, memoized "
            f"{cached.stats.nodes:,}; same answer: {plain.value == cached.value}", ""]


ENTRY = Entry("takeaway", "one pile; take an amount from the subtraction set; last stick wins",
              "PILE, e.g. 20", _load, aliases=("take-away", "subtraction"),
              options=("take", "misere"), sized=_sized,
              tour=(TourStop(10, "perfectplay.games.takeaway:tour_lines"),), order=10)

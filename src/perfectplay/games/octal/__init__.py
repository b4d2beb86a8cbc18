"""Octal games (Winning Ways, chapter 4) as playable games: heaps of tokens; a move removes
tokens from one heap as the code allows, possibly leaving two heaps. ``--code 0.77`` is
Kayles, ``0.137`` Dawson's chess, ``0.333`` the subtraction game {1, 2, 3}.

A position is the tuple of heap sizes. Moves are written HEAP:TAKE (heaps numbered from 1)
when at most one heap is left, and HEAP:TAKE/LEFT when the rest is split into a heap of LEFT
and another (LEFT the smaller part, either order read).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from perfectplay import diagram
from perfectplay.diagram import Diagram
from perfectplay.entry import Entry, Loaded, Options, TourSolve, TourStop, from_text
from perfectplay.errors import BadPosition, IllegalMove
from perfectplay.game import Game, Properties
from perfectplay.games._parse import parse_ints
from perfectplay.games._size import refuse_long_move_list
from perfectplay.impartial.octal_code import OctalCode, parse_code

Heaps = tuple[int, ...]
Move = tuple[int, int, int]  # (heap index, tokens taken, size of the left part; 0 = no split)

_MOVE = re.compile(r"^\s*(\d+)\s*:\s*(\d+)\s*(?:/\s*(\d+))?\s*$")


class OctalGame(Game[Heaps, Move]):
    name = "octal"

    def __init__(self, code: OctalCode | str = "0.77", heaps: tuple[int, ...] = (10,), *,
                 misere: bool = False) -> None:
        self.code = parse_code(code) if isinstance(code, str) else code
        self.heaps = tuple(heaps)
        self.properties = Properties(misere=misere, impartial=True)

    def sum_adapter(self) -> Any:
        """Each heap a component, valued through the code's certified period."""
        from perfectplay.impartial.sums import HeapAdapter
        return HeapAdapter(self, self.code)

    def start(self) -> Heaps:
        return self.heaps

    def moves(self, heaps: Heaps) -> list[Move]:
        refuse_long_move_list(sum(heaps), f"octal {self.format_position(heaps)}")
        return [(index, take, left) for index, size in enumerate(heaps)
                for take, left, _right in self.code.heap_moves(size)]

    def play(self, heaps: Heaps, move: Move) -> Heaps:
        index, take, left = move
        right = heaps[index] - take - left
        return heaps[:index] + tuple(part for part in (left, right) if part) + heaps[index + 1:]

    def key(self, heaps: Heaps) -> Heaps:
        return tuple(sorted(size for size in heaps if size))

    def components(self, heaps: Heaps) -> list[Heaps]:
        return [(size,) for size in heaps if size]

    def format_move(self, heaps: Heaps, move: Move) -> str:
        index, take, left = move
        return f"{index + 1}:{take}" + (f"/{left}" if left else "")

    def parse_move(self, heaps: Heaps, text: str) -> Move:
        match = _MOVE.match(text)
        if not match:
            raise IllegalMove(f"{text!r} is not a move; write HEAP:TAKE or HEAP:TAKE/LEFT, "
                              "e.g. '1:2' or '1:2/3'")
        index, take = int(match.group(1)) - 1, int(match.group(2))
        left = int(match.group(3) or 0)
        if 0 <= index < len(heaps):
            left = min(left, heaps[index] - take - left) if left else 0
        return super().parse_move(heaps, self.format_move(heaps, (index, take, max(left, 0))))

    def format_position(self, heaps: Heaps) -> str:
        # No heap left is written as one empty heap, so that the text parses back.
        return " ".join(map(str, heaps)) or "0"

    def parse_position(self, text: str) -> Heaps:
        heaps = tuple(parse_ints(text, f"octal game {self.code.text} heaps"))
        if not heaps:
            raise BadPosition(f"octal game heaps {text!r}: give one or more heap sizes")
        return heaps

    def diagram(self, heaps: Heaps, history: Sequence[tuple[Heaps, Move]] = ()) -> Diagram:
        """The heaps as tokens (a move may split a heap: the move buttons play them)."""
        return diagram.Heaps(style="tokens", heaps=tuple(diagram.Heap(size) for size in heaps))

    def render(self, heaps: Heaps) -> str:
        return "\n".join(f"{index + 1}: {'o' * min(size, 60)}{'...' if size > 60 else ''} ({size})"
                         for index, size in enumerate(heaps))

    def random_position(self, rng: random.Random) -> Heaps:
        return tuple(rng.randrange(1, 9) for _ in range(rng.randrange(1, 4)))


def _load(options: Options, text: str | None) -> Loaded:
    game = OctalGame(options.get("code") or "0.77", misere=bool(options.get("misere")))
    return from_text(game, text)


def _sized(options: Options, n: int) -> Loaded:
    game, _ = _load(options, None)
    return game, (n,)


def tour_at_scale(solve: TourSolve) -> list[str]:
    """The tour's stop among theory at scale: Kayles' period, certified."""
    from perfectplay.impartial.octal import analysed
    kayles = analysed("0.77").periodicity
    assert kayles is not None, "Kayles' period is published and certified from 256 values"
    return [f"  Kayles 0.77: period {kayles.period}, preperiod {kayles.preperiod}, "
            f"certified by the Guy-Smith theorem: {kayles.certified}"]


ENTRY = Entry("octal", "heaps; remove tokens as the octal --code allows (default 0.77, Kayles)",
              "HEAP..., e.g. 5 7", _load, aliases=("octal-game", "kayles"),
              options=("code", "misere"), sized=_sized,
              commands={"octal": "perfectplay.games.octal.command:octal_command"},
              tour=(TourStop(65, "perfectplay.games.octal:tour_at_scale"),), order=70)

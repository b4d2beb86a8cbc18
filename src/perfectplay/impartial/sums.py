"""Views of impartial positions as sums of components, one adapter per kind of game.

An adapter turns a game's position into a list of components, gives each component's
Grundy value (a closed form where one is a theorem), and lists the moves inside one
component together with the components each move leaves. The solver in :mod:`.theory`
needs nothing else, so it never builds the product space or a huge move list: the winning
move in Nim with piles of 10^9 is found by XOR arithmetic, and a claim line of 10^18 items
is one component valued through the certified period of 0.137.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Any

from perfectplay.errors import BadPosition
from perfectplay.game import Game
from perfectplay.impartial.grundy import GrundyValues

Component = Any
Step = tuple[Any, list[Component]]  # a move, and the components it leaves in place of one

# Heaps longer than this are not scanned split by split when looking for winning moves:
# only splits within this distance of either end are tried, and the answer says so.
SPLIT_WINDOW = 256
# Without a certified period, values are computed up to the heap asked for, up to this size.
UNCERTIFIED_LIMIT = 100_000


class SumAdapter:
    """The default view: the whole position is one component, valued by memoised search."""

    exhaustive = True  # False once a window cut a move list short
    # Whether misère play has a closed form theory applies (only Nim's is used here).
    misere_rule = False

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._values: GrundyValues | None = None

    @property
    def values(self) -> GrundyValues:
        # Built on first use: closed-form adapters (misère Nim included) never need it.
        if self._values is None:
            self._values = GrundyValues(self.game)
        return self._values

    def split(self, position: Any) -> list[Component]:
        return [position]

    def value(self, component: Component) -> int:
        return self.values.of(component)

    def steps(self, component: Component) -> Iterator[Step]:
        for move in self.game.moves(component):
            yield move, [self.game.play(component, move)]

    def steps_to(self, component: Component, target: int) -> Iterator[Step]:
        """The moves in ``component`` that leave parts whose values XOR to ``target``."""
        for move, parts in self.steps(component):
            if self.xor(parts) == target:
                yield move, parts

    def xor(self, parts: Sequence[Component]) -> int:
        total = 0
        for part in parts:
            total ^= self.value(part)
        return total

    def game_move(self, state: list[Component], index: int, move: Any) -> Any:
        """The game's own move for ``move`` inside component ``index`` of ``state``."""
        return move

    def notation(self, state: list[Component], index: int, move: Any) -> str:
        return self.game.format_move(state[index], self.game_move(state, index, move))


class NimAdapter(SumAdapter):
    """Components (row, size); a pile's value is its size."""

    misere_rule = True  # misère play has a closed form too (Bouton 1902)

    def split(self, piles: Any) -> list[Component]:
        return [(row, size) for row, size in enumerate(piles) if size]

    def value(self, component: Component) -> int:
        return component[1]

    def steps(self, component: Component) -> Iterator[Step]:
        row, size = component
        for take in range(size, 0, -1):
            yield (row, take), [(row, size - take)] if take < size else []

    def steps_to(self, component: Component, target: int) -> Iterator[Step]:
        # Bouton (1902): the one move in this pile that leaves ``target`` sticks, if fewer.
        row, size = component
        if target < size:
            yield (row, size - target), [(row, target)] if target else []

    def notation(self, state: list[Component], index: int, move: Any) -> str:
        return self.game.format_move((), move)


class HeapAdapter(SumAdapter):
    """Heaps of an octal game (subtraction games included): a component is a heap size, in
    the order of the position (as OctalGame.play keeps it), valued through the code's
    sequence and its certified period."""

    def __init__(self, game: Game[Any, Any], code: Any, max_terms: int | None = None) -> None:
        self.game = game
        self.code = code
        self.max_terms = max_terms

    @cached_property
    def analysis(self) -> Any:
        # On first use: a game asks for its adapter before theory knows it will need values.
        from perfectplay.impartial.octal import DEFAULT_MAX_TERMS, analysed
        return analysed(self.code.text, self.max_terms or DEFAULT_MAX_TERMS)

    def split(self, heaps: Any) -> list[Component]:
        return list(heaps)

    def value(self, component: Component) -> int:
        return heap_value(self.analysis, component)

    def steps(self, component: Component) -> Iterator[Step]:
        for take, left, right in self.heap_moves(component):
            yield (take, left), [part for part in (left, right) if part]

    def game_move(self, state: list[Component], index: int, move: Any) -> Any:
        return (index, *move)

    def notation(self, state: list[Component], index: int, move: Any) -> str:
        return self.game.format_move((), self.game_move(state, index, move))

    def steps_to(self, component: Component, target: int) -> Iterator[Step]:
        for move, parts in self.steps(component):
            if self.xor(parts) == target:
                yield move, parts

    def heap_moves(self, size: int) -> Iterator[tuple[int, int, int]]:
        """The code's moves on one heap; on a huge heap, only splits near either end."""
        if size <= 2 * SPLIT_WINDOW:
            yield from self.code.heap_moves(size)
            return
        self.exhaustive = False
        for take, digit in self.code.removals():
            rest = size - take
            if take and digit & 2:
                yield take, 0, rest
            if digit & 4:
                for left in (*range(1, SPLIT_WINDOW), *range(rest // 2 - SPLIT_WINDOW, rest // 2 + 1)):
                    yield take, left, rest - left


def heap_value(analysis: Any, size: int) -> int:
    """G(size) of an analysed octal game, computing further when no period is certified."""
    if size < len(analysis.values) or analysis.periodicity is not None:
        return int(analysis.grundy(size))
    if size > UNCERTIFIED_LIMIT:
        raise BadPosition(f"heap {size:,} of {analysis.code.text}: no certified period is known "
                          f"and computing {size:,} values is out of reach")
    from perfectplay.impartial.octal import sequence

    analysis.values = sequence(analysis.code, max(size + 1, 2 * len(analysis.values)), analysis.values)
    return analysis.values[size]


def adapter_for(game: Game[Any, Any]) -> SumAdapter:
    """The adapter that knows the most about ``game``'s structure: the one the game offers
    (``sum_adapter()``: Nim's piles, an octal game's heaps, the claim line's runs), else the
    whole position as one component."""
    adapter = game.sum_adapter()
    return adapter if isinstance(adapter, SumAdapter) else SumAdapter(game)

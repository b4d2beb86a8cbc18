"""Grundy values of any impartial game defined through the protocol.

The Grundy value of a position is the mex (least excluded non-negative integer) of its
options' values; a position with no move has value 0 and is lost for the player to move
(normal play). By the Sprague-Grundy theorem the value of a sum of independent games is the
XOR of the parts' values (Berlekamp, Conway and Guy, *Winning Ways*, chapter 2), so when a
game declares ``components`` only the parts are ever valued.

The walk is iterative with an explicit stack, so a take-away pile of a million sticks needs
no recursion limit, and memoised by ``game.key``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from perfectplay.errors import ComponentMismatch, NotImpartial, UnsupportedSearch
from perfectplay.game import Game, Outcome


def mex(values: Iterable[int]) -> int:
    """The least non-negative integer not among ``values``."""
    present = set(values)
    smallest = 0
    while smallest in present:
        smallest += 1
    return smallest


def require_impartial(game: Game[Any, Any], *, normal_play: bool = True) -> None:
    """Reject games Grundy values say nothing about, with a message that says why."""
    props = game.properties
    if not props.impartial or props.is_score:
        raise NotImpartial(f"{game.name} is not an impartial game (both players must have the "
                           "same moves in every position), so it has no Grundy values")
    if normal_play and props.misere:
        raise UnsupportedSearch(f"{game.name} is played misère (the last mover loses); Grundy "
                                "values describe normal play; solve it with --algorithm tt")


class GrundyValues:
    """The Grundy values of one impartial game's positions, memoised by ``game.key``.

    ``use_components`` False values every position by the plain mex search over its moves,
    ignoring any declared sum: the reference that declarations are checked against.
    """

    def __init__(self, game: Game[Any, Any], *, use_components: bool = True) -> None:
        require_impartial(game)
        self.game = game
        self.use_components = use_components
        self.table: dict[Hashable, int] = {}

    def parts(self, position: Any) -> Sequence[Any]:
        if self.use_components:
            declared = self.game.components(position)
            if declared is not None:
                return declared
        return (position,)

    def of(self, position: Any) -> int:
        """The Grundy value of ``position``: XOR of its parts' values."""
        total = 0
        for part in self.parts(position):
            total ^= self._atomic(part)
        return total

    def _atomic(self, root: Any) -> int:
        """The value of one part by mex over its moves, children before parents."""
        key = self.game.key
        table = self.table
        root_key = key(root)
        if root_key in table:
            return table[root_key]
        children: dict[Hashable, list[Sequence[Any]]] = {}
        stack = [root]
        while stack:
            position = stack[-1]
            position_key = key(position)
            if position_key in table:
                stack.pop()
                continue
            if position_key not in children:
                children[position_key] = self._options(position)
            pending = [part for parts in children[position_key] for part in parts
                       if key(part) not in table]
            if any(key(part) in children for part in pending):
                self._cycle(position)
            if pending:
                stack.extend(pending)
                continue
            options = children.pop(position_key)
            table[position_key] = mex(self._sum(parts) for parts in options)
            stack.pop()
        return table[root_key]

    def _cycle(self, position: Any) -> None:
        # A position still waiting for its children's values can only come back through a
        # cycle (everything above it on the stack descends from it).
        raise UnsupportedSearch(f"{self.game.name}: play can return to a position after "
                                f"{self.game.format_position(position)!r}; Grundy values need "
                                "games that always end")

    def _options(self, position: Any) -> list[Sequence[Any]]:
        """The parts of every position one move away."""
        game = self.game
        ended = game.outcome(position)
        if ended is not None:
            if ended is not Outcome.LOSS:
                raise UnsupportedSearch(f"{game.name}: position {game.format_position(position)!r} "
                                        "ends in a win or draw, which Grundy values cannot express")
            return []
        return [self.parts(game.play(position, move)) for move in game.moves(position)]

    def _sum(self, parts: Sequence[Any]) -> int:
        total = 0
        for part in parts:
            total ^= self.table[self.game.key(part)]
        return total


def grundy_value(game: Game[Any, Any], position: Any = None) -> int:
    """The Grundy value of ``position`` (the start position when None) by search."""
    return GrundyValues(game).of(game.start() if position is None else position)


def check_components(game: Game[Any, Any], positions: Iterable[Any]) -> int:
    """Check a game's declared sums against plain mex search: for each position, the XOR of
    its components' values must equal the value of the whole, each found with no use of
    ``components``. Raises ComponentMismatch at the first failure; returns the count checked."""
    plain = GrundyValues(game, use_components=False)
    checked = 0
    for position in positions:
        parts = game.components(position)
        if parts is None:
            continue
        whole = plain.of(position)
        summed = 0
        for part in parts:
            summed ^= plain.of(part)
        if whole != summed:
            shown = ", ".join(game.format_position(part) for part in parts)
            raise ComponentMismatch(
                f"{game.name}: position {game.format_position(position)!r} has Grundy value "
                f"{whole} by search, but its declared components [{shown}] XOR to {summed}")
        checked += 1
    return checked

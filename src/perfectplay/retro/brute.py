"""An independent check of retrograde analysis: a value-iteration fixpoint.

It shares no code with retro/solver.py or retro/kernel.py. Positions are the game's own
objects (no key folding), found by a depth-first walk with an explicit stack, and values
come from sweeping over all of them again and again instead of following parents:

* sweep k decides every still-undecided position that has a child won within k - 1 plies
  for this position's mover (a win in k) or whose children are all lost within k - 1 plies
  for it (a loss in k); a child's value is its own mover's, negated unless the move gave
  an extra turn;
* sweeps stop when one decides nothing new; what is left is drawn.

Quadratic in the worst case (one sweep per ply of the longest win), so it is meant for
tests and ``perfectplay verify`` on small games, never for building databases.
"""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.game import Game, Outcome


def reachable(game: Game[Any, Any], root: Any, limit: int = 2_000_000) -> dict[Any, list[Any]]:
    """Every position reachable from ``root`` and its children (ended positions have none)."""
    children: dict[Any, list[Any]] = {}
    stack = [root]
    while stack:
        position = stack.pop()
        if position in children:
            continue
        if len(children) >= limit:
            raise ValueError(f"brute force: more than {limit:,} positions")
        ended = game.outcome(position) is not None
        found = [] if ended else [game.play(position, move) for move in game.moves(position)]
        children[position] = found
        stack.extend(child for child in found if child not in children)
    return children


def fixpoint_values(game: Game[Any, Any], root: Any) -> dict[Any, int]:
    """Every reachable position's node-relative value (perfectplay.value convention)."""
    children = reachable(game, root)
    no_move = Outcome.WIN if game.properties.misere else Outcome.LOSS
    value: dict[Any, int] = {}
    for position, found in children.items():
        result = game.outcome(position)
        if result is None and not found:
            result = no_move
        if result is Outcome.WIN:
            value[position] = V.WIN
        elif result is Outcome.LOSS:
            value[position] = -V.WIN
        elif result is Outcome.DRAW:
            value[position] = 0
    undecided = [position for position in children if position not in value]
    # +1 reads a child's value as its mover's, -1 as the opponent's (extra turns keep the mover).
    extra = game.properties.extra_turns
    signs = {position: [1 if extra and game.keeps_turn(position, move) else -1
                        for move in game.moves(position)] for position in undecided}
    ply = 0
    while undecided:
        ply += 1
        decided: dict[Any, int] = {}
        for position in undecided:
            known = [None if child not in value else sign * value[child]
                     for child, sign in zip(children[position], signs[position], strict=True)]
            if any(v is not None and v > 0 for v in known):
                decided[position] = V.WIN - ply
            elif all(v is not None and v < 0 for v in known):
                decided[position] = ply - V.WIN
        if not decided:
            break
        value.update(decided)
        undecided = [position for position in undecided if position not in decided]
    for position in undecided:
        value[position] = 0
    return value


def brute_force_value(game: Game[Any, Any], position: Any) -> int:
    """The value of ``position`` alone (registry.Entry.brute_force)."""
    return fixpoint_values(game, position)[position]

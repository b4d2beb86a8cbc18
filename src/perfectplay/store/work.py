"""The two units of work a build sends out, as plain functions of plain data so that any
backend (this process, local processes, a Ray cluster) can run them.

* :func:`expand`: the children of a slice of one tier, grouped by tier and folded by key
  (the forward pass that finds every reachable position).
* :func:`solve_slice`: the values of a slice of one tier, given the values of the tiers its
  moves reach (the backward pass). A unit is thousands of positions, never one.

Inputs are trusted: the coordinator built them from the game's own moves.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Sequence

from perfectplay import value as V
from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game, Outcome
from perfectplay.store.database import chunk_sums
from perfectplay.store.records import encode_key

Children = dict[int, dict[Any, Any]]


@dataclass(frozen=True)
class FileShare:
    """Data a coordinator wrote once to a file that local worker processes read (and keep
    while the same file is asked for again), instead of pickling it into every unit."""

    path: str


_cache: dict[str, Any] = {}


def resolve(shared: Any) -> Any:
    if not isinstance(shared, FileShare):
        return shared
    if shared.path not in _cache:
        _cache.clear()  # one shared object at a time: the child values of one tier
        with open(shared.path, "rb") as handle:
            _cache[shared.path] = pickle.load(handle)
    return _cache[shared.path]


def expand(game: Game[Any, Any], positions: Sequence[Any], tier: int) -> Children:
    """Every child of ``positions`` (all in ``tier``) by its tier, one per key."""
    found: Children = {}
    key_of, play, tier_fn = game.key, game.play, game.tier
    for position in positions:
        if game.outcome(position) is not None:
            continue
        for move in game.moves(position):
            child = play(position, move)
            child_tier = tier_fn(child)
            if child_tier is None or child_tier <= tier:
                raise UnsupportedSearch(
                    f"{game.name}: the move {game.format_move(position, move)!r} from "
                    f"{game.format_position(position)!r} leads from tier {tier} to tier "
                    f"{child_tier}; every move must lead to a later tier")
            found.setdefault(child_tier, {}).setdefault(encode_key(key_of(child)), child)
    return found


def solve_slice(game: Game[Any, Any], positions: Sequence[Any],
                child_values: Any) -> tuple[list[tuple[Any, int]], list[str]]:
    """(encoded key, node-relative value) for each position of the slice, and the rows'
    chunk checksums (computed here, so the coordinator need not)."""
    values = resolve(child_values)
    props = game.properties
    score_game = props.is_score
    no_move = Outcome.WIN if props.misere else Outcome.LOSS
    rows = []
    for position in positions:
        rows.append((encode_key(game.key(position)),
                     _value(game, position, values, score_game, no_move)))
    return rows, chunk_sums(rows)


def _value(game: Game[Any, Any], position: Any, values: dict[Any, int], score_game: bool,
           no_move: Outcome) -> int:
    result = game.outcome(position)
    if result is not None:
        return _end_value(result)
    moves = game.moves(position)
    if not moves:
        return 0 if score_game else _end_value(no_move)
    best: int | None = None
    for move in moves:
        child = values[encode_key(game.key(game.play(position, move)))]
        # A score is the gain minus the reply's score; a win or loss moves one ply further
        # from the end (node-relative values, perfectplay.value).
        found = game.gain(position, move) - child if score_game else -int(V.from_table(child, 1))
        if best is None or found > best:
            best = found
    assert best is not None
    return best


def _end_value(result: Outcome) -> int:
    if result is Outcome.DRAW:
        return 0
    return V.win_in(0) if result is Outcome.WIN else V.loss_in(0)

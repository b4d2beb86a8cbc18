"""Answering from a database: open either store, look positions up, and turn the stored
values into the same Solution and MoveValue objects a search returns.

A database built by ``db build`` holds every position reachable from its root, and a
committed position's children are always committed before it (the build goes from the last
tier back), so a stored position can be answered with every move's value and a whole
principal variation without any search. The way in is perfectplay.solve/analyze with
``database=`` (perfectplay.store.method); a position that is not stored is searched.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from perfectplay import value as V
from perfectplay.errors import CorruptDatabase
from perfectplay.game import Game
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.rules import Rules, final_points
from perfectplay.store import dense
from perfectplay.store.database import Database
from perfectplay.store.records import FROM_DATABASE, Identity, encode_key


class Store:
    """A database file of either format, opened for reading one game."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.dense: dense.DenseFile | None = None
        self.sqlite: Database | None = None
        if dense.is_dense(self.path):
            self.dense = dense.DenseFile(self.path)
        else:
            self.sqlite = Database.open(self.path)

    @property
    def identity(self) -> Identity:
        return self.dense.identity if self.dense is not None else self._db.identity

    @property
    def score_game(self) -> bool:
        return self.dense.score_game if self.dense is not None else self._db.score_game

    @property
    def _db(self) -> Database:
        assert self.sqlite is not None
        return self.sqlite

    def check_game(self, game: Game[Any, Any]) -> None:
        identity = Identity.of(game)
        if self.dense is not None:
            self.dense.check_identity(identity)
        else:
            self._db.check_identity(identity)

    def values(self, game: Game[Any, Any], positions: Sequence[Any]) -> list[int | None]:
        """The stored node-relative value of each position, None where it is not stored."""
        if self.dense is not None:
            size = game.index_size() or 0
            indices = [game.rank(position) for position in positions]
            inside = [index for index in indices if 0 <= index < size]
            found = dict(zip(inside, self.dense.values(inside), strict=True))
            return [found.get(index) for index in indices]
        keys = [encode_key(game.key(position)) for position in positions]
        stored = self._db.lookup_many(list(dict.fromkeys(keys)))
        return [stored.get(key) for key in keys]

    def close(self) -> None:
        if self.dense is not None:
            self.dense.close()
        if self.sqlite is not None:
            self.sqlite.close()


def open_store(path: str | Path, game: Game[Any, Any] | None = None) -> Store:
    """Open ``path`` (SQLite or dense, told apart by the file's first bytes); with ``game``,
    refuse a file built for another game or other options."""
    store = Store(path)
    if game is not None:
        try:
            store.check_game(game)
        except Exception:
            store.close()
            raise
    return store


def _move_values(store: Store, game: Game[Any, Any], position: Any) -> list[MoveValue]:
    """Every legal move's value for its player, best first, for a stored ``position``."""
    if game.outcome(position) is not None:
        return []
    moves = list(game.moves(position))
    children = store.values(game, [game.play(position, move) for move in moves])
    return _valued(store, game, position, moves, children)


def _valued(store: Store, game: Game[Any, Any], position: Any, moves: list[Any],
            children: list[int | None]) -> list[MoveValue]:
    """The moves' values from their children's stored ones, best first.

    A build commits every child of a position before the position itself, so a stored
    position whose child is missing is a damaged file (an index entry lost, say), refused
    rather than half-answered."""
    score_game = game.properties.is_score
    extra_turns = game.properties.extra_turns
    valued = []
    for move, child in zip(moves, children, strict=True):
        if child is None:
            raise CorruptDatabase(f"{store.path}: holds {game.format_position(position)!r} but "
                                  f"not the position after its move {game.format_move(position, move)!r}; "
                                  "the file is damaged and will not be served")
        same_mover = extra_turns and game.keeps_turn(position, move)
        worth = V.move_worth(child, game.gain(position, move), same_mover, score_game)
        valued.append(MoveValue(move, game.format_move(position, move), worth, score_game))
    return sorted(valued, key=lambda mv: -mv.value)


def _with_moves(store: Store, game: Game[Any, Any], position: Any) -> tuple[int | None, list[MoveValue]]:
    """The stored value of ``position`` and its moves' values, asked for in one query (the
    position is nearly always stored when it is asked for: nothing is wasted)."""
    moves = [] if game.outcome(position) is not None else list(game.moves(position))
    found = store.values(game, [position, *(game.play(position, move) for move in moves)])
    if found[0] is None:
        return None, []
    return found[0], _valued(store, game, position, moves, found[1:])


def analyze_stored(store: Store, game: Game[Any, Any], position: Any) -> list[MoveValue] | None:
    """Every move's value from the database, or None when ``position`` is not stored."""
    stored, moves = _with_moves(store, game, position)
    return None if stored is None else moves


def solve_stored(store: Store, game: Game[Any, Any], position: Any,
                 pv_limit: int = 1000) -> Solution | None:
    """The Solution of ``position`` read from the database, or None when it is not stored."""
    started = time.perf_counter()
    stored, moves = _with_moves(store, game, position)
    if stored is None:
        return None
    lookups = 1
    best = [mv.move for mv in moves if mv.value == stored]
    line: list[Any] = []
    node, node_moves = position, moves
    while node_moves and len(line) < pv_limit:
        step = node_moves[0]
        line.append(step.move)
        node = game.play(node, step.move)
        lookups += len(node_moves)
        node_moves = _move_values(store, game, node)
    stats = Stats(nodes=lookups, elapsed_s=time.perf_counter() - started)
    score_game = game.properties.is_score
    # The points each side ends with, as a search reports them for score games.
    totals = final_points(game, Rules(game), position, stored, line) if score_game else None
    return Solution.of(game, position, FROM_DATABASE, stored, best, line, stats,
                       score_game=score_game, totals=totals)

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
from typing import Any, cast

from perfectplay import value as V
from perfectplay.errors import CorruptDatabase
from perfectplay.game import Game
from perfectplay.search.results import MoveValue, Solution, Stats
from perfectplay.search.rules import Rules, final_points
from perfectplay.store import dense
from perfectplay.store.database import Database
from perfectplay.store.records import FROM_DATABASE, Identity, encode_key

# Keys looked up as given, repeats and all (SQLite's IN drops them), rather than made
# distinct first: a position and its children.
FEW_KEYS = 64
DECISIVE = V.DECISIVE


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
        key = game.key
        keys = [encode_key(key(position)) for position in positions]
        stored = self._db.lookup_many(list(dict.fromkeys(keys)) if len(keys) > FEW_KEYS else keys)
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


def _moves_and_worths(store: Store, game: Game[Any, Any], position: Any) -> tuple[list[Any], list[int]]:
    """Every legal move of a stored ``position`` and its worth for its player (one query for
    the children)."""
    if game.outcome(position) is not None:
        return [], []
    moves = list(game.legal_moves(position))
    children = store.values(game, [game.play(position, move) for move in moves])
    return moves, _worths(store, game, position, moves, children)


def _worths(store: Store, game: Game[Any, Any], position: Any, moves: list[Any],
            children: list[int | None]) -> list[int]:
    """What each move is worth to its player, from its child's stored value.

    A build commits every child of a position before the position itself, so a stored
    position whose child is missing is a damaged file (an index entry lost, say), refused
    rather than half-answered."""
    if None in children:
        move = moves[children.index(None)]
        raise CorruptDatabase(f"{store.path}: holds {game.format_position(position)!r} but "
                              f"not the position after its move {game.format_move(position, move)!r}; "
                              "the file is damaged and will not be served")
    found = cast(list[int], children)
    properties = game.properties
    score_game, extra_turns = properties.is_score, properties.extra_turns
    if not (score_game or extra_turns):
        # V.move_worth of a win/loss/draw game: the child's value negated, one ply further.
        return [(1 - child if child >= DECISIVE else -1 - child if child <= -DECISIVE else -child)
                for child in found]
    return [V.move_worth(child, game.gain(position, move), extra_turns and game.keeps_turn(position, move),
                         score_game)
            for move, child in zip(moves, found, strict=True)]


def _family(store: Store, game: Game[Any, Any], position: Any) -> tuple[int | None, list[Any], list[int]]:
    """The stored value of ``position``, its legal moves and their worths, asked for in one
    query (the position is nearly always stored when it is asked for: nothing is wasted).
    The moves are the game's legal_moves, unordered: every one is valued, and ordering them
    for search (Connect Four's moves()) cost as much as the query."""
    moves = [] if game.outcome(position) is not None else list(game.legal_moves(position))
    found = store.values(game, [position, *(game.play(position, move) for move in moves)])
    if found[0] is None:
        return None, [], []
    return found[0], moves, _worths(store, game, position, moves, found[1:])


def analyze_stored(store: Store, game: Game[Any, Any], position: Any) -> list[MoveValue] | None:
    """Every move's value from the database, best first, or None when ``position`` is not
    stored."""
    stored, moves, worths = _family(store, game, position)
    if stored is None:
        return None
    score_game = game.properties.is_score
    valued = [MoveValue(move, game.format_move(position, move), worth, score_game)
              for move, worth in zip(moves, worths, strict=True)]
    return sorted(valued, key=lambda mv: -mv.value)


def solve_stored(store: Store, game: Game[Any, Any], position: Any,
                 pv_limit: int = 1000) -> Solution | None:
    """The Solution of ``position`` read from the database, or None when it is not stored.
    The line follows the first best move of each position on it."""
    started = time.perf_counter()
    stored, moves, worths = _family(store, game, position)
    if stored is None:
        return None
    lookups = 1
    best = [move for move, worth in zip(moves, worths, strict=True) if worth == stored]
    line: list[Any] = []
    node, node_moves, node_worths = position, moves, worths
    while node_moves and len(line) < pv_limit:
        step = node_moves[node_worths.index(max(node_worths))]
        line.append(step)
        node = game.play(node, step)
        lookups += len(node_moves)
        node_moves, node_worths = _moves_and_worths(store, game, node)
    stats = Stats(nodes=lookups, elapsed_s=time.perf_counter() - started)
    score_game = game.properties.is_score
    # The points each side ends with, as a search reports them for score games.
    totals = final_points(game, Rules(game), position, stored, line) if score_game else None
    return Solution.of(game, position, FROM_DATABASE, stored, best, line, stats,
                       score_game=score_game, totals=totals)

"""Open, checked database handles, one per file and game per process: the way in for every
lookup (perfectplay.lookup, lookup_many, solve_many, and ``database=`` on solve and analyze).

Opening a database reads its header, its batches and their chunk checksums, and checking
that it was built for the game compares identities: done once per process, not per call.
A record is still served only once its chunk's checksum has held (perfectplay.store.
database), so a long-lived handle checks each chunk once and then answers at SQLite's speed.
A file replaced on disk (another inode) is opened afresh.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from typing import Any

from perfectplay import value as V
from perfectplay.game import Game
from perfectplay.search.results import Solution, Stats
from perfectplay.store.database import SHARED_READERS
from perfectplay.store.lookup import Store, open_store
from perfectplay.store.records import FROM_DATABASE, Identity, encode_key

# (absolute path, device, inode, game, options[, thread]) -> the open store. Every thread
# shares one store where SQLite is built serialized (perfectplay.store.database._connect);
# elsewhere each thread opens its own, since a connection may not leave its thread.
_open: dict[tuple[Any, ...], Store] = {}
# (path as given, id(game)[, thread]) -> (the game, kept so its id is not reused; the file's
# device and inode; its store): the way back to an open store without building its full key.
_recent: dict[tuple[Any, ...], tuple[Game[Any, Any], int, int, Store]] = {}
_opening = threading.Lock()


def open_handle(path: str | os.PathLike[str], game: Game[Any, Any]) -> Store:
    """The open Store at ``path``, checked once to be ``game``'s (BadDatabase naming the
    file otherwise)."""
    text = os.fspath(path)
    try:
        status = os.stat(text)
    except OSError:
        return open_store(text, game)  # raises BadDatabase naming the file
    thread = () if SHARED_READERS else (threading.get_ident(),)
    recent = _recent.get((text, id(game), *thread))
    if recent is not None and recent[0] is game and recent[1] == status.st_dev and recent[2] == status.st_ino:
        return recent[3]
    with _opening:  # two threads asking at once open the file once
        return _open_checked(text, game, status, thread)


def _open_checked(text: str, game: Game[Any, Any], status: os.stat_result,
                  thread: tuple[int, ...]) -> Store:
    identity = Identity.of(game)
    where = (os.path.abspath(text), status.st_dev, status.st_ino, identity.game, identity.options,
             *thread)
    store = _open.get(where)
    if store is None:
        store = open_store(text, game)
        _open[where] = store
    _recent[(text, id(game), *thread)] = (game, status.st_dev, status.st_ino, store)
    return store


def lookup_many(game: Game[Any, Any], positions: Sequence[Any],
                database: str | os.PathLike[str]) -> list[int | None]:
    """The stored node-relative value of each position (perfectplay.value), None where the
    database does not hold it; one query per thousand positions."""
    return open_handle(database, game).values(game, positions)


def lookup(game: Game[Any, Any], position: Any, database: str | os.PathLike[str]) -> int | None:
    """The stored value of one position, or None."""
    store = open_handle(database, game)
    if store.sqlite is None:
        return store.values(game, [position])[0]
    key = encode_key(game.key(position))
    return store.sqlite.lookup_many([key]).get(key)


def solve_many_stored(game: Game[Any, Any], positions: Sequence[Any],
                      database: str | os.PathLike[str]) -> list[Solution | None]:
    """The Solution (value and every optimal move, no line) of each stored position, None for
    a position the database does not hold or that needs more than lookups (a score game's
    points): two queries in all, one for the positions and one for their children."""
    store = open_handle(database, game)
    if game.properties.is_score:
        return [None] * len(positions)
    started = time.perf_counter()
    values = store.values(game, positions)
    moves = [list(game.moves(p)) if v is not None and game.outcome(p) is None else []
             for p, v in zip(positions, values, strict=True)]
    children = [game.play(p, m) for p, listed in zip(positions, moves, strict=True) for m in listed]
    child_values = iter(store.values(game, children))
    solutions: list[Solution | None] = []
    for position, value, listed in zip(positions, values, moves, strict=True):
        valued = [(move, next(child_values)) for move in listed]
        if value is None or any(child is None for _, child in valued):
            solutions.append(None)  # not stored, or damaged: solve() says which
            continue
        best = [move for move, child in valued
                if child is not None and -int(V.from_table(child, 1)) == value]
        solutions.append(Solution.of(game, position, FROM_DATABASE, value, best, [],
                                     Stats(nodes=1 + len(valued), elapsed_s=time.perf_counter() - started),
                                     score_game=False))
    return solutions


def close_all() -> None:
    """Close every open handle (tests, and a long-lived process that is done)."""
    for store in _open.values():
        store.close()
    _open.clear()
    _recent.clear()

"""The two units of work a build sends out, as plain functions of plain data so that any
backend (this process, local processes, a Ray cluster) can run them.

* :func:`expand`: the children of a slice of one tier, grouped by tier and folded by key
  (the forward pass that finds every reachable position).
* :func:`solve_slice`: the values of a slice of one tier, given the values of the tiers its
  moves reach (the backward pass). A unit is thousands of positions, never one.

Inputs are trusted: the coordinator built them from the game's own moves.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfectplay import value as V
from perfectplay.errors import CorruptDatabase, UnsupportedSearch
from perfectplay.game import Game, Outcome
from perfectplay.store.database import Database, chunk_sums
from perfectplay.store.records import encode_key

Children = dict[int, dict[Any, Any]]


@dataclass(frozen=True)
class FileShare:
    """Data a coordinator wrote once to a file that local worker processes read (and keep
    while the same file is asked for again), instead of pickling it into every unit."""

    path: str


@dataclass(frozen=True)
class StoredValues:
    """Child values left in the database (they did not fit the memory bound): a unit looks
    up the keys its slice reaches. ``tier`` is the tier being valued; every tier its moves
    reach is committed before the handle is made, so a fresh reader sees them all."""

    path: str
    tier: int


@dataclass(frozen=True)
class ValueFiles:
    """Child values that worker processes wrote to files in the work directory, one file
    per batch (perfectplay.store.shards): ``tiers`` holds (tier, batches) for every tier a
    slice's moves reach. A batch without its file (committed by an earlier run) is read
    from the database at ``database``."""

    workdir: str
    database: str
    tiers: tuple[tuple[int, int], ...]

    def load(self) -> dict[Any, int]:
        values: dict[Any, int] = {}
        missing = []
        for tier, parts in self.tiers:
            for part in range(parts):
                try:
                    values.update(unpack_rows(read_values(value_file(Path(self.workdir), tier, part))))
                except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
                    missing.append((tier, part))
        if missing:
            with Database.open(self.database) as database:
                values.update(_batch_values(database, set(missing)))
        return values


def _batch_values(database: Database, wanted: set[tuple[int, int]]) -> dict[Any, int]:
    """The records of the batches ``wanted`` (tier, part), checked against their checksums."""
    values: dict[Any, int] = {}
    for batch in database.batches:
        if (batch.tier, batch.part) in wanted:
            wanted.discard((batch.tier, batch.part))
            database.check_batch(batch)
            values.update(database.connection.execute(
                "SELECT key, value FROM positions WHERE id BETWEEN ? AND ?",
                (batch.first_id, batch.last_id)).fetchall())
    if wanted:
        tier, part = min(wanted)
        raise CorruptDatabase(f"{database.path}: batch {part} of tier {tier} is neither in the "
                              "work directory nor committed; remove the work directory and "
                              "run the build again")
    return values


def value_file(workdir: Path, tier: int, part: int) -> Path:
    return workdir / f"sv{tier:+08d}.{part:07d}.pkl"


def pack_rows(rows: Sequence[tuple[Any, int]]) -> Any:
    """Rows as two numpy arrays when every key is an int (sent and read back ten times
    faster than tuples), else the list itself."""
    keys = [key for key, _ in rows]
    if set(map(type, keys)) <= {int}:
        import numpy as np
        return (np.array(keys, dtype=np.int64), np.array([value for _, value in rows], dtype=np.int64))
    return rows


def unpack_rows(packed: Any) -> Iterable[tuple[Any, int]]:
    if isinstance(packed, tuple):
        keys, values = packed
        return zip(keys.tolist(), values.tolist(), strict=True)
    return packed


def write_values(path: Path, packed: Any) -> None:
    """A batch's packed rows (pack_rows), atomically, not synced."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_bytes(pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL))
    os.replace(partial, path)


def read_values(path: Path) -> Any:
    return pickle.loads(path.read_bytes())


@dataclass(frozen=True)
class TierSlice:
    """One slice of a tier file (a pickled list of positions at bytes start:end), which the
    process that values it reads itself."""

    path: str
    start: int
    end: int

    def read(self) -> list[Any]:
        with open(self.path, "rb") as handle:
            handle.seek(self.start)
            positions: list[Any] = pickle.loads(handle.read(self.end - self.start))
        return positions


_cache: dict[Any, Any] = {}


def resolve(shared: Any) -> Any:
    """What a handle stands for, kept while the same handle is asked for again (one at a
    time: the child values of one tier)."""
    if not isinstance(shared, (FileShare, StoredValues, ValueFiles)):
        return shared
    if shared not in _cache:
        for old in _cache.values():
            if isinstance(old, Database):
                old.close()
        _cache.clear()
        if isinstance(shared, StoredValues):
            _cache[shared] = Database.open(shared.path)
        elif isinstance(shared, ValueFiles):
            _cache[shared] = shared.load()
        else:
            with open(shared.path, "rb") as handle:
                _cache[shared] = pickle.load(handle)
    return _cache[shared]


def expand(game: Game[Any, Any], positions: Sequence[Any], tier: int) -> Children:
    """Every child of ``positions`` (all in ``tier``) by its tier, one per key."""
    found: Children = {}
    key_of, play, tier_fn, outcome, moves = game.key, game.play, game.tier, game.outcome, game.legal_moves
    for position in positions:
        if outcome(position) is not None:
            continue
        for move in moves(position):
            child = play(position, move)
            child_tier = tier_fn(child)
            if child_tier is None or child_tier <= tier:
                raise UnsupportedSearch(
                    f"{game.name}: the move {game.format_move(position, move)!r} from "
                    f"{game.format_position(position)!r} leads from tier {tier} to tier "
                    f"{child_tier}; every move must lead to a later tier")
            found.setdefault(child_tier, {}).setdefault(encode_key(key_of(child)), child)
    return found


def solve_slice(game: Game[Any, Any], positions: Sequence[Any] | TierSlice,
                child_values: Any) -> tuple[list[tuple[Any, int]], list[str]]:
    """(encoded key, node-relative value) for each position of the slice, and the rows'
    chunk checksums (computed here, so the coordinator need not)."""
    if isinstance(positions, TierSlice):
        positions = positions.read()
    values = resolve(child_values)
    if isinstance(values, Database):
        wanted = _child_keys(game, positions)
        found = values.lookup_many(wanted)
        if len(found) != len(wanted):
            lost = next(key for key in wanted if key not in found)
            raise CorruptDatabase(f"{values.path}: the committed position with key {lost!r} "
                                  "cannot be found; the file is damaged: build into a new file")
        values = found
    props = game.properties
    score_game = props.is_score
    no_move = Outcome.WIN if props.misere else Outcome.LOSS
    rows = []
    for position in positions:
        rows.append((encode_key(game.key(position)),
                     _value(game, position, values, score_game, no_move)))
    return rows, chunk_sums(rows)


def _child_keys(game: Game[Any, Any], positions: Sequence[Any]) -> list[Any]:
    key_of, play, outcome, moves = game.key, game.play, game.outcome, game.legal_moves
    keys = {encode_key(key_of(play(position, move)))
            for position in positions if outcome(position) is None for move in moves(position)}
    return list(keys)


def _value(game: Game[Any, Any], position: Any, values: dict[Any, int], score_game: bool,
           no_move: Outcome) -> int:
    result = game.outcome(position)
    if result is not None:
        return _end_value(result)
    moves = game.legal_moves(position)
    if not moves:
        return 0 if score_game else _end_value(no_move)
    best: int | None = None
    key_of, play = game.key, game.play
    for move in moves:
        child = values[encode_key(key_of(play(position, move)))]
        # A score is the gain minus the reply's score; a win or loss moves one ply further
        # from the end (node-relative values, perfectplay.value).
        same_mover = game.properties.extra_turns and game.keeps_turn(position, move)
        found = V.move_worth(child, game.gain(position, move), same_mover, score_game)
        if best is None or found > best:
            best = found
    assert best is not None
    return best


def _end_value(result: Outcome) -> int:
    if result is Outcome.DRAW:
        return 0
    return V.win_in(0) if result is Outcome.WIN else V.loss_in(0)

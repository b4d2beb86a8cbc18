"""A dense record file written by the compiled builder itself, with no SQLite at all
(``perfectplay db build GAME --dense PATH`` without ``--db``).

The forward pass is perfectplay.store.compiled_build's. The backward pass values each tier
as compiled_build.backward does; then each piece of the tier, on its own thread, packs its
values into 16-bit records (perfectplay.store.records.pack) and writes each at its rank (the
spec's ``rank``, which is Game.rank) into the file's records, memory-mapped: ranks are
distinct, so the pieces never write the same record. At the end each 2^20-record chunk's
CRC-32 is taken on the threads too, the header is written in front of the records, and the
file is renamed into place. What a SQLite build keeps on one thread (its one writer, the
index on keys made at the end) has no counterpart here: the record's place is its rank.

Resume: each finished tier's records, in key order (two bytes a position), are written to
``PATH.work/`` and then listed in its ``progress.json``, both atomically, by one thread
while the next tier is valued. A build killed at any moment (kill -9) and run again redoes
the forward pass (seconds), copies the finished tiers' records from those files into a
fresh map, values only the tiers left, and writes the same file: the file holds no timings
and no thread counts, so every build of one game and root gives the same bytes.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import zlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from perfectplay import value as V
from perfectplay.errors import BadDatabase, UnsupportedSearch
from perfectplay.game import Game
from perfectplay.store import compiled_build as compiled
from perfectplay.store import dense
from perfectplay.store.records import (
    DRAW,
    LOSS,
    MAX_REMOTENESS,
    REMOTENESS_BITS,
    SCORE_ABSENT,
    WIN,
    Identity,
    empty_record,
)

PROGRESS = "progress.json"
WIN_VALUE = V.WIN
DECISIVE = V.DECISIVE


@dataclass
class DenseBuilt:
    """What one run of a direct dense build did."""

    records: int
    tiers: int
    tiers_valued: int
    tiers_resumed: int


def ranks_agree(game: Game[Any, Any], spec: Any, root: Any) -> bool:
    """Whether the spec has a rank and it is the game's on the root and its children (a
    subclass or a patched instance may have changed the game's rank)."""
    if spec is None or spec.rank is None:
        return False
    found = [root]
    if game.outcome(root) is None:
        found += [game.play(root, move) for move in game.legal_moves(root)]
    return all(int(spec.rank(spec.encode(each))) == game.rank(each) for each in found)


def work_folder(path: Path) -> Path:
    return Path(f"{path}.work")


def build(game: Game[Any, Any], spec: Any, root: Any, path: Path, facts: dict[str, Any],
          memory: int, threads: int = 1, report: Callable[[str], None] | None = None) -> DenseBuilt:
    """Write the dense file ``path`` of every position reachable from ``root`` (resuming a
    killed build of the same game and root); ``facts`` go into its header as they are.
    compiled_build.OverMemory when the positions would not fit ``memory`` bytes."""
    size = game.index_size()
    assert size is not None
    dense.check_size(path, size)
    identity = Identity.of(game)
    score_game = game.properties.is_score
    plan = {"game": identity.game, "options": identity.options, "root": facts.get("root"),
            "kind": "score" if score_game else "wld", "records": size}
    work = work_folder(path)
    work.mkdir(exist_ok=True)
    lock = _lock(work, path)
    try:
        finished = _finished_tiers(work, plan)
        try:
            tiers = compiled.forward(game, spec, root, memory, report, threads)
        except compiled.OverMemory:
            if not finished:  # nothing kept: leave no work folder behind
                shutil.rmtree(work, ignore_errors=True)
            raise
        stored, count = tiers.positions, len(tiers.keys)
        partial = Path(f"{path}.partial")
        with open(partial, "wb") as handle:  # a fresh file every run: holes read as zeros
            handle.truncate(dense.DATA_OFFSET + 2 * size)
        crcs, valued = _write_records(game, spec, tiers, partial, size, finished, work, plan,
                                      threads, report)
        header = dense.header_block(path, identity, score_game, size, stored, crcs, facts)
        with open(partial, "r+b") as handle:
            handle.write(header)
            handle.flush()
            os.fsync(handle.fileno())
        partial.replace(path)
        if report is not None:
            report(f"dense: {stored:,} records in {path}")
    finally:
        os.close(lock)
    shutil.rmtree(work, ignore_errors=True)
    return DenseBuilt(stored, count, valued, count - valued)


def _write_records(game: Game[Any, Any], spec: Any, tiers: compiled.Tiers, partial: Path,
                   size: int, finished: dict[int, int], work: Path, plan: dict[str, Any],
                   threads: int, report: Callable[[str], None] | None) -> tuple[list[int], int]:
    """Every tier's records into the memory-mapped ``partial`` file, flushed; returns each
    chunk's CRC-32 and how many tiers were valued."""
    score_game = plan["kind"] == "score"
    mapped = np.memmap(partial, np.uint16, "r+", dense.DATA_OFFSET, (size,))
    records = mapped.view(np.ndarray)  # numba takes a plain array over the same pages
    chunks = [(start, min(start + dense.CHUNK_RECORDS, size))
              for start in range(0, size, dense.CHUNK_RECORDS)]
    with compiled.thread_pool(threads) as pool:
        empty = empty_record(score_game)
        if empty:
            list(compiled.map_on(pool, lambda chunk: records[chunk[0]:chunk[1]].fill(empty), chunks))
        valued = _backward(game, spec, tiers, records, score_game, finished, work, plan,
                           pool, threads, report)
        # zlib releases the GIL over a buffer this long: the chunks are checked on the threads.
        crcs = list(compiled.map_on(pool, lambda chunk: zlib.crc32(records[chunk[0]:chunk[1]].data),
                                    chunks))
    if report is not None:
        report(f"checksums: {len(crcs):,} chunks of {dense.CHUNK_RECORDS:,} records")
    mapped.flush()
    return crcs, valued


def _lock(work: Path, path: Path) -> int:
    """An exclusive lock on the build for its whole run (released by the OS if killed)."""
    handle = os.open(work / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(handle)
        raise BadDatabase(f"{path}: another build is writing this dense file") from None
    return handle


def _finished_tiers(work: Path, plan: dict[str, Any]) -> dict[int, int]:
    """The tiers an earlier run of this build finished, and their sizes; the files of any
    other build (another game or root in the same place) are dropped."""
    try:
        progress = json.loads((work / PROGRESS).read_text())
    except (OSError, ValueError):
        progress = None
    if isinstance(progress, dict) and progress.get("plan") == plan:
        return {int(tier): int(size) for tier, size in progress["finished"].items()}
    for stale in work.iterdir():
        if stale.name != "lock":
            stale.unlink()
    return {}


def _tier_file(work: Path, tier: int) -> Path:
    return work / f"tier{tier}.records"


def _write_atomically(path: Path, data: bytes | memoryview) -> None:
    temporary = path.with_name(path.name + ".partial")
    with open(temporary, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    temporary.replace(path)


def save_tier(work: Path, plan: dict[str, Any], finished: dict[int, int], tier: int,
              packed: np.ndarray) -> None:
    """Keep a finished tier's records (key order) and list the tier as finished."""
    _write_atomically(_tier_file(work, tier), packed.data)
    finished[tier] = len(packed)
    text = json.dumps({"plan": plan, "finished": {str(t): n for t, n in sorted(finished.items())}})
    _write_atomically(work / PROGRESS, text.encode())


def _saved_tier(work: Path, finished: dict[int, int], tier: int, size: int) -> np.ndarray | None:
    """A finished tier's records as an earlier run kept them, or None to value it again."""
    if finished.get(tier) != size:
        return None
    try:
        packed = np.fromfile(_tier_file(work, tier), dtype=np.uint16)
    except OSError:
        return None
    return packed if len(packed) == size else None


def _backward(game: Game[Any, Any], spec: Any, tiers: compiled.Tiers, records: np.ndarray,
              score_game: bool, finished: dict[int, int], work: Path, plan: dict[str, Any],
              pool: ThreadPoolExecutor | None, threads: int,
              report: Callable[[str], None] | None) -> int:
    """Value every tier not finished from the highest down and write every tier's records
    at their ranks; returns how many tiers were valued."""
    _, value_states = compiled.kernels(spec)
    scatter = compiled.scatter_kernel(spec)
    empty = empty_record(score_game)
    values: dict[int, np.ndarray] = {}
    order = sorted(tiers.keys)
    last_reader = compiled.last_readers(tiers, order)
    valued = 0
    keeper = ThreadPoolExecutor(1, thread_name_prefix="dense-keep")
    kept = dict(finished)  # the keeper's own: it lists each tier it saves
    saving: Future[None] | None = None
    try:
        for index in range(len(order) - 1, -1, -1):
            tier = order[index]
            keys, states = tiers.keys[tier], tiers.states[tier]
            reached_later = last_reader.get(tier, index) < index
            saved = _saved_tier(work, finished, tier, len(keys))
            fresh = saved is None
            tier_values: np.ndarray | None = None
            if saved is None:
                child_keys, child_values = compiled.reached_values(tiers, values, tier)
                tier_values = compiled.value_tier(game, value_states, states, child_keys,
                                                  child_values, pool, threads)
                packed = np.empty(len(keys), np.uint16)
            else:
                packed = saved
                if reached_later:
                    tier_values = np.empty(len(keys), np.int64)
                    _check(game, unpack_records(packed, score_game, tier_values), states,
                           "was kept without a value; the work folder is damaged")

            def write_piece(piece: tuple[int, int], tier_values: Any = tier_values,
                            packed: np.ndarray = packed, states: np.ndarray = states,
                            fresh: bool = fresh) -> tuple[int, str]:
                start, stop = piece
                if fresh:
                    bad = pack_values(tier_values[start:stop], score_game, packed[start:stop])
                    if bad >= 0:
                        return start + bad, "has a value no 16-bit record holds"
                bad = scatter(states[start:stop], packed[start:stop], empty, records)
                if bad >= 0:
                    return start + bad, ("has a rank outside the index or shared with another "
                                         "position; Game.rank must be one-to-one")
                return -1, ""

            for bad, why in compiled.map_on(pool, write_piece, compiled.split_pieces(len(keys), threads)):
                _check(game, bad, states, why)
            if fresh:
                if saving is not None:
                    saving.result()  # at most one tier waits to be kept
                saving = keeper.submit(save_tier, work, plan, kept, tier, packed)
                valued += 1
            if tier_values is not None and reached_later:
                values[tier] = tier_values
            for old in [t for t in values if last_reader.get(t, index) >= index]:
                del values[old]
            del tiers.states[tier]
            if not reached_later:
                del tiers.keys[tier]
            if report is not None:
                done = "valued" if fresh else "kept from an earlier run"
                report(f"backward: tier {tier}: {len(keys):,} positions {done} (dense, compiled)")
        if saving is not None:
            saving.result()
    finally:
        # A tier being kept is finished before the build stops; one not begun is dropped
        # (the next run values it again).
        keeper.shutdown(wait=True, cancel_futures=True)
    return valued


def _check(game: Game[Any, Any], bad: int, states: np.ndarray, why: str) -> None:
    if bad >= 0:
        raise UnsupportedSearch(f"{game.name}: the state {int(states[bad])} {why}")


@njit(cache=True, nogil=True)
def pack_values(values: Any, score_game: bool, out: Any) -> int:
    """perfectplay.store.records.pack of every value into ``out``; returns -1, or the index
    of a value no 16-bit record holds."""
    for i in range(values.shape[0]):
        value = values[i]
        if score_game:
            if value <= SCORE_ABSENT or value >= 1 << 15:
                return i
            out[i] = value & 0xFFFF
        elif value == 0:
            out[i] = DRAW << REMOTENESS_BITS
        elif value >= DECISIVE and WIN_VALUE - value <= MAX_REMOTENESS:
            out[i] = WIN << REMOTENESS_BITS | (WIN_VALUE - value)
        elif value <= -DECISIVE and WIN_VALUE + value <= MAX_REMOTENESS:
            out[i] = LOSS << REMOTENESS_BITS | (WIN_VALUE + value)
        else:
            return i
    return -1


@njit(cache=True, nogil=True)
def unpack_records(packed: Any, score_game: bool, out: Any) -> int:
    """perfectplay.store.records.unpack of every record into ``out``; returns -1, or the
    index of an empty record."""
    for i in range(packed.shape[0]):
        record = np.int64(packed[i])
        if score_game:
            signed = record - (1 << 16) if record >= 1 << 15 else record
            if signed == SCORE_ABSENT:
                return i
            out[i] = signed
            continue
        kind, remoteness = record >> REMOTENESS_BITS, record & MAX_REMOTENESS
        if kind == DRAW:
            out[i] = 0
        elif kind == WIN:
            out[i] = WIN_VALUE - remoteness
        elif kind == LOSS:
            out[i] = remoteness - WIN_VALUE
        else:
            return i
    return -1

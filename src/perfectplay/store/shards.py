"""A local build over N worker processes in which the workers run the forward pass too.

Sending every child back to one process costs about what making it costs (docs/store.md),
so here no child is sent back: each tier is cut into ``shards`` parts by a mixing hash of
the key, and every worker process owns one shard of every tier.

Forward pass, one tier ``t`` at a time, one unit per shard (:func:`shard_tier`):

1. gather: the shard's positions of tier t are read from the children files that the
   expansions of lower tiers wrote for it, folded by key (spilling sorted runs past the
   memory bound, as perfectplay.store.tiers does), and written sorted by key to the
   shard's file ``st...pkl`` (pickled chunks of positions) with its keys beside it (a numpy
   array when every key is an int);
2. expand: the shard's file is expanded a slice of ``batch_size`` positions at a time; each
   slice's children are split by child tier and by the shard that owns them, and written
   to one file (``sx...pkl``, atomically) before the next slice is expanded.

A killed build keeps every shard file and every expanded slice: a unit finds its shard
file (its ``.json`` is written last) and the slices already expanded, and does the rest.

The backward pass commits the same batches as a build in one process: batch ``p`` of tier
``t`` is still positions ``p*batch_size ...`` of the whole tier in key order. The
coordinator merges the shards' keys (numpy, milliseconds a tier) into the first index of
every batch in every shard, and a unit (:func:`value_part`) reads its batch's positions
from each shard, values them, writes the values to a file (``sv...pkl``) and returns the
rows, which the coordinator commits in order while the workers go on. A tier's units need
the values of the tiers its moves reach: each worker reads them from those files (or, for
batches committed by an earlier run, from the database), so nothing passes through the
coordinator but the rows it commits. A batch valued before a kill but not committed is
committed from its values file when the build resumes.
"""

from __future__ import annotations

import heapq
import json
import os
import pickle
import shutil
import zlib
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfectplay.game import Game
from perfectplay.store.backends import Backend
from perfectplay.store.database import chunk_sums
from perfectplay.store.records import encode_key, key_order
from perfectplay.store.tiers import ENTRY_BYTES, VALUE_BYTES, _atomic_write, _Pending
from perfectplay.store.work import (
    StoredValues,
    ValueFiles,
    expand,
    pack_rows,
    read_values,
    solve_slice,
    unpack_rows,
    value_file,
    write_values,
)

SHARD_PLAN = "shards.json"
# Positions per pickle in a shard file: a batch draws about batch_size / shards positions
# from each shard, and reads at most two chunks more than it needs.
CHUNK = 1024
_MASK64 = (1 << 64) - 1
_MIX = 0x9E3779B97F4A7C15  # Fibonacci hashing's multiplier (Knuth, TAOCP 6.4)


def shard_of(key: Any, shards: int) -> int:
    """The shard that owns an encoded key, the same in every process and every run (not
    Python's hash(), which is salted per process for strings)."""
    if type(key) is int:
        return (((key * _MIX) & _MASK64) >> 32) % shards
    return zlib.crc32(str(key).encode()) % shards


@dataclass
class ShardPlan:
    """The sharded forward pass so far (and, once ``complete``, the whole plan)."""

    shards: int
    root_tier: int
    tiers: list[int] = field(default_factory=list)
    sizes: dict[int, list[int]] = field(default_factory=dict)  # positions per shard
    offsets: dict[int, list[list[int]]] = field(default_factory=dict)  # chunk offsets per shard
    reach: dict[int, list[int]] = field(default_factory=dict)
    # starts[t][p][k]: the index in shard k of the first position of batch p of tier t
    # (one more entry than batches: the shards' sizes).
    starts: dict[int, list[list[int]]] = field(default_factory=dict)
    spilled_chunks: int = 0
    complete: bool = False

    def save(self, workdir: Path) -> None:
        data = {"shards": self.shards, "root_tier": self.root_tier, "tiers": self.tiers,
                "sizes": _str_keys(self.sizes), "offsets": _str_keys(self.offsets),
                "reach": _str_keys(self.reach), "starts": _str_keys(self.starts),
                "spilled_chunks": self.spilled_chunks, "complete": self.complete}
        _atomic_write(workdir / SHARD_PLAN, json.dumps(data).encode())

    @classmethod
    def load(cls, workdir: Path) -> ShardPlan | None:
        try:
            data = json.loads((workdir / SHARD_PLAN).read_text())
            return cls(data["shards"], data["root_tier"], data["tiers"], _int_keys(data["sizes"]),
                       _int_keys(data["offsets"]), _int_keys(data["reach"]),
                       _int_keys(data["starts"]), data["spilled_chunks"], data["complete"])
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            return None

    def size(self, tier: int) -> int:
        return sum(self.sizes[tier])

    @property
    def positions(self) -> int:
        return sum(self.size(tier) for tier in self.tiers)

    def parts(self, tier: int) -> int:
        return len(self.starts[tier]) - 1

    def next_tier(self) -> int | None:
        found = {self.root_tier}.union(*self.reach.values()) - set(self.tiers)
        return min(found) if found else None

    def tier_positions(self, workdir: Path, tier: int) -> Iterator[Any]:
        """Every position of a tier, shard after shard (for the dense file)."""
        for shard in range(self.shards):
            yield from _read_range(_shard_file(workdir, tier, shard), self.offsets[tier][shard],
                                   0, self.sizes[tier][shard])


def _str_keys(mapping: dict[int, Any]) -> dict[str, Any]:
    return {str(key): item for key, item in mapping.items()}


def _int_keys(mapping: dict[str, Any]) -> dict[int, Any]:
    return {int(key): item for key, item in mapping.items()}


def is_sharded(workdir: Path) -> bool:
    return (workdir / SHARD_PLAN).exists()


def discard(workdir: Path) -> None:
    """Remove a sharded forward pass's files (a build resumed with one worker redoes its
    forward pass in its own way; committed batches are kept)."""
    (workdir / SHARD_PLAN).unlink(missing_ok=True)
    for pattern in ("st*", "sx*.pkl", "sv*.pkl"):
        for path in workdir.glob(pattern):
            path.unlink()
    for spill in workdir.glob("spill-s*"):
        shutil.rmtree(spill, ignore_errors=True)


def _shard_file(workdir: Path, tier: int, shard: int) -> Path:
    return workdir / f"st{tier:+08d}.{shard:03d}.pkl"


def _keys_file(workdir: Path, tier: int, shard: int, numeric: bool) -> Path:
    return workdir / f"st{tier:+08d}.{shard:03d}.keys.{'npy' if numeric else 'pkl'}"


def _done_file(workdir: Path, tier: int, shard: int) -> Path:
    return workdir / f"st{tier:+08d}.{shard:03d}.json"


def _expanded_file(workdir: Path, tier: int, shard: int, part: int) -> Path | None:
    found = list(workdir.glob(f"sx{tier:+08d}.{shard:03d}.{part:07d}.upto*.pkl"))
    return found[0] if found else None


def _upto(path: Path) -> int:
    return int(path.name.split(".upto")[1].removesuffix(".pkl"))


# -- the forward pass ---------------------------------------------------------------------
def forward(game: Game[Any, Any], root: Any, workdir: Path, runner: Backend, memory: int,
            batch_size: int, report: Any = None) -> ShardPlan:
    """Every position reachable from ``root``, in shards, tier by tier (module docstring);
    goes on from where a killed pass stopped."""
    plan = ShardPlan.load(workdir)
    if plan is not None and plan.complete:
        return plan
    if plan is None:
        for stale in workdir.iterdir():  # another kind of pass's files, or a first start
            shutil.rmtree(stale) if stale.is_dir() else stale.unlink()
        root_tier = game.tier(root)
        assert root_tier is not None
        plan = ShardPlan(runner.workers, root_tier)
        key = encode_key(game.key(root))
        seed = {(root_tier, shard_of(key, plan.shards)): pickle.dumps({key: root})}
        _atomic_write(workdir / f"sxroot.upto{root_tier:+08d}.pkl", pickle.dumps(seed))
        plan.save(workdir)
    elif report is not None and plan.tiers:
        report(f"forward: resumed after tier {plan.tiers[-1]}")
    shares = max(1, memory // plan.shards)
    while (tier := plan.next_tier()) is not None:
        units = [(game, str(workdir), tier, shard, plan.shards, batch_size, shares)
                 for shard in range(plan.shards)]
        reached: set[int] = set()
        plan.sizes[tier], plan.offsets[tier] = [], []
        numeric = True
        for size, offsets, is_numeric, reach, spilled in runner.map(shard_tier, units):
            plan.sizes[tier].append(size)
            plan.offsets[tier].append(offsets)
            numeric = numeric and is_numeric
            reached.update(reach)
            plan.spilled_chunks += spilled
        plan.starts[tier] = _batch_starts(workdir, tier, plan, numeric, batch_size)
        plan.reach[tier] = sorted(reached)
        plan.tiers.append(tier)
        plan.save(workdir)
        for path in workdir.glob("sx*.upto*.pkl"):  # children files all of whose tiers are written
            if _upto(path) <= tier:
                path.unlink()
        if report is not None:
            report(f"forward: tier {tier}: {plan.size(tier):,} positions")
    plan.complete = True
    plan.save(workdir)
    return plan


def shard_tier(game: Game[Any, Any], workdir_name: str, tier: int, shard: int, shards: int,
               batch_size: int, memory: int) -> tuple[int, list[int], bool, list[int], int]:
    """Gather, sort and write one shard of a tier, then expand it a slice at a time (a
    unit of the forward pass). Returns (positions, chunk offsets, whether every key is an
    int, the tiers its children reach, chunks spilled)."""
    workdir = Path(workdir_name)
    done = _done_file(workdir, tier, shard)
    spilled = 0
    try:
        facts = json.loads(done.read_text())
    except (OSError, ValueError):
        spilled = _gather(workdir, tier, shard, memory)
        facts = json.loads(done.read_text())
    size, offsets = facts["size"], facts["offsets"]
    reached: set[int] = set()
    path = _shard_file(workdir, tier, shard)
    for part, start in enumerate(range(0, size, batch_size)):
        existing = _expanded_file(workdir, tier, shard, part)
        if existing is not None:
            try:
                reached.update(child_tier for child_tier, _ in pickle.loads(existing.read_bytes()))
                continue
            except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
                existing.unlink()  # cut short by a crash of the machine: expand it again
        positions = _read_range(path, offsets, start, min(size, start + batch_size))
        children = expand(game, positions, tier)
        packed = {(child_tier, owner): pickle.dumps(piece, protocol=pickle.HIGHEST_PROTOCOL)
                  for child_tier, found in children.items()
                  for owner, piece in _split(found, shards)}
        name = f"sx{tier:+08d}.{shard:03d}.{part:07d}.upto{max(children, default=tier):+08d}.pkl"
        _atomic_write(workdir / name, pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL),
                      sync=False)
        reached.update(children)
    return size, offsets, facts["numeric"], sorted(reached), spilled


def _split(found: dict[Any, Any], shards: int) -> Iterator[tuple[int, Any]]:
    """A slice's children of one tier by the shard that owns them: int keys as a numpy
    array beside a list of positions (hashed, split, sorted and folded by numpy: a Python
    call per child cost a fifth of a build), other keys as dicts."""
    keys = list(found)
    if set(map(type, keys)) != {int}:
        split: dict[int, dict[Any, Any]] = {}
        for key, child in found.items():
            split.setdefault(shard_of(key, shards), {})[key] = child
        yield from split.items()
        return
    import numpy as np
    numbers = np.array(keys, dtype=np.int64)
    # The same arithmetic as shard_of, wrapping at 64 bits as its mask does.
    owners = ((numbers.view(np.uint64) * np.uint64(_MIX)) >> np.uint64(32)) % np.uint64(shards)
    children = list(found.values())
    for owner in range(shards):
        chosen = np.flatnonzero(owners == owner)
        if len(chosen):
            yield owner, (numbers[chosen], [children[at] for at in chosen.tolist()])


def _gather(workdir: Path, tier: int, shard: int, memory: int) -> int:
    """Fold this shard's positions of ``tier`` from every children file that holds some,
    write them sorted by key, and return the chunks spilled on the way: in numpy while the
    positions fit ``memory`` and every key is an int, else through perfectplay.store.tiers'
    dicts and sorted runs."""
    spill_dir = workdir / f"spill-s{shard:03d}"
    spill_dir.mkdir(exist_ok=True)
    for stale in spill_dir.iterdir():  # a killed gather's runs
        stale.unlink()
    pending = _Pending(spill_dir, memory)
    numbers: list[Any] = []
    held: list[Any] = []
    spilling = False
    for source in sorted(workdir.glob("sx*.upto*.pkl")):
        if _upto(source) < tier:
            continue
        packed = pickle.loads(source.read_bytes()).get((tier, shard))
        if packed is None:
            continue
        piece = pickle.loads(packed)
        if isinstance(piece, dict) or spilling:
            pending.add({tier: piece if isinstance(piece, dict)
                         else dict(zip(piece[0].tolist(), piece[1], strict=True))})
        else:
            numbers.append(piece[0])
            held.extend(piece[1])
        if not spilling and (len(held) + pending.count) * ENTRY_BYTES > memory:
            spilling = True
        if spilling and numbers:
            pending.add({tier: dict(zip((k for part in numbers for k in part.tolist()), held, strict=True))})
            numbers, held = [], []
    if numbers and not pending.count and not pending.spilled:
        import numpy as np
        distinct, first = np.unique(np.concatenate(numbers), return_index=True)
        pairs: Any = zip(distinct.tolist(), [held[at] for at in first.tolist()], strict=True)
    else:
        if numbers:
            pending.add({tier: dict(zip((k for part in numbers for k in part.tolist()), held, strict=True))})
        pairs = pending.take_pairs(tier)
    del numbers, held
    offsets, keys_list = _write_shard(_shard_file(workdir, tier, shard), pairs)
    numeric = all(type(key) is int for key in keys_list)
    _write_keys(_keys_file(workdir, tier, shard, numeric), keys_list, numeric)
    # Not synced (as the children files): a done file lost to a crash of the machine means
    # gathering the shard again.
    _atomic_write(_done_file(workdir, tier, shard),
                  json.dumps({"size": len(keys_list), "offsets": offsets, "numeric": numeric}).encode(),
                  sync=False)
    pending.drop_runs(tier)
    return pending.chunks_written


def _write_shard(path: Path, pairs: Iterable[tuple[Any, Any]]) -> tuple[list[int], list[Any]]:
    """Positions in chunks of CHUNK, one pickle each; returns the chunks' offsets and the keys."""
    offsets, keys = [0], []
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    with open(partial, "wb") as out:
        chunk: list[Any] = []
        for key, position in pairs:
            keys.append(key)
            chunk.append(position)
            if len(chunk) == CHUNK:
                pickle.dump(chunk, out, protocol=pickle.HIGHEST_PROTOCOL)
                offsets.append(out.tell())
                chunk = []
        if chunk:
            pickle.dump(chunk, out, protocol=pickle.HIGHEST_PROTOCOL)
            offsets.append(out.tell())
    os.replace(partial, path)
    return offsets, keys


def _write_keys(path: Path, keys: list[Any], numeric: bool) -> None:
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    with open(partial, "wb") as out:
        if numeric:
            import numpy as np
            np.save(out, np.array(keys, dtype=np.int64))
        else:
            pickle.dump(keys, out, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(partial, path)


def _read_keys(workdir: Path, tier: int, shard: int, numeric: bool) -> Any:
    path = _keys_file(workdir, tier, shard, numeric)
    if numeric:
        import numpy as np
        return np.load(path)
    with open(path, "rb") as handle:
        return pickle.load(handle)


def _read_range(path: Path, offsets: Sequence[int], start: int, end: int) -> list[Any]:
    """Positions ``start:end`` of a shard file (its chunks of CHUNK positions)."""
    if start >= end:
        return []
    first, last = start // CHUNK, (end - 1) // CHUNK
    with open(path, "rb") as handle:
        handle.seek(offsets[first])
        data = handle.read(offsets[last + 1] - offsets[first])
    positions: list[Any] = []
    for index in range(first, last + 1):
        # pickle.loads reads one pickle and ignores the bytes after it.
        positions.extend(pickle.loads(memoryview(data)[offsets[index] - offsets[first]:]))
    skip = start - first * CHUNK
    return positions[skip:skip + end - start]


def _batch_starts(workdir: Path, tier: int, plan: ShardPlan, numeric: bool,
                  batch_size: int) -> list[list[int]]:
    """Where each batch of the whole tier (in key order) begins in each shard."""
    shards = plan.shards
    sizes = plan.sizes[tier]
    total = sum(sizes)
    if numeric:
        import numpy as np
        keys = np.concatenate([_read_keys(workdir, tier, s, True) for s in range(shards)])
        owner = np.repeat(np.arange(shards), sizes)[np.argsort(keys, kind="stable")]
        cuts = np.arange(0, total, batch_size)
        ahead = np.zeros((len(cuts) + 1, shards), dtype=np.int64)
        for s in range(shards):  # positions of shard s before each cut
            ahead[:-1, s] = np.searchsorted(np.flatnonzero(owner == s), cuts)
        ahead[-1] = sizes
        return [[int(n) for n in row] for row in ahead]
    lists = []
    for s in range(shards):
        keys = _read_keys(workdir, tier, s, _keys_numeric(workdir, tier, s))
        lists.append([(key_order(key), s) for key in (keys.tolist() if hasattr(keys, "tolist") else keys)])
    merged = heapq.merge(*lists)
    counts = [0] * shards
    starts = []
    for index, (_, s) in enumerate(merged):
        if index % batch_size == 0:
            starts.append(list(counts))
        counts[s] += 1
    starts.append(list(counts))
    return starts


def _keys_numeric(workdir: Path, tier: int, shard: int) -> bool:
    return _keys_file(workdir, tier, shard, True).exists()


# -- the backward pass --------------------------------------------------------------------
def value_part(game: Game[Any, Any], workdir_name: str, tier: int, part: int,
               offsets: list[list[int]], starts: list[int], ends: list[int],
               child_values: Any) -> tuple[Any, list[str]]:
    """Batch ``part`` of ``tier``: its positions from every shard, in key order, valued.
    Returns the rows packed (work.pack_rows) and their chunk checksums; the packed rows are
    also written to the batch's values file, for the tiers below."""
    workdir = Path(workdir_name)
    try:
        # Valued by a run killed before committing it: the rows are kept (module docstring).
        packed = read_values(value_file(workdir, tier, part))
        return packed, chunk_sums(list(unpack_rows(packed)))
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
        pass
    pieces = [_read_range(_shard_file(workdir, tier, s), offsets[s], starts[s], ends[s])
              for s in range(len(starts))]
    positions = _in_key_order(workdir, tier, pieces, starts, ends, game)
    rows, sums = solve_slice(game, positions, child_values)
    packed = pack_rows(rows)
    write_values(value_file(workdir, tier, part), packed)
    return packed, sums


def _in_key_order(workdir: Path, tier: int, pieces: list[list[Any]], starts: list[int],
                  ends: list[int], game: Game[Any, Any]) -> list[Any]:
    """Merge the shards' sorted pieces of a batch into one list in key order: by the
    shards' numpy keys where every key is an int, else by each position's key."""
    if all(_keys_numeric(workdir, tier, s) for s in range(len(pieces))):
        import numpy as np
        keys = np.concatenate([np.load(_keys_file(workdir, tier, s, True), mmap_mode="r")[starts[s]:ends[s]]
                               for s in range(len(pieces))])
        joined = [position for piece in pieces for position in piece]
        return [joined[at] for at in np.argsort(keys, kind="stable").tolist()]
    key_of = game.key
    return list(heapq.merge(*pieces, key=lambda position: key_order(encode_key(key_of(position)))))


@dataclass
class _Pipeline:
    """Units submitted and not yet committed, in the order they must be committed."""

    job: Any
    runner: Backend
    base_seconds: float
    queue: deque[tuple[int, int, Future[Any]]] = field(default_factory=deque)
    left: dict[int, int] = field(default_factory=dict)  # batches of a tier not yet committed
    committed: int = 0

    def commit_next(self) -> None:
        tier, part, future = self.queue[0]
        packed, sums = self.runner.result(future)
        self.queue.popleft()
        self.job.commit(tier, part, list(unpack_rows(packed)), self.base_seconds, sums)
        self.committed += 1
        self.left[tier] -= 1
        if self.left[tier] == 0 and self.job.report is not None:
            self.job.report(f"backward: tier {tier}: batches committed")

    def drain(self) -> None:
        while self.queue:
            self.commit_next()


def backward(job: Any, plan: ShardPlan, workdir: Path, runner: Backend) -> tuple[int, int]:
    """Value every tier from the highest down, committing the batches in the order a build
    in one process does; return (batches committed, tiers valued from the database)."""
    database = job.database
    done = database.committed()
    pipeline = _Pipeline(job, runner, float(database.meta.get("build_seconds", "0")))
    submitted: dict[int, list[Future[Any]]] = {}
    from_database = 0
    for tier in reversed(plan.tiers):
        todo = [part for part in range(plan.parts(tier)) if (tier, part) not in done]
        if not todo:
            continue
        reach = plan.reach.get(tier, [])
        needed = sum(plan.size(reached) for reached in reach)
        handle: StoredValues | ValueFiles
        if runner.workers * needed * VALUE_BYTES > job.memory:
            pipeline.drain()  # every tier it reaches must be in the database first
            handle = StoredValues(str(database.path.absolute()), tier)
            from_database += 1
        else:
            waiting = [future for reached in reach for future in submitted.get(reached, [])]
            while any(not future.done() for future in waiting):
                pipeline.commit_next()
            handle = ValueFiles(str(workdir), str(database.path.absolute()),
                                tuple((reached, plan.parts(reached)) for reached in reach))
        starts = plan.starts[tier]
        pipeline.left[tier] = len(todo)
        submitted[tier] = []
        for part in todo:
            future = runner.submit(value_part, job.game, str(workdir), tier, part, plan.offsets[tier],
                                   starts[part], starts[part + 1], handle)
            submitted[tier].append(future)
            pipeline.queue.append((tier, part, future))
            while pipeline.queue and pipeline.queue[0][2].done():
                pipeline.commit_next()
        _drop_values(workdir, plan, tier, submitted)
    pipeline.drain()
    return pipeline.committed, from_database


def _drop_values(workdir: Path, plan: ShardPlan, lowest: int,
                 submitted: dict[int, list[Future[Any]]]) -> None:
    """Remove the values files of tiers that no tier still to be valued reaches and whose
    readers have all finished."""
    below = [tier for tier in plan.tiers if tier < lowest]
    needed = {reached for tier in below for reached in plan.reach.get(tier, [])}
    for tier in list(submitted):
        if tier in needed or tier == lowest:
            continue
        readers = [t for t, reach in plan.reach.items() if tier in reach]
        if all(future.done() for t in readers for future in submitted.get(t, [])):
            for part in range(plan.parts(tier)):
                value_file(workdir, tier, part).unlink(missing_ok=True)
            del submitted[tier]

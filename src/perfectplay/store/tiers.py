"""The forward pass of a build: every position reachable from the root, grouped into tiers
so that every move leads to a later tier.

A game that declares :meth:`Game.tier` (stones on the board, sticks taken) is walked one
tier at a time: the children of tier t are gathered into the tiers they belong to, and
tier t is final once every lower tier has been expanded, because only lower tiers lead to
it. Gathered positions are held in memory up to the memory bound and spilled to disk as
sorted runs beyond it; a finished tier is merged from its runs a chunk at a time (an
external merge sort) into its tier file, one pickle per slice, and expanded a slice at a
time, so no tier is held whole.

The pass is resumable, losing at most the slice being expanded when it is killed: each tier
file is written atomically (by rename) and recorded in ``forward.json``; the children of each
expanded slice are written to their own file (``exp...pkl``, atomically) before they are
counted, and kept until every tier they reach is written. A killed build reloads what those
files hold (the positions gathered for the tiers not yet written), expands the slices that
have no file yet, and goes on; its tier files hold the same keys as an uninterrupted pass.
``plan.json`` is written last, when the pass is complete.

A game without tiers is layered here: the whole position graph is walked in memory, and a
position's tier is the length of the longest path to it from the root (Kahn's topological
layering), which makes every move lead to a later tier.
"""

from __future__ import annotations

import heapq
import json
import os
import pickle
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game
from perfectplay.store.backends import Backend, chunks
from perfectplay.store.records import encode_key, key_order
from perfectplay.store.work import TierSlice, expand

# What one gathered position costs in memory: a dict slot, its key and the position (for
# Connect Four a tuple of two ints and its move string). Measured by benchmarks/store_memory.py
# (docs/store.md, "Memory"); the memory bound is enforced with these estimates.
ENTRY_BYTES = 300
# What one known value costs in a dict of values (key, value and the dict's slot), measured
# the same way.
VALUE_BYTES = 120
PLAN = "plan.json"
# The forward pass's progress: the tiers written so far, and the tiers expanded.
PROGRESS = "forward.json"
# (key, position) pairs per pickle in a spilled run: what a merge holds per run.
SPILL_CHUNK = 4096


@dataclass
class Plan:
    """The tiers of a build, lowest first, with what each holds and which tiers it reaches."""

    tiers: list[int]
    sizes: dict[int, int]
    reach: dict[int, list[int]]
    spilled_chunks: int = 0
    layered: bool = False
    # Byte offsets of each tier file's slices (batch_size positions each, one pickle each).
    slices: dict[int, list[int]] = field(default_factory=dict)

    def save(self, workdir: Path, name: str = PLAN) -> None:
        data = {"tiers": self.tiers, "sizes": {str(t): n for t, n in self.sizes.items()},
                "reach": {str(t): r for t, r in self.reach.items()},
                "spilled_chunks": self.spilled_chunks, "layered": self.layered,
                "slices": {str(t): o for t, o in self.slices.items()}}
        _atomic_write(workdir / name, json.dumps(data).encode())

    @classmethod
    def load(cls, workdir: Path, name: str = PLAN) -> Plan | None:
        try:
            data = json.loads((workdir / name).read_text())
            slices = {int(t): o for t, o in data["slices"].items()}
        except (OSError, ValueError, KeyError, AttributeError):
            return None  # none yet, or an older build's plan: redo the forward pass
        return cls(data["tiers"], {int(t): n for t, n in data["sizes"].items()},
                   {int(t): r for t, r in data["reach"].items()}, data["spilled_chunks"],
                   data["layered"], slices)

    def slice_of(self, workdir: Path, tier: int, part: int) -> TierSlice:
        offsets = self.slices[tier]
        return TierSlice(str(tier_file(workdir, tier)), offsets[part], offsets[part + 1])

    @property
    def positions(self) -> int:
        return sum(self.sizes.values())


def tier_file(workdir: Path, tier: int) -> Path:
    return workdir / f"tier{tier:+08d}.pkl"


def load_tier(workdir: Path, tier: int) -> list[Any]:
    """Every position of a tier file, slice after slice."""
    positions: list[Any] = []
    with open(tier_file(workdir, tier), "rb") as handle:
        while True:
            try:
                positions.extend(pickle.load(handle))
            except EOFError:
                return positions


def _atomic_write(path: Path, data: bytes, sync: bool = True) -> None:
    """Write ``path`` whole or not at all (by rename). ``sync=False`` skips the fsync for
    files that a resume can check and redo (children files, which it unpickles)."""
    partial = path.with_suffix(path.suffix + ".partial")
    with open(partial, "wb") as out:
        out.write(data)
        if sync:
            out.flush()
            os.fsync(out.fileno())
    os.replace(partial, path)


def _write_tier(workdir: Path, tier: int, ordered: Iterable[Any], batch_size: int,
                plan: Plan) -> None:
    """A tier's positions, sorted by key (so its batches are the same in every run), as one
    pickle per slice of ``batch_size`` positions: a worker reads its own slice from the
    file, and neither pass holds more than a slice of the file at once."""
    offsets = [0]
    path = tier_file(workdir, tier)
    partial = path.with_suffix(path.suffix + ".partial")
    size = 0
    with open(partial, "wb") as out:
        for part in _batched(ordered, batch_size):
            pickle.dump(part, out, protocol=pickle.HIGHEST_PROTOCOL)
            offsets.append(out.tell())
            size += len(part)
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    plan.tiers.append(tier)
    plan.sizes[tier] = size
    plan.slices[tier] = offsets


def _batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _sorted_pairs(bucket: dict[Any, Any]) -> list[tuple[Any, Any]]:
    try:
        # Keys all ints or all strings sort alone in key_order's order, at C speed (a key
        # function per key took a tenth of a forward pass).
        ordered = sorted(bucket)
    except TypeError:
        ordered = sorted(bucket, key=key_order)
    return [(key, bucket[key]) for key in ordered]


def _read_run(path: Path) -> Iterator[tuple[Any, Any]]:
    """A spilled run, chunk by chunk (sorted (key, position) pairs)."""
    with open(path, "rb") as handle:
        while True:
            try:
                yield from pickle.load(handle)
            except EOFError:
                return


@dataclass
class _Pending:
    """Positions gathered for tiers not yet expanded, in memory and in spilled chunks."""

    workdir: Path
    memory: int
    held: dict[int, dict[Any, Any]] = field(default_factory=dict)
    spilled: dict[int, list[Path]] = field(default_factory=dict)
    count: int = 0
    chunks_written: int = 0

    def add(self, children: dict[int, dict[Any, Any]]) -> None:
        for tier, found in children.items():
            # Positions with equal keys have equal values, so which one a tier keeps does
            # not change a record: dict.update (C speed) may let the later one win.
            bucket = self.held.setdefault(tier, {})
            before = len(bucket)
            bucket.update(found)
            self.count += len(bucket) - before
        if self.count * ENTRY_BYTES > self.memory:
            self._spill()

    def _spill(self) -> None:
        """Write every held tier as a sorted run, in chunks, so that a tier is later merged
        from its runs a chunk at a time (an external merge sort) rather than loaded whole."""
        for tier, bucket in self.held.items():
            self.chunks_written += 1
            path = self.workdir / f"spill{tier:+08d}-{self.chunks_written}.pkl"
            with open(path, "wb") as out:
                for part in chunks(_sorted_pairs(bucket), SPILL_CHUNK):
                    pickle.dump(part, out, protocol=pickle.HIGHEST_PROTOCOL)
            self.spilled.setdefault(tier, []).append(path)
        self.held.clear()
        self.count = 0

    def lowest(self) -> int | None:
        tiers = set(self.held) | set(self.spilled)
        return min(tiers) if tiers else None

    def take(self, tier: int) -> Iterator[Any]:
        """The tier's positions in key order, one per key, merged from its spilled runs and
        what is held (runs are removed once the tier file that consumes this is written)."""
        return (position for _, position in self.take_pairs(tier))

    def take_pairs(self, tier: int) -> Iterator[tuple[Any, Any]]:
        """The same as :meth:`take`, as (key, position) pairs."""
        held = self.held.pop(tier, {})
        self.count -= len(held)
        runs = [_read_run(path) for path in self.spilled.get(tier, [])]
        if not runs:  # nothing spilled: one dict, whose keys are distinct already
            yield from _sorted_pairs(held)
            return
        merged = heapq.merge(*runs, _sorted_pairs(held), key=lambda pair: key_order(pair[0]))
        del held
        previous = None
        for key, position in merged:
            if key != previous:  # equal keys have equal values: keep the first
                yield key, position
                previous = key

    def drop_runs(self, tier: int) -> None:
        for path in self.spilled.pop(tier, []):
            path.unlink()


def forward(game: Game[Any, Any], root: Any, workdir: Path, backend: Backend, memory: int,
            batch_size: int, report: Any = None) -> Plan:
    """Find every position reachable from ``root``, write each tier, return the plan. A pass
    that was killed goes on from its last expanded slice (module docstring)."""
    if game.tier(root) is None:
        return _layered(game, root, workdir, batch_size)
    pending = _Pending(workdir, memory)
    plan, reached = _resume(workdir, pending, report)
    if plan is None:
        plan, reached = Plan([], {}, {}), set()
        pending.add({game.tier(root): {encode_key(game.key(root)): root}})  # type: ignore[dict-item]
    elif plan.tiers[-1] not in plan.reach:
        _expand_tier(game, workdir, backend, plan, pending, plan.tiers[-1], reached, report)
    while (tier := pending.lowest()) is not None:
        _write_tier(workdir, tier, pending.take(tier), batch_size, plan)
        plan.save(workdir, PROGRESS)
        pending.drop_runs(tier)
        _drop_expanded(workdir, tier)
        _expand_tier(game, workdir, backend, plan, pending, tier, set(), report)
    plan.spilled_chunks = pending.chunks_written
    plan.save(workdir)
    for done in (*workdir.glob("exp*.pkl"), workdir / PROGRESS):  # the plan now says it all
        done.unlink(missing_ok=True)
    return plan


def _expand_tier(game: Game[Any, Any], workdir: Path, backend: Backend, plan: Plan,
                 pending: _Pending, tier: int, reached: set[int], report: Any) -> None:
    """Expand the slices of ``tier`` that have no children file yet (``reached``: the tiers
    that those with one reach), writing each slice's children before counting them."""
    done = {part for part, _ in _expanded_files(workdir, tier)}
    todo = [part for part in range(len(plan.slices[tier]) - 1) if part not in done]
    # Read back a slice at a time (a generator: the serial backend expands one slice before
    # reading the next; Ray sends them all out at once).
    units = ((game, plan.slice_of(workdir, tier, part).read(), tier) for part in todo)
    for part, children in zip(todo, backend.map(expand, units), strict=True):
        highest = max(children, default=tier)
        _atomic_write(workdir / f"{_expanded_prefix(tier, part)}.upto{highest:+08d}.pkl",
                      pickle.dumps(children, protocol=pickle.HIGHEST_PROTOCOL), sync=False)
        reached.update(children)
        pending.add(children)
    # Saved with the next tier (a pass killed before that finds every slice expanded and
    # takes the reach from their files).
    plan.reach[tier] = sorted(reached)
    plan.spilled_chunks = pending.chunks_written
    if report is not None:
        report(f"forward: tier {tier}: {plan.sizes[tier]:,} positions")


def _expanded_prefix(tier: int, part: int) -> str:
    return f"exp{tier:+08d}.{part:07d}"


def _expanded_files(workdir: Path, tier: int | None = None) -> list[tuple[int, Path]]:
    """The children files of ``tier`` (of every tier when None), as (part, path), by part."""
    pattern = "exp*.upto*.pkl" if tier is None else f"exp{tier:+08d}.*.upto*.pkl"
    return sorted((int(path.name.split(".")[1]), path) for path in workdir.glob(pattern))


def _drop_expanded(workdir: Path, written: int) -> None:
    """Remove the children files all of whose tiers are now written (up to ``written``)."""
    for _, path in _expanded_files(workdir):
        if int(path.name.split(".upto")[1].removesuffix(".pkl")) <= written:
            path.unlink()


def _resume(workdir: Path, pending: _Pending, report: Any) -> tuple[Plan | None, set[int]]:
    """The progress of a killed forward pass: its plan so far, with ``pending`` refilled from
    the children files (spilled runs are only a copy of those, so they are dropped), and
    the tiers reached by the last tier's expanded slices. (None, set()) when there is none,
    after removing what a pass killed before its first tier left."""
    for stale in workdir.glob("spill*.pkl"):
        stale.unlink()
    plan = Plan.load(workdir, PROGRESS)
    if plan is None or not plan.tiers:
        for stale in workdir.glob("exp*.pkl"):
            stale.unlink()
        return None, set()
    last = plan.tiers[-1]
    _drop_expanded(workdir, last)
    pending.chunks_written = plan.spilled_chunks  # spill counts and run names go on from here
    reached: set[int] = set()
    kept = 0
    for _, path in _expanded_files(workdir):
        try:
            children = pickle.loads(path.read_bytes())
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
            path.unlink()  # cut short (a crash of the machine): that slice is expanded again
            continue
        if path.name.startswith(f"exp{last:+08d}."):
            reached.update(children)
        pending.add({child_tier: found for child_tier, found in children.items() if child_tier > last})
        kept += 1
    if report is not None:
        report(f"forward: resumed after tier {last}, {kept} expanded slices kept")
    return plan, reached


def _layered(game: Game[Any, Any], root: Any, workdir: Path, batch_size: int) -> Plan:
    """Tiers for a game that declares none: longest path from the root, all in memory."""
    positions: dict[Any, Any] = {encode_key(game.key(root)): root}
    children: dict[Any, list[Any]] = {}
    frontier = [next(iter(positions))]
    while frontier:
        key = frontier.pop()
        position = positions[key]
        found = []
        if game.outcome(position) is None:
            for move in game.legal_moves(position):
                child = game.play(position, move)
                child_key = encode_key(game.key(child))
                found.append(child_key)
                if child_key not in positions:
                    positions[child_key] = child
                    frontier.append(child_key)
        children[key] = found
    layer = _longest_path_layers(children, next(iter(positions)))
    if layer is None or len(layer) != len(positions):
        looping = next(key for key in positions if layer is None or key not in layer)
        raise UnsupportedSearch(
            f"{game.name} does not declare itself loopy, but its positions repeat: "
            f"{game.format_position(positions[looping])!r} lies on a cycle; a loopy game "
            "needs Properties(loopy=True) and retrograde analysis")
    plan = Plan([], {}, {}, layered=True)
    by_tier: dict[int, dict[Any, Any]] = {}
    for key, tier in layer.items():
        by_tier.setdefault(tier, {})[key] = positions[key]
    for tier in sorted(by_tier):
        _write_tier(workdir, tier, (pair[1] for pair in _sorted_pairs(by_tier[tier])), batch_size, plan)
        plan.reach[tier] = sorted({layer[c] for key in by_tier[tier] for c in children[key]})
    plan.save(workdir)
    return plan


def _longest_path_layers(children: dict[Any, list[Any]], root: Any) -> dict[Any, int] | None:
    """Kahn's algorithm: a position's layer is one more than its latest parent's. Positions
    on or after a cycle never become ready and are left out."""
    parents_left: dict[Any, int] = dict.fromkeys(children, 0)
    for found in children.values():
        for child in set(found):
            parents_left[child] += 1
    layer = {root: 0}
    ready = [root]
    while ready:
        key = ready.pop()
        for child in set(children[key]):
            layer[child] = max(layer.get(child, 0), layer[key] + 1)
            parents_left[child] -= 1
            if parents_left[child] == 0:
                ready.append(child)
    return {key: layer[key] for key in layer if parents_left[key] == 0 or key == root}

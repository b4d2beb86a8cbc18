"""Building the Connect Four opening book: solve the frontier, then back up.

Only the frontier, the live positions with exactly K stones, needs search: each is solved
exactly by the compiled kernel (perfectplay.games.connect4.kernel_engine). Every position with fewer
stones then follows by one-ply negamax from its children's scores (:func:`back_up`): a move
that completes four scores ``(cells + 1 - stones) // 2``, any other move minus its child's
score. So the whole cost of a book is its frontier.

The frontier is cut into batches of consecutive positions in key order (positions.level);
a batch is the unit of work and of resuming:

* each batch is solved by one process, and its results are written as one file with a
  checksum (storage.write_batch) the moment it is done: a build killed at any point (kill -9,
  a stopped machine) loses at most the batches in flight, and the next run skips every batch
  whose file is present and sound;
* ``workers`` processes (concurrent.futures) take batches in turn; with one worker the batches
  run in this process;
* a process keeps its transposition table warm from one position to the next (no new
  generation between solves). That is sound because an entry is a bound on the score of the
  position it names, whatever root the search started from; and it pays because neighbouring
  positions in key order share some of their subtrees (3-19% less time on the runs in
  docs/benchmarks-log.md, "The opening book").

numba is imported only inside :func:`solve_batch`, through the compiled engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from perfectplay.errors import BadOption
from perfectplay.games.connect4.book.positions import level, position_of
from perfectplay.games.connect4.book.storage import BookError, Solved, batch_header, read_batch, write_batch
from perfectplay.games.connect4.rules import ConnectFour

# Positions per batch, by frontier depth: a batch takes a few minutes of one core, so that a
# kill loses little (per-position times: docs/benchmarks-log.md).
BATCH_SIZES = {0: 1, 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 16, 7: 32}
DEEP_BATCH = 64
DEFAULT_TABLE = "512M"


def batch_size(stones: int) -> int:
    return BATCH_SIZES.get(stones, DEEP_BATCH)


def level_directory(root: Path, game: ConnectFour, stones: int) -> Path:
    return Path(root) / f"connect4-{game.width}x{game.height}" / f"stones-{stones:02d}"


def batch_path(root: Path, game: ConnectFour, stones: int, index: int) -> Path:
    return level_directory(root, game, stones) / f"batch-{index:05d}.txt"


def plan(game: ConnectFour, stones: int) -> list[list[int]]:
    """The frontier's batches: consecutive runs of the sorted canonical keys."""
    keys = level(game, stones)
    size = batch_size(stones)
    return [keys[i:i + size] for i in range(0, len(keys), size)]


@dataclass(frozen=True)
class Progress:
    """What the builder reports after each batch."""

    stones: int
    batch: int
    batches: int
    done: int
    positions: int
    seconds: float
    nodes: int

    @property
    def line(self) -> str:
        rate = self.nodes / self.seconds if self.seconds else 0.0
        return (f"stones {self.stones}: batch {self.batch} solved ({self.positions} positions, "
                f"{self.seconds:.1f} s, {rate / 1e6:.1f} M nodes/s); "
                f"{self.done}/{self.batches} batches done")


def solve_batch(width: int, height: int, keys: list[int], table_size: str) -> list[Solved]:
    """Exact scores of the live positions ``keys``, one table kept warm throughout."""
    from perfectplay.games.connect4.kernel_engine import Engine

    game = ConnectFour(width, height)
    engine = Engine(game, table_size)
    results = []
    with engine.exclusive():  # the whole batch: no other solve may renew the table meanwhile
        for key in keys:
            engine.reset_counters()  # counters only: the table stays warm
            started = time.process_time()
            score = engine.score(position_of(game, key))
            seconds = time.process_time() - started
            results.append(Solved(key, score, engine.counters()[0], seconds))
    return results


def _solve_and_write(width: int, height: int, stones: int, index: int, keys: list[int],
                     table_size: str, path: Path) -> list[Solved]:
    results = solve_batch(width, height, keys, table_size)
    write_batch(path, batch_header(width, height, stones, index), results)
    return results


def pending_batches(game: ConnectFour, root: Path, stones: int,
                    batches: list[list[int]]) -> list[int]:
    """Indices of the batches without a sound file; a file that fails its checksum is
    removed, so that it is solved again and never read."""
    pending = []
    for index, keys in enumerate(batches):
        path = batch_path(root, game, stones, index)
        if not path.exists():
            pending.append(index)
            continue
        try:
            found = read_batch(path, batch_header(game.width, game.height, stones, index))
        except BookError:
            path.unlink()
            pending.append(index)
            continue
        if [r.key for r in found] != keys:
            raise BookError(f"{path}: holds other positions than this build plans "
                            "(built by another version?)")
    return pending


def build_level(game: ConnectFour, root: Path, stones: int, *, workers: int = 1,
                table_size: str = DEFAULT_TABLE,
                on_batch: Callable[[Progress], None] | None = None) -> int:
    """Solve every frontier batch of ``stones`` stones not already on disk under ``root``;
    returns how many batches this run solved."""
    if workers < 1:
        raise BadOption(f"--workers {workers}: needs at least 1 worker")
    batches = plan(game, stones)
    pending = pending_batches(game, root, stones, batches)
    folder = level_directory(root, game, stones)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BookError(f"{folder}: cannot create the build folder "
                        f"({error.strerror or error})") from None
    done = len(batches) - len(pending)
    for index, results in _run(game, root, stones, batches, pending, workers, table_size):
        done += 1
        if on_batch is not None:
            on_batch(Progress(stones, index, len(batches), done, len(results),
                              sum(r.seconds for r in results), sum(r.nodes for r in results)))
    return len(pending)


def _run(game: ConnectFour, root: Path, stones: int, batches: list[list[int]], pending: list[int],
         workers: int, table_size: str) -> Iterable[tuple[int, list[Solved]]]:
    def arguments(index: int) -> tuple[int, int, int, int, list[int], str, Path]:
        return (game.width, game.height, stones, index, batches[index], table_size,
                batch_path(root, game, stones, index))

    if workers == 1:
        for index in pending:
            yield index, _solve_and_write(*arguments(index))
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_solve_and_write, *arguments(index)): index for index in pending}
        for future in as_completed(futures):
            yield futures[future], future.result()


def frontier_results(game: ConnectFour, root: Path, stones: int) -> list[Solved]:
    """Every frontier result of ``stones`` stones; BookError when the level is unfinished."""
    batches = plan(game, stones)
    results: list[Solved] = []
    missing = 0
    for index in range(len(batches)):
        path = batch_path(root, game, stones, index)
        if not path.exists():
            missing += 1
            continue
        results.extend(read_batch(path, batch_header(game.width, game.height, stones, index)))
    if missing:
        raise BookError(f"{level_directory(root, game, stones)}: {missing} of {len(batches)} "
                        f"batches are not built yet (run `perfectplay book build --stones "
                        f"{stones}` to continue)")
    return results


def back_up(game: ConnectFour, frontier: dict[int, int], stones: int) -> dict[int, int]:
    """Scores of every live position with at most ``stones`` stones, from the frontier's
    scores (canonical key -> score) by one-ply negamax, level by level towards the start
    (:func:`.tiers.back_up`)."""
    from perfectplay.games.connect4.book import tiers

    found = tiers.levels(game, stones)
    try:
        frontier_scores = [frontier[key] for key in found[stones].tolist()]
    except KeyError as missing:
        raise BookError(f"the frontier has no score for the position with key "
                        f"{missing.args[0]:x}") from None
    scores = tiers.back_up(game, found, frontier_scores)
    return {key: score for keys, values in zip(found, scores, strict=True)
            for key, score in zip(keys.tolist(), values.tolist(), strict=True)}


def assemble(game: ConnectFour, root: Path, stones: int, output: Path) -> dict[str, object]:
    """Write the book of every live position with at most ``stones`` stones to ``output``,
    from the finished frontier of that level under ``root``; returns the book's header.

    Lower levels solved directly by an earlier, shallower build are checked against the
    backed-up scores on the way: any disagreement is an error, never a book."""
    import numpy as np

    from perfectplay.games.connect4.book.storage import write_book

    frontier = frontier_results(game, root, stones)
    scores = back_up(game, {r.key: r.score for r in frontier}, stones)
    checked = _cross_check(game, root, stones, scores)
    keys = np.array(sorted(scores), dtype=np.uint64)
    header: dict[str, object] = {
        "game": "connect4", "width": game.width, "height": game.height, "stones": stones,
        "frontier_positions": len(frontier),
        "frontier_cpu_seconds": round(sum(r.seconds for r in frontier), 1),
        "frontier_nodes": sum(r.nodes for r in frontier),
        "cross_checked": checked,
        "command": f"perfectplay book build --stones {stones} --dir {root}" + (
            "" if (game.width, game.height) == (7, 6)
            else f" --width {game.width} --height {game.height}"),
    }
    return write_book(Path(output), header, keys,
                      np.array([scores[int(k)] for k in keys], dtype=np.int8))


def _cross_check(game: ConnectFour, root: Path, stones: int, scores: dict[int, int]) -> int:
    """Compare every directly solved result of a shallower level with ``scores``."""
    checked = 0
    for depth in range(stones):
        for index in range(len(plan(game, depth))):
            path = batch_path(root, game, depth, index)
            if not path.exists():
                continue
            for result in read_batch(path, batch_header(game.width, game.height, depth, index)):
                if scores[result.key] != result.score:
                    raise BookError(f"{path}: position {result.key:x} scored {result.score} "
                                    f"there but {scores[result.key]} backed up from "
                                    f"{stones} stones")
                checked += 1
    return checked

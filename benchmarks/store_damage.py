"""Change bytes on every page of a Connect Four database in turn and count what a reader gets:
the right answers, a position searched instead (an index entry lost), one error naming the
file, or a wrong answer (which must never happen). tests/test_store_damage.py runs the same
on a 4x3 board; this runs it on larger files and more bytes a page.

    python benchmarks/store_damage.py --width 4 --height 4 --flips 4
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from perfectplay import registry
from perfectplay.errors import BadDatabase
from perfectplay.store import lookup
from perfectplay.store.build import build

PAGE = 4096


def one_per_key(game: Any, root: Any) -> list[Any]:
    seen = {game.key(root): root}
    frontier = [root]
    while frontier:
        position = frontier.pop()
        if game.outcome(position) is None:
            for move in game.legal_moves(position):
                child = game.play(position, move)
                if seen.setdefault(game.key(child), child) is child:
                    frontier.append(child)
    return list(seen.values())


def answers(path: Path, game: Any, root: Any, positions: list[Any]) -> tuple[Any, Any]:
    store = lookup.open_store(path, game)
    try:
        solution = lookup.solve_stored(store, game, root)
        summary = None if solution is None else (solution.value, solution.best_moves, solution.pv)
        return store.values(game, positions), summary
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--height", type=int, default=4)
    parser.add_argument("--flips", type=int, default=4, help="changed bytes on each page")
    parser.add_argument("--sample", type=int, default=20_000, help="positions looked up each time")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--dense", action="store_true", help="damage the dense file instead")
    args = parser.parse_args()
    game, root = registry.load("connect4", {"width": args.width, "height": args.height})
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        build(game, root, where / "c.db", dense_path=where / "c.dense" if args.dense else None)
        original = where / ("c.dense" if args.dense else "c.db")
        positions = one_per_key(game, root)
        positions = rng.sample(positions, min(args.sample, len(positions)))
        truth = answers(original, game, root, positions)
        data = original.read_bytes()
        copy = where / ("copy.dense" if args.dense else "copy.db")
        counts = {"right": 0, "searched": 0, "error": 0, "wrong": 0}
        started = time.perf_counter()
        for page in range(len(data) // PAGE):
            for flip in range(args.flips):
                offset = rng.randrange(12) if flip == 0 else rng.randrange(PAGE)
                damaged = bytearray(data)
                damaged[page * PAGE + offset] ^= rng.randrange(1, 256)
                copy.write_bytes(bytes(damaged))
                try:
                    values, solution = answers(copy, game, root, positions)
                except BadDatabase:
                    counts["error"] += 1
                    continue
                if (values, solution) == truth:
                    counts["right"] += 1
                elif all(got in (right, None) for got, right in zip(values, truth[0], strict=False)) and (
                        solution in (None, truth[1])):
                    counts["searched"] += 1
                else:
                    counts["wrong"] += 1
                    print(f"WRONG: page {page}, offset {page * PAGE + offset}")
    print(f"{original.name}, Connect Four {args.width}x{args.height}: {len(data) // PAGE:,} pages, "
          f"{args.flips} changed bytes each, {len(positions):,} positions looked up each time: "
          f"{counts} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()

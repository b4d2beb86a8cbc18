"""Open, checked database handles (perfectplay.store.handles) and the lookup API:
perfectplay.lookup, lookup_many and solve_many with ``database=``."""

from __future__ import annotations

import concurrent.futures
import random
import shutil

import pytest

import perfectplay
from perfectplay import registry
from perfectplay.errors import BadDatabase
from perfectplay.store import handles
from perfectplay.store.build import build
from perfectplay.store.database import Database


@pytest.fixture(scope="module")
def c43(tmp_path_factory):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    path = tmp_path_factory.mktemp("handles") / "c43.db"
    build(game, root, path, batch_size=2000)
    return game, path


def _sample(game, count, seed=2):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = game.start()
        for _ in range(rng.randrange(10)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(game.legal_moves(position)))
        positions.append(position)
    return positions


def test_lookups_agree_with_solve_and_the_file_is_opened_once(c43, monkeypatch):
    game, path = c43
    handles.close_all()
    opened = []
    real_open = Database.open.__func__

    def counting_open(cls, *args, **kwargs):
        opened.append(args)
        return real_open(cls, *args, **kwargs)

    monkeypatch.setattr(Database, "open", classmethod(counting_open))
    positions = _sample(game, 60)
    many = perfectplay.lookup_many(game, positions, database=path)
    single = [perfectplay.lookup(game, position, database=str(path)) for position in positions]
    solved = [perfectplay.solve(game, position, database=path, pv_limit=0) for position in positions]
    assert many == single == [solution.value for solution in solved]
    assert all(solution.algorithm == "database" for solution in solved)
    assert len(opened) == 1


def test_solve_many_gives_solves_values_and_best_moves(c43):
    game, path = c43
    positions = _sample(game, 40, seed=5)
    batch = perfectplay.solve_many(game, positions, database=path)
    for position, found in zip(positions, batch, strict=True):
        one = perfectplay.solve(game, position, database=path, pv_limit=0)
        assert (found.value, sorted(found.best_moves), found.algorithm) == \
               (one.value, sorted(one.best_moves), "database")


def test_positions_not_stored_are_none_and_solve_many_searches_them(tmp_path):
    game, _ = registry.load("connect4", {"width": 4, "height": 3})
    later = game.parse_position("1234")
    build(game, later, tmp_path / "later.db")
    start = game.start()
    assert perfectplay.lookup(game, start, database=tmp_path / "later.db") is None
    assert perfectplay.lookup_many(game, [start, later], database=tmp_path / "later.db")[0] is None
    searched, stored = perfectplay.solve_many(game, [start, later], database=tmp_path / "later.db")
    assert searched.algorithm != "database" and stored.algorithm == "database"
    assert searched.value == perfectplay.solve(game, start).value


def test_a_replaced_file_is_opened_again_and_a_wrong_game_refused(c43, tmp_path):
    game, path = c43
    copy = tmp_path / "copy.db"
    shutil.copy(path, copy)
    positions = _sample(game, 10)
    before = perfectplay.lookup_many(game, positions, database=copy)
    other, other_root = registry.load("connect4", {"width": 3, "height": 3})
    build(other, other_root, tmp_path / "other.db")
    copy.unlink()
    shutil.copy(tmp_path / "other.db", copy)
    with pytest.raises(BadDatabase, match="copy.db"):
        perfectplay.lookup_many(game, positions, database=copy)
    with pytest.raises(BadDatabase, match="missing.db"):
        perfectplay.lookup(game, positions[0], database=tmp_path / "missing.db")
    assert before == perfectplay.lookup_many(game, positions, database=path)


def test_threads_share_the_handle_and_any_thread_may_close_it(c43):
    # The web server answers from a thread pool: a handle opened in one thread once made every
    # other thread's lookup fail with "the file is corrupted" (a connection bound to its thread).
    game, path = c43
    handles.close_all()
    positions = _sample(game, 200, seed=9)
    expected = perfectplay.lookup_many(game, positions, database=path)  # opened in this thread
    assert any(value is not None for value in expected)
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        singles = list(pool.map(lambda p: perfectplay.lookup(game, p, database=path), positions))
        batches = list(pool.map(lambda seed: perfectplay.lookup_many(game, positions, database=path),
                                range(8)))
    assert singles == expected and all(batch == expected for batch in batches)
    handles.close_all()  # closes the handle other threads used, without an error
    assert perfectplay.lookup_many(game, positions, database=path) == expected

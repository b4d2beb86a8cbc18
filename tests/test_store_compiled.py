"""The compiled tier builder (perfectplay.store.compiled_build) writes the database the Python
builder writes: same records, same batches, same checksums."""

from __future__ import annotations

import random

import numpy as np
import pytest
from store_helpers import stored_rows

from perfectplay import registry
from perfectplay.store import build as build_module
from perfectplay.store.build import build
from perfectplay.store.compiled_build import find_key, key_buckets, tier_spec

pytest.importorskip("numba")


def _both(tmp_path, monkeypatch, name, options, root_text=None, batch_size=1000, **extra):
    game, root = registry.load(name, options, root_text)
    compiled = build(game, root, tmp_path / "compiled.db", batch_size=batch_size, **extra)
    assert compiled.records > 0
    monkeypatch.setattr(build_module, "COMPILED_BUILDS", False)
    python = build(game, root, tmp_path / "python.db", batch_size=batch_size, **extra)
    assert compiled.records == python.records
    return stored_rows(tmp_path / "compiled.db"), stored_rows(tmp_path / "python.db")


def _backend(path):
    import sqlite3
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT value FROM meta WHERE name = 'backend'").fetchone()[0]


@pytest.mark.parametrize(("name", "options", "root"), [
    ("tictactoe", {}, None),
    ("connect4", {"width": 4, "height": 4}, None),
    ("connect4", {"width": 5, "height": 3}, "3324"),
    ("dots", {"width": 2, "height": 2}, None),  # a score game with extra turns
    ("dots", {"width": 3, "height": 1}, None),
    ("hex", {"size": 3}, None),
    ("hex", {"size": 4}, "b2 c3 a2 c2 b3 d1"),
    ("kalah", {"pits": 3, "seeds": 2}, None),  # extra turns, and seeds leaving play
    ("kalah", {"pits": 3, "seeds": 3, "capture": "standard"}, None),
    ("kalah", {"pits": 4, "seeds": 2}, "0 3 2 1 4 / 2 0 3 1 0 N"),
])
def test_the_compiled_and_python_builders_write_identical_databases(tmp_path, monkeypatch, name,
                                                                     options, root):
    compiled, python = _both(tmp_path, monkeypatch, name, options, root)
    assert compiled == python
    assert _backend(tmp_path / "compiled.db") == "compiled (one process)"
    assert _backend(tmp_path / "python.db") != "compiled (one process)"


def test_connect4_4x4_compiled_has_tromps_161029_positions(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    assert build(game, root, tmp_path / "c44.db").records == 161_029


def build_killed_after(commits, monkeypatch, *args, **kwargs):
    """A build interrupted (KeyboardInterrupt) when it is about to commit batch number
    ``commits`` + 1; the real commit is back in place afterwards."""
    real_commit = build_module._Job.commit
    calls = []

    def dying_commit(self, *commit_args, **commit_kwargs):
        if len(calls) == commits:
            raise KeyboardInterrupt
        calls.append(1)
        real_commit(self, *commit_args, **commit_kwargs)

    monkeypatch.setattr(build_module._Job, "commit", dying_commit)
    with pytest.raises(KeyboardInterrupt):
        build(*args, **kwargs)
    monkeypatch.setattr(build_module._Job, "commit", real_commit)


def test_a_killed_compiled_build_resumes_to_the_same_database(tmp_path, monkeypatch):
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    build(game, root, tmp_path / "whole.db", batch_size=5000)
    build_killed_after(7, monkeypatch, game, root, tmp_path / "resumed.db", batch_size=5000)
    result = build(game, root, tmp_path / "resumed.db", batch_size=5000)
    assert result.batches_resumed == 7
    assert stored_rows(tmp_path / "resumed.db") == stored_rows(tmp_path / "whole.db")


def test_a_memory_bound_too_small_for_the_compiled_builder_hands_over_to_python(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    result = build(game, root, tmp_path / "small.db", batch_size=500, memory=100_000)
    assert result.spilled_chunks > 0
    assert _backend(tmp_path / "small.db") != "compiled (one process)"


def test_the_connect4_tier_spec_agrees_with_the_rules(tmp_path):
    game, _ = registry.load("connect4", {"width": 5, "height": 4})
    spec = tier_spec(game)
    rng = random.Random(3)
    out = np.zeros(spec.max_moves, np.int64)
    for _ in range(300):
        position = game.start()
        for _ in range(rng.randrange(0, 20)):
            if game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(game.legal_moves(position)))
        state = spec.encode(position)
        assert spec.key(state) == game.key(position)
        assert spec.tier(state) == game.tier(position)
        expected = {None: 2, "LOSS": -1, "DRAW": 0}
        found = game.outcome(position)
        assert spec.outcome(state) == expected[found.name if found else None]
        count = spec.moves(state, out)
        assert list(out[:count]) == game.legal_moves(position)
        for column in game.legal_moves(position):
            assert spec.play(state, column) == game.key(game.play(position, column))


def test_the_dots_tier_spec_agrees_with_the_rules():
    game, _ = registry.load("dots", {"width": 3, "height": 2})
    spec = tier_spec(game)
    rng = random.Random(4)
    out = np.zeros(spec.max_moves, np.int64)
    for _ in range(200):
        position = game.start()
        for _ in range(rng.randrange(0, game.edges)):
            position = game.play(position, rng.choice(game.legal_moves(position)))
        state = spec.encode(position)
        assert (spec.key(state), spec.tier(state)) == (game.key(position), game.tier(position))
        count = spec.moves(state, out)
        assert sorted(out[:count]) == sorted(game.legal_moves(position))
        for line in game.legal_moves(position):
            assert spec.play(state, line) == game.key(game.play(position, line))
            assert spec.gain(state, line) == game.gain(position, line)
            assert spec.keeps_turn(state, line) == game.keeps_turn(position, line)


@pytest.mark.parametrize("capture", ["empty", "standard"])
def test_the_kalah_tier_spec_agrees_with_the_rules(capture):
    game, _ = registry.load("kalah", {"pits": 4, "seeds": 3, "capture": capture})
    spec = tier_spec(game)
    rng = random.Random(7)
    out = np.zeros(spec.max_moves, np.int64)
    checked = 0
    for _ in range(150):
        position = game.random_position(rng)
        if game.outcome(position) is not None:
            continue
        state = spec.encode(position)
        assert (spec.key(state), spec.tier(state)) == (game.key(position), game.tier(position))
        count = spec.moves(state, out)
        assert sorted(spec.decode_move(int(move)) for move in out[:count]) == sorted(
            game.legal_moves(position))
        for pit in game.legal_moves(position):
            child = game.play(position, pit)
            assert game.tier(child) > game.tier(position)
            assert spec.play(state, pit - 1) == game.key(child)
            assert spec.gain(state, pit - 1) == game.gain(position, pit)
            assert spec.keeps_turn(state, pit - 1) == game.keeps_turn(position, pit)
            checked += 1
    assert checked > 300


def test_a_kalah_database_holds_the_values_the_kernel_finds(tmp_path):
    """The compiled build's values of Kalah(3,3) (+2 from the start, as the kernel and `tt`
    find it) and of random positions are the kernel's, whose search shares nothing with the
    builder."""
    from perfectplay.solving import solve
    game, root = registry.load("kalah", {"pits": 3, "seeds": 3})
    where = str(tmp_path / "k33.db")
    build(game, root, where)
    rng = random.Random(3)
    positions = [root] + [game.random_position(rng) for _ in range(25)]
    for position in positions:
        stored = solve(game, position, database=where)
        assert stored.algorithm == "database"
        assert stored.value == solve(game, position, engine="compiled").value


def test_games_without_a_tier_spec_keep_the_python_builder():
    game, _ = registry.load("dodgem", {"width": 3})
    assert tier_spec(game) is None  # loopy: retrograde analysis
    game, _ = registry.load("nim", {})
    assert tier_spec(game) is None


def test_int_chunk_sums_are_the_stores_checksums():
    from perfectplay.store.compiled_build import int_chunk_sums
    from perfectplay.store.database import chunk_sums
    keys = list(range(-5, 3000, 3))
    values = [(k * 7919) % 2001 - 1000 for k in keys]
    pairs = list(zip(keys, values, strict=True))
    assert int_chunk_sums(np.array(keys), np.array(values)) == chunk_sums(pairs)
    extremes = [(-(1 << 63), 0), ((1 << 63) - 1, -1000), (0, 999), (-1, -3)]
    assert int_chunk_sums(np.array([k for k, _ in extremes]), np.array([v for _, v in extremes])) == \
        chunk_sums(extremes)


def test_the_cli_builds_compiled_and_refuses_a_compiled_build_it_cannot_run(tmp_path):
    from conftest import run_cli
    done = run_cli("db", "build", "connect4", "--width", "4", "--height", "3", "--db",
                   str(tmp_path / "c43.db"), "--builder", "compiled")
    assert done.returncode == 0, done.stderr
    assert "(compiled)" in done.stderr and "c43.db" in done.stdout
    refused = run_cli("db", "build", "nim", "--db", str(tmp_path / "nim.db"), "--builder", "compiled")
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "--builder compiled" in refused.stderr
    dense = run_cli("db", "build", "tictactoe", "--db", str(tmp_path / "t.db"), "--builder",
                    "compiled", "--dense", str(tmp_path / "t.dense"))
    assert dense.returncode == 2 and "leave out --dense" in dense.stderr


def test_a_game_estimated_past_the_memory_bound_goes_straight_to_the_python_builder(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    reports = []
    # 4x4's estimate is 201,755 positions: 3.2 MB at 16 bytes each, past a 2 MB bound.
    build(game, root, tmp_path / "c44.db", memory="2MB", report=reports.append)
    assert any("would not fit --memory" in line and "--memory 1GB lets the compiled builder try"
               in line for line in reports)
    assert _backend(tmp_path / "c44.db") != "compiled (one process)"


def test_a_board_whose_key_needs_more_than_62_bits_has_no_tier_spec():
    wide, _ = registry.load("connect4", {"width": 9, "height": 6})  # (6 + 1) * 9 = 63 bits
    standard, _ = registry.load("connect4", {})
    assert tier_spec(wide) is None and tier_spec(standard) is not None


def _has_key_index(path):
    from perfectplay.store.database import Database
    with Database.open(path) as database:
        return database.has_key_index()


def test_rows_inserted_from_numba_and_by_executemany_give_the_same_file(tmp_path, monkeypatch):
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    build(game, root, tmp_path / "native.db", batch_size=3000)
    monkeypatch.setattr(build_module, "NATIVE_INSERTS", False)
    build(game, root, tmp_path / "executemany.db", batch_size=3000)
    assert stored_rows(tmp_path / "native.db") == stored_rows(tmp_path / "executemany.db")
    assert _has_key_index(tmp_path / "native.db") and _has_key_index(tmp_path / "executemany.db")


def test_a_compiled_build_killed_without_its_index_is_finished_by_the_python_builder(
        tmp_path, monkeypatch):
    """The compiled builder drops the index on keys while it inserts; a build it leaves
    unfinished and the Python builder resumes gets the index back before anything is looked
    up, and the same records as an uninterrupted build."""
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    build(game, root, tmp_path / "whole.db", batch_size=500)
    build_killed_after(5, monkeypatch, game, root, tmp_path / "resumed.db", batch_size=500)
    assert not _has_key_index(tmp_path / "resumed.db")
    result = build(game, root, tmp_path / "resumed.db", batch_size=500, builder="python")
    assert result.batches_resumed == 5
    assert _has_key_index(tmp_path / "resumed.db")
    assert stored_rows(tmp_path / "resumed.db") == stored_rows(tmp_path / "whole.db")


def test_keys_found_in_two_tiers_keep_the_index_while_the_rows_go_in():
    from perfectplay.store.compiled_build import Tiers, distinct_across_tiers
    tiers = Tiers()
    tiers.keys = {0: np.array([1, 5, 9]), 1: np.array([2, 6]), 2: np.array([3, 7])}
    assert distinct_across_tiers(tiers)
    tiers.keys[2] = np.array([3, 6])
    assert not distinct_across_tiers(tiers)


def test_where_sqlite_cannot_be_reached_from_numba_the_rows_go_in_by_executemany(tmp_path,
                                                                                 monkeypatch):
    from perfectplay.store import native
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    build(game, root, tmp_path / "native.db", batch_size=700)
    monkeypatch.setattr(native, "_library", lambda: None)
    assert native.writer(tmp_path / "native.db") is None
    build(game, root, tmp_path / "fallback.db", batch_size=700)
    assert stored_rows(tmp_path / "fallback.db") == stored_rows(tmp_path / "native.db")
    assert _has_key_index(tmp_path / "fallback.db")


def test_a_compiled_build_leaves_its_file_in_wal_mode_with_no_journal(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    build(game, root, tmp_path / "c43.db", batch_size=500)
    header = (tmp_path / "c43.db").read_bytes()[:100]
    assert (header[18], header[19]) == (2, 2)  # SQLite's file format numbers for WAL
    assert not (tmp_path / "c43.db-journal").exists()


def test_key_buckets_find_every_key_and_no_other():
    rng = np.random.default_rng(5)
    spans = [(0, 1 << 30), (-(1 << 40), 1 << 40), (-(1 << 63), (1 << 63) - 1)]
    for low, high in spans:
        keys = np.unique(rng.integers(low, high, size=5000, dtype=np.int64))
        buckets, first, shift = key_buckets(keys)
        for at in range(0, len(keys), 7):
            assert find_key(keys, buckets, first, shift, int(keys[at])) == at
        for absent in rng.integers(low, high, size=500, dtype=np.int64):
            expected = np.searchsorted(keys, absent)
            found = expected < len(keys) and keys[expected] == absent
            assert find_key(keys, buckets, first, shift, int(absent)) == (expected if found else -1)
        assert find_key(keys, buckets, first, shift, int(keys[0]) - 1) == -1
        assert find_key(keys, buckets, first, shift, int(keys[-1]) + 1) == -1
    empty = np.empty(0, np.int64)
    assert find_key(empty, *key_buckets(empty), 3) == -1

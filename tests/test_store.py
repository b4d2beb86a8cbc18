"""Databases of strongly solved positions: the values against independent brute force and
search, both stores, resume after kill -9, workers, spilling, and bad files."""

from __future__ import annotations

import functools
import json
import random
import sqlite3

import pytest
from store_helpers import stored_rows as _records

from perfectplay import registry
from perfectplay import value as V
from perfectplay.errors import BadDatabase, CorruptDatabase, UnsupportedSearch
from perfectplay.game import Game
from perfectplay.search.perft import reachable_positions
from perfectplay.solving import analyze, solve
from perfectplay.store import lookup
from perfectplay.store.build import build
from perfectplay.store.database import Database
from perfectplay.store.dense import DenseFile
from perfectplay.store.method import holds
from perfectplay.store.records import pack, unpack


def brute_value(game, position):
    """Negamax with remoteness, written here apart from the engine and the build."""

    @functools.cache
    def value(node):
        result = game.outcome(node)
        if result is not None:
            return {1: V.WIN, 0: 0, -1: -V.WIN}[result.value]
        moves = game.moves(node)
        if not moves:
            return -V.WIN
        best = -V.WIN - 1
        for move in moves:
            child = value(game.play(node, move))
            best = max(best, -(child - 1 if child > 0 else child + 1 if child < 0 else 0))
        return best

    return value(position)


@pytest.fixture(scope="module")
def tictactoe_files(tmp_path_factory):
    where = tmp_path_factory.mktemp("ttt")
    game, root = registry.load("tictactoe")
    result = build(game, root, where / "ttt.db", dense_path=where / "ttt.dense", batch_size=40)
    return game, result, where / "ttt.db", where / "ttt.dense"


def test_tictactoe_database_answers_all_5478_positions_as_brute_force_does(tictactoe_files):
    game, result, path, dense_path = tictactoe_files
    positions = sorted(reachable_positions(game, game.start()))
    assert len(positions) == 5478
    assert result.records == 765  # the eight symmetries folded, as Game.key folds them
    expected = [brute_value(game, p) for p in positions]
    for store_path in (path, dense_path):
        store = lookup.open_store(store_path, game)
        assert store.values(game, positions) == expected
        store.close()


def test_a_stored_solution_agrees_with_search_on_every_move(tictactoe_files):
    game, _, path, dense_path = tictactoe_files
    rng = random.Random(3)
    for _ in range(25):
        position = game.random_position(rng)
        searched = solve(game, position)
        for store_path in (path, dense_path):
            stored = solve(game, position, database=str(store_path))
            assert stored.algorithm == "database"
            assert (stored.value, sorted(stored.best_moves)) == (searched.value, sorted(searched.best_moves))


def test_tictactoe_rank_and_unrank_are_inverse_on_canonical_positions():
    game, _ = registry.load("tictactoe")
    for position in reachable_positions(game, game.start()):
        index = game.rank(position)
        assert 0 <= index < game.index_size()
        assert game.unrank(index) == game.key(position)


@pytest.mark.parametrize("value", [V.win_in(0), V.win_in(37), V.loss_in(1), V.loss_in(16383), 0])
def test_16_bit_records_keep_value_and_remoteness(value):
    assert unpack(pack(value, False), False) == value


@pytest.mark.parametrize("score", [-32767, -11, 0, 9, 32767])
def test_16_bit_records_keep_scores(score):
    assert unpack(pack(score, True), True) == score


def test_connect4_4x4_has_161029_positions_and_is_a_draw(tmp_path):
    # 161,029: John Tromp's count of 4x4 Connect Four positions (tromp.github.io/c4/c4.html).
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    result = build(game, root, tmp_path / "c44.db", batch_size=20_000)
    assert result.records == 161_029
    store = lookup.open_store(tmp_path / "c44.db", game)
    assert store.values(game, [root]) == [0]
    rng = random.Random(5)
    for _ in range(12):
        position = game.random_position(rng)
        assert store.values(game, [position])[0] == solve(game, position, engine="python").value
    store.close()


def test_a_score_game_without_tiers_is_layered_and_matches_search(tmp_path):
    game, root = registry.load("crates", {}, "3 9 1 4 1 5 9 2")
    build(game, root, tmp_path / "crates.db")
    store = lookup.open_store(tmp_path / "crates.db", game)
    positions = list(reachable_positions(game, root))
    assert store.values(game, positions) == [solve(game, p).value for p in positions]
    stored, searched = solve(game, root, database=str(tmp_path / "crates.db")), solve(game, root)
    assert stored.algorithm == "database"
    assert (stored.value, stored.totals, stored.best_moves) == (searched.value, searched.totals,
                                                                searched.best_moves)
    store.close()


def test_takeaway_builds_by_layering_and_multiples_of_four_lose(tmp_path):
    game, root = registry.load("takeaway", {}, "20")
    build(game, root, tmp_path / "take.db")
    store = lookup.open_store(tmp_path / "take.db", game)
    values = store.values(game, list(range(21)))
    assert [n for n, v in enumerate(values) if v is not None and v < 0] == [0, 4, 8, 12, 16, 20]
    store.close()


def test_a_position_missing_from_the_database_is_answered_by_search(tmp_path):
    game, _ = registry.load("tictactoe")
    root = game.parse_position("X........")
    build(game, root, tmp_path / "x.db")
    where = str(tmp_path / "x.db")
    assert not holds(where, game, game.start()) and holds(where, game, root)
    assert len(analyze(game, game.start(), database=where)) == 9
    solution = solve(game, game.start(), database=where, algorithm="memo")
    assert (solution.algorithm, solution.value) == ("memo", 0)
    stored = analyze(game, root, database=where, algorithm="memo")
    assert [m.value for m in stored] == [m.value for m in analyze(game, root, algorithm="memo")]
    assert solve(game, root, database=where, engine="compiled").algorithm == "database"


def test_workers_and_a_tiny_memory_bound_build_the_same_database(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    build(game, root, tmp_path / "one.db", batch_size=500)
    spilled = build(game, root, tmp_path / "spill.db", batch_size=500, memory=100_000)
    build(game, root, tmp_path / "two.db", batch_size=500, workers=2)
    both = build(game, root, tmp_path / "both.db", batch_size=500, workers=2, memory=100_000)
    assert spilled.spilled_chunks > 0 and spilled.tiers_from_database > 0
    assert both.spilled_chunks > 0 and both.tiers_from_database > 0
    assert (_records(tmp_path / "one.db") == _records(tmp_path / "spill.db") == _records(tmp_path / "two.db")
            == _records(tmp_path / "both.db"))


def test_a_corrupted_record_is_detected_and_never_served(tictactoe_files, tmp_path):
    game, _, path, dense_path = tictactoe_files
    copy = tmp_path / "bad.db"
    copy.write_bytes(path.read_bytes())
    with sqlite3.connect(copy) as connection:
        connection.execute("UPDATE positions SET value = value + 1 WHERE id = 700")
    store = lookup.open_store(copy, game)
    with pytest.raises(CorruptDatabase, match="bad.db"):
        store.values(game, list(reachable_positions(game, game.start())))
    store.close()
    dense_copy = tmp_path / "bad.dense"
    data = bytearray(dense_path.read_bytes())
    data[-2] ^= 0x40
    dense_copy.write_bytes(bytes(data))
    with pytest.raises(CorruptDatabase, match="bad.dense"):
        DenseFile(dense_copy).check_all()


def test_bad_files_are_refused_with_their_name(tictactoe_files, tmp_path):
    game, _, path, dense_path = tictactoe_files
    other, _ = registry.load("connect4", {"width": 4, "height": 4})
    with pytest.raises(BadDatabase, match="built for tictactoe, not for connect4"):
        lookup.open_store(path, other)
    with pytest.raises(BadDatabase, match="built for tictactoe"):
        lookup.open_store(dense_path, other)
    junk = tmp_path / "junk.db"
    junk.write_text("hello, not a database\n" * 100)
    with pytest.raises(BadDatabase, match="junk.db"):
        Database.open(junk)
    truncated = tmp_path / "cut.dense"
    truncated.write_bytes(dense_path.read_bytes()[:5000])
    with pytest.raises(BadDatabase, match="cut.dense"):
        lookup.open_store(truncated)


def test_a_database_is_not_resumed_for_another_root(tictactoe_files):
    game, _, path, _ = tictactoe_files
    with pytest.raises(BadDatabase, match="built from position"):
        build(game, game.parse_position("X........"), path)


def test_a_bad_tier_declaration_is_reported(tmp_path):
    game, root = registry.load("tictactoe")
    game.tier = lambda position: 0  # type: ignore[method-assign]
    with pytest.raises(UnsupportedSearch, match="later tier"):
        build(game, root, tmp_path / "t.db")


class _Circle(Game):
    """A game whose moves go round a circle of three positions, without saying it loops."""

    name = "circle"

    def start(self):
        return 0

    def moves(self, position):
        return [1]

    def play(self, position, move):
        return (position + 1) % 3


def test_a_game_that_loops_without_saying_so_is_refused_naming_a_position(tmp_path):
    with pytest.raises(UnsupportedSearch, match="does not declare itself loopy.*'[012]' lies on a cycle"):
        build(_Circle(), 0, tmp_path / "circle.db")


@pytest.mark.parametrize("name", ["dodgem", "chopsticks"])
def test_a_loopy_game_is_built_by_retrograde_analysis_and_answers_as_it_does(tmp_path, name):
    from perfectplay.retro import solve_all

    game, root = registry.load(name)
    result = build(game, root, tmp_path / "loopy.db", batch_size=500)
    retro = solve_all(game, root, engine="python")
    assert result.records == len(retro)
    store = lookup.open_store(tmp_path / "loopy.db", game)
    positions = list(retro.positions)
    assert store.values(game, positions) == [int(v) for v in retro.values]
    store.close()
    solution = solve(game, root, database=str(tmp_path / "loopy.db"))
    assert (solution.algorithm, solution.value) == ("database", retro.root_value)


def test_a_stale_work_directory_without_its_database_is_not_reused(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    stale = tmp_path / "fresh.db.work"
    stale.mkdir()
    (stale / "plan.json").write_text(json.dumps({"tiers": [0], "sizes": {"0": 1}, "reach": {"0": []},
                                                 "spilled_chunks": 0, "layered": False,
                                                 "slices": {"0": [0, 10]}}))
    result = build(game, root, tmp_path / "fresh.db", batch_size=2000)
    assert result.records == 12_031


class _TwoPiles(Game):
    """Two piles; a move takes one or two stones from either; who cannot move loses. Its
    keys are strings, so a build with workers merges its shards by key_order, not numpy."""

    name = "two-piles"

    def start(self):
        return (23, 19)

    def moves(self, position):
        return [(pile, take) for pile in (0, 1) for take in (1, 2) if position[pile] >= take]

    def play(self, position, move):
        pile, take = move
        return (position[0] - take, position[1]) if pile == 0 else (position[0], position[1] - take)

    def key(self, position):
        return f"{position[0]}/{position[1]}"

    def tier(self, position):
        return 42 - position[0] - position[1]


def test_shards_of_string_keys_give_the_batches_of_one_process(tmp_path, monkeypatch):
    """Sharding by key (perfectplay.store.shards) leaves every batch as a one-process build
    cuts it, and the stored values are those search finds."""
    from perfectplay.store import backends
    from perfectplay.store import build as build_module

    game = _TwoPiles()
    build(game, game.start(), tmp_path / "one.db", batch_size=37)

    class TwoShards(backends.Backend):
        workers = 2

    monkeypatch.setattr(build_module, "make_backend", lambda *args: TwoShards())
    result = build(game, game.start(), tmp_path / "two.db", batch_size=37, workers=2)
    assert result.records == 24 * 20
    assert _records(tmp_path / "one.db") == _records(tmp_path / "two.db")
    store = lookup.open_store(tmp_path / "two.db", game)
    positions = [(23, 19), (3, 0), (5, 2), (4, 4), (9, 6)]
    assert store.values(game, positions) == [solve(game, p, algorithm="memo").value for p in positions]
    store.close()


def test_two_workers_write_the_same_dense_file(tictactoe_files, tmp_path):
    game, _, _, serial_dense = tictactoe_files
    root = game.start()
    build(game, root, tmp_path / "two.db", dense_path=tmp_path / "two.dense", batch_size=40, workers=2)
    ranks = list(range(game.index_size()))
    one, two = DenseFile(serial_dense), DenseFile(tmp_path / "two.dense")
    assert one.values(ranks) == two.values(ranks)
    one.close()
    two.close()
    assert _records(tmp_path / "two.db") == _records(tictactoe_files[2])


def test_numpy_and_python_give_every_int_key_the_same_shard():
    """A tier's children are split with numpy where every key is an int and with shard_of
    where some are not; a key given two owners would be stored twice."""
    from perfectplay.store import shards

    rng = random.Random(5)
    keys = [rng.randrange(-(1 << 63), 1 << 63) for _ in range(2000)] + [0, 1, -1, (1 << 63) - 1, -(1 << 63)]
    for count in (2, 3, 7):
        split = dict(shards._split({key: key for key in keys}, count))
        owners = {key: owner for owner, (numbers, _) in split.items() for key in numbers.tolist()}
        assert owners == {key: shards.shard_of(key, count) for key in keys}
        assert len(split) == count  # every shard gets some

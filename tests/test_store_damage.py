"""Damaged database files: a changed byte on any page gives either the right
answers or one error naming the file, never a wrong answer and never a traceback."""

from __future__ import annotations

import random
import shutil
import sqlite3

import pytest
from conftest import run_main

from perfectplay import registry
from perfectplay.errors import BadDatabase, CorruptDatabase
from perfectplay.store import lookup
from perfectplay.store.build import build
from perfectplay.store.database import Database

PAGE = 4096
BOARD = {"width": 4, "height": 3}
C4_4X3 = ("connect4", "--width", "4", "--height", "3")
# Bytes changed on each page: the page's header (its type, cell count and first cells) and
# random places in its content.
FLIPS_PER_PAGE = 3


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A Connect Four 4x3 database (12,031 records, 77 pages of SQLite) and its dense file,
    with the stored value of every reachable position as read from the undamaged files."""
    where = tmp_path_factory.mktemp("damage")
    game, root = registry.load("connect4", BOARD)
    build(game, root, where / "c43.db", dense_path=where / "c43.dense", batch_size=2000,
          spec=("connect4", BOARD))
    positions = _one_per_key(game, root)
    assert len(positions) == 12_031
    truth = {}
    for name in ("c43.db", "c43.dense"):
        store = lookup.open_store(where / name, game)
        truth[name] = store.values(game, positions)
        store.close()
    assert truth["c43.db"] == truth["c43.dense"] and None not in truth["c43.db"]
    return where, game, root, positions, truth["c43.db"]


def _one_per_key(game, root):
    """Every reachable position, one per key (move orders that transpose share a key)."""
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


def _answers(path, game, root, positions):
    """What a reader gets: every position's stored value, and the solution of the start
    (which reads every move's position too) as (value, best moves, principal variation)."""
    store = lookup.open_store(path, game)
    try:
        solution = lookup.solve_stored(store, game, root)
        summary = None if solution is None else (solution.value, solution.best_moves, solution.pv)
        return store.values(game, positions), summary
    finally:
        store.close()


def _flip_every_page(original, copy, rng):
    """Yield once per damaged copy: each page in turn, a few changed bytes each."""
    data = original.read_bytes()
    for page in range(len(data) // PAGE):
        offsets = [rng.randrange(12), *(rng.randrange(PAGE) for _ in range(FLIPS_PER_PAGE - 1))]
        for offset in offsets:
            damaged = bytearray(data)
            damaged[page * PAGE + offset] ^= rng.randrange(1, 256)
            copy.write_bytes(bytes(damaged))
            for extra in (f"{copy}-wal", f"{copy}-shm"):
                shutil.rmtree(extra, ignore_errors=True)
            yield


@pytest.mark.parametrize("name", ["c43.db", "c43.dense"])
def test_a_changed_byte_on_any_page_gives_the_right_answers_or_one_error(built, tmp_path, name):
    where, game, root, positions, truth = built
    good_values, good_solution = _answers(where / name, game, root, positions)
    counts = {"right": 0, "searched": 0, "error": 0, "wrong": 0}
    wrong = []
    copy = tmp_path / name
    for _ in _flip_every_page(where / name, copy, random.Random(21)):
        try:
            values, solution = _answers(copy, game, root, positions)
        except BadDatabase as error:  # CorruptDatabase included: one line naming the file
            assert str(copy) in str(error) and "\n" not in str(error)
            counts["error"] += 1
            continue
        if values == truth and solution == good_solution:
            counts["right"] += 1
        elif all(got in (right, None) for got, right in zip(values, truth, strict=False)) and (
                solution in (None, good_solution)):
            counts["searched"] += 1  # a lost index entry: the position is searched instead
            # and verify says so
            with pytest.raises(CorruptDatabase, match="integrity check"), Database.open(copy) as database:
                database.check_structure()
        else:
            counts["wrong"] += 1
            wrong.append(values)
    pages = len((where / name).read_bytes()) // PAGE
    print(f"\n{name}: {pages} pages, {pages * FLIPS_PER_PAGE} damaged copies: {counts}")
    assert counts["wrong"] == 0
    assert counts["error"] > 0 and counts["right"] > 0


@pytest.fixture(scope="module")
def c44(tmp_path_factory):
    """A Connect Four 4x4 database (161,029 records), built once for the tests that damage
    copies of it."""
    path = tmp_path_factory.mktemp("c44") / "c44.db"
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    build(game, root, path, spec=("connect4", {"width": 4, "height": 4}))
    return path


def test_a_byte_changed_in_a_records_page_is_refused_not_answered_as_a_draw(c44, tmp_path):
    """One byte changed at offset 494,722 of a Connect Four 4x4 database (a page of
    the index on keys) made `solve ... 3131344144 --db` answer "draw" for a win in 1: SQLite
    read the key from the index and the value from the row the damaged index pointed at.
    The same damage here: one bit of the row id in that key's index entry (where the entry
    lies depends on when the index was made, so it is found rather than fixed)."""
    game, _ = registry.load("connect4", {"width": 4, "height": 4})
    position = game.parse_position("3131344144")
    damaged = bytearray(c44.read_bytes())
    damaged[_index_entry_rowid_byte(c44, damaged, game.key(position))] ^= 1
    (tmp_path / "bad.db").write_bytes(bytes(damaged))
    with sqlite3.connect(tmp_path / "bad.db") as plain:  # what the old lookup read
        served = plain.execute("SELECT value FROM positions WHERE key = ?", (game.key(position),)).fetchone()
    assert served is not None and served[0] != 999_999_999, "the damage no longer hits the index"
    result = run_main("solve", "connect4", "--width", "4", "--height", "4", "3131344144",
                      "--db", str(tmp_path / "bad.db"))
    assert result.code == 2 and "value: draw" not in result.stdout
    assert "bad.db" in result.stderr and "corrupted" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _record_int(number: int) -> bytes:
    """An integer as a SQLite record holds it: big-endian in the fewest of 1, 2, 3, 4, 6 or
    8 bytes (numbers above 1; 0 and 1 take none)."""
    size = next(size for size in (1, 2, 3, 4, 6, 8) if -(1 << (8 * size - 1)) <= number < 1 << (8 * size - 1))
    return number.to_bytes(size, "big", signed=True)


def _index_entry_rowid_byte(path, content, key) -> int:
    """The offset of the last byte of the row id in ``key``'s index entry (the key's bytes
    followed by its row id's), chosen so that flipping its lowest bit leads to a row with
    another value."""
    with sqlite3.connect(path) as plain:
        row_id, value = plain.execute("SELECT id, value FROM positions WHERE key = ?", (key,)).fetchone()
        other = plain.execute("SELECT value FROM positions WHERE id = ?", (row_id ^ 1,)).fetchone()
    assert other is not None and other[0] != value, "the neighbouring row has the same value"
    entry = _record_int(key) + _record_int(row_id)
    at = bytes(content).find(entry)
    assert at >= 0 and bytes(content).find(entry, at + 1) < 0
    return at + len(entry) - 1


def _damaged_copies(built, tmp_path):
    """A flipped page that SQLite calls malformed, a zeroed 4 KiB block, and files that are
    no database at all."""
    where = built[0]
    data = (where / "c43.db").read_bytes()
    files = {}
    for page in range(1, len(data) // PAGE):
        zeroed = bytearray(data)
        zeroed[page * PAGE:(page + 1) * PAGE] = bytes(PAGE)
        files[f"zeroed-{page}.db"] = bytes(zeroed)
    flipped = bytearray(data)
    flipped[40 * PAGE] ^= 0xFF  # a page's type byte: "database disk image is malformed"
    files["flipped.db"] = bytes(flipped)
    files["text.db"] = b"not a database\n" * 300
    files["empty.db"] = b""
    files["random.db"] = random.Random(3).randbytes(20_000)
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    return files


def test_damaged_files_get_one_line_from_every_command_never_an_internal_error(built, tmp_path):
    files = _damaged_copies(built, tmp_path)
    codes = {}
    for name in files:
        path = str(tmp_path / name)
        for args in (("db", "info", path), ("solve", *C4_4X3, "--db", path),
                     ("analyze", *C4_4X3, "1", "--db", path), ("db", "verify", path, "--sample", "2")):
            result = run_main(*args)
            codes.setdefault((args[0], args[1]), set()).add(result.code)
            assert "internal error" not in result.stderr, (name, args, result.stderr)
            assert result.code in (0, 1, 2), (name, args, result.code)
            if result.code == 2:
                assert len(result.stderr.strip().splitlines()) == 1 and name in result.stderr
            if result.code == 1:  # verify's finding: one line saying what is damaged
                assert args[1] == "verify" and "damaged:" in result.stdout, result.stdout
    # Every zeroed block is found by verify, one way or the other.
    for name in files:
        result = run_main("db", "verify", str(tmp_path / name), "--sample", "0")
        assert result.code in (1, 2), (name, result.stdout)
    print(f"\nexit codes over {len(files)} damaged files: {codes}")


def test_verify_says_what_solve_does_with_a_damaged_file(c44, tmp_path):
    """`db verify` called a damaged file one that "will not be served" while `solve --db`
    served every position the damage does not touch: verify now says what a reader does
    (refuses the damaged positions, answers the rest), and solve does just that."""
    game, _ = registry.load("connect4", {"width": 4, "height": 4})
    position = game.parse_position("3131344144")
    damaged = bytearray(c44.read_bytes())
    damaged[_index_entry_rowid_byte(c44, damaged, game.key(position))] ^= 1
    (tmp_path / "bad.db").write_bytes(bytes(damaged))
    board = ("connect4", "--width", "4", "--height", "4")
    verified = run_main("db", "verify", str(tmp_path / "bad.db"), "--sample", "0")
    assert verified.code == 1 and "damaged:" in verified.stdout
    assert "will not be served" not in verified.stdout
    assert "refuses each position whose records fail their checks" in verified.stdout
    refused = run_main("solve", *board, "3131344144", "--db", str(tmp_path / "bad.db"))
    assert refused.code == 2 and "corrupted" in refused.stderr
    answered = run_main("solve", *board, "--db", str(tmp_path / "bad.db"))
    assert answered.code == 0 and "value:" in answered.stdout

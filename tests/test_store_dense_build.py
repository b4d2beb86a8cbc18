"""The dense record file written by the compiled builder itself (``db build --dense PATH``
without ``--db``): the file a SQLite build exports, the same bytes on any number of threads,
and the same bytes again after a build is stopped or killed and run again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import run_cli, run_main

from perfectplay import registry
from perfectplay import value as V
from perfectplay.store import compiled_build, dense, dense_build
from perfectplay.store.build import build
from perfectplay.store.records import pack, unpack

pytest.importorskip("numba")

# Facts of a build's run that an exported file's header keeps and a direct one leaves out.
TIMINGS = ("build_seconds", "built_at")


@pytest.fixture
def small_pieces(monkeypatch):
    """Split even a small board's tiers into pieces, so that every piece is on a thread."""
    monkeypatch.setattr(compiled_build, "PARALLEL_LEAST", 16)
    monkeypatch.setattr(compiled_build, "CHUNK", 4001)


def _header_and_records(path):
    opened = dense.DenseFile(path)
    try:
        header = {name: value for name, value in opened.header.items() if name not in TIMINGS}
        return header, opened.records.tobytes()
    finally:
        opened.close()


@pytest.mark.parametrize(("name", "options"), [
    ("tictactoe", {}), ("connect4", {"width": 4, "height": 4}),
    ("kalah", {"pits": 3, "seeds": 3}),  # a score game, its rank the board's number
    ("dots", {"width": 2, "height": 2}),  # a score game, its rank the lines drawn
])
def test_the_direct_dense_file_is_the_one_a_sqlite_build_exports(tmp_path, name, options):
    game, start = registry.load(name, options)
    spec = (name, options)
    build(game, start, tmp_path / "sqlite.db", dense_path=tmp_path / "exported.dense",
          builder="python", spec=spec)
    result = build(game, start, None, dense_path=tmp_path / "direct.dense", spec=spec)
    # Tromp's 4x4 count; Kalah(3,3)'s is the Python builder's; 2x2 Dots has every set of its
    # 12 lines
    assert result.records == {"tictactoe": 765, "connect4": 161_029, "kalah": 6_916,
                              "dots": 4_096}[name]
    header, records = _header_and_records(tmp_path / "direct.dense")
    assert (header, records) == _header_and_records(tmp_path / "exported.dense")
    assert not any(name in header for name in TIMINGS)
    assert not (tmp_path / "direct.dense.work").exists()
    assert not (tmp_path / "direct.dense.partial").exists()


@pytest.mark.parametrize(("name", "options", "root"), [
    ("tictactoe", {}, None),
    ("connect4", {"width": 4, "height": 4}, None),
    ("connect4", {"width": 5, "height": 3}, "3324"),
])
def test_two_and_three_threads_write_the_bytes_one_thread_writes(tmp_path, small_pieces, name,
                                                                  options, root):
    game, start = registry.load(name, options, root)
    for threads in (1, 2, 3):
        build(game, start, None, dense_path=tmp_path / f"{threads}.dense", workers=threads)
    one = (tmp_path / "1.dense").read_bytes()
    assert (tmp_path / "2.dense").read_bytes() == one
    assert (tmp_path / "3.dense").read_bytes() == one


def test_a_build_stopped_while_keeping_a_tier_resumes_to_the_same_bytes(tmp_path, monkeypatch,
                                                                        small_pieces):
    game, start = registry.load("connect4", {"width": 4, "height": 4})
    build(game, start, None, dense_path=tmp_path / "whole.dense", workers=2)
    real_save = dense_build.save_tier
    saved = []

    def dying_save(*args):
        if len(saved) == 5:
            raise KeyboardInterrupt
        saved.append(args[3])
        real_save(*args)

    monkeypatch.setattr(dense_build, "save_tier", dying_save)
    with pytest.raises(KeyboardInterrupt):
        build(game, start, None, dense_path=tmp_path / "resumed.dense", workers=2)
    monkeypatch.setattr(dense_build, "save_tier", real_save)
    assert not (tmp_path / "resumed.dense").exists()
    assert saved == [16, 15, 14, 13, 12]  # the highest tiers first
    result = build(game, start, None, dense_path=tmp_path / "resumed.dense", workers=2)
    assert (result.batches_resumed, result.batches_committed) == (5, 12)  # 17 tiers in all
    assert (tmp_path / "resumed.dense").read_bytes() == (tmp_path / "whole.dense").read_bytes()
    again = build(game, start, None, dense_path=tmp_path / "resumed.dense", workers=2)
    assert (again.records, again.batches_committed, again.batches_resumed) == (161_029, 0, 0)


def _kept_tiers(path):
    try:
        return len(json.loads((path.parent / f"{path.name}.work" / "progress.json").read_text())["finished"])
    except (OSError, ValueError):
        return 0


def test_sigkill_of_a_two_thread_dense_build_resumes_to_the_bytes_of_one_thread(tmp_path):
    """SIGKILL twice in the backward pass of a real `db build --dense --workers 2` (after
    more tiers each time), then the same command finishes the file."""
    path = tmp_path / "killed.dense"
    command = [sys.executable, "-m", "perfectplay", "db", "build", "connect4", "--width", "4",
               "--height", "4", "--dense", str(path), "--quiet", "--workers", "2"]
    seen = [0]
    for _ in range(2):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 90  # a guard against a hang, not a timing
        while process.poll() is None and time.monotonic() < deadline and _kept_tiers(path) < seen[-1] + 3:
            time.sleep(0.002)
        assert process.poll() is None, "the build finished before it was killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        seen.append(_kept_tiers(path))
    assert seen == sorted(set(seen)), seen
    game, start = registry.load("connect4", {"width": 4, "height": 4})
    build(game, start, None, dense_path=tmp_path / "whole.dense",
          spec=("connect4", {"width": 4, "height": 4}))
    finished = run_main(*command[3:-3], "--workers", "2")
    assert finished.code == 0, finished.stderr
    assert f"{17 - seen[-1]} tiers valued, {seen[-1]} kept from an earlier run" in finished.stdout
    assert path.read_bytes() == (tmp_path / "whole.dense").read_bytes()


def test_the_readers_read_the_direct_file_and_refuse_it_damaged(tmp_path):
    path = tmp_path / "t.dense"
    built = run_main("db", "build", "tictactoe", "--dense", str(path), "--quiet")
    assert built.code == 0 and "765 records in 10 tiers, 10 tiers valued" in built.stdout
    info = json.loads(run_main("db", "info", str(path), "--json").stdout)
    assert (info["records"], info["counts"]) == (765, {"win": 390, "loss": 224, "draw": 151})
    assert "build_seconds" not in info
    assert run_main("db", "verify", str(path), "--sample", "20").code == 0
    solved = run_main("solve", "tictactoe", "X.O/.X./...", "--db", str(path))
    assert "value: draw" in solved.stdout and "best moves: 9" in solved.stdout
    again = run_main("db", "build", "tictactoe", "--dense", str(path))
    assert "already complete (765 records)" in again.stdout
    data = bytearray(path.read_bytes())
    data[dense.DATA_OFFSET + 2 * 4000] ^= 1
    (tmp_path / "flipped.dense").write_bytes(bytes(data))
    (tmp_path / "short.dense").write_bytes(bytes(data[:-2]))
    flipped = run_main("solve", "tictactoe", "--db", str(tmp_path / "flipped.dense"))
    short = run_main("db", "info", str(tmp_path / "short.dense"))
    for refused, words in ((flipped, "corrupted"), (short, "truncated")):
        assert refused.code == 2 and words in refused.stderr
        assert refused.stderr.strip().count("\n") == 0, refused.stderr
    assert "damaged" in run_main("db", "verify", str(tmp_path / "flipped.dense")).stdout


@pytest.mark.parametrize(("words", "why"), [
    (("nim", "--dense", "{dir}/n.dense"), "no perfect index"),
    (("tictactoe", "--dense", "{dir}/t.dense", "--builder", "python"), "give --db too"),
    (("tictactoe", "--dense", "{dir}/c.dense"), "built for connect4"),
])
def test_a_dense_build_it_cannot_run_is_one_line_and_exit_2(tmp_path, words, why):
    game, start = registry.load("connect4", {"width": 4, "height": 3})
    build(game, start, None, dense_path=tmp_path / "c.dense")
    refused = run_cli("db", "build", *(word.format(dir=tmp_path) for word in words))
    assert refused.returncode == 2, refused.stderr
    assert why in refused.stderr and refused.stderr.strip().count("\n") == 0, refused.stderr


def test_a_game_whose_rank_is_not_its_specs_is_refused(tmp_path):
    """A patched rank (the spec's rank would write every record in the wrong place)."""
    from perfectplay.errors import UnsupportedSearch
    game, start = registry.load("tictactoe", {})
    game.rank = lambda position: 3 ** 9 - 1 - type(game).rank(game, position)  # type: ignore[method-assign]
    with pytest.raises(UnsupportedSearch, match="give --db too"):
        build(game, start, None, dense_path=tmp_path / "t.dense")
    assert not (tmp_path / "t.dense.work").exists()


@pytest.mark.parametrize("memory", ["2MB", "4MB"])
def test_a_dense_build_past_its_memory_bound_is_refused_as_it_cannot_spill(tmp_path, memory):
    """4x4's estimate (201,755 positions at 16 bytes) passes 4 MB; its forward pass does not."""
    from perfectplay.errors import UnsupportedSearch
    game, start = registry.load("connect4", {"width": 4, "height": 4})
    with pytest.raises(UnsupportedSearch, match="give --db too"):
        build(game, start, None, dense_path=tmp_path / "c.dense", memory=memory)
    assert not (tmp_path / "c.dense").exists() and not (tmp_path / "c.dense.work").exists()


def test_the_compiled_packing_is_records_pack_and_unpack():
    wld = np.array([0, V.win_in(0), V.win_in(7), V.loss_in(0), V.loss_in(16_383), V.win_in(16_383)])
    scores = np.array([0, 5, -5, 32_767, -32_767])
    for values, score_game in ((wld, False), (scores, True)):
        packed = np.empty(len(values), np.uint16)
        assert dense_build.pack_values(values, score_game, packed) == -1
        assert packed.tolist() == [pack(int(value), score_game) for value in values]
        back = np.empty(len(values), np.int64)
        assert dense_build.unpack_records(packed, score_game, back) == -1
        assert back.tolist() == [unpack(int(record), score_game) for record in packed]
    out = np.empty(1, np.uint16)
    for value, score_game in ((V.win_in(16_384), False), (12, False), (-32_768, True), (32_768, True)):
        assert dense_build.pack_values(np.array([value]), score_game, out) == 0

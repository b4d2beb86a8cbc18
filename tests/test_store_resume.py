"""Interrupted builds: the forward pass resumes from its last expanded slice, an
unfinished file is reported as such with the command that finishes it, and workers run
with a relative --db from any folder."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time

import pytest
from conftest import run_cli, run_main
from store_helpers import stored_rows

from perfectplay import registry
from perfectplay.store import tiers, work
from perfectplay.store.build import build, workdir_of

BOARD = {"width": 4, "height": 3}
C4_4X3 = ("connect4", "--width", "4", "--height", "3", "--builder", "python")


@pytest.fixture(autouse=True)
def python_builder(monkeypatch):
    """These tests kill the Python builder's forward pass (the compiled one keeps nothing
    of it: tests/test_store_compiled.py kills its backward pass)."""
    from perfectplay.store import build as build_module
    monkeypatch.setattr(build_module, "COMPILED_BUILDS", False)


class Killed(BaseException):
    """Stands for kill -9: nothing after it runs (not even `except Exception`)."""


def _dying_expand(budget, expanded):
    """The forward pass's unit of work, which dies on its call number ``budget + 1`` (before
    doing anything) and records each slice it expands as (tier, its first position)."""
    calls = []

    def expand(game, positions, tier):
        calls.append(tier)
        if len(calls) > budget:
            raise Killed
        expanded.append((tier, positions[0]))
        return work.expand(game, positions, tier)

    return expand


def test_a_forward_pass_killed_again_and_again_keeps_every_expanded_slice(tmp_path, monkeypatch):
    """Thirty kills in a row once made no progress: every run started the first pass again.
    Here every run is killed after expanding three slices; each run adds its three, no slice
    is ever expanded twice, and the finished file equals an uninterrupted build's."""
    game, root = registry.load("connect4", BOARD)
    build(game, root, tmp_path / "whole.db", batch_size=300)
    expanded: list = []
    runs = 0
    while runs < 100:
        runs += 1
        monkeypatch.setattr(tiers, "expand", _dying_expand(3, expanded))
        try:
            build(game, root, tmp_path / "killed.db", batch_size=300)
            break
        except Killed:
            assert len(expanded) == 3 * runs  # this run's three slices are kept
    slices = len(expanded)
    assert len(set(expanded)) == slices, "a slice was expanded twice"
    assert runs == -(-slices // 3) and runs > 10, (runs, slices)
    assert stored_rows(tmp_path / "killed.db") == stored_rows(tmp_path / "whole.db")
    assert not workdir_of(tmp_path / "killed.db").exists()


def test_a_forward_pass_that_spills_resumes_to_the_same_records(tmp_path, monkeypatch):
    """With a memory bound that spills gathered positions to disk, the spilled runs of a
    killed pass are rebuilt from the kept slices."""
    game, root = registry.load("connect4", {"width": 4, "height": 4})
    build(game, root, tmp_path / "whole.db", batch_size=10_000)
    expanded: list = []
    for _ in range(4):
        monkeypatch.setattr(tiers, "expand", _dying_expand(4, expanded))
        with pytest.raises(Killed):
            build(game, root, tmp_path / "tight.db", batch_size=10_000, memory="2MB")
    monkeypatch.setattr(tiers, "expand", work.expand)
    result = build(game, root, tmp_path / "tight.db", batch_size=10_000, memory="2MB")
    assert result.spilled_chunks > 0 and len(set(expanded)) == len(expanded) == 16
    assert stored_rows(tmp_path / "tight.db") == stored_rows(tmp_path / "whole.db")


def _progress(path):
    """How far a first pass has got, as (tier files written, slices of the last one expanded):
    both only grow while the pass runs (the children files of a tier are removed once the
    tiers they reach are written, but the count of tier files then grows)."""
    work_dir = workdir_of(path)
    written = sorted(work_dir.glob("tier*.pkl")) if work_dir.exists() else []
    if not written:
        return (0, 0)
    last = written[-1].name.removeprefix("tier").removesuffix(".pkl")
    return (len(written), len(list(work_dir.glob(f"exp{last}.*.upto*.pkl"))))


def _tier_files(path):
    """Each tier file's inode: a tier written again (by rename) gets a new one."""
    work_dir = workdir_of(path)
    return {tier.name: tier.stat().st_ino for tier in work_dir.glob("tier*.pkl")} if work_dir.exists() else {}


def test_kill_9_in_the_forward_pass_keeps_what_was_expanded(tmp_path):
    """The real thing from the command line: each run is killed with SIGKILL as soon as its
    first pass has got further than the run before it left it; every kill keeps what the
    run had written, and the file ends equal to an uninterrupted build's."""
    path = tmp_path / "killed.db"
    command = [sys.executable, "-m", "perfectplay", "db", "build", *C4_4X3, "--db", str(path),
               "--batch", "200", "--quiet"]
    seen = [(0, 0)]
    for _ in range(8):
        before = _tier_files(path)
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # a guard against a hang, not a timing
        while process.poll() is None and time.monotonic() < deadline and _progress(path) <= seen[-1]:
            time.sleep(0.002)
        assert process.poll() is None, "the first pass finished before it was killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        seen.append(_progress(path))
        # Written again: at most the last tier (killed between writing it and recording it).
        after = _tier_files(path)
        assert sum(after.get(name) != stamp for name, stamp in before.items()) <= 1, (before, after)
    assert seen == sorted(set(seen)), seen  # each kill kept more than the one before
    final = run_cli("db", "build", *C4_4X3, "--db", str(path), "--batch", "200", "--quiet")
    assert final.returncode == 0, final.stderr
    whole = tmp_path / "whole.db"
    game, root = registry.load("connect4", BOARD)
    build(game, root, whole, batch_size=200)
    assert stored_rows(path) == stored_rows(whole)


def test_verify_says_a_build_is_unfinished_and_the_command_that_finishes_it(tmp_path, monkeypatch):
    """`db verify` on an interrupted build once said "100 of 100 sampled positions disagree"."""
    game, root = registry.load("connect4", BOARD)
    calls = []

    def dying_slice(*args):
        calls.append(1)
        if len(calls) > 5:
            raise Killed
        return work.solve_slice(*args)

    monkeypatch.setattr("perfectplay.store.build.solve_slice", dying_slice)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Killed):
        build(game, root, "part.db", batch_size=500, spec=("connect4", BOARD))
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    result = run_main("db", "verify", "part.db", "--sample", "50")
    assert result.code == 1 and "disagree" not in result.stdout
    line = result.stdout.strip().splitlines()[-1]
    assert line.startswith("part.db: the build is incomplete (5 batches committed"), line
    command = line.split("resume it with: ")[1]
    assert command == "perfectplay db build connect4 --height 3 --width 4 --db part.db"
    finished = run_main(*shlex.split(command)[1:], "--quiet")
    assert finished.code == 0, finished.stderr
    assert "5 batches resumed" in finished.stdout
    verified = run_main("db", "verify", "part.db", "--sample", "10", "--seed", "2")
    assert verified.code == 0 and "10 sampled positions agree" in verified.stdout


def test_two_workers_build_into_a_relative_path_from_another_folder(tmp_path):
    """`--db c.db --workers 2` (the docs' own example) failed 6 of 6 times: the shared file
    was deleted by the process that had just written it, comparing a relative path with an
    absolute one."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "out").mkdir(parents=True)
    result = subprocess.run([sys.executable, "-m", "perfectplay", "db", "build", *C4_4X3,
                             "--db", os.path.join("out", "c.db"), "--workers", "2", "--batch", "2000",
                             "--quiet"], cwd=elsewhere, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "12,031 records" in result.stdout
    game, root = registry.load("connect4", BOARD)
    build(game, root, tmp_path / "serial.db", batch_size=2000)
    assert stored_rows(elsewhere / "out" / "c.db") == stored_rows(tmp_path / "serial.db")


def _sharded_in_process(monkeypatch):
    """Two shards run in this process, so a test can kill the forward pass's units."""
    from perfectplay.store import backends
    from perfectplay.store import build as build_module

    class TwoShards(backends.Backend):
        workers = 2

    monkeypatch.setattr(build_module, "make_backend", lambda *args: TwoShards())


def test_a_sharded_forward_pass_killed_again_and_again_keeps_every_expanded_slice(tmp_path, monkeypatch):
    """With workers, each shard's slices are expanded by the worker that owns the shard
    (perfectplay.store.shards); a run killed after three slices keeps them, and no slice is
    expanded twice."""
    from perfectplay.store import shards

    game, root = registry.load("connect4", BOARD)
    build(game, root, tmp_path / "whole.db", batch_size=300)
    _sharded_in_process(monkeypatch)
    expanded: list = []
    runs = 0
    while runs < 100:
        runs += 1
        monkeypatch.setattr(shards, "expand", _dying_expand(3, expanded))
        try:
            build(game, root, tmp_path / "killed.db", batch_size=300, workers=2)
            break
        except Killed:
            assert len(expanded) == 3 * runs
    slices = len(expanded)
    assert len(set(expanded)) == slices, "a slice was expanded twice"
    assert runs == -(-slices // 3) and runs > 10, (runs, slices)
    assert stored_rows(tmp_path / "killed.db") == stored_rows(tmp_path / "whole.db")
    assert not workdir_of(tmp_path / "killed.db").exists()


def _sharded_progress(path):
    """Shards gathered and slices expanded so far (both only grow while the pass runs)."""
    work_dir = workdir_of(path)
    if not work_dir.exists():
        return (0, 0)
    return (len(list(work_dir.glob("st*.json"))), len(list(work_dir.glob("sx*.pkl"))))


def test_kill_9_of_a_build_with_two_workers_resumes_to_the_same_database(tmp_path):
    """The coordinator of a two-worker build killed with SIGKILL, in the forward pass (as
    soon as it has gathered a shard more than the run before) and then in the backward pass
    (after more batches): every shard gathered is kept, and the file ends equal to a build
    in one process."""
    path = tmp_path / "killed.db"
    command = [sys.executable, "-m", "perfectplay", "db", "build", *C4_4X3, "--db", str(path),
               "--batch", "200", "--quiet", "--workers", "2"]
    gathered = [0]
    for _ in range(4):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60  # a guard against a hang, not a timing
        while (process.poll() is None and time.monotonic() < deadline
               and _sharded_progress(path)[0] <= gathered[-1]):
            time.sleep(0.002)
        assert process.poll() is None, "the first pass finished before it was killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        gathered.append(_sharded_progress(path)[0])
    assert gathered == sorted(set(gathered)), gathered  # each kill kept more than the one before
    batches = []
    for _ in range(3):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        before = batches[-1] if batches else 0
        while process.poll() is None and time.monotonic() < deadline and _committed(path) <= before:
            time.sleep(0.002)
        if process.poll() is not None:
            break
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        batches.append(_committed(path))
    final = run_cli("db", "build", *C4_4X3, "--db", str(path), "--batch", "200", "--quiet", "--workers", "2")
    assert final.returncode == 0, final.stderr
    whole = tmp_path / "whole.db"
    game, root = registry.load("connect4", BOARD)
    build(game, root, whole, batch_size=200)
    assert stored_rows(path) == stored_rows(whole)
    assert not workdir_of(path).exists()


def _committed(path):
    import sqlite3

    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            return connection.execute("SELECT COUNT(*) FROM batches").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_build_resumed_with_another_worker_count_gives_the_same_database(tmp_path, monkeypatch):
    """A build killed in its backward pass with two shards and finished by one process (which
    redoes the forward pass its own way) commits the same batches."""
    game, root = registry.load("connect4", BOARD)
    build(game, root, tmp_path / "whole.db", batch_size=300)
    _sharded_in_process(monkeypatch)
    from perfectplay.store import shards

    calls = []
    value_part = shards.value_part

    def dying_value_part(*args):
        calls.append(1)
        if len(calls) > 12:
            raise Killed
        return value_part(*args)

    monkeypatch.setattr(shards, "value_part", dying_value_part)
    with pytest.raises(Killed):
        build(game, root, tmp_path / "mixed.db", batch_size=300, workers=2)
    monkeypatch.undo()
    monkeypatch.setattr("perfectplay.store.build.COMPILED_BUILDS", False)
    result = build(game, root, tmp_path / "mixed.db", batch_size=300)
    assert result.batches_resumed == 12
    assert stored_rows(tmp_path / "mixed.db") == stored_rows(tmp_path / "whole.db")

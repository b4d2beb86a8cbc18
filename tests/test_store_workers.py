"""The compiled builder on several threads (``--workers N``) writes the file one thread
writes: same rows, ids, batches and checksums; killed at any point, it resumes to that file."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import run_main
from store_helpers import stored_rows
from test_store_compiled import _backend, build_killed_after

from perfectplay import registry
from perfectplay.store import compiled_build
from perfectplay.store.build import build

pytest.importorskip("numba")


@pytest.fixture
def small_pieces(monkeypatch):
    """Split even a small board's tiers into pieces, so that every piece is on a thread."""
    monkeypatch.setattr(compiled_build, "PARALLEL_LEAST", 16)
    monkeypatch.setattr(compiled_build, "CHUNK", 4001)


@pytest.mark.parametrize(("name", "options", "root"), [
    ("tictactoe", {}, None),
    ("connect4", {"width": 4, "height": 4}, None),
    ("connect4", {"width": 5, "height": 3}, "3324"),
    ("dots", {"width": 2, "height": 2}, None),
])
def test_two_threads_write_the_file_one_thread_writes(tmp_path, small_pieces, name, options, root):
    game, start = registry.load(name, options, root)
    one = build(game, start, tmp_path / "one.db", batch_size=2000)
    two = build(game, start, tmp_path / "two.db", batch_size=2000, workers=2)
    assert two.records == one.records
    assert stored_rows(tmp_path / "two.db") == stored_rows(tmp_path / "one.db")
    assert _backend(tmp_path / "two.db") == "compiled (2 threads)"


def test_connect4_4x4_on_three_threads_has_tromps_161029_positions(tmp_path, small_pieces):
    game, start = registry.load("connect4", {"width": 4, "height": 4})
    assert build(game, start, tmp_path / "three.db", workers=3).records == 161_029


def test_a_two_thread_build_interrupted_in_its_writer_resumes_to_the_same_file(
        tmp_path, monkeypatch, small_pieces):
    game, start = registry.load("connect4", {"width": 4, "height": 4})
    build(game, start, tmp_path / "whole.db", batch_size=5000)
    build_killed_after(9, monkeypatch, game, start, tmp_path / "resumed.db", batch_size=5000, workers=2)
    assert _committed(tmp_path / "resumed.db") == 9
    result = build(game, start, tmp_path / "resumed.db", batch_size=5000, workers=2)
    assert result.batches_resumed == 9
    assert stored_rows(tmp_path / "resumed.db") == stored_rows(tmp_path / "whole.db")


def test_sigkill_of_a_two_thread_build_resumes_to_the_file_of_one_thread(tmp_path):
    """SIGKILL twice in the backward pass of a real `db build --workers 2` (after more
    batches each time), then the same command finishes the file."""
    path = tmp_path / "killed.db"
    command = [sys.executable, "-m", "perfectplay", "db", "build", "connect4", "--width", "4",
               "--height", "4", "--db", str(path), "--batch", "1500", "--quiet", "--workers", "2"]
    seen = [0]
    for _ in range(2):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 90  # a guard against a hang, not a timing
        while process.poll() is None and time.monotonic() < deadline and _committed(path) < seen[-1] + 5:
            time.sleep(0.002)
        assert process.poll() is None, "the build finished before it was killed"
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        seen.append(_committed(path))
    assert seen == sorted(set(seen)), seen
    game, start = registry.load("connect4", {"width": 4, "height": 4})
    build(game, start, tmp_path / "whole.db", batch_size=1500)
    # The same command finishes the file in this process, with the kernels the reference
    # build compiled (a new process spends most of its run compiling them).
    finished = run_main(*command[3:])
    assert finished.code == 0, finished.stderr
    assert stored_rows(path) == stored_rows(tmp_path / "whole.db")


def _committed(path):
    import sqlite3

    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as connection:
            return connection.execute("SELECT COUNT(*) FROM batches").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_keys_in_two_tiers_are_found_by_ranges_of_keys_on_threads(small_pieces):
    from perfectplay.store.compiled_build import Tiers, distinct_across_tiers
    tiers = Tiers()
    tiers.keys = {0: np.arange(0, 300, 3), 1: np.arange(1, 300, 3), 2: np.arange(2, 300, 3)}
    assert distinct_across_tiers(tiers, threads=2)
    for duplicate in (0, 150, 298):  # in the first range, the middle, the last
        tiers.keys[2] = np.sort(np.append(np.arange(2, 300, 3), duplicate))
        assert not distinct_across_tiers(tiers, threads=3)


@pytest.mark.serial
def test_a_two_node_ray_cluster_builds_5x4_compiled_to_the_same_file_as_a_node_dies(tmp_path, monkeypatch):
    """A head without CPUs and two worker nodes (each its own raylet and object store); one
    worker node is killed once some batches are committed, and Ray runs its tasks again on
    the other: the file equals a one-thread build's."""
    cluster_utils = pytest.importorskip("ray.cluster_utils")
    import threading

    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    game, start = registry.load("connect4", {"width": 5, "height": 4})
    build(game, start, tmp_path / "one.db", batch_size=50_000)
    cluster = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    nodes = [cluster.add_node(num_cpus=1) for _ in range(2)]
    cluster.wait_for_nodes()
    killed = []

    def kill_a_node() -> None:
        deadline = time.monotonic() + 300
        while _committed(tmp_path / "ray.db") < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        cluster.remove_node(nodes[0], allow_graceful=False)
        killed.append(_committed(tmp_path / "ray.db"))

    killer = threading.Thread(target=kill_a_node, daemon=True)
    killer.start()
    try:
        result = build(game, start, tmp_path / "ray.db", batch_size=50_000, backend="ray",
                       address=cluster.address, workers=2)
    finally:
        killer.join(timeout=60)
        cluster.shutdown()
    assert result.records == 3_945_711  # Tromp's count for 5x4
    assert killed and killed[0] < result.batches_committed, killed
    assert _backend(tmp_path / "ray.db") == "compiled (ray)"
    assert stored_rows(tmp_path / "ray.db") == stored_rows(tmp_path / "one.db")

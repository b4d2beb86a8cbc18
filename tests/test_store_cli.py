"""Databases from the command line: build, info, verify, --db, resume after kill -9 at random
moments, readers during a build, Ray, and every bad input the issue lists (exit 2)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import run_cli, run_main
from store_helpers import stored_rows as _records

from perfectplay import registry
from perfectplay.store.build import build
from perfectplay.store.database import Database
from perfectplay.store.lookup import open_store

C4_4X3 = ("connect4", "--width", "4", "--height", "3")


@pytest.fixture(scope="module")
def ttt_db(tmp_path_factory):
    where = tmp_path_factory.mktemp("cli")
    result = run_cli("db", "build", "tictactoe", "--db", str(where / "t.db"), "--dense",
                     str(where / "t.dense"), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "765 records in 10 tiers" in result.stdout
    return where


def test_db_info_reports_game_counts_and_size(ttt_db):
    facts = json.loads(run_cli("db", "info", str(ttt_db / "t.db"), "--json").stdout)
    assert (facts["game"], facts["records"], facts["state"]) == ("tictactoe", 765, "complete")
    assert facts["counts"] == {"win": 390, "loss": 224, "draw": 151}
    assert facts["size_on_disk"] > 0 and float(facts["build_seconds"]) > 0
    dense = json.loads(run_cli("db", "info", str(ttt_db / "t.dense"), "--json").stdout)
    assert (dense["records"], dense["index_size"], dense["counts"]) == (765, 3 ** 9, facts["counts"])


def test_solve_and_analyze_say_when_the_answer_comes_from_the_database(ttt_db):
    result = run_cli("solve", "tictactoe", "X.O/.X./...", "--db", str(ttt_db / "t.db"))
    assert result.returncode == 0
    assert "value: draw" in result.stdout and "best moves: 9" in result.stdout
    assert f"from database {ttt_db / 't.db'}" in result.stdout
    payload = json.loads(run_cli("analyze", "tictactoe", "X.O/.X./...", "--db",
                                 str(ttt_db / "t.dense"), "--json").stdout)
    assert payload["source"] == f"from database {ttt_db / 't.dense'}"
    assert payload["moves"][0] == {"move": "9", "value": "draw", "remoteness": None, "exact": True}


def test_db_verify_passes_a_good_file_and_fails_a_corrupted_one_with_exit_1(ttt_db, tmp_path):
    result = run_cli("db", "verify", str(ttt_db / "t.db"), "--sample", "20", "--seed", "1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "20 sampled positions agree" in result.stdout
    assert run_cli("db", "verify", str(ttt_db / "t.dense"), "--sample", "20").returncode == 0
    bad = tmp_path / "bad.db"
    bad.write_bytes((ttt_db / "t.db").read_bytes())
    with sqlite3.connect(bad) as connection:
        connection.execute("UPDATE positions SET value = -value WHERE id = 3")
    result = run_cli("db", "verify", str(bad), "--sample", "5")
    assert result.returncode == 1
    assert "records 1-15 do not match their checksum" in result.stdout
    served = run_cli("solve", "tictactoe", "--db", str(bad))
    assert served.returncode == 2 and "corrupted" in served.stderr


@pytest.mark.parametrize("args, message", [
    (("db", "info", "{missing}"), "no such database file"),
    (("db", "info", "{junk}"), "junk.db: not a perfectplay database"),
    (("solve", *C4_4X3, "--db", "{db}"), "built for tictactoe, not for connect4"),
    (("db", "build", "tictactoe", "--db", "{new}", "--workers", "0"), "--workers 0"),
    (("db", "build", "tictactoe", "--db", "{new}", "--backend", "ray", "--address", "127.0.0.1:9"),
     "cannot reach a Ray cluster"),
    (("db", "build", "tictactoe", "--db", "{new}", "--memory", "lots"), "--memory 'lots'"),
    (("db", "build", "crates", "1", "2", "--db", "{new}", "--dense", "{new}.d"), "no perfect index"),
])
def test_bad_input_gets_one_line_and_exit_2(ttt_db, tmp_path, args, message):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n" * 500)
    names = {"missing": str(tmp_path / "missing.db"), "junk": str(junk), "db": str(ttt_db / "t.db"),
             "new": str(tmp_path / "new.db")}
    started = time.perf_counter()
    result = run_cli(*(arg.format(**names) for arg in args))
    assert result.returncode == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert time.perf_counter() - started < 60  # a generous guard: Ray's own retries take minutes


def _build_process(path, batch):
    # The Python builder: the compiled one finishes 4x3 before a reader could look.
    return subprocess.Popen([sys.executable, "-m", "perfectplay", "db", "build", *C4_4X3, "--db",
                             str(path), "--batch", str(batch), "--quiet", "--builder", "python"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _batches_in(path):
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            return connection.execute("SELECT COUNT(*) FROM batches").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_build_killed_at_random_moments_resumes_to_the_same_database(tmp_path):
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    reference = tmp_path / "whole.db"
    build(game, root, reference, batch_size=25)
    total = len(_records(reference)[1])
    rng = random.Random(11)
    # On a loaded machine a build can outrun the kills; a fresh attempt (new file, new kill
    # points) then tries again, so the test always checks kills inside the backward pass.
    for attempt in range(3):
        path = tmp_path / f"killed-{attempt}.db"
        kills = _kill_repeatedly(path, total, rng)
        if len({k for k in kills if 0 < k < total}) >= 2:
            break
    # The command that finishes the file runs in this process, whose compiled kernels for
    # the board the reference build has made (a new process spends most of its run compiling).
    final = run_main("db", "build", *C4_4X3, "--db", str(path), "--batch", "25", "--quiet")
    assert final.code == 0, final.stderr
    # At least two kills landed in the middle of the backward pass, at different batches.
    assert len({k for k in kills if 0 < k < total}) >= 2, kills
    assert _records(path) == _records(reference)
    assert not path.with_name(path.name + ".work").exists()


def _kill_repeatedly(path, total, rng):
    """Start the build on ``path`` and kill -9 it at a random moment of the start-up and
    forward pass, then after random numbers of committed batches (plus a random fraction of
    the next), so the kills land where they mean to however loaded the machine is. Returns
    the committed batches seen after each kill."""
    kills = []
    targets = [0] + sorted(rng.sample(range(1, total), 5))
    for target in targets:
        process = _build_process(path, 25)
        deadline = time.time() + 60
        while process.poll() is None and _batches_in(path) < target and time.time() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.6 if target == 0 else 0.02))
        if process.poll() is not None:
            break
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        kills.append(_batches_in(path))
    return kills


def test_readers_query_a_database_while_it_is_being_built(tmp_path):
    path = tmp_path / "live.db"
    process = _build_process(path, 100)
    game, root = registry.load("connect4", {"width": 4, "height": 3})
    full = game.parse_position("121212343434")  # the board is full: the last tier
    seen = None
    deadline = time.time() + 60
    while time.time() < deadline and process.poll() is None:
        if _batches_in(path) > 0:
            store = open_store(path, game)
            seen = (store.values(game, [full])[0], store.sqlite.complete)
            store.close()
            break
        time.sleep(0.05)
    process.wait(timeout=120)
    assert seen is not None, "the build finished before a reader looked"
    assert seen == (0, False)
    with Database.open(path) as finished:
        assert finished.complete and finished.check_all() == 12_031


def test_a_local_ray_instance_builds_the_same_database(tmp_path):
    serial = run_cli("db", "build", "tictactoe", "--db", str(tmp_path / "a.db"), "--batch", "50", "--quiet")
    on_ray = run_cli("db", "build", "tictactoe", "--db", str(tmp_path / "b.db"), "--batch", "50",
                     "--backend", "ray", "--workers", "2", "--quiet", timeout=300)
    assert serial.returncode == 0 and on_ray.returncode == 0, on_ray.stderr
    assert _records(tmp_path / "a.db") == _records(tmp_path / "b.db")


def test_a_build_over_its_memory_bound_spills_and_finishes_with_the_same_records(tmp_path):
    board = ("connect4", "--width", "4", "--height", "4")  # 161,029 positions: 48 MB at the estimates
    # Both in this process, so the board's kernels are compiled once, not in each of two
    # new processes; the bound is on estimated bytes, not on the process's size.
    roomy = run_main("db", "build", *board, "--db", str(tmp_path / "roomy.db"), "--batch", "10000", "--quiet")
    tight = run_main("db", "build", *board, "--db", str(tmp_path / "tight.db"), "--batch", "10000",
                     "--memory", "2MB", "--workers", "2", "--quiet")
    assert roomy.code == 0 and tight.code == 0, tight.stderr
    assert "over --memory" not in roomy.stdout
    spill = re.search(r"over --memory: (\d+) chunks spilled to disk, (\d+) tiers valued from the database",
                      tight.stdout)
    assert spill is not None and int(spill[1]) > 0 and int(spill[2]) > 0, tight.stdout
    assert _records(tmp_path / "roomy.db") == _records(tmp_path / "tight.db")


@pytest.fixture
def ray_head():
    """A Ray head started for one test (`ray start --head --block`), stopped afterwards: the
    blocking `ray start` stops the processes it started when terminated. Token
    authentication is off on both sides, so ~/.ray has no say in the test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "RAY_AUTH_MODE": "disabled"}
    # A short folder: Ray's Unix sockets live in it and their paths are limited to 107 bytes.
    temp = tempfile.mkdtemp(prefix="rayhead", dir="/tmp")
    head = subprocess.Popen([str(Path(sys.executable).parent / "ray"), "start", "--head", "--block",
                             "--port", str(port), "--num-cpus", "2", "--include-dashboard=false",
                             "--disable-usage-stats", "--temp-dir", temp],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120  # a guard against a hang, not a timing
        while True:
            assert head.poll() is None, "ray start --head exited"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the Ray head never listened"
                time.sleep(0.5)
        yield f"127.0.0.1:{port}", env
    finally:
        head.terminate()
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def test_a_build_joins_a_running_ray_cluster_at_its_address(tmp_path, ray_head):
    address, env = ray_head
    local = run_cli("db", "build", *C4_4X3, "--db", str(tmp_path / "local.db"), "--batch", "2000",
                    "--quiet")
    joined = subprocess.run([sys.executable, "-m", "perfectplay", "db", "build", *C4_4X3, "--db",
                             str(tmp_path / "joined.db"), "--batch", "2000", "--backend", "ray",
                             "--address", address, "--quiet"],
                            env=env, capture_output=True, text=True, timeout=300)
    assert local.returncode == 0 and joined.returncode == 0, joined.stderr
    assert _records(tmp_path / "local.db") == _records(tmp_path / "joined.db")
    facts = json.loads(run_cli("db", "info", str(tmp_path / "joined.db"), "--json").stdout)
    assert (facts["records"], facts["backend"]) == (12_031, "compiled (ray)")


def test_play_answers_from_the_database_and_says_so(ttt_db):
    result = run_cli("play", "tictactoe", "--computer-vs-computer", "--delay", "0", "--seed", "4",
                     "--db", str(ttt_db / "t.db"))
    assert result.returncode == 0, result.stderr
    assert f"Answers come from database {ttt_db / 't.db'}" in result.stdout
    assert "A draw after 9 moves." in result.stdout
    assert "9 positions were answered from database" in result.stdout


@pytest.mark.parametrize("args, message", [
    (("db", "build", "tictactoe", "--db", "afile/sub/x.db"), "'afile' is a file, not a folder"),
    (("db", "build", "tictactoe", "--db", "x.db", "--dense", "afile/x.dense"),
     "'afile' is a file, not a folder"),
    (("db", "build", "tictactoe", "--db", "nowhere/x.db"), "the folder 'nowhere' does not exist"),
    (("db", "build", "tictactoe", "--db", "."), "a directory"),
])
def test_a_path_under_a_file_is_one_line_before_any_work(tmp_path, args, message):
    """`--db somefile/sub/x.db` ended in NotADirectoryError (exit 3); --dense failed only after
    the whole build."""
    (tmp_path / "afile").write_text("a file, not a folder\n")
    result = subprocess.run([sys.executable, "-m", "perfectplay", *args], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert message.replace("'afile'", repr(str(tmp_path / "afile"))).replace(
        "'nowhere'", repr(str(tmp_path / "nowhere"))) in result.stderr, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]  # nothing written


def test_a_refused_build_compiles_nothing():
    """A bad path and a build too large are refused before numba is imported (the compiled
    builder's spec compiled the game's functions first: 3.9 s for a refused path)."""
    program = ("import sys\nfrom perfectplay.cli import main\n"
               "try:\n    main(sys.argv[1:])\nexcept SystemExit as done:\n"
               "    print(done.code, 'numba' in sys.modules)\n")
    for args in (("tictactoe", "--db", "afile/sub/x.db"), ("connect4", "--db", "huge.db")):
        with tempfile.TemporaryDirectory() as where:
            Path(where, "afile").write_text("a file, not a folder\n")
            result = subprocess.run([sys.executable, "-c", program, "db", "build", *args], cwd=where,
                                    capture_output=True, text=True, timeout=120)
        assert result.stdout.split() == ["2", "False"], (args, result.stdout, result.stderr)


@pytest.mark.parametrize("args, estimate", [
    (("chess",), "an estimated 4.8 x 10^44 positions"),
    (("connect4",), "an estimated 7.1 x 10^13 positions"),
])
def test_builds_no_machine_would_finish_are_refused_up_front_with_their_size(tmp_path, args, estimate):
    started = time.perf_counter()
    result = run_cli("db", "build", *args, "--db", str(tmp_path / "huge.db"))
    assert result.returncode == 2
    assert estimate in result.stderr and "--no-size-check" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "huge.db").exists()
    assert time.perf_counter() - started < 60  # refused, not started: a guard, not a timing


def test_no_size_check_lets_a_build_past_the_refusal(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "perfectplay", "db", "build", "connect4",
                                "--db", str(tmp_path / "huge.db"), "--no-size-check", "--quiet"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60  # a guard against a hang, not a timing
    while not list((tmp_path / "huge.db.work").glob("tier*.pkl")) and time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
    process.kill()
    process.wait()
    assert list((tmp_path / "huge.db.work").glob("tier*.pkl")), "the build never started"


def test_the_size_check_reads_the_game_and_names_no_game(tmp_path):
    """A game that estimates itself past the limit is refused; size_check=False builds it."""
    from perfectplay.errors import TooLarge
    from perfectplay.games.tictactoe.rules import TicTacToe

    class Overestimated(TicTacToe):
        def estimated_positions(self, position):
            return 10 ** 12

    game = Overestimated()
    with pytest.raises(TooLarge, match=r"an estimated 1.0 x 10\^12 positions"):
        build(game, game.start(), tmp_path / "t.db")
    assert build(game, game.start(), tmp_path / "t.db", size_check=False).records == 765


def test_verify_compares_a_nim_database_with_theory_on_the_outcome_and_caps_its_sample(tmp_path):
    """Nim's search answers from Grundy theory, which has no remoteness: every position used
    to be reported as a mismatch ("stored win in 11, search win"). And --sample 10^30 never
    ended: it is capped at the records held."""
    path = str(tmp_path / "nim.db")
    assert run_cli("db", "build", "nim", "3 4 5", "--db", path, "--quiet").returncode == 0
    result = run_cli("db", "verify", path, "--sample", str(10 ** 30), "--seed", "3")
    assert result.returncode == 0, result.stdout
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"--sample {10 ** 30:,}: capped at the 48 records the file holds"
    assert lines[1].startswith(f"{path}: checksums hold; 48 sampled positions agree with search "
                               "(48 of them on win, loss or draw only")


def test_db_info_into_a_closed_pipe_exits_0_quietly(ttt_db):
    """`db info X | head -1` exited 1: rich answers a closed pipe with exit 1 of its own."""
    process = subprocess.Popen([sys.executable, "-m", "perfectplay", "db", "info",
                                str(ttt_db / "t.db")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # the reader is gone before the first line is written
    assert process.wait(timeout=120) == 0
    assert process.stderr.read() == b""


def test_db_build_of_dots_and_hex_says_up_front_how_many_positions_and_how_long_even_quiet(tmp_path):
    """Dots and Boxes 3x3 has exactly 2^24 positions (every set of its 24 lines), built
    compiled; Hex 4x4 at most 10,165,779 (every way to fill the cells in turn), compiled
    too. The line comes before any work."""
    for spec, positions, builder in ((("dots",), "1.7 x 10^7", "compiled"),
                                     (("hex",), "1.0 x 10^7", "compiled")):
        process = subprocess.Popen([sys.executable, "-m", "perfectplay", "db", "build", *spec, "--db",
                                    str(tmp_path / f"{spec[0]}.db"), "--quiet"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            first = process.stderr.readline()
        finally:
            process.kill()
            process.wait()
            process.stderr.close()
        assert f"about {positions} positions" in first and f"with the {builder} builder" in first, first


def test_a_short_build_says_nothing_up_front_and_a_long_one_says_it_once(tmp_path, monkeypatch):
    from perfectplay.store import build as build_module
    game, root = registry.load("dots", {"width": 2, "height": 1})
    heard: list[str] = []
    build_module.build(game, root, tmp_path / "short.db", notice=heard.append)
    assert heard == []
    monkeypatch.setattr(build_module, "COMPILED_RATE", 1)  # 2^7 positions: 128 s at this rate
    build_module.build(game, root, tmp_path / "long.db", notice=heard.append)
    assert len(heard) == 1 and "about 128 positions" in heard[0] and "128 seconds" not in heard[0]
    assert "2 minutes of CPU with the compiled builder" in heard[0]

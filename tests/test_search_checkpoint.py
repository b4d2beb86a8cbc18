"""Snapshots of a long kernel search (perfectplay.search.checkpoint): a search stopped again
and again, each time in a new searcher that loads the last snapshot, finds the value a search
run straight through finds; a damaged or mismatched snapshot is refused by name."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from perfectplay.errors import BadDatabase
from perfectplay.games.kalah.rules import Kalah
from perfectplay.search.checkpoint import Checkpoint

pytestmark = pytest.mark.skipif(
    not __import__("perfectplay.compiled", fromlist=["x"]).numba_available(),
    reason="numba is not installed")


def test_arrays_and_state_come_back_as_saved(tmp_path: Path) -> None:
    checkpoint = Checkpoint(tmp_path / "s.npz", every_seconds=0)
    saved = {"table": np.arange(10, dtype=np.int64), "counters": np.array([3, 4], dtype=np.int64)}
    checkpoint.save(saved, {"depths": [6, 1000], "guess": 10})
    loaded = {"table": np.zeros(10, dtype=np.int64), "counters": np.zeros(2, dtype=np.int64)}
    assert checkpoint.load(loaded) == {"depths": [6, 1000], "guess": 10}
    assert loaded["table"].tolist() == list(range(10))
    assert loaded["counters"].tolist() == [3, 4]
    assert not list(tmp_path.glob("*.partial"))


def test_no_snapshot_yet_is_none(tmp_path: Path) -> None:
    assert Checkpoint(tmp_path / "s.npz", 0).load({"table": np.zeros(1)}) is None


def test_a_damaged_or_mismatched_snapshot_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "s.npz"
    Checkpoint(path, 0).save({"table": np.zeros(8, dtype=np.int64)}, {})
    with pytest.raises(BadDatabase, match=r"s\.npz.*int64\[8\].*int64\[16\]"):
        Checkpoint(path, 0).load({"table": np.zeros(16, dtype=np.int64)})
    with pytest.raises(BadDatabase, match=r"s\.npz.*without datas"):
        Checkpoint(path, 0).load({"table": np.zeros(8, dtype=np.int64),
                                  "datas": np.zeros(8, dtype=np.int64)})
    path.write_bytes(path.read_bytes()[:100])
    with pytest.raises(BadDatabase, match=r"s\.npz.*not a readable snapshot"):
        Checkpoint(path, 0).load({"table": np.zeros(8, dtype=np.int64)})


@pytest.mark.parametrize("empty_capture, value", [(True, 8), (False, 6)])
def test_kalah_mtdf_resumed_from_snapshots_finds_the_straight_value(
        tmp_path: Path, empty_capture: bool, value: int) -> None:
    """Kalah(5,3) (its value by Python's tt: 8 and 6), stopped ten times or more in a small
    table, each leg in a new searcher that loads the last snapshot and its MTD(f)."""
    from perfectplay.games.kalah.kernel import NODES, MtdF, Searcher
    game = Kalah(5, 3, empty_capture=empty_capture)
    straight = Searcher(game, None, table_bits=14)
    assert straight.value(game.start(), 10**9, lambda count: None, deepening=(4, 8)) == value
    leg_nodes = int(straight.counters[NODES]) // 10
    checkpoint = Checkpoint(tmp_path / "k.npz", every_seconds=0)
    legs = 0
    found = None
    while found is None:
        searcher = Searcher(game, None, table_bits=14)
        state = checkpoint.load(searcher.arrays())
        driver = MtdF(30, 0, (4, 8)) if state is None else MtdF.resumed(state)
        found = searcher.value(game.start(), 10**9, lambda count: None,
                               node_cap=int(searcher.counters[NODES]) + leg_nodes,
                               driver=driver)
        checkpoint.save(searcher.arrays(), driver.state())
        legs += 1
        # Legs that kept nothing of the last would never end.
        assert legs < 60
    assert found == value
    assert legs > 10


def test_dots_narrowing_resumed_from_snapshots_finds_the_straight_value(tmp_path: Path) -> None:
    """3x3 boxes (-3, Berlekamp's value), stopped ten times or more (legs of a twentieth of
    the straight search's nodes), each leg in a new searcher that loads the last snapshot
    and its narrowing."""
    from perfectplay.games.dots.chains import NODES, Narrowing, Searcher
    from perfectplay.games.dots.rules import DotsAndBoxes
    game = DotsAndBoxes(3, 3)
    straight = Searcher(game, table_bits=12)
    assert straight.value(0) == -3
    leg_nodes = int(straight.counters[NODES]) // 20
    checkpoint = Checkpoint(tmp_path / "d.npz", every_seconds=0)
    legs = 0
    found = None
    while found is None:
        searcher = Searcher(game, table_bits=12)
        state = checkpoint.load(searcher.arrays())
        driver = Narrowing(9, 0) if state is None else Narrowing.resumed(state)
        found = searcher.value(0, node_cap=int(searcher.counters[NODES]) + leg_nodes,
                               driver=driver)
        checkpoint.save(searcher.arrays(), driver.state())
        legs += 1
        assert legs < 60
    assert found == -3
    assert legs > 10


def test_kalah_solve_value_only_keeps_snapshots_and_goes_on_from_them(tmp_path: Path) -> None:
    """benchmarks/kalah_solve.py --value-only --checkpoint on Kalah(4,3) (+8 under the empty
    rule): the run leaves a snapshot and its results; a second run starts from the snapshot
    (proved bounds and all) and reports the same value, its runs counted."""
    import json
    import subprocess
    import sys
    script = Path(__file__).parent.parent / "benchmarks" / "kalah_solve.py"
    command = [sys.executable, str(script), "--pits", "4", "--seeds", "3", "--database-seeds", "6",
               "--folder", str(tmp_path / "db"), "--value-only", "--table-bits", "12",
               "--checkpoint", str(tmp_path / "ck"), "--snapshot-minutes", "0",
               "--slice-nodes", "2000", "--results", str(tmp_path / "r.json")]
    first = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert "Kalah(4,3), empty capture: +8" in first.stdout
    assert (tmp_path / "ck" / "kalah43-empty.npz").exists()
    second = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert "resumed from" in second.stdout and "proved [+8, +8]" in second.stdout
    record = json.loads((tmp_path / "r.json").read_text())["empty"]["value_only"]
    assert (record["value"], record["proved"], record["runs"]) == (8, [8, 8], 2)

"""The generic compiled engine loads from numba's disk cache in a second process (issue 13:
tic-tac-toe's compiled solve compiled for 1.3 s in every process). Checked by numba's own
cache counters, not by the clock."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import json
from perfectplay import registry, solve
from perfectplay.compiled.generic import kernels
from perfectplay.compiled.tictactoe import SPEC
game, start = registry.load("tictactoe", {}, None)
found = solve(game, start, algorithm="tt", engine="compiled")
tt = kernels(SPEC, True)["tt"]
print(json.dumps({"value": found.value, "hits": sum(tt.stats.cache_hits.values()),
                  "misses": sum(tt.stats.cache_misses.values())}))
"""


def run(cache: Path) -> dict[str, int]:
    env = dict(os.environ, PERFECTPLAY_CACHE=str(cache))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True,
                          timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_second_process_loads_the_compiled_tictactoe_kernel_from_the_cache(tmp_path: Path) -> None:
    first = run(tmp_path)
    second = run(tmp_path)
    assert first["value"] == second["value"] == 0  # a draw, compiled or not
    assert (first["hits"], first["misses"]) == (0, 1)
    assert (second["hits"], second["misses"]) == (1, 0)
    assert list((tmp_path / "kernels").glob("perfectplay_kernels_*.py"))


def test_an_unwritable_cache_still_solves_in_memory(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would go")
    assert run(blocked)["value"] == 0

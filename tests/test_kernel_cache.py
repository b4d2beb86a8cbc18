"""The generic compiled engine loads from numba's disk cache in a second process
(tic-tac-toe's compiled solve once compiled for 1.3 s in every process). Checked by numba's own
cache counters, not by the clock."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = """
import json
from perfectplay import registry, solve
from perfectplay.compiled.generic import kernels
from perfectplay.games.tictactoe.compiled import SPEC
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


def test_a_users_game_file_is_cached_too(tmp_path: Path) -> None:
    # The docs' example game, written to a file and solved twice through the CLI.
    docs = (Path(__file__).parent.parent / "docs" / "compiled.md").read_text()
    game_file = tmp_path / "fast_takeaway.py"
    game_file.write_text(re.findall(r"```python\n(.*?)```", docs, flags=re.DOTALL)[0])
    env = dict(os.environ, PERFECTPLAY_CACHE=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "perfectplay", "solve", f"{game_file}:FastTakeAway",
               "--engine", "compiled", "--algorithm", "tt", "--json"]
    answers = [json.loads(subprocess.run(command, env=env, capture_output=True, text=True,
                                         timeout=300, check=True).stdout) for _ in range(2)]
    assert answers[0]["value"] == answers[1]["value"] and answers[0]["algorithm"] == "compiled tt"
    assert list((tmp_path / "cache" / "kernels" / "__pycache__").glob("*.nbi"))

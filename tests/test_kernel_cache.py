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


BUILDER_SCRIPT = """
import json, sys
from pathlib import Path
from perfectplay import registry
from perfectplay.store.build import build
from perfectplay.store.compiled_build import kernels, tier_spec
game, start = registry.load("tictactoe", {}, None)
result = build(game, start, Path(sys.argv[1]))
spec = tier_spec(game)
used = kernels(spec)
print(json.dumps({"records": result.records,
                  "hits": sum(sum(k.stats.cache_hits.values()) for k in used),
                  "misses": sum(sum(k.stats.cache_misses.values()) for k in used)}))
"""


def test_a_second_build_loads_the_tier_builders_kernels_from_the_cache(tmp_path: Path) -> None:
    env = dict(os.environ, PERFECTPLAY_CACHE=str(tmp_path / "cache"))
    answers = [json.loads(subprocess.run(
        [sys.executable, "-c", BUILDER_SCRIPT, str(tmp_path / f"t{run}.db")], env=env,
        capture_output=True, text=True, timeout=300, check=True).stdout.splitlines()[-1])
        for run in range(2)]
    assert answers[0]["records"] == answers[1]["records"] == 765  # tic-tac-toe's positions up to symmetry
    assert (answers[0]["hits"], answers[0]["misses"]) == (0, 2)  # expand and value_states
    assert (answers[1]["hits"], answers[1]["misses"]) == (2, 0)


TEMPLATE = """
from numba import njit
# BINDINGS: replaced
step = None
CACHE = False
# END BINDINGS


@njit(cache=CACHE)
def twice(x):
    return step(step(x))
"""


def test_kernels_over_closures_with_one_source_are_not_mixed_up(tmp_path: Path) -> None:
    # Functions made at run time (a board's size compiled in) share one source and one name:
    # the kernels over each are told apart by the functions themselves.
    from numba import njit

    from perfectplay.compiled.kernel_cache import load_generated
    template = tmp_path / "template.py"
    template.write_text(TEMPLATE)

    def adding(amount: int):  # type: ignore[no-untyped-def]
        @njit
        def step(x: int) -> int:
            return x + amount
        return step
    answers = [load_generated(template, {"step": adding(amount)}, {}, ("twice",))["twice"](0)
               for amount in (1, 10, 1)]
    assert answers == [2, 20, 2]


def test_builds_of_two_board_sizes_in_one_process_use_their_own_kernels(tmp_path: Path) -> None:
    from perfectplay import registry
    from perfectplay.store.build import build
    counts = {}
    for height in (2, 3):
        game, start = registry.load("connect4", {"width": 4, "height": height})
        counts[height] = build(game, start, tmp_path / f"c4{height}.db").records
    python = build(game, start, tmp_path / "python.db", builder="python").records
    assert counts[3] == python and counts[2] != counts[3]


TWO_SIZES_SCRIPT = """
import sys
from pathlib import Path
from perfectplay import registry
from perfectplay.store.build import build
counts = []
for height in (2, 3):
    game, start = registry.load("connect4", {"width": 4, "height": height})
    counts.append(build(game, start, Path(sys.argv[1]) / f"c4{height}.db").records)
python = build(game, start, Path(sys.argv[1]) / "python.db", builder="python").records
print(counts[1] == python and counts[0] != counts[1])
"""


def test_builds_of_two_board_sizes_without_a_writable_cache_use_their_own_kernels(
        tmp_path: Path) -> None:
    # In memory the two sizes' rules share a source file and a name; their modules differ.
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would go")
    done = subprocess.run([sys.executable, "-c", TWO_SIZES_SCRIPT, str(tmp_path)],
                          env=dict(os.environ, PERFECTPLAY_CACHE=str(blocked)),
                          capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.split() == ["True"], done.stderr

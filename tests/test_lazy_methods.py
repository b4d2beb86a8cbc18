"""The solving front door imports a method module only when a request may need it (start-up
time): whatever it skips, the method chosen must be the one chosen with every module
loaded, for every built-in game, engine and --algorithm."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from perfectplay import registry, solving
from perfectplay.errors import UnsupportedSearch
from perfectplay.methods import ENGINES, Request

GAMES = [entry.name for entry in registry.entries()]
ALGORITHMS = ["auto", *solving.algorithm_names(), "no-such-algorithm"]

# Run in a fresh interpreter, where nothing is loaded yet: each request in turn, lazily.
CHOICES = """
import json, sys
import perfectplay.store.method  # imported directly, out of the table's order, as the CLI does
from perfectplay import registry, solving
from perfectplay.methods import Request
found = {}
for game_name, engine, algorithm in json.loads(sys.argv[1]):
    game, _ = registry.find(game_name).load({}, None)
    try:
        found[f"{game_name} {engine} {algorithm}"] = solving.choose(
            game, Request(algorithm=algorithm, engine=engine)).name
    except Exception as error:
        found[f"{game_name} {engine} {algorithm}"] = type(error).__name__ + ": " + str(error)
print(json.dumps(found))
"""


def every_choice() -> dict[str, str]:
    solving.load_methods()
    found = {}
    for game_name in GAMES:
        game, _ = registry.find(game_name).load({}, None)
        for engine in ENGINES:
            for algorithm in ALGORITHMS:
                try:
                    found[f"{game_name} {engine} {algorithm}"] = solving.choose(
                        game, Request(algorithm=algorithm, engine=engine)).name
                except UnsupportedSearch as error:
                    found[f"{game_name} {engine} {algorithm}"] = f"UnsupportedSearch: {error}"
    return found


def test_lazy_loading_chooses_the_method_that_every_module_loaded_would() -> None:
    requests = [[g, e, a] for g in GAMES for e in ENGINES for a in ALGORITHMS]
    lazily = json.loads(subprocess.run([sys.executable, "-c", CHOICES, json.dumps(requests)],
                                       capture_output=True, text=True, check=True).stdout)
    assert lazily == every_choice()


@pytest.mark.parametrize("command", [["solve", "tictactoe"], ["--version"]])
def test_a_small_command_imports_no_method_module_it_does_not_use(command: list[str]) -> None:
    code = ("import sys\nfrom perfectplay.cli import main\n"
            f"try:\n    main({command!r})\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('perfectplay.')))")
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = eval(found.stdout.strip().splitlines()[-1])
    unused = {"perfectplay.impartial.method", "perfectplay.compiled.method", "perfectplay.retro.method",
              "perfectplay.engine.method", "perfectplay.store.method",
              "perfectplay.games.connect4.book.method",
              "perfectplay.pictures.growth", "perfectplay.search.mate", "perfectplay.cli.database",
              "perfectplay.games.chess.tablebase.method"}
    assert unused.isdisjoint(loaded)
    if command == ["--version"]:
        assert "perfectplay.solving" not in loaded

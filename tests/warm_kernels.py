"""Compile every built-in game's kernels once, into numba's disk cache, before the suite.

`make test` runs this beside ruff and mypy, on the core they leave idle, so the two pytest
workers, and the processes the tests start, load the kernels from the cache instead of each
compiling them (8 s of CPU for Othello's, 6 s for Connect Four's, a second for the database
builder's over each board the tests build) in the middle of their tests.
"""

import tempfile
from pathlib import Path

from perfectplay import registry
from perfectplay.store.build import build
from perfectplay.web.catalog import builtin_catalog, warm_up

# The boards the tests build databases of most, by the compiled builder.
BUILT_BOARDS = (("tictactoe", {}), ("connect4", {"width": 4, "height": 3}),
                ("connect4", {"width": 4, "height": 4}))


def warm_the_builder() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for number, (name, options) in enumerate(BUILT_BOARDS):
            game, start = registry.load(name, options)
            build(game, start, Path(folder) / f"{number}.db")


if __name__ == "__main__":
    warm_up(builtin_catalog())
    warm_the_builder()

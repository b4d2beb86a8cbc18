"""Compile every built-in game's kernels once, into numba's disk cache, before the suite.

`make test` runs this beside ruff and mypy, on the core they leave idle, so the two pytest
workers load the kernels from the cache instead of both compiling each one (8 s of CPU for
Othello's, 6 s for Connect Four's) in the middle of their first tests.
"""

from perfectplay.web.catalog import builtin_catalog, warm_up

if __name__ == "__main__":
    warm_up(builtin_catalog())

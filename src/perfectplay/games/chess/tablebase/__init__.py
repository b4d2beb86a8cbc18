"""Endgame tables of chess by retrograde analysis: KQK, KRK and KPK, built from scratch.

Each table values every position of king and one queen, rook or pawn against a lone king
(either side to move) as a win or loss with its distance to mate in plies, or a draw, without
the fifty-move rule. They are built by perfectplay.retro's solver over a perfect index
(tablebase/index.py, tablebase/build.py; numba), stored one file per table (tablebase/files.py)
and shipped with the package; tablebase/probe.py reads them for a python-chess board and
tablebase/method.py answers ``perfectplay solve chess FEN`` from them. The chess game gives
their values to the engine (Game.known_value), at the root and in the search.

    perfectplay tablebase build KPK --dir DIR    # builds KQK and KRK first when DIR lacks them
    perfectplay tablebase info [--dir DIR]       # counts and longest mates of each table

docs/tablebase.md has the figures and how they are measured.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from perfectplay.games.chess.tablebase.index import TABLES

NEEDS = {"KQK": (), "KRK": (), "KPK": ("KQK", "KRK")}


def build_tables(names: list[str], directory: str | Path,
                 report: Callable[[Any], None] | None = None) -> list[Any]:
    """Build the tables ``names`` into ``directory``, first building any table they read
    that the directory lacks; returns the Built record of each table built, in order."""
    from perfectplay.games.chess.tablebase import files
    from perfectplay.games.chess.tablebase.build import build

    wanted: list[str] = []
    for name in names:
        for needed in NEEDS[name]:
            if needed not in wanted and needed not in names and not files.path_of(needed, directory).exists():
                wanted.append(needed)
        if name not in wanted:
            wanted.append(name)
    built: dict[str, Any] = {}
    order = [name for name in TABLES if name in wanted]
    for name in order:
        inputs = [built[need].values if need in built else files.load(need, directory)
                  for need in NEEDS[name]]
        table = build(name, *inputs)
        files.save(name, table.values, directory)
        built[name] = table
        if report is not None:
            report(table)
    return [built[name] for name in order]


__all__ = ["NEEDS", "TABLES", "build_tables"]

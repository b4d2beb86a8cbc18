"""Chess, by python-chess's rules (the extra ``perfectplay[chess]``): everything only chess uses.

* ``rules``: the game over python-chess (positions, notation, perft's bulk counting);
* ``evaluation``: the engine's evaluation (material, piece-square tables) and move ordering;
* ``extra``: the check that python-chess is installed, before anything imports it;
* ``tablebase``: the endgame tables KQK, KRK, KPK (build, probe, shipped data, the
  ``tablebase`` method, the ``tablebase`` command; docs/tablebase.md);
* ``diagram`` / ``pgn``: the web page's board (SAN labels, the numbered move list, a board
  that turns round) and its game records (PGN in and out: the extension ``record``);
* ``uci`` / ``syzygy``: what `perfectplay uci chess` adds to the UCI loop (UCI_Chess960,
  SyzygyPath) and the Syzygy tables it probes.

This module holds only the registry's entry: it imports no python-chess.
"""

from __future__ import annotations

from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.games.chess.own_methods import METHODS


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.chess.extra import require_chess
    require_chess()
    from perfectplay.games.chess.rules import Chess
    return from_text(Chess(), text)


ENTRY = Entry("chess", "chess by python-chess's rules (the extra perfectplay[chess])",
              "FEN or 'startpos', optionally 'moves e2e4 e7e5 ...' (UCI or SAN)", _load,
              aliases=("fide-chess",),
              methods=METHODS,
              extensions={"tablebase": "perfectplay.games.chess.tablebase",
                          "record": "perfectplay.games.chess.pgn",
                          "uci": "perfectplay.games.chess.uci"},
              commands={"tablebase": "perfectplay.games.chess.tablebase.command:tablebase_group"},
              order=140)

"""Chess's own solving methods, declared once: the entry lists their --algorithm names
from here without importing the rules, and the game's class names the same tuple
(Game.method_modules), so that perfectplay.solving imports them when it answers a position."""

from __future__ import annotations

from perfectplay.game import MethodModule

# The endgame tables answer the positions they hold (and hand the rest on).
METHODS = (MethodModule("perfectplay.games.chess.tablebase.method", ("tablebase",)),)

"""Connect Four's own solving methods, declared once: the entry lists their --algorithm names
from here without importing the rules, and the game's class names the same tuple
(Game.method_modules), so that perfectplay.solving imports them when it answers a position."""

from __future__ import annotations

from perfectplay.game import MethodModule

# The opening book first, then the compiled kernel, then its search in pure Python.
METHODS = (MethodModule("perfectplay.games.connect4.book.method"),
           MethodModule("perfectplay.games.connect4.kernel_method"),
           MethodModule("perfectplay.games.connect4.python_method", ("null-window",)))

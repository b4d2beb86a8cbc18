"""Hex's own solving methods, declared once: the entry lists their --algorithm names
from here without importing the rules, and the game's class names the same tuple
(Game.method_modules), so that perfectplay.solving imports them when it answers a position."""

from __future__ import annotations

from perfectplay.game import MethodModule

# The connection solver with the opening book (--engine auto|compiled, first: up to 6x6
# exactly), then the plain numba kernel (the same question without Hex knowledge).
METHODS = (MethodModule("perfectplay.games.hex.solver_method"),
           MethodModule("perfectplay.games.hex.kernel_method"))

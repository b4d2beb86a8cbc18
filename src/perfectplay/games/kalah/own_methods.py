"""Kalah's own solving methods, declared once: the entry lists their --algorithm names
from here without importing the rules, and the game's class names the same tuple
(Game.method_modules), so that perfectplay.solving imports them when it answers a position."""

from __future__ import annotations

from perfectplay.game import MethodModule

# The numba kernel (--engine auto|compiled).
METHODS = (MethodModule("perfectplay.games.kalah.kernel_method"),)

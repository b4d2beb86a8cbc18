"""Dots and Boxes's own solving methods, declared once: the entry lists their --algorithm names
from here without importing the rules, and the game's class names the same tuple
(Game.method_modules), so that perfectplay.solving imports them when it answers a position."""

from __future__ import annotations

from perfectplay.game import MethodModule

# The numba kernels (--engine auto|compiled): the boxes' table up to 25 lines; past it, the
# book of solved openings and the chain-rule search.
METHODS = (MethodModule("perfectplay.games.dots.kernel_method"),
           MethodModule("perfectplay.games.dots.chains_method"))

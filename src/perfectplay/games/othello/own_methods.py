"""Othello's own solving methods, declared once: the entry lists their --algorithm names
from here without importing the rules, and the game's class names the same tuple
(Game.method_modules), so that perfectplay.solving imports them when it answers a position."""

from __future__ import annotations

from perfectplay.game import MethodModule

# Positions solved once by a long run and stored (6x6 from the start), ahead of any search;
# then the numba endgame kernel (--engine auto|compiled): boards up to 8x8, exact where
# Othello.solvable says a position is in reach.
METHODS = (MethodModule("perfectplay.games.othello.solved"),
           MethodModule("perfectplay.games.othello.kernel_method"))

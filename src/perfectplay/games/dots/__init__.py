"""Dots and Boxes, the game with extra turns for completing a box: ``rules`` (lines, boxes,
notation, a brute force over the two players for ``verify``), ``kernel`` (a numba table of
every set of lines, for boards of up to 25 lines: 3x3 boxes has 24) and ``kernel_method`` (it
registers the kernel as a solving method); past 25 lines ``chains`` (alpha-beta with chain
rules and symmetry, in numba), ``book`` (solved openings, ``book.json``), ``symmetry`` and
``chains_method``. This module holds only the registry's entry."""

from __future__ import annotations

import random
from typing import Any

from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.game import Game
from perfectplay.games.dots.own_methods import METHODS


def is_dots(game: Game[Any, Any]) -> bool:
    """Whether ``game`` is this Dots and Boxes (any board), for the method it registers."""
    from perfectplay.games.dots.rules import DotsAndBoxes
    return isinstance(game, DotsAndBoxes)


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.dots.rules import sized
    return from_text(sized(options.get("width"), options.get("height")), text)


def _random_case(rng: random.Random, options: Options) -> Loaded:
    """A random position of a board small enough for the brute force (at most 2x2 boxes,
    with some lines drawn on the larger ones)."""
    from perfectplay.games.dots.rules import DotsAndBoxes
    game = DotsAndBoxes(rng.randrange(1, 3), rng.randrange(1, 3))
    return game, game.random_position(rng)


def _brute_force(game: Game[Any, Any], position: Any) -> int:
    from perfectplay.games.dots.rules import brute_force_value
    return brute_force_value(game, position)  # type: ignore[arg-type]


ENTRY = Entry("dots", "Dots and Boxes: complete a box to score it and move again; 3x3 "
              "boxes, a second-player win by 3; 4x3 a draw (a centre line first, from the "
              "book); other sizes: --width, --height, in boxes",
              "lines drawn (dot to dot, e.g. a1-b1), the player to move and the score, "
              "e.g. 'a1-b1,a1-a2 B 0-0'; '- A 0-0' is the empty board",
              _load, methods=METHODS, aliases=("dots-and-boxes", "boxes"), options=("width", "height"),
              random_case=_random_case, brute_force=_brute_force, order=96)

"""Kalah(m, n), the mancala game with extra turns: ``rules`` (the board, sowing, captures,
notation and a brute force over the two players for ``verify``). This module holds only the
registry's entry."""

from __future__ import annotations

import random
from typing import Any

from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.game import Game
from perfectplay.games.kalah.own_methods import METHODS


def _load(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.kalah.rules import sized
    return from_text(sized(options.get("pits"), options.get("seeds"), options.get("capture")), text)


def _random_case(rng: random.Random, options: Options) -> Loaded:
    """A random position of a board small enough for the brute force (at most 3 pits and
    3 seeds a pit, whatever the options say)."""
    from perfectplay.games.kalah.rules import Kalah
    game = Kalah(rng.randrange(1, 4), rng.randrange(1, 4))
    return game, game.random_position(rng)


def _brute_force(game: Game[Any, Any], position: Any) -> int:
    from perfectplay.games.kalah.rules import brute_force_value
    return brute_force_value(game, position)  # type: ignore[arg-type]


ENTRY = Entry("kalah", "mancala: sow seeds, a last seed in your store moves again; "
              "Kalah(6,4), a first-player win by 10 (Irving et al. 2000) under the empty-capture "
              "rule (the default: a last seed in an empty own pit captures even with nothing "
              "opposite), by 8 with --capture standard (only with seeds opposite); other "
              "sizes: --pits, --seeds (Kalah(4,3): +8)",
              "South's pits and store / North's pits and store, then S or N to move, "
              "e.g. '4 4 4 4 4 4 0 / 4 4 4 4 4 4 0 S'",
              _load, methods=METHODS, aliases=("mancala", "kalaha"), options=("pits", "seeds", "capture"),
              random_case=_random_case, extensions={"endgame": "perfectplay.games.kalah.endgame"},
              brute_force=_brute_force, order=95)

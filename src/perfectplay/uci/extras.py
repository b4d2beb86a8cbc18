"""What a game adds to the UCI loop beyond the generic options, found through its registry
entry (``Entry.extensions["uci"]``, a module with ``extras(game)``), so that the loop names no
game: chess adds UCI_Chess960 and SyzygyPath, and the Syzygy tables the search probes.

A game without extras speaks UCI with the generic options (:class:`UciExtras` itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from perfectplay.game import Game
from perfectplay.uci.options import Option, Options


class RootAdvice(Protocol):
    """What a game's tables say at the root: the ``moves`` the search may choose among, the
    ``score`` to report (centipawns, for the side to move) while the search follows them,
    the ``probes`` they took, and a line for ``info string``."""

    @property
    def moves(self) -> list[Any]: ...

    @property
    def score(self) -> int: ...

    @property
    def probes(self) -> int: ...

    def describe(self, total: int) -> str: ...


class UciExtras:
    """A game's own part of the UCI loop. This base adds nothing; a game's subclass overrides
    what it has."""

    # Declared after the engine's options and before UCI_LimitStrength and UCI_Elo.
    options: tuple[Option, ...] = ()

    def warm_up(self) -> None:
        """Pay what the first search would (isready): a game's own tables, say."""

    def read_position(self, text: str, values: Options) -> Any | None:
        """The position ``text`` under the current option ``values`` where the game's options
        change how it is read (Chess960); None to read it with the game's parse_position."""
        return None

    def apply(self, name: str, values: Options) -> list[str] | None:
        """Act on the game's option ``name`` (lower case) just set in ``values``: the lines to
        say, after the session has built its engine again (the probe may have changed); None
        when nothing needs doing. A PerfectPlayError refuses the value, which is restored."""
        return None

    def play_on(self, position: Any) -> Any | None:
        """A position the rules have drawn though moves remain, as the engine should search
        it for a GUI that plays on (the draw not yet claimed), or None to play any move."""
        return None

    def probe(self) -> Callable[[Any], int | None] | None:
        """The search's probe of the game's outside tables (Syzygy), or None."""
        return None

    def root(self, position: Any, moves: Sequence[Any]) -> RootAdvice | None:
        """The tables' advice at a root whose legal (or searchmoves) moves are ``moves``."""
        return None

    def after_search(self) -> list[str]:
        """Lines to say once a search has ended (a table found damaged during it)."""
        return []

    def close(self) -> None:
        """Release what the extras hold open (table files)."""


def extras_for(game: Game[Any, Any]) -> UciExtras:
    """The UCI extras ``game``'s registry entry names, or none for a game without them (a
    person's own game included)."""
    from perfectplay import registry
    from perfectplay.errors import UnknownGame
    try:
        entry = registry.find(game.name)
    except UnknownGame:
        return UciExtras()
    if "uci" not in entry.extensions:
        return UciExtras()
    made: UciExtras = registry.extension(entry.name, "uci").extras(game)
    return made

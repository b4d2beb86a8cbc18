"""Every installed game, found by name or alias, and a person's own games, written
``module:Class`` or ``path/to/file.py:Class``.

Games are plugins: each publishes an :class:`perfectplay.entry.Entry` through the entry point
group ``perfectplay.games``, the built-in ones in perfectplay's own pyproject.toml and any
other in its own package's (``pip install perfectplay-hex`` adds a game to every command).
An entry says how to build the game from its options and position text; the rules are
imported only when a game is asked for, so the CLI starts fast. A command resolves the name
and options once, at its edge (:func:`resolve`), and passes the game object down.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from perfectplay.entry import Entry, Loaded, Options, TourStop
from perfectplay.errors import BadOption, BadPosition, LimitReached, UnknownGame
from perfectplay.game import Game

if TYPE_CHECKING:  # kept off the start-up path: only annotations name it
    import random

# Every game option the CLI knows, with its help text. An entry lists those it accepts.
OPTION_HELP = {
    "misere": "the player who takes the last stick loses",
    "take": "subtraction set, e.g. 1,2,3",
    "block": "claim line rule: 'both' neighbours blocked (default) or only the 'right' one",
    "code": "octal game code, e.g. 0.77 (Kayles) or 0.137 (Dawson's chess)",
    "width": "board width (Connect Four; Dodgem: 3, 4 or 5 for a square board)",
    "height": "board height (Connect Four)",
    "pits": "pits a side (Kalah; default 6)",
    "seeds": "seeds a pit at the start (Kalah; default 4)",
    "capture": "Kalah capture rule: 'empty' (default: a last seed in an empty own pit captures "
               "even when the pit opposite is empty, as Irving et al. solved it) or 'standard' "
               "(only when the pit opposite holds seeds)",
    "size": "board size n for an n x n board (Hex: 1-11; Othello: 4, 6, 8 or 10)",
}


# Games of another library, named "LIBRARY:NAME" (openspiel:tic_tac_toe): the module whose
# ``entry(NAME)`` gives the game's Entry, imported only when such a name is given.
LIBRARIES = {"openspiel": "perfectplay.interop.openspiel"}

# The entry point group every game is found through, the built-in ones included.
ENTRY_POINT_GROUP = "perfectplay.games"

_ENTRIES: tuple[Entry, ...] | None = None


def entries() -> tuple[Entry, ...]:
    """Every game installed: the entry points of group ``perfectplay.games`` (perfectplay's
    own and any other distribution's), in their declared order, then by name. Read once per
    process."""
    global _ENTRIES
    if _ENTRIES is None:
        found: dict[str, Entry] = {}
        for point in _entry_points():
            entry = _load_entry(point)
            found.setdefault(entry.name, entry)  # the first distribution to claim a name keeps it
        _ENTRIES = tuple(sorted(found.values(), key=lambda entry: (entry.order, entry.name)))
    return _ENTRIES


def _entry_points() -> list[Any]:
    from importlib.metadata import entry_points
    return list(entry_points(group=ENTRY_POINT_GROUP))


def _load_entry(point: Any) -> Entry:
    try:
        entry = point.load()
    except Exception as error:  # a broken plugin: say which, never a traceback
        raise UnknownGame(f"the game plugin {point.name!r} ({point.value}) failed to load: "
                          f"{type(error).__name__}: {error}") from None
    if not isinstance(entry, Entry):
        raise UnknownGame(f"the game plugin {point.name!r} ({point.value}) is not a "
                          "perfectplay.entry.Entry")
    return entry


def forget_entries() -> None:
    """Read the entry points again on next use (after installing a plugin in this process)."""
    global _ENTRIES
    _ENTRIES = None


def game_algorithms() -> dict[str, str]:
    """Every --algorithm name a game's own methods register, with the module that does, in
    the entries' order."""
    named = {name: declared.module for entry in entries() for declared in entry.methods
             for name in declared.algorithms}
    return named | {name: module for entry in entries() for name, module in entry.algorithms.items()}


def game_method_modules() -> list[str]:
    """Every module of a game's own methods, in the entries' order (the order their methods
    are tried in where priorities tie, after the engines')."""
    declared = [each.module for entry in entries() for each in entry.methods]
    return list(dict.fromkeys([*declared, *game_algorithms().values()]))


def extension(game: str, name: str, part: str | None = None) -> Any:
    """The module of a tool only ``game`` has (Connect Four's "book", chess's "tablebase"),
    or its submodule ``part``, for front ends, which reach games only through this registry."""
    entry = find(game)
    if name not in entry.extensions:
        raise UnknownGame(f"{entry.name} has no {name}")
    module = entry.extensions[name]
    return importlib.import_module(module if part is None else f"{module}.{part}")


def attribute(spec: str) -> Any:
    """What a "module:attribute" an entry declares names (a command, a tour stop's function),
    imported now: entries name them as text so that listing games imports none of them."""
    module, _, name = spec.partition(":")
    return getattr(importlib.import_module(module), name)


def game_commands() -> dict[str, str]:
    """Every command a game declares (``Entry.commands``), by name: the first game in listing
    order to claim a name keeps it."""
    found: dict[str, str] = {}
    for entry in entries():
        for name, where in entry.commands.items():
            found.setdefault(name, where)
    return found


def contest_commands() -> dict[str, str]:
    """`perfectplay contest NAME`'s problems: each game's that declares one, by its name."""
    return {entry.name: entry.contest for entry in entries() if entry.contest is not None}


def tour_stops() -> list[TourStop]:
    """Every game's stops of `perfectplay tour`, in their places."""
    return sorted((stop for entry in entries() for stop in entry.tour), key=lambda stop: stop.place)


def find(name: str) -> Entry:
    wanted = name.strip().lower()
    if _ENTRIES is None:  # a game named by its entry point's name loads that entry alone
        for point in _entry_points():
            if point.name == wanted:
                entry = _load_entry(point)
                if entry.name == wanted:
                    return entry
                break
    for entry in entries():
        if wanted == entry.name or wanted in entry.aliases:
            return entry
    known = ", ".join(entry.name for entry in entries())
    raise UnknownGame(f"unknown game {name!r}; built-in games: {known}")


def check_options(entry: Entry, options: Options) -> None:
    """Reject an option the game does not take, rather than silently ignoring it, and an
    empty value, rather than silently taking the default (as --take '' once did)."""
    for option, given in options.items():
        if isinstance(given, str) and not given.strip():
            raise BadOption(f"--{option} {given!r} is empty; give {OPTION_HELP.get(option, 'a value')}")
        if given not in (None, False) and option not in entry.options:
            takes = ", ".join(f"--{o}" for o in entry.options) or "none"
            raise BadOption(f"{entry.name} takes no --{option} option (its options: {takes})")


@dataclass(frozen=True)
class GameChoice:
    """A game named once: a built-in entry with its checked options, or a person's own Game
    subclass. Commands get one from :func:`resolve` and ask it for positions."""

    name: str
    entry: Entry | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    own_class: type[Game[Any, Any]] | None = None

    def load(self, text: str | None = None) -> Loaded:
        """The game and the position written as ``text`` (its start position when None)."""
        if self.entry is not None:
            return self.entry.load(self.options, text)
        assert self.own_class is not None
        from perfectplay.game_faults import check_game, constructed
        game = constructed(self.own_class)
        if text is None:
            check_game(game)  # the usual slips, named before a search meets them
            return game, game.start()
        try:
            position = game.parse_position(text)
        except BadPosition:
            raise
        except Exception as error:  # a person's parser may raise anything
            raise BadPosition(f"{game.name} could not read position {text!r}: {error}") from None
        check_game(game, position)
        return game, position

    def sized(self, n: int) -> Loaded:
        """The position of size ``n`` (`perfectplay table`)."""
        if self.entry is None or self.entry.sized is None:
            having = ", ".join(e.name for e in entries() if e.sized)
            raise BadOption(f"{self.name} has no size to vary; games with sizes: {having}")
        return self.entry.sized(self.options, n)

    def random_case(self, rng: random.Random) -> Loaded:
        """A random small (game, position) for `perfectplay verify`."""
        if self.entry is not None and self.entry.random_case is not None:
            return self.entry.random_case(rng, self.options)
        game, _ = self.load(None)
        return game, game.random_position(rng)

    def read_input(self, text: str, source: str) -> Loaded:
        """The game read from a contest input file (n, then n values)."""
        if self.entry is None or self.entry.read_input is None:
            having = ", ".join(e.name for e in entries() if e.read_input)
            raise BadOption(f"{self.name} has no contest input format (games with one: {having})")
        return self.entry.read_input(text, source)

    @property
    def brute_force(self) -> Callable[[Game[Any, Any], Any], int] | None:
        return None if self.entry is None else self.entry.brute_force


def resolve(spec: str, options: Options | None = None) -> GameChoice:
    """The game ``spec`` names, a built-in name or alias, another library's game
    (``openspiel:NAME``) or ``module:Class`` / ``file.py:Class``, with its options checked."""
    options = dict(options or {})
    library, _, name = spec.partition(":")
    if ":" not in spec or library in LIBRARIES:
        entry = find(spec) if ":" not in spec else importlib.import_module(LIBRARIES[library]).entry(name)
        check_options(entry, options)
        return GameChoice(entry.name, entry, options)
    if any(value not in (None, False) for value in options.values()):
        raise UnknownGame(f"{spec!r} is your own game; the built-in game options do not apply")
    own = _own_game_class(spec)
    return GameChoice(own.name, own_class=own)


def load(name: str, options: Options | None = None, position: str | None = None) -> Loaded:
    """The game called ``name`` with ``options``, and the position written as ``position``
    (its start position when None)."""
    return resolve(name, options).load(position)


def _own_game_class(spec: str) -> type[Game[Any, Any]]:
    where, _, class_name = spec.rpartition(":")
    try:
        module = _import(where)
        game_class = getattr(module, class_name)
    except (ImportError, AttributeError, OSError, SyntaxError, ValueError) as error:
        raise UnknownGame(f"cannot load game {spec!r}: {error}") from None
    except LimitReached:  # --time struck while the file loaded
        raise
    except (Exception, SystemExit) as error:  # the file's own code raised or exited
        from perfectplay.game_faults import loading_failed
        raise loading_failed(spec, error) from None
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise UnknownGame(f"{spec!r} is not a perfectplay.game.Game subclass")
    return game_class


def _import(where: str) -> Any:
    if where.endswith(".py"):
        from pathlib import Path
        path = Path(where)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"no Python file at {where}")
        module = importlib.util.module_from_spec(spec)
        # Known by its file's name, so that numba's disk cache can find its @njit functions
        # again in a later process (perfectplay.compiled.kernel_cache).
        sys.modules.setdefault(path.stem, module)
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(where)

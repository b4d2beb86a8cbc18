"""The games a server offers: every built-in game, plus the game files named at start.

Requests only ever pick from this list. A request names a game and may give the built-in
game options (typed and checked here) and a start position; it can never name a file or a
module, so no request makes the server import or run code (the files named on the command
line were loaded once, when the server started).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from threading import Lock
from typing import Any

from perfectplay import registry
from perfectplay.errors import BadOption, BadPosition, PerfectPlayError, UnknownGame
from perfectplay.game import Game
from perfectplay.web.positions import measured_bytes

Loaded = tuple[Game[Any, Any], Any]
# Games kept built (a crate row or a Connect Four size is a game of its own, and each start
# position given is kept with its game) are bounded by their measured bytes, as the memory
# of analyses is: the built-in games measure 0.4 to 7.5 KB each with their start, so this
# holds about two thousand.
GAME_CACHE_BYTES = 16 * 1024 * 1024
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("", "0", "false", "no", "off")


@dataclass(frozen=True)
class Source:
    """One game on offer: how to build it from options and a start position's text."""

    name: str
    summary: str
    position_help: str
    options: tuple[str, ...]
    build: Callable[[Mapping[str, Any], str | None], Loaded]
    own: bool = False  # a user's game file named at start


@dataclass
class Catalog:
    """The built-in games and the user's games, with a cache of built games bounded by the
    bytes it holds (``max_bytes``), measured as the memory of analyses measures them
    (perfectplay.web.positions.measured_bytes: the game, its start and the key, each object
    once), when a game is built; the least recently used game goes first."""

    sources: dict[str, Source] = field(default_factory=dict)
    max_bytes: int = GAME_CACHE_BYTES
    bytes_held: int = 0
    _built: OrderedDict[tuple[Any, ...], tuple[Loaded, int]] = field(default_factory=OrderedDict)
    _lock: Lock = field(default_factory=Lock)

    def __len__(self) -> int:
        return len(self._built)

    def names(self) -> list[str]:
        return list(self.sources)

    def find(self, name: str) -> Source:
        wanted = name.strip().lower()
        if wanted in self.sources:
            return self.sources[wanted]
        for entry in registry.entries():
            if wanted in entry.aliases and entry.name in self.sources:
                return self.sources[entry.name]
        raise UnknownGame(f"unknown game {name!r}; this server offers: {', '.join(self.sources)}")

    def load(self, name: str, query: Mapping[str, str], start: str | None) -> tuple[Source, Loaded]:
        """The game called ``name`` built with the options in ``query``, and its start
        position (``start`` read by the game, or the game's own start when None)."""
        source = self.find(name)
        options = read_options(source, query)
        cache_key = (source.name, tuple(sorted(options.items())), start)
        with self._lock:
            kept = self._built.get(cache_key)
            if kept is not None:
                self._built.move_to_end(cache_key)
                return source, kept[0]
        built = _guarded_build(source, options, start)
        self._keep(cache_key, built)
        return source, built

    def _keep(self, key: tuple[Any, ...], built: Loaded) -> None:
        """Keep ``built`` under ``key``, then forget the least recently used games until the
        bytes held are within ``max_bytes`` (the newest stays even if it alone is larger)."""
        size = measured_bytes((key, built))
        with self._lock:
            old = self._built.pop(key, None)
            if old is not None:
                self.bytes_held -= old[1]
            self._built[key] = (built, size)
            self.bytes_held += size
            while self.bytes_held > self.max_bytes and len(self._built) > 1:
                _, (_, dropped) = self._built.popitem(last=False)
                self.bytes_held -= dropped


def _guarded_build(source: Source, options: Mapping[str, Any], start: str | None) -> Loaded:
    try:
        return source.build(options, start)
    except (BadOption, BadPosition, UnknownGame):
        raise
    except Exception as error:  # a user's parse_position may raise anything
        raise BadPosition(f"{source.name} could not read position {start!r}: {error}") from None


def read_options(source: Source, query: Mapping[str, str]) -> dict[str, Any]:
    """The game options given in a query string, typed; an option the game does not take is
    rejected rather than ignored."""
    options: dict[str, Any] = {}
    for name in registry.OPTION_HELP:
        text = query.get(name)
        if text is None:
            continue
        if name not in source.options:
            takes = ", ".join(source.options) or "none"
            raise BadOption(f"{source.name} takes no {name!r} option (its options: {takes})")
        options[name] = _typed(name, text)
    return options


# The options the CLI reads as whole numbers (click.INTEGER in perfectplay.cli): the web gives
# them to the game typed the same way (Hex and Othello took "3" as a size and failed).
WHOLE_NUMBER_OPTIONS = ("width", "height", "size", "pits", "seeds")


def _typed(name: str, text: str) -> Any:
    if name == "misere":
        word = text.strip().lower()
        if word not in TRUE_WORDS + FALSE_WORDS:
            raise BadOption(f"misere={text!r}: write 1 or 0")
        return word in TRUE_WORDS
    if name in WHOLE_NUMBER_OPTIONS:
        try:
            return int(text)
        except ValueError:
            raise BadOption(f"{name}={text!r}: give a whole number") from None
    if len(text) > 100:
        raise BadOption(f"{name}={text[:40]!r}...: too long")
    return text


def builtin_catalog(max_bytes: int = GAME_CACHE_BYTES) -> Catalog:
    """Every built-in game, with at most ``max_bytes`` of built games kept."""
    catalog = Catalog(max_bytes=max_bytes)
    for entry in registry.entries():
        catalog.sources[entry.name] = Source(
            entry.name, entry.summary, entry.position_help, entry.options,
            _builtin_builder(entry.name))
    return catalog


def _builtin_builder(name: str) -> Callable[[Mapping[str, Any], str | None], Loaded]:
    def build(options: Mapping[str, Any], start: str | None) -> Loaded:
        return registry.load(name, options, start)
    return build


def add_game_file(catalog: Catalog, spec: str) -> Source:
    """Load a user's game named on the command line (``file.py:Class`` or ``module:Class``),
    once, at start; raises UnknownGame when it cannot be loaded."""
    try:
        game, _ = registry.resolve(spec).load()
    except PerfectPlayError:
        raise
    except Exception as error:  # the file itself may raise anything while it is imported
        raise UnknownGame(f"cannot load game {spec!r}: {type(error).__name__}: {error}") from None
    name = game.name.strip().lower()
    if name in catalog.sources:
        raise UnknownGame(f"{spec!r} is called {game.name!r}, which another game already uses; "
                          "give the class a different name attribute")

    def build(options: Mapping[str, Any], start: str | None) -> Loaded:
        # The game object loaded at start: its file is never imported again.
        return game, (game.start() if start is None else game.parse_position(start))

    summary = (type(game).__doc__ or f"your game from {spec}").strip().splitlines()[0]
    source = Source(name, summary, "the game's own position text", (), build, own=True)
    catalog.sources[name] = source
    return source


def warm_up(catalog: Catalog) -> list[str]:
    """Pay now the one-off costs of every offered game's methods (perfectplay.deciding.warm_up:
    a kernel compiled, or loaded from numba's cache), so that a game's first late position
    answers as fast as the rest; `perfectplay serve` runs it in a background thread at start.
    The names of the games warmed; a game that cannot be built here (chess without
    python-chess) is left to fail when asked for, as it would."""
    from perfectplay import deciding
    warmed = []
    for source in list(catalog.sources.values()):
        try:
            game, _ = _guarded_build(source, {}, None)
            deciding.warm_up(game)
        except (PerfectPlayError, ImportError):
            continue
        warmed.append(source.name)
    return warmed

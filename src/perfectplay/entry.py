"""What a game package publishes so that every command finds it: its :class:`Entry`.

A game, built in or from a package someone else publishes, is found through the entry point
group ``perfectplay.games`` (perfectplay.registry reads it). Each entry point names an
``Entry``: the game's name and aliases, how to build it from options and position text, and
what else it offers (sizes for ``table``, random cases and a brute force for ``verify``, a
contest input format, the solving methods it registers, tools only it has). A third-party
package declares, in its own ``pyproject.toml``::

    [project.entry-points."perfectplay.games"]
    hex = "perfectplay_hex:ENTRY"

The module an entry point names is imported to read the entry, so it should import nothing
heavy at the top: the loaders import the rules when a game is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from perfectplay.game import Game, MethodModule

if TYPE_CHECKING:  # kept off the start-up path: only annotations name it
    import random

Options = Mapping[str, Any]
Loaded = tuple[Game[Any, Any], Any]

# Where a game without an explicit order is listed: after the built-in games.
PLUGIN_ORDER = 1000


@dataclass(frozen=True)
class TourStop:
    """One stop of `perfectplay tour`: its ``place`` among every game's stops (lowest first)
    and ``lines``, "module:attribute" of a function that takes the tour's solve (perfectplay's
    ``solve`` with the tour's line length) and returns the stop's lines; or, instead of lines,
    a ``suggestion``, a command the tour's last line invites the reader to try ("solve nim
    3 4 5"), placed among the suggestions by the same rule."""

    place: int
    lines: str | None = None
    suggestion: str | None = None


@dataclass(frozen=True)
class Entry:
    name: str
    summary: str
    position_help: str
    load: Callable[[Options, str | None], Loaded]
    aliases: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    # The position of size n, for `perfectplay table GAME FROM..TO`.
    sized: Callable[[Options, int], Loaded] | None = None
    # A random small (game, position) for `perfectplay verify`.
    random_case: Callable[[random.Random, Options], Loaded] | None = None
    # An independent value for a (game, position), sharing no code with the engine.
    brute_force: Callable[[Game[Any, Any], Any], int] | None = None
    # The game read from a contest input file's text (`solve GAME --file`): (text, source).
    read_input: Callable[[str, str], Loaded] | None = None
    # The game's own modules of solving methods with the --algorithm names each registers
    # (Connect Four's book, kernel and "null-window"), so that commands list the names without
    # importing the game: the same tuple as the game's class names (Game.method_modules).
    methods: tuple[MethodModule, ...] = ()
    # The older form of the names alone, each with its module; read as well as ``methods``.
    algorithms: Mapping[str, str] = field(default_factory=dict)
    # Tools only this game has, by name, each a module a front end may ask the registry for
    # (Connect Four's "book", chess's "tablebase", chess's part of the UCI loop "uci").
    extensions: Mapping[str, str] = field(default_factory=dict)
    # Commands only this game has: `perfectplay NAME` -> "module:attribute" of its click command
    # (Connect Four's "book", chess's "tablebase"), imported only when it runs or the help lists
    # every command, so that front ends name no game and a plugin adds its own.
    commands: Mapping[str, str] = field(default_factory=dict)
    # `perfectplay contest NAME` (NAME the game's): "module:attribute" of the click command that
    # reads the game's contest problem on stdin and prints its exact output.
    contest: str | None = None
    # What the game shows in `perfectplay tour` (what `make run` runs).
    tour: tuple[TourStop, ...] = ()
    # The game's name in prose, where a message names it ("Connect Four"); its name when empty.
    title: str = ""
    # Whether the game has an opening book, the file that `solve --book FILE` names.
    opening_book: bool = False
    # Where the game is listed (`perfectplay games`, `play`'s menu): lowest first, then by name.
    order: int = PLUGIN_ORDER


def from_text(game: Game[Any, Any], text: str | None) -> Loaded:
    """``game`` with the position written as ``text`` (its start position when None)."""
    return game, (game.start() if text is None else game.parse_position(text))


def sized_by_start(load: Callable[[Options, str | None], Loaded],
                   position: Callable[[int], Any]) -> Callable[[Options, int], Loaded]:
    """An ``Entry.sized`` that builds the game with its options and puts ``position(n)``."""
    def sized(options: Options, n: int) -> Loaded:
        game, _ = load(options, None)
        return game, position(n)
    return sized



# What a tour stop's function is handed: perfectplay.solve(game, position, **options) with the
# tour's line length (the games sit below perfectplay.solving, so the tour passes it down).
TourSolve = Callable[..., Any]


def tour_solver(solve: TourSolve, load: Callable[[Options, str | None], Loaded]) -> Callable[..., Any]:
    """``solved(text, **options)``: the position written ``text`` (the start when None) of the
    game ``load`` builds without options, solved by the tour's ``solve``."""
    def solved(text: str | None, **options: Any) -> Any:
        game, position = load({}, text)
        return solve(game, position, **options)
    return solved

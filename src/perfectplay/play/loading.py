"""Finding the game to play: a built-in game by name, or a person's own Game subclass
written as ``module:Class`` or ``path/to/file.py:Class``."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from typing import Any

from perfectplay import registry
from perfectplay.errors import BadPosition, UnknownGame
from perfectplay.game import Game
from perfectplay.game_faults import check_game


def load_game(name: str, options: dict[str, Any], position: str | None) -> registry.Loaded:
    """The game and its start (or given) position."""
    if ":" not in name:
        return registry.load(name, options, position)
    game = _user_game(name)
    if any(value not in (None, False) for value in options.values()):
        raise UnknownGame(f"{name!r} is your own game; the built-in game options do not apply")
    if position is None:
        check_game(game)
        return game, game.start()
    try:
        start = game.parse_position(position)
    except BadPosition:
        raise
    except Exception as error:  # a user's parser may raise anything
        raise BadPosition(f"{game.name} could not read position {position!r}: {error}") from None
    check_game(game, start)
    return game, start


def _user_game(spec: str) -> Game[Any, Any]:
    where, _, class_name = spec.rpartition(":")
    try:
        module = _import(where)
        game_class = getattr(module, class_name)
    except (ImportError, AttributeError, OSError, SyntaxError, ValueError) as error:
        raise UnknownGame(f"cannot load game {spec!r}: {error}") from None
    if not (isinstance(game_class, type) and issubclass(game_class, Game)):
        raise UnknownGame(f"{spec!r} is not a perfectplay.game.Game subclass")
    return game_class()


def _import(where: str) -> Any:
    if where.endswith(".py"):
        path = Path(where)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"no Python file at {where}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return importlib.import_module(where)

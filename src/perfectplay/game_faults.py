"""When a person's own game has a bug: say which method of which class failed, on which
position, and show the line of their code that raised.

Three parts. :func:`check_game` tries a game's start position and first moves once, when it
is loaded, and catches the usual slips (moves() returning None or a generator, a position
or key that cannot be hashed, an outcome that is not an Outcome) before a search turns them
into a puzzling error deep inside. It also puts a check on the two methods whose answers
every solver trusts without looking, ``outcome`` and ``key``: a wrong type from them at any
position is named at once (an outcome() returning the string "win" was once read as a loss,
and a key() returning a list ended in "unhashable type" from the table).
:func:`explain` reads an exception's traceback afterwards, so the search itself pays nothing:
the last frame that belongs to a Game method of the user's class names the method, and its
first argument after ``self`` is the position.
"""

from __future__ import annotations

import linecache
import os
import types
from collections.abc import Sequence
from typing import Any

from perfectplay.errors import LimitReached, PerfectPlayError
from perfectplay.game import Game, Outcome

# The methods whose first argument (after self) is a position.
POSITION_METHODS = ("moves", "play", "outcome", "gain", "evaluate", "key", "format_move",
                    "parse_move", "format_position", "render", "tabulation", "components")
SHOWN_CHARACTERS = 80
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


class GameFault(PerfectPlayError):
    """A user's game broke one of the protocol's rules, or one of its methods raised."""


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 3] + "..."


def _is_builtin(game: Game[Any, Any]) -> bool:
    return type(game).__module__.startswith("perfectplay.")


def constructed(game_class: type[Game[Any, Any]]) -> Game[Any, Any]:
    """An instance of a user's game class, its constructor's failure named like any other."""
    try:
        return game_class()
    except LimitReached:  # a limit that struck inside the game's code
        raise
    except Exception as error:
        raise GameFault(explain(error) or f"{game_class.__name__}() raised "
                        f"{type(error).__name__}: {error}") from None


def check_game(game: Game[Any, Any], position: Any = None) -> None:
    """Try the start position (or ``position``), its moves and the first move's result; raise
    GameFault on the first rule broken. Built-in games are trusted (their tests check them)."""
    if _is_builtin(game):
        return
    owner = type(game).__name__
    start = _call(game, "start")
    _check_hashable(owner, "start", start)
    if position is not None:
        _check_hashable(owner, "parse_position", position)
        start = position
    guard_answers(game)
    _check_answers(game, start)
    moves = _check_moves(game, owner, start)
    if moves:
        after = _call(game, "play", start, moves[0])
        _check_hashable(owner, "play", after)
        _check_answers(game, after)
        _check_moves(game, owner, after)


def guard_answers(game: Game[Any, Any]) -> None:
    """Check every answer of the user's ``outcome`` and ``key`` from now on (once per game
    object). The checks sit on the instance, so every solver, the engine, retrograde
    analysis, play and the web page get them without a change of their own; built-in
    games, whose tests check them, never pay for them."""
    if _is_builtin(game) or isinstance(vars(game).get("outcome"), CheckedOutcome):
        return
    game.outcome = CheckedOutcome(game)  # type: ignore[method-assign]
    game.key = CheckedKey(game)  # type: ignore[method-assign]


def _check_answers(game: Game[Any, Any], position: Any) -> None:
    _call(game, "outcome", position)
    _call(game, "key", position)


def _call(game: Game[Any, Any], method: str, *args: Any) -> Any:
    try:
        return getattr(game, method)(*args)
    except (PerfectPlayError, LimitReached):  # a limit that struck inside the game's code
        raise
    except Exception as error:
        raise GameFault(explain(error) or f"{type(game).__name__}.{method} raised "
                        f"{type(error).__name__}: {error}") from None


def _check_hashable(owner: str, method: str, position: Any) -> None:
    try:
        hash(position)
    except TypeError:
        raise GameFault(f"{owner}.{method}() returned the position {_shown(position)}, which cannot "
                        "be hashed: positions must be immutable (a tuple, not a list; a frozenset, "
                        "not a set)") from None


def _check_moves(game: Game[Any, Any], owner: str, position: Any) -> Sequence[Any]:
    moves = _call(game, "moves", position)
    if isinstance(moves, types.GeneratorType) or not isinstance(moves, Sequence) \
            or isinstance(moves, str):
        kind = "None" if moves is None else f"a {type(moves).__name__}"
        raise GameFault(f"{owner}.moves() returned {kind} on position {_shown(position)}: it must "
                        "return a list of moves (an empty list when no move is left)")
    return moves


class CheckedOutcome:
    """A user's ``outcome`` whose every answer must be None or an Outcome.

    Picklable (a game goes to worker processes in database builds and Lazy SMP): it is
    rebuilt from the game alone, and looks its method up on the class, never on the
    instance, where it sits itself."""

    __slots__ = ("game", "method")

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.method = type(game).outcome

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.game,))

    def __call__(self, position: Any) -> Outcome | None:
        answer = self.method(self.game, position)
        if answer is None or answer.__class__ is Outcome:
            return answer
        raise GameFault(f"{type(self.game).__name__}.outcome() returned {_shown(answer)} on position "
                        f"{_shown(position)}: it must return None while the game goes on, else "
                        "Outcome.WIN, Outcome.LOSS or Outcome.DRAW for the player to move "
                        "(from perfectplay import Outcome)")


class CheckedKey:
    """A user's ``key`` (or the default, the position itself) whose every answer must be
    hashable: the tables store it."""

    __slots__ = ("game", "method")

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.method = type(game).key

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.game,))

    def __call__(self, position: Any) -> Any:
        answer = self.method(self.game, position)
        try:
            hash(answer)
        except TypeError:
            method = "key" if self.method is not Game.key else "key (by default the position itself)"
            raise GameFault(f"{type(self.game).__name__}.{method}() returned {_shown(answer)} on "
                            f"position {_shown(position)}, which cannot be hashed: keys must be "
                            "immutable (a tuple, not a list; a frozenset, not a set)") from None
        return answer


def loading_failed(spec: str, error: BaseException) -> GameFault:
    """The one line for a game file whose own code failed while it was imported: it raised,
    or it exited (``sys.exit(5)`` in a game file once made perfectplay exit 5 with no word)."""
    if isinstance(error, SystemExit):
        return GameFault(f"cannot load game {spec!r}: the file exited (sys.exit({error.code!r})) "
                         "while loading; a game file should define its game, not run a program")
    where = ""
    trace = error.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if not code.co_filename.startswith("<") and \
                not os.path.abspath(code.co_filename).startswith(_PACKAGE_DIR):
            line = linecache.getline(code.co_filename, trace.tb_lineno).strip()
            where = f" ({code.co_filename}:{trace.tb_lineno}: {line})"
        trace = trace.tb_next
    return GameFault(f"cannot load game {spec!r}: its code raised {type(error).__name__}: {error} "
                     f"while loading{where}")


def explain(error: BaseException) -> str | None:
    """One line naming the user's method that raised ``error``, the position and the line of
    their code, or None when no user's game method is in the traceback."""
    frame = _user_frame(error)
    if frame is None:
        return None
    code = frame.f_code
    where = f"{type(frame.f_locals['self']).__name__}.{code.co_name}"
    line = linecache.getline(code.co_filename, frame.f_lineno).strip()
    return (f"your game's {where} raised {type(error).__name__}: {error}{_on_position(frame)} "
            f"({code.co_filename}:{frame.f_lineno}: {line})")


def users_call(frame: types.FrameType | None) -> types.FrameType | None:
    """The outermost frame of a method of a user's Game subclass on the stack that ``frame``
    (a running frame, as a signal handler gets it) is the top of, if any: the call of the
    user's code that the program is inside."""
    found = None
    while frame is not None:
        if _in_users_method(frame):
            found = frame
        frame = frame.f_back
    return found


def slow_call_words(frame: types.FrameType, seconds: float) -> str:
    """What a call of the user's code that has not returned for ``seconds`` is: its method,
    the position and the line it stands on."""
    code = frame.f_code
    return (f"your game's {type(frame.f_locals['self']).__name__}.{code.co_name}()"
            f"{_on_position(frame)} has not returned after {seconds:.1f} s "
            f"({code.co_filename}:{frame.f_lineno})")


def _on_position(frame: types.FrameType) -> str:
    """The words ' on position P' for a frame of a Game method whose first argument is a
    position, else nothing."""
    code = frame.f_code
    if code.co_name in POSITION_METHODS and code.co_argcount >= 2:
        return f" on position {_shown(frame.f_locals.get(code.co_varnames[1]))}"
    return ""


def _user_frame(error: BaseException) -> types.FrameType | None:
    """The innermost frame of a method of a user's Game subclass, if any."""
    found = None
    trace = error.__traceback__
    while trace is not None:
        if _in_users_method(trace.tb_frame):
            found = trace.tb_frame
        trace = trace.tb_next
    return found


def _in_users_method(frame: types.FrameType) -> bool:
    """Whether ``frame`` runs a method of a user's Game subclass, in the user's own code."""
    owner = frame.f_locals.get("self")
    in_package = os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR)
    return isinstance(owner, Game) and not _is_builtin(owner) and not in_package

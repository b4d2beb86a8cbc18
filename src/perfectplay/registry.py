"""The built-in games, found by name or alias through one explicit list, and a person's own
games, written ``module:Class`` or ``path/to/file.py:Class``.

Each entry says how to build the game from its options and position text. Game modules are
imported only when their game is asked for, so the CLI starts fast. A command resolves the
name and options once, at its edge (:func:`resolve`), and passes the game object down.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from perfectplay.errors import BadOption, BadPosition, LimitReached, UnknownGame
from perfectplay.game import Game

if TYPE_CHECKING:  # kept off the start-up path: only annotations name it
    import random

Options = Mapping[str, Any]
Loaded = tuple[Game[Any, Any], Any]

# Every game option the CLI knows, with its help text. An entry lists those it accepts.
OPTION_HELP = {
    "misere": "the player who takes the last stick loses",
    "take": "subtraction set, e.g. 1,2,3",
    "block": "claim line rule: 'both' neighbours blocked (default) or only the 'right' one",
    "code": "octal game code, e.g. 0.77 (Kayles) or 0.137 (Dawson's chess)",
    "width": "board width (Connect Four; Dodgem: 3, 4 or 5 for a square board)",
    "height": "board height (Connect Four)",
}


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


def _from_text(game: Game[Any, Any], text: str | None) -> Loaded:
    return game, (game.start() if text is None else game.parse_position(text))


# The largest amount a subtraction set may hold: its theory builds a rule of that many digits.
MAX_TAKE = 1_000_000


def _subtraction_set(options: Options) -> tuple[int, ...]:
    text = options.get("take") or "1,2,3"
    try:
        takes = tuple(int(part) for part in str(text).replace(" ", "").split(",") if part)
    except ValueError:
        raise BadOption(f"--take {text!r}: give whole numbers separated by commas, e.g. 1,2,3") from None
    if not takes or min(takes) < 1:
        raise BadOption(f"--take {text!r}: amounts must be positive")
    if max(takes) > MAX_TAKE:
        raise BadOption(f"--take {text!r}: amounts must be at most {MAX_TAKE:,}")
    return takes


def _takeaway(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.takeaway import TakeAway
    return _from_text(TakeAway(_subtraction_set(options), misere=bool(options.get("misere"))), text)


def _takeaway_sized(options: Options, n: int) -> Loaded:
    game, _ = _takeaway(options, None)
    return game, n


def _nim(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.nim import Nim
    return _from_text(Nim(misere=bool(options.get("misere"))), text)


def _nim_sized(options: Options, n: int) -> Loaded:
    game, _ = _nim(options, None)
    return game, (n,)


def _matchgame(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.matchgame import MatchGame
    return _from_text(MatchGame(), text)


def _crates(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.crates import CrateLine, parse_row
    game = CrateLine() if text is None else CrateLine(parse_row(text))
    return game, game.start()


def _crates_random(rng: random.Random, options: Options) -> Loaded:
    from perfectplay.games.crates import CrateLine, random_row
    game = CrateLine(random_row(rng))
    return game, game.start()


def _crates_brute(game: Game[Any, Any], position: Any) -> int:
    from perfectplay.games.crates import brute_force_difference
    left, right = position
    return brute_force_difference(list(game.values[left:right]))  # type: ignore[attr-defined]


def _crates_input(text: str, source: str) -> Loaded:
    from perfectplay.games.crates import CrateLine
    from perfectplay.scoring.contest import read_row_input
    game = CrateLine(read_row_input(text, source, "crate"))
    return game, game.start()


def _coins(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.coins import CoinRow, parse_coins
    game = CoinRow() if text is None else CoinRow(parse_coins(text))
    return game, game.start()


def _coins_random(rng: random.Random, options: Options) -> Loaded:
    from perfectplay.games.coins import CoinRow, random_coins
    game = CoinRow(random_coins(rng))
    return game, game.start()


def _coins_brute(game: Game[Any, Any], position: Any) -> int:
    from perfectplay.games.coins import brute_force_first_total
    left, right = position
    coins = list(game.values[left:right])  # type: ignore[attr-defined]
    return 2 * brute_force_first_total(coins) - sum(coins)


def _coins_input(text: str, source: str) -> Loaded:
    from perfectplay.games.coins import CoinRow
    from perfectplay.scoring.contest import read_row_input
    game = CoinRow(read_row_input(text, source, "coin"))
    return game, game.start()


def _claim(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.claim import ClaimLine
    return _from_text(ClaimLine(block=options.get("block") or "both"), text)


def _claim_sized(options: Options, n: int) -> Loaded:
    from perfectplay.games.claim import ClaimLine
    return ClaimLine(n, block=options.get("block") or "both"), (n, 0)


def _octal(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.octal import OctalGame
    game = OctalGame(options.get("code") or "0.77", misere=bool(options.get("misere")))
    return _from_text(game, text)


def _octal_sized(options: Options, n: int) -> Loaded:
    game, _ = _octal(options, None)
    return game, (n,)


def _tictactoe(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.tictactoe import TicTacToe
    return _from_text(TicTacToe(), text)


def _connect4(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.connect4 import STANDARD_HEIGHT, STANDARD_WIDTH, ConnectFour
    width, height = options.get("width"), options.get("height")
    width = STANDARD_WIDTH if width is None else width
    height = STANDARD_HEIGHT if height is None else height
    return _from_text(ConnectFour(width, height), text)


def _retro_brute(game: Game[Any, Any], position: Any) -> int:
    from perfectplay.retro.brute import brute_force_value
    return brute_force_value(game, position)


def _dodgem(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.dodgem import Dodgem
    if options.get("height") is not None:
        raise BadOption("dodgem is played on a square board: give --width only")
    width = options.get("width")
    return _from_text(Dodgem(3 if width is None else width), text)


def _chopsticks(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.chopsticks import Chopsticks
    return _from_text(Chopsticks(), text)


def _morris3(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.morris3 import ThreeMensMorris
    return _from_text(ThreeMensMorris(), text)


def _tapatan(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.morris3 import Tapatan
    return _from_text(Tapatan(), text)


def _chess(options: Options, text: str | None) -> Loaded:
    from perfectplay.games.chess_extra import require_chess
    require_chess()
    from perfectplay.games.chess import Chess
    return _from_text(Chess(), text)


ENTRIES: tuple[Entry, ...] = (
    Entry("takeaway", "one pile; take an amount from the subtraction set; last stick wins",
          "PILE, e.g. 20", _takeaway, aliases=("take-away", "subtraction"),
          options=("take", "misere"), sized=_takeaway_sized),
    Entry("nim", "piles; take any number from one pile; last stick wins (--misere: loses)",
          "PILE..., e.g. 3 4 5", _nim, options=("misere",), sized=_nim_sized),
    Entry("matchgame", "misère Nim from rows 7 5 3 1 (seed 003)", "ROW..., default 7 5 3 1",
          _matchgame, aliases=("matches",)),
    Entry("crates", "score game: take the leftmost crate, the two leftmost, or the rightmost",
          "VALUE..., e.g. 3 9 1", _crates, aliases=("crate-line", "crateline"),
          random_case=_crates_random, brute_force=_crates_brute, read_input=_crates_input),
    Entry("claim", "claim an item with no claimed neighbour; who cannot move loses",
          "N, or a row like '..x....' (x = claimed)", _claim, aliases=("claim-line",),
          options=("block",), sized=_claim_sized),
    Entry("tictactoe", "three in a row on a 3x3 board", "9 cells row by row, e.g. 'X.O/.X./...'",
          _tictactoe, aliases=("ttt", "tic-tac-toe", "noughts-and-crosses")),
    Entry("octal", "heaps; remove tokens as the octal --code allows (default 0.77, Kayles)",
          "HEAP..., e.g. 5 7", _octal, aliases=("octal-game", "kayles"),
          options=("code", "misere"), sized=_octal_sized),
    # Last, so the numbers of the games listed before it (e.g. in `play`) do not move.
    Entry("coins", "score game: take the coin at either end of the row",
          "VALUE..., e.g. 8 15 3 7", _coins, aliases=("coin-row", "coinrow"),
          random_case=_coins_random, brute_force=_coins_brute, read_input=_coins_input),
    # After coins, for the same reason.
    Entry("connect4", "four in a row on a 7x6 board (other sizes: --width, --height)",
          "columns played from the empty board, 1-based, e.g. 4455; '' is the empty board",
          _connect4, aliases=("c4", "connect-four", "connectfour"), options=("width", "height")),
    # Loopy games (positions repeat; solved by retrograde analysis, perfectplay.retro).
    Entry("dodgem", "loopy: 3x3 Dodgem (Winning Ways); two cars each drive across and off the "
          "board (Blue right, Red up, or sideways, never back); you win when you cannot move",
          "3 rows from the top of B, R and ., then the side to move, e.g. 'B../B../.RR B'",
          _dodgem, options=("width",), brute_force=_retro_brute),
    Entry("chopsticks", "loopy: finger game; tap a live hand of the opponent's to add yours "
          "(5 or more kills it: cutoff, no rollover), or split: move any fingers between "
          "your own hands (reviving or emptying one; no mere swap); both hands dead loses",
          "the mover's hands then the other's, e.g. '1 1 / 1 1'", _chopsticks,
          aliases=("chopstick", "fingers"), brute_force=_retro_brute),
    Entry("morris3", "loopy: Three Men's Morris; place 3 men each, then move one to an "
          "orthogonally adjacent empty point; 3 in a row or column wins; no move loses",
          "9 points of X, O and . row by row, then the side to move, e.g. 'X.O/.X./... O'",
          _morris3, aliases=("three-mens-morris", "morris"), brute_force=_retro_brute),
    Entry("tapatan", "loopy: Tapatan; Three Men's Morris with the diagonals as lines, for "
          "moving and for winning",
          "9 points of X, O and . row by row, then the side to move, e.g. 'X.O/.X./... O'",
          _tapatan, brute_force=_retro_brute),
    Entry("chess", "chess by python-chess's rules (the extra perfectplay[chess])",
          "FEN or 'startpos', optionally 'moves e2e4 e7e5 ...' (UCI or SAN)", _chess,
          aliases=("fide-chess",)),
)


def find(name: str) -> Entry:
    wanted = name.strip().lower()
    for entry in ENTRIES:
        if wanted == entry.name or wanted in entry.aliases:
            return entry
    known = ", ".join(entry.name for entry in ENTRIES)
    raise UnknownGame(f"unknown game {name!r}; built-in games: {known}")


def check_options(entry: Entry, options: Options) -> None:
    """Reject an option the game does not take, rather than silently ignoring it, and an
    empty value, rather than silently taking the default (issue 13: --take '')."""
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
            check_game(game)  # the usual slips, named before a search meets them (issue 13)
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
            having = ", ".join(e.name for e in ENTRIES if e.sized)
            raise BadOption(f"{self.name} has no size to vary; games with sizes: {having}")
        return self.entry.sized(self.options, n)

    def random_case(self, rng: random.Random) -> Loaded:
        """A random small (game, position) for `perfectplay verify`."""
        if self.entry is not None and self.entry.random_case is not None:
            return self.entry.random_case(rng, self.options)
        game, _ = self.load(None)
        return game, game.random_position(rng)

    def read_input(self, text: str, source: str) -> Loaded:
        """The game read from a contest input file (seed 002's format)."""
        if self.entry is None or self.entry.read_input is None:
            having = ", ".join(e.name for e in ENTRIES if e.read_input)
            raise BadOption(f"{self.name} has no contest input format (games with one: {having})")
        return self.entry.read_input(text, source)

    @property
    def brute_force(self) -> Callable[[Game[Any, Any], Any], int] | None:
        return None if self.entry is None else self.entry.brute_force


def resolve(spec: str, options: Options | None = None) -> GameChoice:
    """The game ``spec`` names, a built-in name or alias or ``module:Class`` /
    ``file.py:Class``, with its options checked."""
    options = dict(options or {})
    if ":" not in spec:
        entry = find(spec)
        check_options(entry, options)
        return GameChoice(entry.name, entry, options)
    if any(value not in (None, False) for value in options.values()):
        raise UnknownGame(f"{spec!r} is your own game; the built-in game options do not apply")
    own = _own_game_class(spec)
    return GameChoice(getattr(own, "name", spec), own_class=own)


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

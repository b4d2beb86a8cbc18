"""OpenSpiel's games as perfectplay games: ``openspiel:tic_tac_toe``,
``openspiel:breakthrough(rows=4,columns=4)`` (the text pyspiel.load_game reads) wherever a game
is named. Needs the ``openspiel`` extra (``pip install 'perfectplay[openspiel]'``).

Only a game perfectplay can solve is taken: two players, zero-sum, deterministic (no chance),
sequential (no simultaneous moves) and of perfect information; any other is refused in one
line naming the property it lacks, as OpenSpiel's own GameType declares it.

A position is the list of actions from the start: immutable and hashable, with the pyspiel
state it reaches kept beside it (not compared). Its table key is what the state shows
(``str(state)``), the player to move and the move number, so transpositions share an entry.
A game whose utilities are -1, 0 and 1 is a win/loss/draw game; any other is a score game
whose final utility for the mover is its score. Any move may give its player another turn
(Mancala, Dots and Boxes): the game declares extra turns, and each position remembers who
moves after each of its moves.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from perfectplay.entry import Entry, Loaded, Options
from perfectplay.errors import BadOption, BadPosition, IllegalMove, UnknownGame
from perfectplay.game import Game, Kind, Outcome, Properties

PREFIX = "openspiel"
# How far from the end of a random game `perfectplay verify`'s positions are.
VERIFY_PLIES = 4


def _pyspiel() -> Any:
    try:
        import pyspiel
    except ImportError:
        raise UnknownGame("OpenSpiel's games need OpenSpiel: pip install 'perfectplay[openspiel]'") from None
    return pyspiel


class Position:
    """The actions played from the start (``history``), the pyspiel ``state`` they reach and
    the ``player`` whose side the position is seen from (at the end: the one who did not make
    the last move, or who would move again after it)."""

    __slots__ = ("history", "state", "player", "after")

    def __init__(self, history: tuple[int, ...], state: Any, player: int) -> None:
        self.history = history
        self.state = state
        self.player = player
        self.after: dict[int, int] = {}  # move -> the player to move after it

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and other.history == self.history

    def __hash__(self) -> int:
        return hash(self.history)

    def __repr__(self) -> str:
        return f"Position({' '.join(map(str, self.history)) or 'start'})"


def load_game(spec: str) -> Any:
    """The pyspiel game ``spec`` names; an unknown name or parameter is one line."""
    pyspiel = _pyspiel()
    if spec.partition("(")[0].strip() not in pyspiel.registered_names():
        raise UnknownGame(f"openspiel:{spec}: OpenSpiel has no game {spec.partition('(')[0]!r} "
                          "(python -c 'import pyspiel; print(pyspiel.registered_names())' lists them)")
    try:
        with _quiet_stderr():  # OpenSpiel writes its error to the process's stderr as well
            return pyspiel.load_game(spec)
    except pyspiel.SpielError as error:
        first = str(error).removeprefix("OpenSpiel exception: ").splitlines()[0]
        raise UnknownGame(f"openspiel:{spec}: {first.rstrip(' :.')}") from None


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as nowhere:
            os.dup2(nowhere.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def refusal(game: Any) -> str | None:
    """Why perfectplay cannot solve ``game`` (a pyspiel game), or None when it can."""
    pyspiel = _pyspiel()
    kind = game.get_type()
    checks = [(game.num_players() == 2, f"two-player (it has {game.num_players()} players)"),
              (kind.utility == pyspiel.GameType.Utility.ZERO_SUM,
               f"zero-sum (its utility is {kind.utility.name})"),
              (kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC,
               f"deterministic (its chance mode is {kind.chance_mode.name})"),
              (kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL,
               f"sequential (its dynamics are {kind.dynamics.name})"),
              (kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION,
               f"of perfect information (its information is {kind.information.name})")]
    return next((f"not {words}" for holds, words in checks if not holds), None)


class OpenSpielGame(Game[Position, int]):
    """A pyspiel game seen through perfectplay's protocol; moves are OpenSpiel's action ids."""

    def __init__(self, spec: str) -> None:
        self.spiel = load_game(spec)
        why = refusal(self.spiel)
        if why is not None:
            raise UnknownGame(f"openspiel:{spec} cannot be solved here: it is {why}")
        self.name = f"{PREFIX}:{str(self.spiel).removesuffix('()')}"
        win_loss = self.spiel.min_utility() == -1 and self.spiel.max_utility() == 1
        self.properties = Properties(
            kind=Kind.WIN_LOSS if win_loss else Kind.SCORE, can_draw=True, extra_turns=True,
            max_length=self.spiel.max_game_length(),
            value_bound=None if win_loss else int(max(-self.spiel.min_utility(), self.spiel.max_utility())))

    # -- the rules -----------------------------------------------------------------------
    def start(self) -> Position:
        state = self.spiel.new_initial_state()
        return Position((), state, state.current_player())

    def moves(self, position: Position) -> Sequence[int]:
        state = position.state
        return [] if state.is_terminal() else state.legal_actions()

    def play(self, position: Position, move: int) -> Position:
        state = position.state.child(move)
        player = state.current_player() if not state.is_terminal() else 1 - position.player
        position.after[move] = player
        return Position(position.history + (move,), state, player)

    def keeps_turn(self, position: Position, move: int) -> bool:
        player = position.after.get(move)
        if player is None:
            player = self.play(position, move).player
        return player == position.player

    def outcome(self, position: Position) -> Outcome | None:
        if not position.state.is_terminal() or self.properties.is_score:
            return None
        mine = position.state.returns()[position.player]
        return Outcome.WIN if mine > 0 else Outcome.LOSS if mine < 0 else Outcome.DRAW

    def gain(self, position: Position, move: int) -> int:
        """A score game's utility comes at the end: the move that ends it earns the mover's."""
        child = position.state.child(move)
        return int(child.returns()[position.player]) if child.is_terminal() else 0

    def key(self, position: Position) -> Hashable:
        return (str(position.state), position.player, position.state.move_number())

    def player_to_move(self, position: Position) -> int | None:
        return position.player

    def random_position(self, rng: random.Random) -> Position:
        """A position a few plies from the end of a random game, so that minimax, the
        reference of `perfectplay verify`, finishes whatever the game's size."""
        line = [self.start()]
        while not line[-1].state.is_terminal():
            line.append(self.play(line[-1], rng.choice(self.moves(line[-1]))))
        return line[max(0, len(line) - 1 - rng.randrange(1, VERIFY_PLIES + 1))]

    # -- notation ------------------------------------------------------------------------
    def format_move(self, position: Position, move: int) -> str:
        return position.state.action_to_string(position.player, move).replace(" ", "")

    def parse_move(self, position: Position, text: str) -> int:
        wanted = text.strip()
        for move in self.moves(position):
            if wanted in (str(move), self.format_move(position, move)):
                return move
        legal = ", ".join(self.format_move(position, move) for move in self.moves(position)) or "none"
        raise IllegalMove(f"{wanted!r} is not a legal move in {self.name} at "
                          f"{self.format_position(position)} (legal: {legal})")

    def format_position(self, position: Position) -> str:
        return " ".join(map(str, position.history)) or "start"

    def parse_position(self, text: str) -> Position:
        """Actions from the start, by id or by OpenSpiel's name (which may hold commas: "x(1,1)"),
        separated by spaces."""
        position = self.start()
        for word in text.split():
            if word in ("", "start"):
                continue
            try:
                position = self.play(position, self.parse_move(position, word))
            except IllegalMove as error:
                raise BadPosition(f"{self.name} position {text!r}: {error}") from None
        return position

    def render(self, position: Position) -> str:
        return str(position.state).rstrip("\n")


def load(spec: str, options: Options, text: str | None) -> Loaded:
    if any(value not in (None, False) for value in options.values()):
        raise BadOption(f"openspiel:{spec} takes its options in its name, e.g. "
                        "openspiel:breakthrough(rows=4,columns=4)")
    game = OpenSpielGame(spec)
    return game, game.start() if text is None else game.parse_position(text)


def entry(spec: str) -> Entry:
    """The registry's entry for ``openspiel:SPEC``, checked now (an unknown or unsolvable game
    is refused where it is named)."""
    game = OpenSpielGame(spec)
    return Entry(game.name, f"OpenSpiel's {game.spiel.get_type().long_name}",
                 "OpenSpiel action ids or names from the start, e.g. '4 0 8'",
                 lambda options, text: load(spec, options, text))


__all__ = ["OpenSpielGame", "Position", "entry", "load", "refusal"]

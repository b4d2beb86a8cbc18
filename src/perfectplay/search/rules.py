"""What every search algorithm shares: the game's rules as fast callables, value conventions
for terminal positions, and the Searcher record the algorithms return."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from perfectplay import value as V
from perfectplay.errors import RepeatedPosition, UnsupportedSearch
from perfectplay.finish import line_totals
from perfectplay.game import Game, Outcome
from perfectplay.search.transposition import TranspositionTable

SearchFn = Callable[[Any, float, float, int, int], float]


class Rules:
    """The game's methods bound once, and the value of a finished game at a given ply.

    ``distance`` is True when win/loss values carry the number of plies (the default);
    outcome-only mode and score games use plain values.
    """

    def __init__(self, game: Game[Any, Any], outcome_only: bool = False) -> None:
        props = game.properties
        if props.loopy:
            # Search would follow a cycle for ever, or cut it and return a value that depends
            # on the path taken; retrograde analysis values every position once.
            raise UnsupportedSearch(
                f"{game.name} is loopy (positions can repeat), so search cannot solve it; "
                "use --algorithm retro (retrograde analysis)")
        self.game = game
        self.moves = game.moves
        self.play = game.play
        self.outcome = game.outcome
        self.gain = game.gain
        self.key = game.key
        self.evaluate = game.evaluate
        self.is_score = props.is_score
        self.distance = not outcome_only and not props.is_score
        self.outcome_only = outcome_only
        self.no_move = Outcome.WIN if props.misere else Outcome.LOSS
        # Extra turns (Kalah, Dots and Boxes): a move after which the mover moves again gives
        # a child whose value is already the mover's, taken without negation (docs/extra_turns.md).
        self.extra_turns = props.extra_turns
        self.keeps_turn = game.keeps_turn

    def same_mover(self, position: Any, move: Any) -> bool:
        """Whether the player who plays ``move`` at ``position`` is also to move after it."""
        return self.extra_turns and self.keeps_turn(position, move)

    def move_value(self, position: Any, move: Any, child_value: float) -> float:
        """The value of ``move`` for its player from the value of the position it leads to:
        gain minus the child's value, or plus it when the mover moves again."""
        gain = self.gain(position, move) if self.is_score else 0
        if self.same_mover(position, move):
            return gain + child_value
        return gain - child_value

    def child_window(self, position: Any, move: Any, alpha: float,
                     beta: float) -> tuple[float, float]:
        """The window to search the child of ``move`` with, for the parent window (alpha,
        beta): swapped and negated as usual, kept (shifted by the gain) after an extra turn."""
        gain = self.gain(position, move) if self.is_score else 0
        if self.same_mover(position, move):
            return alpha - gain, beta - gain
        return gain - beta, gain - alpha

    def end_value(self, result: Outcome, ply: int) -> int:
        """The value of a finished game for the side to move at ``ply``."""
        if result is Outcome.DRAW:
            return 0
        magnitude = V.WIN - ply if self.distance else V.WIN_ONLY
        return magnitude if result is Outcome.WIN else -magnitude

    def no_move_value(self, ply: int) -> int:
        """The value when the side to move has no legal move."""
        if self.is_score:
            return 0
        return self.end_value(self.no_move, ply)

    def root_window(self) -> tuple[float, float]:
        """The widest useful window: outcome-only values lie in [-1, 1], so a window of
        exactly that lets a win cut off at once: the first winning move ends the search."""
        if self.outcome_only and not self.is_score:
            return (-V.WIN_ONLY, V.WIN_ONLY)
        return (-V.INFINITY, V.INFINITY)


# A game that loops without declaring it is caught in two ways, at no cost per node beyond
# storing the position at its ply:
# * a search that follows a cycle recurses ever deeper, so the whole path is checked for a
#   repeated position whenever a ply that is a power of two (from FIRST_PATH_CHECK on) is
#   first reached: within twice the cycle's depth, O(ply) work per doubling;
# * a depth-limited search with a table (id) cuts cycles short with stored values, so its
#   path stays shallow while it deepens for ever; there, every budget poll (every few
#   thousand nodes) checks the last RECENT_PLIES of the path, and in a looping game a
#   repeat is on the path at a good share of the nodes.
FIRST_PATH_CHECK = 32
RECENT_PLIES = 64


def reach_ply(rules: Rules, path: list[Any], ply: int, position: Any) -> None:
    """Record ``position`` at a ply deeper than any before (the search's slow path); at a
    power of two, check the whole path for a repeated position."""
    while len(path) <= ply:
        path.append(None)
    path[ply] = position
    if ply >= FIRST_PATH_CHECK and not ply & (ply - 1):
        check_path(rules, path, 1, ply)


def check_recent(rules: Rules, path: list[Any], ply: int) -> None:
    """Check the last RECENT_PLIES plies of the path (called at each budget poll)."""
    check_path(rules, path, max(1, ply - RECENT_PLIES), ply)


def check_path(rules: Rules, path: list[Any], first: int, last: int) -> None:
    """Raise RepeatedPosition if a position occurs twice in ``path[first:last + 1]`` (the
    search path below the root: ``path[0]`` is unused)."""
    seen: dict[Any, int] = {}
    for depth in range(first, last + 1):
        position = path[depth]
        if position in seen:
            game = rules.game
            shown = game.format_position(position)
            raise RepeatedPosition(
                f"{game.name}: position {shown!r} repeats on the search path (plies "
                f"{seen[position]} and {depth}), but the game does not declare itself loopy; "
                "declare Properties(loopy=True) to solve it by retrograde analysis")
        seen[position] = depth


@dataclass
class Counters:
    nodes: int = 0
    table_hits: int = 0
    cutoffs: int = 0
    max_ply: int = 0
    horizon: int = 0


@dataclass
class Searcher:
    """One algorithm bound to one game. ``search(position, alpha, beta, ply, depth)`` returns
    the root-relative value of ``position`` (fail-soft: a bound when outside the window).
    ``windowed`` is False for algorithms that ignore the window and always return exact values.
    """

    name: str
    search: SearchFn
    counters: Callable[[], Counters]
    windowed: bool
    table: TranspositionTable | None = None


def final_points(game: Game[Any, Any], rules: Rules, position: Any, difference: int,
                 line: list[Any]) -> tuple[int, int] | None:
    """Points each player ends with from ``position`` (mover, other) with optimal play, when
    ``difference`` is the value of ``position`` and ``line`` its principal variation (None
    when the line was cut short): the game's own count at the end of the line
    (perfectplay.finish). Searches and database lookups report it alike."""
    return line_totals(game, position, line, difference)

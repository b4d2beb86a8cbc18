"""Small value objects for what a search returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from perfectplay import value as V

# ``Solution.algorithm`` of an answer read from a database (perfectplay.store), named here so
# that front ends can recognise it without importing the store.
FROM_DATABASE = "database"

S = TypeVar("S", bound="Solution")


class DepthProgress(Protocol):
    """What a deepening search tells ``Request.on_depth`` after each completed depth (the
    search family's iterative deepening, the engine, Monte Carlo's tree: its deepest ply)."""

    @property
    def depth(self) -> int: ...
    @property
    def value(self) -> float: ...
    @property
    def nodes(self) -> int: ...
    @property
    def exact(self) -> bool: ...


class Declared(Protocol):
    """The one declaration of a game a result reads (perfectplay.game.Properties)."""

    @property
    def is_score(self) -> bool: ...


class Notation(Protocol):
    """What a result needs of a game (perfectplay.game.Game) to write itself down: its name,
    whether it is a score game, and how it writes positions and moves."""

    @property
    def name(self) -> str: ...
    @property
    def properties(self) -> Declared: ...
    def format_move(self, position: Any, move: Any) -> str: ...
    def format_position(self, position: Any) -> str: ...
    def play(self, position: Any, move: Any) -> Any: ...


class OwnProgress:
    """Progress a solving method of a game's own tells ``Request.on_depth`` in its own
    words, where it has no depths to report (Connect Four's null-window probes): the CLI
    prints ``progress_line`` instead of a depth's line, and play's perfect level shows
    ``still_proving``. ``value_known`` says the value is proved and only the optimal moves
    are being proved (a caller that needs the value alone may stop there)."""

    value_known: ClassVar[bool] = False

    @property
    def progress_line(self) -> str:
        raise NotImplementedError

    def still_proving(self, seconds: float) -> str:
        """What play says while proving, ``seconds`` of CPU into it."""
        return f"Still proving: finding the value, {self.progress_line}..."


# What a method tells ``Request.on_depth`` as it goes: a depth it completed, or its own words.
Progress = DepthProgress | OwnProgress


@dataclass
class Stats:
    """What a search did. ``nodes`` counts calls of the search function, root included, as
    the seed programs count them; ``extra_nodes`` counts the verification searches that find
    every optimal move and the principal variation."""

    nodes: int = 0
    table_hits: int = 0
    cutoffs: int = 0
    max_ply: int = 0
    elapsed_s: float = 0.0
    extra_nodes: int = 0
    depth: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "nodes": self.nodes,
            "table_hits": self.table_hits,
            "cutoffs": self.cutoffs,
            "max_ply": self.max_ply,
            "elapsed_s": round(self.elapsed_s, 6),
            "extra_nodes": self.extra_nodes,
            "depth": self.depth,
        }


@dataclass(frozen=True)
class MoveValue:
    """The value of one move for the player who plays it, read at the root."""

    move: Any
    notation: str
    value: int
    score_game: bool
    exact: bool = True
    # Where the value came from when not from a search (e.g. "from the opening book").
    source: str | None = None
    # Shown in place of the value's description (a mate search: "mate in 2", or "no mate
    # within 2"; Monte Carlo: "estimate: scores 60%, 120 visits").
    note: str | None = None
    # The value stands for nothing (a mate search's "no mate within 2" holds 0): JSON gives
    # null. An estimate is a number, not a placeholder.
    placeholder: bool = False

    @property
    def remoteness(self) -> int | None:
        if self.score_game or not V.is_decisive(self.value):
            return None
        return V.remoteness(self.value)

    @property
    def heuristic(self) -> bool:
        """Whether the value is an evaluation function's, from a depth-limited search: a
        number, no outcome (+20 is not a win, 0 not a draw)."""
        return not self.exact and not V.is_decisive(self.value)

    def describe(self) -> str:
        """'win in 7', '+11', 'estimate +35' (a heuristic value), 'win in 3 (estimate)'."""
        if self.note is not None:
            return self.note
        if self.heuristic and not self.score_game:
            return f"estimate {self.value:+d}"
        text = V.describe(self.value, score_game=self.score_game)
        return text if self.exact else f"{text} (estimate)"

    def as_dict(self) -> dict[str, Any]:
        word: Any = self.value if self.score_game or self.heuristic else V.outcome_word(self.value)
        if self.note is not None:
            return {"move": self.notation, "value": None if self.placeholder else word,
                    "remoteness": self.remoteness, "note": self.note, "exact": self.exact}
        return {"move": self.notation, "value": word, "remoteness": self.remoteness,
                "exact": self.exact}


@dataclass(frozen=True)
class MateAnswer:
    """What an exact mate search (``--mate N``) proved: the shortest forced win of the side
    to move in ``moves`` of its moves, none shorter (None: no forced win within ``limit``),
    or that the game was already over."""

    limit: int
    moves: int | None
    game_over: bool = False

    def describe(self) -> str:
        if self.game_over:
            return "the game is already over"
        if self.moves is None:
            return f"no mate within {self.limit} move{'s' * (self.limit != 1)} (proved)"
        shorter = "" if self.moves == 1 else ", none shorter"
        return f"mate in {self.moves} (proved{shorter})"


@dataclass
class Solution:
    """The answer for one position: value, optimal moves, principal variation, statistics.

    ``best`` and ``line`` are the optimal moves and the principal variation themselves, the
    game's own move objects, and ``root`` the position solved: callers compare moves, never
    text. ``best_moves`` and ``pv`` are the same moves in the game's notation, written once,
    by :meth:`of` (the one way to build a Solution), for printing and JSON; ``game`` and
    ``position`` are the name and the position as text, as printed.

    ``value`` is the raw integer from the side to move (see perfectplay.value); ``exact`` is
    False when a depth, node or time limit cut the search short and the value is a heuristic
    estimate from the last completed depth. ``totals`` (score games): the points of the side
    to move and of the other side at the end of the game with optimal play, counted as the
    game counts them (perfectplay.finish.line_totals); None where they are unknown.
    """

    game: str
    position: str
    algorithm: str
    value: int
    score_game: bool
    exact: bool
    best_moves: list[str]
    pv: list[str]
    stats: Stats
    totals: tuple[int, int] | None = None
    outcome_only: bool = False
    moves: list[MoveValue] = field(default_factory=list)
    # Set by the exact mate search: what it proved (the value is then the win's, or 0 and
    # ``exact`` False when it proved only that there is no win within the limit).
    mate: MateAnswer | None = None
    # What an estimate rests on, shown in place of the depth (Monte Carlo: the share of wins
    # and the visits behind the best move).
    note: str | None = None
    best: list[Any] = field(default_factory=list)
    line: list[Any] = field(default_factory=list)
    root: Any = None

    @classmethod
    def of(cls: type[S], game: Notation, position: Any, algorithm: str, value: int,
           best: Sequence[Any], line: Sequence[Any], stats: Stats, *, exact: bool = True,
           score_game: bool | None = None, written: tuple[list[str], list[str]] | None = None,
           **details: Any) -> S:
        """The answer ``algorithm`` found for ``position`` of ``game``: its value, the optimal
        moves ``best`` and the principal variation ``line`` (moves, not text), written here in
        the game's notation. ``score_game`` defaults to the game's declaration; ``written``
        (the best moves' and the line's text) is for a method that writes its moves its own
        way (Sprague-Grundy theory writes a component's move); ``details`` are the optional
        fields (totals, outcome_only, mate, note, a subclass's own)."""
        best, line = list(best), list(line)
        best_moves, pv = written if written is not None else (
            [game.format_move(position, move) for move in best], line_notation(game, position, line))
        return cls(game=game.name, position=game.format_position(position), algorithm=algorithm,
                   value=int(value), score_game=game.properties.is_score if score_game is None
                   else score_game, exact=exact, best_moves=best_moves, pv=pv, stats=stats,
                   best=best, line=line, root=position, **details)

    @property
    def remoteness(self) -> int | None:
        if self.score_game or not V.is_decisive(self.value):
            return None
        return V.remoteness(self.value)

    @property
    def outcome(self) -> str | None:
        """'win', 'loss' or 'draw' for a win/loss/draw game solved exactly."""
        if self.score_game:
            return None
        return V.outcome_word(self.value) if self.exact else None

    def describe(self) -> str:
        if self.mate is not None:
            return self.mate.describe()
        if not self.exact and self.note is not None:
            return f"{self.note}"
        if not self.exact:
            return f"estimate {self.value:+d} (depth {self.stats.depth}, not exact)"
        return V.describe(self.value, score_game=self.score_game)

    def as_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "game": self.game,
            "position": self.position,
            "algorithm": self.algorithm,
            "value": self.value if self.score_game or not self.exact else self.outcome,
            "remoteness": self.remoteness,
            "exact": self.exact,
            "best_moves": self.best_moves,
            "pv": self.pv,
            "nodes": self.stats.nodes,
            "elapsed_s": round(self.stats.elapsed_s, 6),
            "stats": self.stats.as_dict(),
        }
        if self.mate is not None:
            result |= {"value": "win" if self.mate.moves else None, "limit": self.mate.limit,
                       "mate_in": self.mate.moves, "game_over": self.mate.game_over, "line": self.pv}
        if self.note is not None:
            result["note"] = self.note
        if self.totals is not None:
            result["totals"] = {"mover": self.totals[0], "other": self.totals[1]}
        return result


def line_notation(game: Notation, position: Any, line: Sequence[Any]) -> list[str]:
    """A line of moves from ``position`` in the game's notation (each move is written in the
    position it is played from)."""
    written = []
    for move in line:
        written.append(game.format_move(position, move))
        position = game.play(position, move)
    return written

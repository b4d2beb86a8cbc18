"""A position as the page and the JSON API see it: where it came from (a start and the moves
played), its value, and every legal move with its value and the position it leads to.

The keys are those of the CLI's ``--json`` (``value``, ``remoteness``, ``exact``,
``best_moves``, and per move ``move``, ``value``, ``remoteness``, ``exact``; ``score`` for
Connect Four), plus what a page needs to draw and replay the position.

Every answer here is bounded: perfectplay.deciding tries its exact methods under a small
budget (QUICK); a position they do not finish in it comes back with ``"status": "pending"``
and no values, and the page asks :mod:`perfectplay.web.thinking` to think about it (the same
decider with the think time) with progress it can watch and cancel.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from perfectplay import deciding, finish
from perfectplay import value as V
from perfectplay.deciding import Think
from perfectplay.errors import IllegalMove, LimitReached, PerfectPlayError, TooLarge
from perfectplay.game import Game
from perfectplay.search.results import FROM_DATABASE, MoveValue, line_notation
from perfectplay.solving import solve
from perfectplay.web.boards import board_of, side_names

MOVE_SEPARATOR = ","
MAX_MOVES = 2_000
# An exact analysis that needs more nodes than this is left to the thinking stream. About a
# tenth of a second of CPython search here; tic-tac-toe's empty board needs far fewer.
EXACT_NODES = 40_000
TABLE_ENTRIES = 1 << 16
# A position's first answer: the decider's exact methods within EXACT_NODES nodes (and this
# much CPU at most); what they do not finish is the thinking stream's.
QUICK_SECONDS = 0.5
QUICK = Think(seconds=QUICK_SECONDS, nodes=EXACT_NODES, exact_share=1.0, table_size=TABLE_ENTRIES)
# The memory of analyses holds at most this many bytes, measured (sys.getsizeof of every
# object an analysis holds), not estimated per entry.
ANALYSIS_CACHE_BYTES = 64 * 1024 * 1024
# A position with more legal moves than this is refused (HTTP 422): every move is valued and
# sent with the position it leads to, so the work and the answer grow with the count. Chess
# has at most 218; Nim with thousands of heaps would need seconds and megabytes.
MAX_LEGAL_MOVES = 256
# Retrograde analysis (loopy games) values every reachable position at once: the decider
# bounds it by positions and seconds, past which the answer is HTTP 422 with the reason.
RETRO_MAX_POSITIONS = deciding.RETRO_MAX_POSITIONS
RETRO_SECONDS = deciding.RETRO_SECONDS


# The page shows at most this many best lines (MultiPV); an exact answer carries this many.
MAX_LINES = 5
# An exact line's continuation, where the game knows the values on it, is shown this far.
EXACT_LINE_PLIES = 12


@dataclass(frozen=True)
class KnownLine:
    """One of a position's best lines (MultiPV): its moves in notation (the first is the move
    the line is for), the text a person reads (SAN in chess), that move's value for the side
    to move, whether it is proven, and the depth the engine searched it to (None: exact
    from elsewhere, a table, the book, a database)."""

    moves: tuple[str, ...]
    text: str
    value: int
    exact: bool
    depth: int | None = None


@dataclass(frozen=True)
class Known:
    """Every legal move's value, best first; ``depth`` is the search depth of an estimate."""

    moves: tuple[MoveValue, ...]
    exact: bool
    depth: int | None = None
    # Where it came from (perfectplay.deciding's sources): "search" (python), "kernel"
    # (compiled), "theory" (tables, grundy, table, retro), "database" (the server's --db
    # file), "engine" or "mcts" (an estimate).
    source: str = "search"
    line: tuple[str, ...] = ()  # an estimate's principal variation, in notation
    nodes: int = 0  # the engine's nodes searched so far for this position (0: not counted)
    # An estimate's best lines, best first (the engine's MultiPV; lines[0].moves == line).
    lines: tuple[KnownLine, ...] = ()

    @classmethod
    def of(cls, answer: deciding.Answer) -> Known:
        """The decider's answer as the page keeps it."""
        return cls(answer.moves, answer.exact, answer.depth, answer.source)


class Analyses:
    """A bounded, thread-safe memory of analyses. Exact ones are final; an estimate is kept
    until a deeper one or the exact one replaces it. Bounded by the measured bytes of what
    it holds (``max_bytes``); the least recently used analysis goes first."""

    def __init__(self, max_bytes: int = ANALYSIS_CACHE_BYTES, database: str | None = None) -> None:
        self.max_bytes = max_bytes
        # A database file (perfectplay serve --db): the positions it holds are answered from it.
        self.database = database
        self.bytes_held = 0
        # Keyed by the game object's id; the entry holds the game itself, so that id cannot be
        # reused by another game while the entry lives.
        self._known: OrderedDict[tuple[int, Hashable], tuple[Game[Any, Any], Known, int]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._known)

    def get(self, game: Game[Any, Any], position: Any) -> Known | None:
        with self._lock:
            entry = self._known.get((id(game), position))
            if entry is None:
                return None
            self._known.move_to_end((id(game), position))
            return entry[1]

    def put(self, game: Game[Any, Any], position: Any, known: Known) -> None:
        size = measured_bytes(known) + measured_bytes(position)
        with self._lock:
            entry = self._known.get((id(game), position))
            old = None if entry is None else entry[1]
            if old is not None and (old.exact or (not known.exact and (old.depth or 0) > (known.depth or 0))):
                return
            self._known[(id(game), position)] = (game, known, size)
            self._known.move_to_end((id(game), position))
            self.bytes_held += size - (0 if entry is None else entry[2])
            while self.bytes_held > self.max_bytes and len(self._known) > 1:
                _, (_, _, dropped) = self._known.popitem(last=False)
                self.bytes_held -= dropped


def measured_bytes(thing: Any, seen: set[int] | None = None) -> int:
    """The bytes of ``thing`` and every object it holds (sys.getsizeof, each object counted
    once): tuples, lists, dicts, sets and dataclass or __slots__ fields are followed."""
    seen = set() if seen is None else seen
    if id(thing) in seen:
        return 0
    seen.add(id(thing))
    size = sys.getsizeof(thing)
    if isinstance(thing, (str, bytes, int, float, bool)) or thing is None:
        return size
    if isinstance(thing, dict):
        return size + sum(measured_bytes(k, seen) + measured_bytes(v, seen) for k, v in thing.items())
    if isinstance(thing, (tuple, list, set, frozenset)):
        return size + sum(measured_bytes(item, seen) for item in thing)
    fields = getattr(thing, "__dict__", None)
    if fields is not None:
        size += measured_bytes(fields, seen)
    for name in getattr(type(thing), "__slots__", ()):
        size += measured_bytes(getattr(thing, name, None), seen)
    return size


# The store keeps its SQLite connections open per process, and SQLite refuses a connection
# from any thread but the one that opened it: every database lookup runs in this one thread.
_DATABASE_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="perfectplay-database")
# A kernel's table is shared within a process: one exact try at a time.
_KERNEL_LOCK = threading.Lock()


def parse_moves(text: str | None) -> list[str]:
    if not text:
        return []
    moves = [part.strip() for part in text.split(MOVE_SEPARATOR)]
    if len(moves) > MAX_MOVES:
        raise IllegalMove(f"{len(moves)} moves given; at most {MAX_MOVES}")
    return moves


def replay(game: Game[Any, Any], start: Any, moves: list[str]) -> tuple[Any, list[Any]]:
    """The position after playing ``moves`` (notation) from ``start``, and the moves."""
    position = start
    played: list[Any] = []
    repetitions = finish.Repetitions(game, start)  # counted as the moves are replayed
    for number, text in enumerate(moves, start=1):
        if is_over(game, position) or repetitions.drawn:
            raise IllegalMove(f"move {number} ({text!r}) comes after the game ended")
        try:
            move = game.parse_move(position, text)
        except PerfectPlayError:
            raise
        except Exception as error:  # a user's parse_move may raise anything
            raise IllegalMove(f"move {number} ({text!r}): {error}") from None
        played.append(move)
        position = game.play(position, move)
        repetitions.add(position)
    return position, played


def side_to_move(game: Game[Any, Any], start: Any, played: list[Any]) -> int:
    """0 when the side that moved first from ``start`` is to move after ``played``, else 1:
    the turn changes after every move except an extra turn (Kalah, Dots and Boxes)."""
    return finish.side_after(game, start, played)[1]


is_over = finish.is_over  # the page's rule is the library's


def quick_analysis(game: Game[Any, Any], position: Any, memory: Analyses) -> Known | None:
    """The exact analysis if it is known or cheap; None when the position needs a long search
    (and always for a game too big to solve, which the thinking stream's engine values).
    Raises TooLarge for a position with more than MAX_LEGAL_MOVES moves, and LimitReached when
    a method that cannot be cut short (retrograde analysis) passes the page's bounds."""
    known = memory.get(game, position)
    if known is not None and known.exact:
        return known
    check_move_count(game, position)
    if memory.database is not None:
        answer = _DATABASE_THREAD.submit(deciding.stored, game, position, memory.database).result()
        if answer is not None:
            stored = Known.of(answer)
            memory.put(game, position, stored)
            return stored
    if _unsolved.holds(game, position):
        return known  # the exact try failed here before: the engine's estimate, or None
    found = exact_within(game, position, QUICK)
    if found is None:
        _unsolved.add(game, position)
        return known  # an estimate from an earlier search, or None
    memory.put(game, position, found)
    return found


def exact_within(game: Game[Any, Any], position: Any, think: Think) -> Known | None:
    """The decider's exact answer within ``think`` (None when nothing exact finishes), one
    at a time in this process. A loopy game whose retrograde analysis passed the page's
    bounds once is refused (LimitReached) at once from any position after."""
    if game.properties.loopy:
        with _refused_lock:
            refused = _refused.get(id(game))
        if refused is not None:
            raise LimitReached(refused[1])
    try:
        with _KERNEL_LOCK:
            answer = deciding.exact(game, position, think)
    except LimitReached as error:
        if not game.properties.loopy:
            raise
        with _refused_lock:
            _refused[id(game)] = (game, str(error))
            while len(_refused) > REFUSED_GAMES:
                _refused.popitem(last=False)
        raise
    return None if answer is None else Known.of(answer)


# Games whose retrograde analysis passed the page's bounds, kept (with the game object, so
# its id stays its own) so that asking again is refused at once: at most this many.
REFUSED_GAMES = 64
_refused: OrderedDict[int, tuple[Game[Any, Any], str]] = OrderedDict()
_refused_lock = threading.Lock()


UNSOLVED_POSITIONS = 4096


class Unsolved:
    """Positions whose quick exact try failed (bounded, least recently added first out): asked
    again, they go straight to the engine instead of failing the same try again."""

    def __init__(self, size: int = UNSOLVED_POSITIONS) -> None:
        self.size = size
        self._held: OrderedDict[tuple[int, Hashable], Game[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def holds(self, game: Game[Any, Any], position: Any) -> bool:
        with self._lock:
            return (id(game), position) in self._held

    def add(self, game: Game[Any, Any], position: Any) -> None:
        with self._lock:
            self._held[(id(game), position)] = game  # the game kept: its id stays its own
            while len(self._held) > self.size:
                self._held.popitem(last=False)


_unsolved = Unsolved()


def check_move_count(game: Game[Any, Any], position: Any) -> None:
    """Refuse (TooLarge) a position with more legal moves than the page values."""
    for count, _ in enumerate(game.moves(position), start=1):
        if count > MAX_LEGAL_MOVES:
            raise TooLarge(f"{game.name}: position {_short(game.format_position(position))} has more "
                           f"than {MAX_LEGAL_MOVES} legal moves; the page values at most "
                           f"{MAX_LEGAL_MOVES} (use `perfectplay analyze` for it)")


def _short(text: str, keep: int = 40) -> str:
    return repr(text) if len(text) <= keep else repr(text[:keep]) + "..."


def describe(name: str, game: Game[Any, Any], start: Any, played: list[Any], position: Any,
             known: Known | None, database: str | None = None, lines: int = MAX_LINES) -> dict[str, Any]:
    """The JSON answer for ``position`` (reached from ``start`` by ``played``), with at most
    ``lines`` best lines. With a ``database`` the answer says where it came from, in the
    words of the CLI's ``--db``: ``"source": "from database PATH"`` or ``"not in database
    PATH: answered by search"``."""
    # A loopy game also ends drawn at a third repetition, as in play (perfectplay.finish).
    repetition = not is_over(game, position) and finish.repeated(game, start, played)
    over = repetition or is_over(game, position)
    score_game = game.properties.is_score
    board = board_of(game, position, start, played)
    payload: dict[str, Any] = {
        "game": name,
        "start": game.format_position(start),
        "moves_played": line_notation(game, start, played),
        "position": game.format_position(position),
        "ply": len(played),
        "mover": side_to_move(game, start, played),
        "over": over,
        "score_game": score_game,
        "too_big": not game.solvable(position),
        "board": board,
        "sides": side_names(game, position, board),
        "render": game.render(position),
        "tree": False,
        "line": [],
        "line_text": "",
        "lines": [],
    }
    if over:
        ended = finish.ending(game, start, played)
        solution = None if repetition else solve(game, position, pv_limit=0)
        payload |= {"status": "exact", "value": "draw" if solution is None else solution.as_dict()["value"],
                    "remoteness": None if solution is None else solution.remoteness,
                    "exact": True, "depth": None,
                    "best_moves": [], "moves": [], "result": result_words(ended),
                    "winner": ended.winner,
                    "final_scores": None if ended.scores is None else list(ended.scores)}
        return payload
    if known is None:
        payload |= {"status": "pending", "value": None, "remoteness": None, "exact": False,
                    "depth": None, "best_moves": [],
                    "moves": [_move_row(game, position, move, None) for move in game.moves(position)]}
        return payload
    best = known.moves[0].value
    proven = known.exact or _proven(known)
    payload |= {
        "status": "exact" if proven else "estimate",
        "value": _value_word(best, score_game, proven),
        "remoteness": known.moves[0].remoteness if proven else None,
        "exact": proven,
        "depth": known.depth,
        "best_moves": _best_moves(known),
        "moves": [_move_row(game, position, move.move, move) for move in known.moves],
        "line": list(known.line),
        # The engine's best line is its first MultiPV line, already written (web/thinking.py).
        "line_text": known.lines[0].text if known.line and known.lines else "",
        "lines": [_line_row(line, score_game) for line in best_lines(game, position, known, lines)],
        "nodes": known.nodes,
        "tree": known.exact and known.source == "search" and not game.properties.loopy,
    }
    if not proven:
        payload["estimate"] = best
        payload |= _seen_end(best, score_game)
    if database is not None:
        payload["source"] = source_note(database, known.source == FROM_DATABASE)
    return payload


def best_lines(game: Game[Any, Any], position: Any, known: Known, count: int) -> list[KnownLine]:
    """The ``count`` best lines of ``known``: an estimate's are the engine's (MultiPV); an
    exact answer's are its best moves, each with its exact value, continued as far as the game
    knows the values on the way (chess's endgame tables) and no further, so every move shown
    of an exact line is a best move."""
    lines = list(known.lines[:count])
    if not known.exact:
        return lines
    shown = {line.moves[0] for line in lines}
    for move in known.moves:  # best first
        if len(lines) >= count:
            break
        if move.notation not in shown:
            lines.append(_exact_line(game, position, move))
    return sorted(lines, key=lambda line: -line.value)


def _exact_line(game: Game[Any, Any], position: Any, valued: MoveValue) -> KnownLine:
    moves = [valued.move]
    current = game.play(position, valued.move)
    if type(game).known_value is not Game.known_value:
        from perfectplay.engine.known import known_best
        while len(moves) < EXACT_LINE_PLIES and not is_over(game, current):
            step = known_best(game, current, list(game.moves(current)))
            if step is None:
                break
            moves.append(step[1])
            current = game.play(current, step[1])
    return KnownLine(tuple(line_notation(game, position, moves)), line_text(game, position, moves),
                     valued.value, True)


def line_text(game: Game[Any, Any], position: Any, moves: list[Any]) -> str:
    """A line as a person reads it: the game's own way of writing lines where it has one
    (chess: SAN with move numbers, '1. e4 e5 2. Nf3'), else the moves' notation."""
    described = game.describe_line(position, moves)
    return " ".join(line_notation(game, position, moves)) if described is None else described


def _line_row(line: KnownLine, score_game: bool) -> dict[str, Any]:
    decisive = line.exact and not score_game and V.is_decisive(line.value)
    row: dict[str, Any] = {"moves": list(line.moves), "text": line.text,
                           "value": _value_word(line.value, score_game, line.exact),
                           "remoteness": V.remoteness(line.value) if decisive else None,
                           "exact": line.exact, "depth": line.depth}
    if not line.exact and not score_game:
        row["estimate"] = line.value
        row |= _seen_end(line.value, score_game)
    return row


def _seen_end(value: int, score_game: bool) -> dict[str, int]:
    """An estimate that is a forced win or loss the search saw but has not proven yet (a
    mate found at the root before the next depth checks every reply): ``seen``, its plies
    to the end, so the page says "~mate in 2", never the internal value."""
    return {"seen": V.remoteness(value)} if not score_game and V.is_decisive(value) else {}


def _best_moves(known: Known) -> list[str]:
    """The moves of the best value; for an engine's estimate, the main line's move first
    (sorted first by the thinking, perfectplay.web.thinking.EngineDepths) and those equal."""
    best = known.moves[0].value
    return [move.notation for move in known.moves if move.value == best]


def _proven(known: Known) -> bool:
    """Whether an estimate's best value is proven anyway: its best move a proven win, or
    every move a proven loss (a depth-limited search saw the end on every line)."""
    first = known.moves[0]
    if first.score_game or not first.exact or not V.is_decisive(first.value):
        return False
    return V.is_win(first.value) or all(move.exact for move in known.moves)


def result_words(ended: finish.Ending) -> str:
    """How a finished game ended, in the game's own count and names ("Red (X) wins", "White
    wins 13-3", "draw", "South wins 16-8"): the value of a finished position is what is still
    to win, 0, so the words come from the final scores, never from the value."""
    return ended.words


def source_note(path: str, from_database: bool) -> str:
    """Where an answer came from, worded as perfectplay.cli.database.source_note words it."""
    return f"from database {path}" if from_database else f"not in database {path}: answered by search"


def _value_word(value: int, score_game: bool, exact: bool) -> Any:
    return value if score_game or not exact else V.outcome_word(value)


def _move_row(game: Game[Any, Any], position: Any, move: Any, valued: MoveValue | None) -> dict[str, Any]:
    after = game.play(position, move)
    row: dict[str, Any] = {"move": game.format_move(position, move), "position": game.format_position(after)}
    if game.properties.is_score:
        row["gain"] = game.gain(position, move)
    if valued is None:
        return row | {"value": None, "remoteness": None, "exact": False}
    row |= {"value": _value_word(valued.value, valued.score_game, valued.exact),
            "remoteness": valued.remoteness if valued.exact else None, "exact": valued.exact}
    if not valued.exact and not valued.score_game:
        row["estimate"] = valued.value
        row |= _seen_end(valued.value, valued.score_game)
    note = game.value_note(position, valued.value) if valued.exact else None
    if note is not None:  # the value in the game's own convention (Connect Four's test-set score)
        row[note.field] = note.number
    return row

"""The game protocol: everything the engine needs to know about a game.

A game is a class with a start position, the legal moves, and a way to play a move. Positions
are immutable and hashable, and always seen from the side to move, so the search needs no
colour logic (as in sunfish). Everything else has a sensible default:

    class TakeAway(Game[int, int]):
        name = "my-takeaway"
        def start(self) -> int: return 21
        def moves(self, pile: int) -> list[int]: return [t for t in (1, 2, 3) if t <= pile]
        def play(self, pile: int, take: int) -> int: return pile - take

A position with no legal move is lost for the player to move (won under misère play, worth 0
in a score game). By default games end: every sequence of moves is finite, so the position
graph has no cycles and table values never depend on the path taken. A game whose positions
can repeat (pieces that move back and forth: Dodgem, Chopsticks, morris games) declares
``Properties(loopy=True)``; it is then solved by retrograde analysis (perfectplay.retro),
which also finds the positions neither side can win (draws by endless play), and the
searches refuse it. A game that loops without declaring it is caught by the searches: the
first repeated position on a search path raises perfectplay.errors.RepeatedPosition.
"""

from __future__ import annotations

import enum
import random
import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from perfectplay.diagram import Diagram, Text
from perfectplay.errors import BadPosition, IllegalMove

if TYPE_CHECKING:  # only annotations name it
    from perfectplay.search.results import Solution

P = TypeVar("P", bound=Hashable)
M = TypeVar("M", bound=Hashable)


class Kind(enum.Enum):
    """What a game's value measures."""

    WIN_LOSS = "win/loss/draw"
    SCORE = "score"


class Outcome(enum.Enum):
    """The result of a finished game for the player who would be to move."""

    WIN = 1
    DRAW = 0
    LOSS = -1


@dataclass(frozen=True)
class Properties:
    """What a game declares about itself; solvers check these up front (as OpenSpiel does).

    ``max_length`` bounds the plies left from any position (None when unknown).
    ``value_bound`` bounds the absolute value of a score game (None when unknown).
    ``loopy`` says positions may repeat (the position graph has cycles). Such a game is
    solved by retrograde analysis, never by search: a win or loss then counts the plies to
    the end with the winner hurrying and the loser delaying, and a position from which
    neither side can force a win is a draw (play could go on for ever). Win/loss/draw games
    only; ``max_length`` stays None.
    ``too_big_to_solve`` says an exact search from an ordinary position cannot finish (chess):
    ``solve`` and ``analyze`` then refuse to start one without a limit, saying what to use
    instead, rather than run for ever; ``play`` thinks with the depth-limited engine at once.
    """

    kind: Kind = Kind.WIN_LOSS
    misere: bool = False
    impartial: bool = False
    can_draw: bool = False
    max_length: int | None = None
    value_bound: int | None = None
    loopy: bool = False
    too_big_to_solve: bool = False
    # Some moves give the same player another move (Kalah's last seed in the store, a
    # completed box in Dots and Boxes): Game.keeps_turn says which. False keeps every search
    # on its plain path, where the player to move changes after every move.
    extra_turns: bool = False
    # How much one quiet move can plausibly change the evaluation, in its units (chess: about
    # a pawn). The engine's futility pruning uses it near the horizon; None: no such pruning.
    quiet_margin: int | None = None

    @property
    def is_score(self) -> bool:
        return self.kind is Kind.SCORE


class CompiledPlayouts(Protocol):
    """Random playouts to the end of the game in compiled code, offered by a game through
    :meth:`Game.compiled_playouts`: called with a position, how many playouts to play from it
    and a seed, it returns one result per playout, from the side of the player to move at the
    position: in a win/loss/draw game 1, 0 or -1; in a score game the margin that player
    gains from the position to the end (the sum of :meth:`Game.gain` along the playout).
    Each move is chosen uniformly among the legal ones, as the tree's Python playout does
    (perfectplay.mcts.tree), so the two sample the same results. The same seed gives the
    same results. A call never polls a clock: a game offers this only where a playout is
    short (a bounded game length), so that a deadline is seen between calls."""

    def __call__(self, position: Any, count: int, seed: int) -> Sequence[int]: ...


@dataclass(frozen=True)
class MethodModule:
    """A module of a game's own that registers solving methods (perfectplay.methods.register),
    with the ``--algorithm`` names of the Python methods it registers, in the order
    ``--algorithm`` lists them: none for a module whose methods go by no name of their own (a
    compiled kernel, an opening book that answers ahead of any search). A game's package
    declares its modules once, in a tuple its entry (``Entry.methods``, for the names without
    importing the rules) and its class (``Game.method_modules``, for the modules when one of
    its positions is answered) both name."""

    module: str
    algorithms: tuple[str, ...] = ()


@dataclass(frozen=True)
class Picture:
    """A board as a person sees it on a terminal: the ``text``, ``marks`` (line, column, style)
    of characters to highlight, and a ``caption`` that says in words what the marks show, for
    plain output."""

    text: str
    marks: list[tuple[int, int, str]] = field(default_factory=list)
    caption: str | None = None


@dataclass(frozen=True)
class ValueNote:
    """An exact value restated in a game's own convention, which solve and analyze show
    beside it: ``field`` names it (the JSON field, analyze's column), ``number`` is it, and
    ``convention`` says whose it is ("score: +18 (the Connect Four test sets' convention)")."""

    field: str
    number: int
    convention: str


class Game(Generic[P, M]):
    """Base class for games. Subclasses implement start, moves and play; the rest is optional."""

    name: str = "game"
    properties: Properties = Properties()
    # The search ``--algorithm auto`` runs for this game among the search family and df-pn
    # (perfectplay.search.solver, perfectplay.pns.method): "tt" unless the game knows better
    # (the row games: "table"; take-away: "memo"; Hex: "pns"). A method of lower priority
    # that prefers the game (Sprague-Grundy theory, a kernel) still goes first.
    default_algorithm: str = "tt"
    # The modules that register solving methods for this game (a kernel, an opening book,
    # endgame tables), in the order they are tried where priorities tie: perfectplay.solving
    # imports them when it answers a position of this game. The game's package declares the
    # tuple once and its entry names the same one (Entry.methods); engines never name a game.
    # Without any, the engines' methods answer (the search family, df-pn, theory, ...). A
    # plain module name stands for MethodModule(name), a module with no --algorithm names.
    method_modules: tuple[MethodModule | str, ...] = ()
    # What a move takes, in games where taking the last one decides ("stick"): play then says
    # who took the last one and what that means under the game's rule.
    taken_item: str | None = None

    # -- rules ---------------------------------------------------------------------------
    def start(self) -> P:
        raise NotImplementedError

    def moves(self, position: P) -> Sequence[M]:
        """Legal moves, best-looking first: alpha-beta tries them in this order."""
        raise NotImplementedError

    def legal_moves(self, position: P) -> Sequence[M]:
        """The same moves as moves(), in any order. Passes over every position (database
        builds) call this; a game whose moves() spends time ordering them for search
        (Connect Four) overrides it with a plain list."""
        return self.moves(position)

    def count_moves(self, position: P) -> int:
        """How many legal moves ``position`` has: perft counts its last ply with this, without
        making the moves. A game whose generator counts faster than it lists (chess, with
        python-chess's generator) overrides it."""
        return len(self.legal_moves(position))

    def play(self, position: P, move: M) -> P:
        """The position after ``move``; never mutates ``position``. Moves come from moves()."""
        raise NotImplementedError

    def is_legal(self, position: P, move: M) -> bool:
        """Whether ``move`` is legal in ``position``. The default looks it up in moves(); a game
        whose move lists can be too long to build (Nim with a heap of 10^30) answers directly,
        so a person's move is checked without listing every move (perfectplay.play)."""
        return move in self.moves(position)

    def has_moves(self, position: P) -> bool:
        """Whether the player to move has a legal move; the default asks moves(). Overridden
        with is_legal, by games whose move lists can be too long to build."""
        return bool(self.moves(position))

    def keeps_turn(self, position: P, move: M) -> bool:
        """Whether the player who plays ``move`` at ``position`` moves again (asked only when
        ``properties.extra_turns``). The value of the position after such a move is then
        already from the mover's side: searches take it without negation and do not swap
        bounds. A pass is an ordinary move (the turn changes), not this."""
        return False

    def outcome(self, position: P) -> Outcome | None:
        """The result if a rule other than "no legal move" has ended the game, else None.

        Tic-tac-toe uses this for a completed line and a full board. Games that end only when
        the player to move has no legal move keep this default.
        """
        return None

    def gain(self, position: P, move: M) -> int:
        """Points the mover earns with ``move`` (score games only)."""
        return 0

    # A score game whose positions hold the points (Othello's discs, Kalah's stores, the boxes
    # taken in Dots and Boxes) says so here and counts them in points(); its gain is then the
    # change in the margin. In the other score games (the row games) gain is the points a
    # move earns, and perfectplay.finish adds them up.
    holds_points: bool = False

    def points(self, position: P) -> tuple[int, int]:
        """The points of the side to move and of the other side in ``position``, counted by
        the game's own rules; at a finished position, the final score (Othello gives the
        empty cells to the winner). Asked only when the game declares ``holds_points``."""
        raise NotImplementedError

    def total_points(self, position: P) -> int | None:
        """The points the two sides will share from ``position`` to the end (score games):
        the crates left in the row, Kalah's seeds in the pits, the boxes not yet taken,
        Othello's empty cells; None when the game cannot say (the default). With it a
        solve's totals follow from the value alone, however short its line."""
        return None

    def side_names(self, position: P) -> tuple[str, str]:
        """The names of the side to move and of the other side, as people say them ("Black",
        "White"; "South", "North"). The default: the players' marks, else the first and the
        second player when the game knows whose turn it is, else UNNAMED_SIDES."""
        marks = self.player_marks(position)
        if marks is not None:
            return marks
        player = self.player_to_move(position)
        if player is None:
            return UNNAMED_SIDES
        return (ORDERED_SIDES[player], ORDERED_SIDES[1 - player])

    def evaluate(self, position: P) -> int:
        """A heuristic estimate for the side to move, used at a depth limit.

        Must stay strictly inside (-value.DECISIVE, value.DECISIVE). The default, 0, says
        "unknown"; depth-limited results are then only as good as the horizon.
        """
        return 0

    def key(self, position: P) -> Hashable:
        """A stable table key: equal keys must mean equal values.

        Built from ints, strings and tuples, never from ``hash()`` (salted per process), so a
        table can be saved and loaded. Games may fold symmetric positions into one key.
        """
        return position

    # -- notation ------------------------------------------------------------------------
    def format_move(self, position: P, move: M) -> str:
        return str(move)

    def parse_move(self, position: P, text: str) -> M:
        """Find the legal move written as ``text``; raises IllegalMove quoting it."""
        wanted = " ".join(text.split())
        legal = list(self.moves(position))
        for move in legal:
            if self.format_move(position, move) == wanted:
                return move
        written = sorted((self.format_move(position, move) for move in legal), key=_natural_order)
        shown = ", ".join(written[:12])
        more = ", ..." if len(written) > 12 else ""
        raise IllegalMove(f"{text!r} is not a legal move here; legal moves: {shown}{more}")

    def format_position(self, position: P) -> str:
        return str(position)

    def parse_position(self, text: str) -> P:
        raise BadPosition(f"{self.name} does not read positions from text (got {text!r})")

    def render(self, position: P) -> str:
        """A text picture of the position for people."""
        return self.format_position(position)

    # -- how play shows it to a person (optional) ----------------------------------------
    def picture(self, position: P) -> Picture:
        """The board for a terminal: ``render``, with marks where the game has some to show
        (Connect Four's last move and winning four)."""
        return Picture(self.render(position))

    def diagram(self, position: P, history: Sequence[tuple[P, M]] = ()) -> Diagram:
        """The board for the web page, as a kind it draws (perfectplay.diagram): where each
        click plays, the highlights, whose turn it is. ``history``: the moves that led here,
        oldest first, each with the position it was played from (empty when not known), for
        what the position alone does not say (who took a box, whether the turn was kept).
        By default the ``render`` text."""
        return Text(text=self.render(position))

    def player_marks(self, position: P) -> tuple[str, str] | None:
        """The marks of the side to move and of the other side, in games whose players have
        marks (X and O); None otherwise."""
        return None

    def move_in_words(self, position: P | None, move: M, notation: str) -> str:
        """A move as play tells it, where the notation alone is terse ("2:3 (takes 3 sticks
        from row 2)"); ``position`` is the one it was played from, when known."""
        return notation

    def typed_move(self, notation: str) -> str:
        """A move as a person would type it at play's prompt (shown as an example)."""
        return notation

    def headline(self, start: P) -> str | None:
        """One line on the game started from ``start`` for play's header, where the registry's
        summary does not fit it (the matchgame's rows); None to use the summary."""
        return None

    # -- what solve and analyze print beside an answer (optional) ------------------------
    def value_note(self, position: P, value: int) -> ValueNote | None:
        """The exact ``value`` of ``position`` in the game's own convention (Connect Four's
        test-set score), or None where the game has none."""
        return None

    def source_line(self, solution: Solution) -> str | None:
        """The line that says how ``solution`` was found, when a source of the game's own
        found it (chess's endgame tables: the verdict they give); None for the usual count
        of nodes."""
        return None

    # -- optional structure (used by later layers when present) --------------------------
    def tabulation(self, position: P) -> Iterable[P] | None:
        """Every position reachable from ``position``, in an order where each move leads to an
        earlier one (so ``position`` comes last), or None when the game declares no such
        order. Declaring one enables ``--algorithm table``: values filled bottom-up with no
        recursion (perfectplay.search.tabulation). A take-away pile lists 0, 1, ..., n; a row game
        lists its ranges by length."""
        return None

    def components(self, position: P) -> Sequence[P] | None:
        """Independent parts of ``position`` when it is a sum of games, else None.

        Impartial games only: each part is a position of this same game, the parts never
        interact, and a move is a move in exactly one part. The Grundy value of the whole is
        then the XOR of the parts' values (Sprague-Grundy), so solvers value parts instead of
        searching the product space. Nim returns one part per pile. A position that does not
        split returns [position] (or None). `perfectplay.impartial.grundy.check_components`
        checks a declaration against plain search.
        """
        return None

    def tier(self, position: P) -> int | None:
        """A number that every move increases (stones on the board, plies played), or None
        when the game declares none. ``perfectplay db build`` solves tier by tier from the
        highest down, committing each tier as it goes; without a tier it layers the position
        graph itself, which needs the whole graph in memory. Must agree across equal keys."""
        return None

    # -- optional capabilities: each default says the game lacks it --------------------
    def compiled_spec(self) -> Any:
        """The rules as ``@njit`` functions of an int64 state (a
        perfectplay.compiled.generic.Spec, docs/compiled.md), built on first call (numba is
        imported then). A game declares it by overriding this method; :func:`has_compiled_spec`
        asks the class, without building it. Without it the generic compiled engine
        (``--engine compiled``), the retrograde kernel and the compiled database builder
        are off for the game, and its Python methods answer instead."""
        return None

    def compiled_playouts(self) -> CompiledPlayouts | None:
        """Random playouts in compiled code (:class:`CompiledPlayouts`), built on first call
        (numba is imported then), or None: the default, and a variant the game cannot compile
        (Othello past 8x8) or a machine without numba. A game declares it by overriding this
        method; :func:`has_compiled_playouts` asks the class, without building anything.
        Monte Carlo tree search (perfectplay.mcts) plays its playouts with it where it is
        offered, and with the Python rules otherwise."""
        return None

    def sum_adapter(self) -> object | None:
        """The game's own view of a position as a sum of components for Sprague-Grundy
        theory (a perfectplay.impartial.sums.SumAdapter: Nim's piles, an octal game's
        heaps, the claim line's runs), or None (the default). Without it theory treats the
        whole position as one component valued by memoised search, so a huge Nim heap is
        out of reach."""
        return None

    def describe_line(self, position: P, moves: Sequence[M]) -> str | None:
        """``moves`` played from ``position`` as the game writes a line ("1. e4 e5 2. Nf3"
        in chess), or None (the default): front ends then join the moves' notation."""
        return None

    def tier_spec(self) -> Any:
        """The rules as ``@njit`` functions of an int64 state with a ``tier`` function (a
        perfectplay.compiled.generic.Spec whose ``key`` is :meth:`key` and whose ``tier`` is
        :meth:`tier`), for the compiled database builder (perfectplay.store.compiled_build),
        or None. The default: the game's ``compiled_spec()`` when it declares a tier."""
        if not has_compiled_spec(self):
            return None
        spec = self.compiled_spec()
        return spec if spec is not None and spec.tier is not None else None

    def rank(self, position: P) -> int:
        """A perfect index: a distinct integer in ``range(index_size())`` for each position
        with its own value (positions with equal keys may share one). Games that declare it
        can be stored as a dense record file (perfectplay.store.dense), one 16-bit record
        per index, in the manner of Gamesman's array database."""
        raise NotImplementedError

    def unrank(self, index: int) -> P:
        """The position whose :meth:`rank` is ``index`` (the inverse of rank on its image)."""
        raise NotImplementedError

    def index_size(self) -> int | None:
        """How many indices :meth:`rank` may return, or None when the game has no index."""
        return None

    def estimated_positions(self, position: P) -> int | None:
        """An estimate (or an upper bound) of how many positions with distinct keys are
        reachable from ``position``, itself included, or None when the game cannot say (the
        default). ``perfectplay db build`` checks it up front and refuses a build no machine
        would finish, saying how many positions it would need; a game too big to solve
        should give one."""
        return None

    def solvable(self, position: P) -> bool:
        """Whether an exact search from ``position`` can be expected to finish (seconds, not
        hours): the position's size, not the board's, decides (an 8x8 Othello endgame with
        12 empty squares is solved in seconds). Where it is False, ``solve`` and ``analyze``
        refuse an exact search without a limit and play and the web page estimate at once;
        methods that answer without a search (endgame tables, theory) still answer. The
        default is the game's declaration, ``not properties.too_big_to_solve``."""
        return not self.properties.too_big_to_solve

    def options(self) -> dict[str, object]:
        """The options the game was built with, recorded in a database's header so a file
        is never read for another variant. The default lists the public attributes of
        simple types; games override it with their real options."""
        simple = (int, str, bool, float, tuple, type(None))
        return {name: value for name, value in sorted(vars(self).items())
                if not name.startswith("_") and isinstance(value, simple)}

    # -- optional hooks for the depth-limited engine (perfectplay.engine) -------
    def noisy_moves(self, position: P) -> Sequence[M] | None:
        """The moves quiescence search follows past the depth limit (captures and promotions
        in chess), best first, or None when the game has no such notion (the default: the
        engine then evaluates at the depth limit). A quiet position returns []; the engine
        then "stands pat" on :meth:`evaluate`. A game that has noisy moves must end every
        position without a legal move through :meth:`outcome`, or say :meth:`must_move`
        there (chess: stalemate is a draw, checkmate is in check): at the depth limit the
        engine then generates the noisy moves only."""
        return None

    def must_move(self, position: P) -> bool:
        """True where the side to move may not stand pat in quiescence (in chess: in check);
        the engine then searches every legal move there, so it sees mates. Default False."""
        return False

    def null_move(self, position: P) -> P | None:
        """The position with the turn passed to the opponent, for null-move pruning, or None
        where passing is illegal or zugzwang is likely (in chess: in check, or only kings
        and pawns left). Default None: the engine never prunes by a null move here."""
        return None

    def known_value(self, position: P) -> int | None:
        """A proven value of ``position`` from outside the search (chess: the endgame tables
        of perfectplay.games.chess.tablebase), node-relative as perfectplay.value counts it (``WIN - r``:
        the side to move wins in ``r`` plies), or None when nothing is known (the default).
        The engine takes it as exact, at the root and at every node."""
        return None

    def deciding_moves(self, position: P) -> Sequence[M] | None:
        """Every move that could end the game at once in the mover's favour (more may be
        listed, none left out), or None when the game cannot narrow them down (the default).
        The mate search tries only these where one move must win; chess lists the checks,
        since only a check can mate."""
        return None

    def exact_key(self, position: P) -> Hashable:
        """A key equal only for positions equal in everything that decides the rest of the
        game, history included: exact searches whose tables must not depend on the path
        (the mate search) key on it. The default is the position itself; a game whose
        positions keep bulky caches (chess: move lists) returns something smaller, so a
        table does not keep them alive."""
        return position

    def hash_key(self, position: P) -> int:
        """A 64-bit key for the engine's shared table (perfectplay.engine). The default
        digests :meth:`key`; bitboard games override this and :meth:`key_after` with Zobrist
        keys (Zobrist 1970). Equal positions must give equal keys in every process."""
        return stable_hash64(self.key(position))

    def key_after(self, position: P, move: M, key: int) -> int:
        """The :meth:`hash_key` of ``play(position, move)`` given ``key``, the hash_key of
        ``position``: an override updates it incrementally (XOR out, XOR in). The default
        recomputes it; the engine skips a default key_after and calls hash_key itself."""
        return self.hash_key(self.play(position, move))

    def player_to_move(self, position: P) -> int | None:
        """0 when the first player (White, X) is to move, 1 for the second, None if unknown;
        the engine reads the matching clock (wtime or btime) from it."""
        return None

    def random_position(self, rng: random.Random) -> P:
        """A random small position, for differential tests (`perfectplay verify`)."""
        position = self.start()
        for _ in range(rng.randrange(0, 8)):
            legal = list(self.moves(position))
            if not legal or self.outcome(position) is not None:
                break
            position = self.play(position, rng.choice(legal))
        return position


def has_compiled_spec(game: Game[Any, Any]) -> bool:
    """Whether ``game`` offers its rules as @njit functions (:meth:`Game.compiled_spec`,
    docs/compiled.md) for the compiled engines: whether its class overrides the default,
    asked without building the spec (which imports numba). A subclass whose rules its
    parent's spec no longer compiles puts the default back (``compiled_spec =
    Game.compiled_spec``; the older ``compiled_spec = None`` says the same)."""
    declared = type(game).compiled_spec
    return declared is not Game.compiled_spec and declared is not None


def has_compiled_playouts(game: Game[Any, Any]) -> bool:
    """Whether ``game``'s class offers compiled playouts (:meth:`Game.compiled_playouts`),
    asked without building them (which imports numba)."""
    return type(game).compiled_playouts is not Game.compiled_playouts


def method_modules(declared: Iterable[MethodModule | str]) -> tuple[MethodModule, ...]:
    """``declared`` (Game.method_modules, Entry.methods) with each plain module name read as
    a module with no --algorithm names."""
    return tuple(MethodModule(each) if isinstance(each, str) else each for each in declared)


def has_evaluation(game: Game[Any, Any]) -> bool:
    """Whether ``game`` gives a heuristic of its own (overrides :meth:`Game.evaluate`): the
    depth-limited engine estimates with it; a game without one is estimated by Monte Carlo
    tree search, where the engine would search blind."""
    return type(game).evaluate is not Game.evaluate


def _natural_order(text: str) -> list[tuple[int, int | str]]:
    """Sort key that puts '2' before '10' and 'row 2' before 'row 10'."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", text) if part]


_MASK64 = (1 << 64) - 1


def stable_hash64(key: Hashable) -> int:
    """A 64-bit digest of a table key that is the same in every process (``hash()`` of a
    string is salted per process). Ints are mixed with splitmix64's finaliser (Vigna); other
    keys (tuples, strings) are digested through their repr with BLAKE2b."""
    if isinstance(key, int):
        folded = 0
        value = key if key >= 0 else ~key ^ (1 << 63)
        while True:
            folded ^= value & _MASK64
            value >>= 64
            if not value:
                break
        folded = (folded + 0x9E3779B97F4A7C15) & _MASK64
        folded = ((folded ^ (folded >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        folded = ((folded ^ (folded >> 27)) * 0x94D049BB133111EB) & _MASK64
        return folded ^ (folded >> 31)
    import hashlib  # only for keys that are not ints: a small solve never loads it
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def zobrist_numbers(count: int, seed: int) -> tuple[int, ...]:
    """``count`` random 64-bit numbers for Zobrist keys (Zobrist 1970), the same in every
    process and every run because the generator is seeded."""
    rng = random.Random(seed)
    return tuple(rng.getrandbits(64) for _ in range(count))


# The sides as a game that knows nothing of them names them (Game.side_names), and as the
# first and the second player when it knows whose turn it is.
UNNAMED_SIDES = ("the player to move", "the other player")
ORDERED_SIDES = ("the first player", "the second player")

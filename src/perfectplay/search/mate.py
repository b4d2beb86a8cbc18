"""Exact "win in N moves" search (a chess problem's "mate in N"), over the game protocol.

The side to move wins within ``n`` of its own moves (``2n - 1`` plies) when some move leaves
the opponent lost within ``n - 1``; the opponent is lost within ``m`` when the game has
ended in its loss (for chess: checkmate, no legal move while in check), or it has a move,
``m >= 1`` and every move leaves the side to move winning within ``m``. Draws by any rule
the game's ``outcome`` knows (stalemate, repetition, the fifty-move rule) are escapes.

Asking for n = 1, 2, ... in turn proves the shortest win: the answer for ``n`` is the first
``n`` that succeeds, and every smaller one has been refuted. Answers are proofs, not
estimates: there is no horizon evaluation anywhere.

This module registers the solving method ``mate`` (perfectplay.methods): ``solve`` and
``analyze`` reach it with ``mate=N`` (the CLI's ``--mate N``), like every other method.

The tables key on whole positions (``Game.exact_key``: a chess position with its repetition
history and clock), so a stored answer never depends on the path; together they hold at most
``table_entries`` answers and stop storing when full (answers stay exact, only slower).
``--tt-size`` sets that size (entries, or bytes at ``BYTES_PER_ENTRY``), and the memory the
search may take grows with it: the table's bytes plus the usual headroom.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfectplay import value as V
from perfectplay.errors import BadOption, LimitReached
from perfectplay.game import Game, Outcome
from perfectplay.methods import Method, Request, register
from perfectplay.search.deep import run_deep
from perfectplay.search.limits import Budget, OutOfBudget
from perfectplay.search.results import MateAnswer, MoveValue, Solution, Stats
from perfectplay.search.transposition import parse_table_size

DEFAULT_TABLE_ENTRIES = 1 << 20
# Measured in chess, where an entry is (exact key, n) -> answer with the key a tuple of the
# bitboards, clock and history: about 400 bytes filled (benchmarks/chess_mate.py --memory).
BYTES_PER_ENTRY = 512


@dataclass
class MateResult:
    """``moves`` is the shortest forced win in moves of the side to move (None when there is
    none within the asked ``limit``); ``line`` alternates winner's and loser's moves, the
    loser resisting as long as it can."""

    limit: int
    moves: int | None
    line: list[Any] = field(default_factory=list)
    nodes: int = 0
    elapsed_s: float = 0.0
    game_over: bool = False  # the position is already finished: there is nothing to search


# Larger than any number of moves asked: "never lost", for a game over without a loss.
NEVER = 1 << 62


class MateSearch:
    """The two searches and what they proved, kept per position (``Game.exact_key``) as
    bounds that hold for every number of moves: a win within n is a win within any larger
    n, and no win within n means none within a smaller one. So the passes for n = 1, 2, ...
    and the same position met with different moves to go share their work."""

    def __init__(self, game: Game[Any, Any], budget: Budget | None = None,
                 table_entries: int = DEFAULT_TABLE_ENTRIES) -> None:
        self.game = game
        self.budget = budget or Budget()
        self.table_entries = table_entries
        self.nodes = 0
        self.no_move = Outcome.WIN if game.properties.misere else Outcome.LOSS
        # key -> (n, move): the side to move wins within n (the least n proved) by ``move``;
        # key -> n: no win within n (the most proved). Likewise lost within m / not within m.
        self.wins: dict[Any, tuple[int, Any]] = {}
        self.no_win: dict[Any, int] = {}
        self.lost: dict[Any, int] = {}
        self.not_lost: dict[Any, int] = {}
        self.exact_key = game.exact_key

    def stored(self) -> int:
        """The positions the tables hold answers for (a position may be in two of them)."""
        return len(self.wins) + len(self.no_win) + len(self.lost) + len(self.not_lost)

    def _keep(self, table: dict[Any, Any], key: Any, entry: Any) -> None:
        # Stops adding positions when full; a better bound for one already held still goes in.
        if key in table or self.stored() < self.table_entries:
            table[key] = entry

    def _count(self) -> None:
        self.nodes += 1
        if not self.nodes & 1023:
            self.budget.poll(self.nodes)

    def winning_move(self, position: Any, n: int) -> Any:
        """A move that wins within ``n`` moves, or None. Trusts the game not to be over."""
        key = self.exact_key(position)
        won = self.wins.get(key)
        if won is not None and won[0] <= n:
            return won[1]
        if self.no_win.get(key, -1) >= n:
            return None
        self._count()
        answer = None
        if n >= 1:
            for move, child in self.candidates(position, n):
                if self.is_lost(child, n - 1):
                    answer = move
                    break
        if answer is None:
            self._keep(self.no_win, key, n)
        else:
            self._keep(self.wins, key, (n, answer))
        return answer

    def candidates(self, position: Any, n: int) -> list[tuple[Any, Any]]:
        """(move, child) pairs to try for a win within ``n``. With more than one move to go,
        the moves that leave the opponent fewest replies come first (checks, in chess): they
        are the likeliest to force, and their refutations are quickest to search. The same
        idea orders proof-number search (Allis, 1994). With one move to go, only the moves
        the game says can win at once (``Game.deciding_moves``: checks, in chess)."""
        play = self.game.play
        moves = self.game.deciding_moves(position) if n == 1 else None
        if moves is None:
            moves = self.game.moves(position)
        pairs = [(move, play(position, move)) for move in moves]
        if n >= 2:
            moves_of = self.game.moves
            pairs.sort(key=lambda pair: len(moves_of(pair[1])))
        return pairs

    def ended(self, position: Any) -> Outcome | None:
        """The finished game's result for the side to move, or None while it goes on."""
        result = self.game.outcome(position)
        if result is not None:
            return result
        return None if self.game.has_moves(position) else self.no_move

    def is_lost(self, position: Any, m: int) -> bool:
        """Whether the side to move loses within ``m`` more moves of its opponent."""
        key = self.exact_key(position)
        if self.lost.get(key, NEVER) <= m:
            return True
        if self.not_lost.get(key, -1) >= m:
            return False
        self._count()
        result = self.ended(position)
        if result is not None:
            answer = result is Outcome.LOSS
            bound = 0 if answer else NEVER  # a game over and not lost is never lost
        elif m == 0:
            answer, bound = False, 0
        else:
            answer = all(self.wins_within(self.game.play(position, move), m)
                         for move in self.game.moves(position))
            bound = m
        self._keep(self.lost if answer else self.not_lost, key, bound)
        return answer

    def wins_within(self, position: Any, n: int) -> bool:
        """Whether the side to move has won, or wins within ``n`` moves. The loser's move may
        end the game (a draw by repetition or the fifty-move rule, a line of its own in
        tic-tac-toe): that is an escape, never a win to search on from."""
        result = self.ended(position)
        if result is not None:
            return result is Outcome.WIN
        return self.winning_move(position, n) is not None

    def shortest_win(self, position: Any, limit: int) -> int | None:
        return next((n for n in range(1, limit + 1) if self.winning_move(position, n) is not None), None)

    def line(self, position: Any, n: int) -> list[Any]:
        """The winner's moves and the loser's longest resistance, to the end of the game."""
        line: list[Any] = []
        while n >= 1:
            move = self.winning_move(position, n)
            line.append(move)
            position = self.game.play(position, move)
            if self.ended(position) is not None:
                break
            # The defence that delays the loss longest: the one needing the largest n (0: the
            # reply itself ends the game in the winner's favour).
            delays = [(next(k for k in range(0, n) if self.wins_within(self.game.play(position, reply), k)),
                       reply) for reply in self.game.moves(position)]
            n, reply = max(delays, key=lambda pair: pair[0])
            line.append(reply)
            position = self.game.play(position, reply)
            if n == 0:
                break
        return line


def find_mate(game: Game[Any, Any], position: Any, limit: int, *, budget: Budget | None = None,
              table_entries: int = DEFAULT_TABLE_ENTRIES) -> MateResult:
    """The shortest forced win of the side to move within ``limit`` of its moves, proved
    exactly, with its line; raises LimitReached-style OutOfBudget through ``budget``."""
    if limit < 1:
        raise BadOption(f"--mate {limit}: give the number of moves, 1 or more")
    budget = budget or Budget()
    budget.allow_memory(table_entries * BYTES_PER_ENTRY)
    search = MateSearch(game, budget, table_entries)
    return run_deep(lambda: _find(search, position, limit), budget)




# -- the solving method ``mate`` (``--algorithm mate --mate N``, or just ``--mate N``) ---------
def _objection(game: Game[Any, Any], request: Request) -> str | None:
    if request.limits.mate is None:
        return "--algorithm mate needs --mate N, the most moves to look for a forced win within"
    if game.properties.is_score:
        return f"--mate searches for a forced win; {game.name} is a score game"
    if game.properties.extra_turns:
        # "Within N moves" alternates the two sides' moves; an extra turn breaks that count.
        return f"--mate counts moves that alternate; {game.name} has extra turns (use tt or retro)"
    if request.limits.depth is not None:
        return "--mate N is the depth of an exact search; bound it with --nodes or --time, not --depth"
    return None


def _search(game: Game[Any, Any], request: Request, task: Callable[[MateSearch], Any]) -> Any:
    """Run ``task`` on a fresh search within the request's budget; a budget that runs out is
    the user's limit (exit 1), reported with the time spent."""
    budget = request.budget or Budget(request.limits)
    entries = table_entries(request.table_size)
    budget.allow_memory(entries * BYTES_PER_ENTRY)
    search = MateSearch(game, budget, entries)
    try:
        return run_deep(lambda: task(search), budget)
    except OutOfBudget as stop:
        more = "; a larger --tt-size lets it grow" if str(stop).startswith("memory") else ""
        raise LimitReached(f"mate search stopped ({stop}) after {budget.elapsed():.1f} s "
                           f"without an answer within {request.limits.mate} moves{more}") from None


def table_entries(size: str | int | None) -> int:
    """The answers the tables may hold: ``--tt-size`` in entries or bytes, or the default."""
    if size is None:
        return DEFAULT_TABLE_ENTRIES
    return parse_table_size(size, BYTES_PER_ENTRY)


def _solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    limit = int(request.limits.mate or 0)
    found: MateResult = _search(game, request, lambda search: _find(search, position, limit))
    answer = MateAnswer(limit, found.moves, found.game_over)
    value = 0 if found.moves is None else V.win_in(2 * found.moves - 1)
    stats = Stats(nodes=found.nodes, max_ply=len(found.line), elapsed_s=found.elapsed_s,
                  depth=2 * limit - 1)
    return Solution.of(game, position, "mate", value, found.line[:1], found.line[:request.pv_limit],
                       stats, exact=found.moves is not None, score_game=False, mate=answer)


def _find(search: MateSearch, position: Any, limit: int) -> MateResult:
    if search.ended(position) is not None:
        return MateResult(limit, None, [], 0, search.budget.elapsed(), game_over=True)
    moves = search.shortest_win(position, limit)
    line = [] if moves is None else search.line(position, moves)
    return MateResult(limit, moves, line, search.nodes, search.budget.elapsed())


def _analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    """Every move: the shortest mate it forces within N (proved), or "no mate within N"."""
    limit = int(request.limits.mate or 0)

    def value_moves(search: MateSearch) -> list[MoveValue]:
        if search.ended(position) is not None:
            return []
        valued = []
        for move in game.moves(position):
            child = game.play(position, move)
            moves = next((n for n in range(1, limit + 1) if search.is_lost(child, n - 1)), None)
            notation = game.format_move(position, move)
            if moves is None:
                valued.append(MoveValue(move, notation, 0, False, False,
                                        note=f"no mate within {limit}", placeholder=True))
            else:
                valued.append(MoveValue(move, notation, V.win_in(2 * moves - 1), False, True,
                                        note=f"mate in {moves}"))
        return sorted(valued, key=lambda move_value: (not move_value.exact, -move_value.value))

    return list(_search(game, request, value_moves))


register(Method("mate", "exact forced-win search within --mate N moves (chess: mate in N): "
                "a proof, never an estimate", _solve, _analyze, applies=_objection))

__all__ = ["DEFAULT_TABLE_ENTRIES", "MateResult", "MateSearch", "OutOfBudget", "find_mate"]

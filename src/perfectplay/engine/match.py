"""Engine matches: game pairs with colours swapped from a set of openings, stopped by SPRT.

Each opening is played twice, the first player moving first in one game and second in the
other, so an unbalanced opening favours neither side. After every pair the generalized SPRT
(perfectplay.engine.sprt) decides whether to stop. Results are from the first player's view.
A game longer than ``max_plies`` is adjudicated a draw (said in the summary). With
``forfeit``, a player that answers with no move or an illegal one loses that game, as
tournament managers score it (sunfish, for one, sometimes answers ``bestmove (none)`` at very
short move times on a loaded machine); without it the match ends with that error. Each player's
thinking time is measured around its ``choose`` call (wall clock), so a summary can show
whether "equal time per move" held: an external engine may overrun its ``movetime``.
"""

from __future__ import annotations

import multiprocessing
import random
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from perfectplay.engine.players import IllegalReply, Player
from perfectplay.engine.sprt import EloEstimate, SprtTest, elo_estimate, llr
from perfectplay.errors import BadOption, PerfectPlayError
from perfectplay.game import Game, Outcome

DEFAULT_MAX_PLIES = 600


def random_openings(game: Game[Any, Any], count: int, plies: int, seed: int) -> list[Any]:
    """Up to ``count`` distinct live positions ``plies`` random moves from the start (fewer
    when the game has fewer)."""
    rng = random.Random(seed)
    found: dict[Any, Any] = {}
    for _ in range(count * 20):
        if len(found) >= count:
            break
        position = game.start()
        for _ in range(plies):
            moves = game.moves(position)
            if not moves or game.outcome(position) is not None:
                break
            position = game.play(position, rng.choice(list(moves)))
        if game.outcome(position) is None and game.moves(position):
            found.setdefault(game.key(position), position)
    return list(found.values())


def read_openings(game: Game[Any, Any], text: str, source: str) -> list[Any]:
    """One position per line in the game's notation; blank lines and # comments skipped."""
    openings = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            position = game.parse_position(line)
        except PerfectPlayError as error:
            raise BadOption(f"{source} line {number}: {error}") from None
        if game.outcome(position) is not None or not game.moves(position):
            raise BadOption(f"{source} line {number}: {line!r} is a finished game, not an opening")
        openings.append(position)
    if not openings:
        raise BadOption(f"{source}: no opening positions in the file")
    return openings


@dataclass
class Thinking:
    """Wall-clock seconds per move of two players: totals, counts and the longest move."""

    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])
    longest: list[float] = field(default_factory=lambda: [0.0, 0.0])

    def add(self, player: int, seconds: float) -> None:
        self.seconds[player] += seconds
        self.moves[player] += 1
        self.longest[player] = max(self.longest[player], seconds)

    def merge(self, other: Thinking, swapped: bool) -> None:
        for player in (0, 1):
            source = 1 - player if swapped else player
            self.seconds[player] += other.seconds[source]
            self.moves[player] += other.moves[source]
            self.longest[player] = max(self.longest[player], other.longest[source])

    def mean(self, player: int) -> float:
        return self.seconds[player] / self.moves[player] if self.moves[player] else 0.0


@dataclass
class GameRecord:
    opening: Any
    first_moved_first: bool
    moves: list[Any]
    score: float  # for the first player: 1, 0.5 or 0
    adjudicated: bool
    thinking: Thinking | None = None  # indexed first player, second player
    forfeit: str | None = None  # why the loser lost by forfeit, if it did


@dataclass
class MatchState:
    """Running totals from the first player's view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])
    adjudicated: int = 0
    games: list[GameRecord] = field(default_factory=list)
    thinking: Thinking = field(default_factory=Thinking)
    forfeits: list[str] = field(default_factory=list)
    interrupted: bool = False  # stopped by Ctrl-C (or SIGTERM) before a verdict

    @property
    def pairs(self) -> int:
        return sum(self.pentanomial)

    def add_pair(self, first: GameRecord, second: GameRecord) -> None:
        for record in (first, second):
            self.games.append(record)
            self.adjudicated += record.adjudicated
            if record.forfeit is not None:
                self.forfeits.append(record.forfeit)
            if record.thinking is not None:
                self.thinking.merge(record.thinking, swapped=False)
            if record.score == 1:
                self.wins += 1
            elif record.score == 0:
                self.losses += 1
            else:
                self.draws += 1
        self.pentanomial[int(round(2 * (first.score + second.score)))] += 1

    def elo(self) -> EloEstimate | None:
        return elo_estimate(self.pentanomial)


def play_game(game: Game[Any, Any], opening: Any, players: tuple[Player, Player],
              max_plies: int = DEFAULT_MAX_PLIES,
              thinking: Thinking | None = None, forfeits: list[str] | None = None,
              ) -> tuple[float, list[Any], bool]:
    """Play ``players[0]`` (to move at ``opening``) against ``players[1]``; returns the score
    of players[0], the moves, and whether the game was adjudicated at ``max_plies``. Each
    move's wall-clock time is added to ``thinking`` (indexed like ``players``) if given.
    With a ``forfeits`` list, a player's illegal reply loses the game (its reason is added
    there); without one it raises :class:`IllegalReply`."""
    for player in players:
        player.new_game()
    position, lead = opening, 0
    moves: list[Any] = []
    props = game.properties
    while len(moves) < max_plies:
        result = game.outcome(position)
        legal = game.moves(position)
        if result is None and not legal:
            result = Outcome.WIN if props.misere else Outcome.LOSS
            if props.is_score:
                result = None
        if result is not None or not legal:
            break
        mover = len(moves) % 2
        started = time.perf_counter()
        try:
            move = players[mover].choose(opening, list(moves), position)
            if move not in legal:
                raise IllegalReply(f"{players[mover].name} chose {move!r}, not a legal move")
        except IllegalReply as error:
            if forfeits is None:
                raise
            forfeits.append(str(error))
            return (0.0 if mover == 0 else 1.0), moves, False
        if thinking is not None:
            thinking.add(mover, time.perf_counter() - started)
        if props.is_score:
            gain = game.gain(position, move)
            lead += gain if mover == 0 else -gain
        moves.append(move)
        position = game.play(position, move)
    else:
        return 0.5, moves, True
    if props.is_score:
        return (1.0 if lead > 0 else 0.0 if lead < 0 else 0.5), moves, False
    to_move = len(moves) % 2  # the player whose result ``result`` describes
    if result is Outcome.DRAW:
        return 0.5, moves, False
    mover_won = result is Outcome.WIN
    first_won = mover_won if to_move == 0 else not mover_won
    return (1.0 if first_won else 0.0), moves, False


def play_pair(game: Game[Any, Any], opening: Any, first: Player, second: Player,
              max_plies: int = DEFAULT_MAX_PLIES, forfeit: bool = False) -> tuple[GameRecord, GameRecord]:
    """The two games of ``opening``: ``first`` moving first, then ``second``."""
    thinking = Thinking()
    reasons: list[str] | None = [] if forfeit else None
    score, moves, adjudicated = play_game(game, opening, (first, second), max_plies, thinking, reasons)
    game_one = GameRecord(opening, True, moves, score, adjudicated, thinking,
                          reasons[-1] if reasons else None)
    swapped = Thinking()
    reasons = [] if forfeit else None
    score, moves, adjudicated = play_game(game, opening, (second, first), max_plies, swapped, reasons)
    thinking = Thinking()
    thinking.merge(swapped, swapped=True)  # back to (first player, second player)
    game_two = GameRecord(opening, False, moves, 1.0 - score, adjudicated, thinking,
                          reasons[-1] if reasons else None)
    return game_one, game_two


def run_match(game: Game[Any, Any], first: Player, second: Player, openings: list[Any], *,
              test: SprtTest, max_pairs: int, max_plies: int = DEFAULT_MAX_PLIES, forfeit: bool = False,
              on_pair: Callable[[MatchState, float], None] | None = None) -> tuple[MatchState, str | None]:
    """Play pairs (cycling through ``openings``) until SPRT decides or ``max_pairs`` are
    played; returns the totals and 'H1', 'H0' or None (inconclusive, or stopped by Ctrl-C:
    ``state.interrupted``)."""
    pairs = (play_pair(game, opening, first, second, max_plies, forfeit)
             for opening in _opening_of_each_pair(openings, max_pairs))
    return _until_decided(pairs, test, on_pair)


def run_parallel_match(game: Game[Any, Any], make_players: Callable[[], tuple[Player, Player]],
                       openings: list[Any], *, workers: int, test: SprtTest, max_pairs: int,
                       max_plies: int = DEFAULT_MAX_PLIES, forfeit: bool = False,
                       on_pair: Callable[[MatchState, float], None] | None = None,
                       ) -> tuple[MatchState, str | None]:
    """As :func:`run_match`, with ``workers`` pairs played at once, each worker process with
    its own two players from ``make_players`` (a picklable function). Pairs count in the
    order they finish, as fishtest counts its workers' results; when the SPRT decides, the
    pairs still being played are dropped."""
    if workers < 1:
        raise BadOption(f"--concurrency {workers}: at least one game pair at a time is needed")
    jobs = _opening_of_each_pair(openings, max_pairs)
    # Spawned, not forked: the parent may hold threads (a UCI reader) and engine tables.
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(workers, initializer=_start_worker,
                        initargs=(game, make_players, max_plies, forfeit))
    try:
        return _until_decided(pool.imap_unordered(_play_in_worker, jobs), test, on_pair)
    finally:
        pool.terminate()  # the worker processes, and with them their UCI engines' input
        pool.join()


def _opening_of_each_pair(openings: list[Any], max_pairs: int) -> list[Any]:
    """Pair after pair, the openings in turn, starting again when they run out."""
    if not openings:
        raise BadOption("a match needs at least one opening position")
    return [openings[number % len(openings)] for number in range(max_pairs)]


def _until_decided(pairs: Iterable[tuple[GameRecord, GameRecord]], test: SprtTest,
                   on_pair: Callable[[MatchState, float], None] | None) -> tuple[MatchState, str | None]:
    """Count pairs as they come until the SPRT decides; a Ctrl-C keeps what was played."""
    state = MatchState()
    verdict = None
    try:
        for game_one, game_two in pairs:
            state.add_pair(game_one, game_two)
            if on_pair is not None:
                on_pair(state, llr(state.pentanomial, test.elo0, test.elo1))
            verdict = test.verdict(state.pentanomial)
            if verdict is not None:
                break
    except KeyboardInterrupt:
        state.interrupted = True
    return state, verdict


# A worker process's game, players and rules, set once by _start_worker.
_worker: dict[str, Any] = {}


def _start_worker(game: Game[Any, Any], make_players: Callable[[], tuple[Player, Player]],
                  max_plies: int, forfeit: bool) -> None:
    # Ctrl-C is the parent's to handle: it keeps the results and ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker.update(game=game, max_plies=max_plies, forfeit=forfeit)
    try:
        _worker["players"] = make_players()
    except PerfectPlayError as error:  # raised with the first pair: a pool would restart us
        _worker["error"] = error


def _play_in_worker(opening: Any) -> tuple[GameRecord, GameRecord]:
    if "error" in _worker:
        raise _worker["error"]
    first, second = _worker["players"]
    return play_pair(_worker["game"], opening, first, second, _worker["max_plies"], _worker["forfeit"])

"""One searcher: iterative deepening over negamax alpha-beta with the layers of production
game engines (chess programs since the 1980s).

Each layer is a flag in :class:`~perfectplay.engine.api.Settings`:

* PVS (principal variation search; Marsland and Campbell 1982): the first move gets the full
  window, the rest a null window (alpha, alpha + 1);
  a null-window result inside (alpha, beta) is re-searched with the full window, without
  which a better move would be rejected.
* Aspiration windows: each iteration starts with a window of +-``aspiration_window`` around
  the previous value and doubles it towards the failing side until the value lands inside.
* Killer moves (two per ply) and the history heuristic (Schaeffer 1989: a quiet move that
  caused a cutoff at depth d earns d*d), ordered after the table move and the noisy moves.
* Quiescence: past the depth limit, only ``game.noisy_moves`` are searched, with the
  option to stand pat on ``game.evaluate``; where ``game.must_move`` says standing pat is
  not allowed (chess: in check) every move is searched.
* Late-move reductions: from the ``lmr_moves``-th move of a node on, a quiet move that is not
  a killer and gives no check (``game.must_move`` of the child) is first searched one ply
  shallower (two from twice that number) with a null window; only a fail high is searched
  again at full depth. The usual next layer of engines built on the others.
* Null-move pruning (Beal 1989; Donninger 1993): where ``game.null_move`` allows a pass, a
  pass searched R plies shallower that still fails high prunes the node, after a verification
  search of the node itself at that reduced depth without null moves (Tabibi and Netanyahu,
  "Verified null-move pruning", ICGA Journal 2002), which keeps most zugzwang cases right.

Values follow perfectplay.value (a win in p plies is WIN - p), so mates carry distances. The
search is fail-soft and integer-valued. Outside knowledge enters in two ways: the game's own
``known_value`` (exact, with distances: chess's endgame tables), and an optional ``probe``
(a value without a distance, such as a Syzygy table's win, draw or loss; a front end
supplies it), which ends the line like a horizon does.

Several lines (MultiPV): the best move is searched first, then the best of the others, and
so on, each with the moves already chosen left out of the root.

A depth whose search met no depth limit anywhere (no evaluation, no pruning, no table entry
that rested on one, no probe) proves its value: the result is
then ``exact``, and small games such as tic-tac-toe are solved outright.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from perfectplay import value as V
from perfectplay.engine.api import MAX_DEPTH, MAX_PLY, Line, Settings
from perfectplay.engine.clock import Abort, Clock
from perfectplay.engine.known import known_root
from perfectplay.engine.transposition import (
    HELPER_BIT,
    MAX_DRAFT,
    NO_MOVE,
    PROVEN_DRAFT,
    EngineTable,
)
from perfectplay.game import Game, Outcome, has_evaluation
from perfectplay.value import EXACT, LOWER, UPPER

INF = V.WIN + 1
POLL_MASK = 31


Probe = Callable[[Any], int | None]
# Called with (depth, move, number from 1) as each root move's search begins.
RootMoveReport = Callable[[int, Any, int], None]
# Called with (depth, score, bound) when an aspiration window fails ("lower" or "upper").
WindowReport = Callable[[int, int, str], None]


@dataclass(frozen=True)
class Iteration:
    """An iteration: its lines (best first; one unless MultiPV), the counts so far, and
    ``bound``: None when complete, "lower" when the clock cut it short after some root moves
    (the value is then at least ``score``)."""

    depth: int
    lines: list[Line]
    nodes: int
    seldepth: int
    exact: bool
    seconds: float
    bound: str | None = None

    @property
    def score(self) -> int:
        return self.lines[0].score

    @property
    def best_move(self) -> Any:
        return self.lines[0].pv[0]

    @property
    def pv(self) -> list[Any]:
        return self.lines[0].pv


class Searcher:
    """Searches one game with one table; ``helper`` > 0 varies the move order (Lazy SMP)."""

    def __init__(self, game: Game[Any, Any], settings: Settings, table: EngineTable,
                 helper: int = 0, probe: Probe | None = None) -> None:
        self.game = game
        self.settings = settings
        self.table = table
        self.helper = helper
        self.probe = probe
        self.on_root_move: RootMoveReport | None = None
        self.on_window: WindowReport | None = None
        # Lazy SMP: a shared integer (multiprocessing.Value) where the main search writes the
        # depth it is searching and helpers read it; None when searching alone.
        self.pace: Any = None
        self.rng = random.Random(helper)
        cls = type(game)
        self.incremental = cls.key_after is not Game.key_after
        self.has_noisy = cls.noisy_moves is not Game.noisy_moves
        self.has_null = cls.null_move is not Game.null_move
        self.quiescence = settings.quiescence and self.has_noisy
        self.null_pruning = settings.null_move and self.has_null
        self.is_score = game.properties.is_score
        # Extra turns: after some moves the mover moves again (docs/extra_turns.md).
        self.extra_turns = game.properties.extra_turns
        self.knows = cls.known_value is not Game.known_value
        self.use_table = settings.tt
        self.extend = settings.check_extension
        margin = game.properties.quiet_margin
        self.margin = margin if settings.futility and has_evaluation(game) else None
        # Extensions stop at this ply: a long line of checks cannot deepen a search beyond
        # recursion's reach (MAX_PLY caps every line anyway).
        self.extension_cap = MAX_PLY // 2
        self.no_move = Outcome.WIN if game.properties.misere else Outcome.LOSS
        self.killers: list[list[Any]] = [[] for _ in range(MAX_PLY + 2)]
        self.history: dict[Any, int] = {}
        self.reset_counts()

    def reset_counts(self) -> None:
        self.nodes = 0
        self.seldepth = 0
        self.horizon = 0
        self.table_hits = 0
        # Hits on entries another process wrote (Lazy SMP), and those that ended the node.
        self.shared_hits = 0
        self.shared_cutoffs = 0
        self.cutoffs = 0
        self.tb_hits = 0
        self.clock: Clock | None = None
        self.pv: list[list[Any]] = [[] for _ in range(MAX_PLY + 2)]
        # What the iteration the clock cut short had found: its completed lines, or the root
        # move that scored best so far in the line being searched (Clock.poll).
        self.partial: Iteration | None = None
        self._lines_done: list[Line] = []
        self._root_best: Line | None = None

    def new_game(self) -> None:
        self.killers = [[] for _ in range(MAX_PLY + 2)]
        self.history.clear()

    # -- iterative deepening -----------------------------------------------------------
    def iterate(self, position: Any, clock: Clock, max_depth: int = MAX_DEPTH,
                start_depth: int = 1, root_moves: list[Any] | None = None,
                lines: int = 1) -> Iterator[Iteration]:
        """Yield each completed iteration; stop at ``max_depth``, an exact value, or when the
        clock refuses another. An aborted iteration is not yielded: what it found so far is
        ``self.partial``. ``root_moves`` restricts the root (legal moves, trusted); ``lines``
        is the number of best lines wanted (MultiPV)."""
        self.reset_counts()
        self.clock = clock
        self.table.new_search()
        for ply_killers in self.killers:
            ply_killers.clear()
        for move in list(self.history):  # old evidence counts for less
            self.history[move] >>= 2
        key = self.game.hash_key(position)
        if not self.game.moves(position) or self.game.outcome(position) is not None:
            return
        moves = list(root_moves if root_moves is not None else self.game.moves(position))
        known = known_root(self.game, position, moves) if self.knows else None
        if known is not None:  # exact already: an endgame table holds the root and its children
            score, best, line = known
            self.nodes += 1 + len(moves)
            self.tb_hits += 1 + len(moves)
            yield Iteration(start_depth, [Line(score, line)], self.nodes, len(line), True, 0.0)
            return
        previous: list[int] = []
        depth = start_depth
        while depth <= max_depth:
            if depth > start_depth and not clock.may_start(self.nodes):
                return
            if self.pace is not None and not self.helper:
                self.pace.value = depth  # the helpers keep up with this (Lazy SMP)
            started = time.perf_counter()
            horizon_before = self.horizon
            try:
                found = self._lines(position, key, moves, depth, previous, lines)
            except Abort:
                self.partial = self._cut_short(depth, time.perf_counter() - started)
                return
            seconds = time.perf_counter() - started
            clock.finished_iteration(seconds, found[0].score if found else None)
            exact = self.horizon == horizon_before
            yield Iteration(depth, found, self.nodes, self.seldepth, exact, seconds)
            if exact:
                return
            previous = [line.score for line in found]
            chosen = [line.pv[0] for line in found]
            moves = [*chosen, *(move for move in moves if move not in chosen)]
            depth = self._next_depth(depth)

    def _lines(self, position: Any, key: int, moves: list[Any], depth: int, previous: list[int],
               count: int) -> list[Line]:
        """The ``count`` best lines at ``depth``: the best move, then the best of the rest..."""
        self._lines_done = []
        rest = list(moves)
        for index in range(min(count, len(moves))):
            self._root_best = None
            guess = previous[index] if index < len(previous) else None
            score, best = self._aspiration(position, key, rest, depth, guess)
            line = self.pv[0] if self.pv[0] and self.pv[0][0] == best else [best]
            self._lines_done.append(Line(score, list(line)))
            rest = [move for move in rest if move != best]
        return sorted(self._lines_done, key=lambda line: -line.score)

    def _cut_short(self, depth: int, seconds: float) -> Iteration | None:
        """What an aborted iteration found: its completed lines (their values are exact at
        this depth), else the best root move searched so far (a lower bound: the moves not
        yet searched may be better), else nothing."""
        if self._lines_done:
            done = sorted(self._lines_done, key=lambda line: -line.score)
            return Iteration(depth, done, self.nodes, self.seldepth, False, seconds)
        if self._root_best is not None:
            return Iteration(depth, [self._root_best], self.nodes, self.seldepth, False, seconds, "lower")
        return None

    def _next_depth(self, depth: int) -> int:
        """The next iteration's depth: one more, except that a Lazy SMP helper that fell
        behind jumps to the main search's current depth (even helpers: one deeper), so it
        fills the table where the main search is instead of repeating iterations it has done.
        Helper 1 at the main's depth leaves the main search 0.56-0.63 of its nodes; one
        deeper, 0.80 (docs/engine.md)."""
        if self.pace is None or not self.helper:
            return depth + 1
        return max(depth + 1, int(self.pace.value) + (self.helper - 1) % 2)

    def _aspiration(self, position: Any, key: int, moves: list[Any], depth: int,
                    previous: int | None) -> tuple[int, Any]:
        """The root value at ``depth``, first inside a window around ``previous``."""
        if not self.settings.aspiration or previous is None or V.is_decisive(previous):
            return self._root(position, key, moves, depth, -INF, INF)
        delta = self.settings.aspiration_window
        alpha, beta = previous - delta, previous + delta
        while True:
            score, best = self._root(position, key, moves, depth, alpha, beta)
            if self.on_window is not None and not alpha < score < beta:
                self.on_window(depth, score, "upper" if score <= alpha else "lower")
            if score <= alpha:
                alpha = -INF if delta > V.DECISIVE // 4 else max(score - delta, -INF)
            elif score >= beta:
                beta = INF if delta > V.DECISIVE // 4 else min(score + delta, INF)
            else:
                return score, best
            delta *= 2
            if alpha == -INF and beta == INF:
                return self._root(position, key, moves, depth, alpha, beta)

    def _root(self, position: Any, key: int, moves: list[Any], depth: int,
              alpha: int, beta: int) -> tuple[int, Any]:
        if self.helper and len(moves) > 2:
            rest = moves[1:]
            self.rng.shuffle(rest)
            moves = [moves[0], *rest]
        best, best_move = -INF, moves[0]
        alpha_in = alpha
        for number, move in enumerate(moves):
            if self.on_root_move is not None:
                self.on_root_move(depth, move, number + 1)
            child = self.game.play(position, move)
            child_key = self._child_key(position, move, key, child)
            gain = self.game.gain(position, move) if self.is_score else 0
            same = self.extra_turns and self.game.keeps_turn(position, move)
            score = self._child(child, child_key, gain, same, alpha, beta, depth, 0, number == 0)
            if score > best:
                best, best_move = score, move
                self.pv[0] = [move, *self.pv[1]]
                if score > alpha_in:  # a value, or a lower bound, inside the root's window
                    self._root_best = Line(score, list(self.pv[0]))
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best, best_move

    # -- the recursive search ----------------------------------------------------------
    def _child_key(self, position: Any, move: Any, key: int, child: Any) -> int:
        if self.incremental:
            return self.game.key_after(position, move, key)
        return self.game.hash_key(child)

    def _child(self, child: Any, key: int, gain: int, same: bool, alpha: int, beta: int,
               depth: int, ply: int, first: bool) -> int:
        """The value of one move for its player, with PVS's null window after the first."""
        self.pv[ply + 1] = []
        if first or not self.settings.pvs or beta - alpha <= 1:
            return self._move_score(child, key, gain, same, alpha, beta, depth - 1, ply)
        score = self._move_score(child, key, gain, same, alpha, alpha + 1, depth - 1, ply)
        if alpha < score < beta:
            self.pv[ply + 1] = []
            score = self._move_score(child, key, gain, same, alpha, beta, depth - 1, ply)
        return score

    def _move_score(self, child: Any, key: int, gain: int, same: bool, alpha: int, beta: int,
                    depth: int, ply: int) -> int:
        """A move's value for its player, searching its child to ``depth`` with the mover's
        window (alpha, beta): negated and swapped, or kept as it is when the mover moves
        again (``same``: an extra turn)."""
        if same:
            return gain + self.search(child, key, alpha - gain, beta - gain, depth, ply + 1, True)
        return gain - self.search(child, key, gain - beta, gain - alpha, depth, ply + 1, True)

    def search(self, position: Any, key: int, alpha: int, beta: int, depth: int, ply: int,
               null_ok: bool) -> int:
        """Negamax value of ``position`` at ``ply`` (fail-soft); a bound outside the window."""
        ended = self._visit(position, ply)
        if ended is not None:
            return ended
        game = self.game
        if self.knows:
            known = game.known_value(position)
            if known is not None:  # proven: no horizon, so the result stays exact
                self.tb_hits += 1
                return int(V.from_table(known, ply))
        if self.probe is not None:
            probed = self.probe(position)
            if probed is not None:  # a result without its distance: a horizon of sorts
                self.tb_hits += 1
                self.horizon += 1
                return probed
        if not self.is_score:  # mate-distance pruning: no line here can beat these
            if ply - V.WIN >= beta:
                return ply - V.WIN
            if V.WIN - ply <= alpha:
                return V.WIN - ply
        at_horizon = depth <= 0 or ply >= MAX_PLY
        if at_horizon and self.quiescence and not game.must_move(position):
            # Quiescence generates only the noisy moves: a game with them ends a position
            # without moves through outcome or must_move (Game.noisy_moves), so the full
            # list is not needed here. A fifth less time in chess, the same values.
            self.horizon += 1
            return self.quiesce(position, alpha, beta, ply)
        # The table first: a cutoff there needs no move list (generating moves was a third
        # of chess's time). A position without moves is never stored (it returns
        # before its value would be), so a hit is never one.
        data = self.table.probe(key) if self.use_table and not at_horizon else 0
        tt_index = NO_MOVE
        if data:
            self.table_hits += 1
            foreign = (data & HELPER_BIT) != self.table.writer
            self.shared_hits += foreign
            draft, flag = data >> 32 & 255, data >> 40 & 3
            if draft >= depth:
                stored = int(V.from_table((data & 0xFFFFFFFF) - (1 << 31), ply))
                if flag == EXACT or (flag == LOWER and stored >= beta) or (flag == UPPER and stored <= alpha):
                    if draft != PROVEN_DRAFT:
                        self.horizon += 1
                    self.shared_cutoffs += foreign
                    return stored
            tt_index = (data >> 42 & 0x7FFF) - 1

        static = None
        if (self.margin is not None and depth <= 1 and beta - alpha <= 1 and not at_horizon
                and not V.is_decisive(beta) and not game.must_move(position)):
            # Reverse futility (static null-move pruning): so far above beta that no reply
            # is likely to bring the value back below it. Only at the last ply: at two plies
            # it pruned the defence against WAC.001's quiet mating threat (Qg6, Qh7#).
            static = game.evaluate(position)
            if static - self.margin * depth >= beta:
                self.horizon += 1
                return static
        moves = game.moves(position)
        if not moves:
            return 0 if self.is_score else self._end_value(self.no_move, ply)
        if at_horizon:
            self.horizon += 1
            return self.quiesce(position, alpha, beta, ply) if self.quiescence else game.evaluate(position)
        if null_ok and self.null_pruning and beta - alpha <= 1 and depth >= 2:
            pruned = self._null_move(position, key, beta, depth, ply)
            if pruned is not None:
                return pruned
        futile = (static is not None and self.margin is not None and depth == 1
                  and not V.is_decisive(alpha) and static + self.margin <= alpha)
        return self._expand(position, key, moves, tt_index, alpha, beta, depth, ply, futile)

    def _expand(self, position: Any, key: int, moves: Sequence[Any], tt_index: int, alpha: int,
                beta: int, depth: int, ply: int, futile: bool = False) -> int:
        """Search the moves in order, store the result, credit the move that cut off.
        ``futile``: the static value is so far below alpha that a quiet move (not a killer,
        giving no check) at the last ply is skipped (futility pruning, Heinz 1998)."""
        alpha_in, horizon_in = alpha, self.horizon
        ordered, noisy = self._order(position, moves, tt_index, ply)
        best, best_index = -INF, NO_MOVE
        game, is_score = self.game, self.is_score
        late = self._late_move_from(position, depth)
        killers = self.killers[ply]
        for number, (index, move) in enumerate(ordered):
            child = game.play(position, move)
            if (futile and number > 0 and move not in noisy and move not in killers
                    and not game.must_move(child)):
                self.horizon += 1
                continue
            child_key = self._child_key(position, move, key, child)
            gain = game.gain(position, move) if is_score else 0
            same = self.extra_turns and game.keeps_turn(position, move)
            forcing = self.extend and game.must_move(child)
            if forcing and ply < self.extension_cap:
                # Check extension: a forcing move is searched a ply deeper, so a horizon
                # does not fall in the middle of a sequence of checks and evasions.
                score = self._child(child, child_key, gain, same, alpha, beta, depth + 1, ply,
                                    number == 0)
            elif (number >= late and move not in noisy and move not in killers
                    and not forcing and not game.must_move(child)):
                # Late-move reduction: a late quiet move is rarely best, so a shallower
                # null-window search that fails low is taken as its bound; one that fails
                # high is searched again in full, so a good late move is never lost.
                reduction = 1 if number < 2 * late else 2
                self.pv[ply + 1] = []
                score = self._move_score(child, child_key, gain, same, alpha, alpha + 1,
                                         depth - 1 - reduction, ply)
                if score > alpha:
                    score = self._child(child, child_key, gain, same, alpha, beta, depth, ply, False)
            else:
                score = self._child(child, child_key, gain, same, alpha, beta, depth, ply,
                                    number == 0)
            if score > best:
                best, best_index = score, index
                if score > alpha:
                    alpha = score
                    self.pv[ply] = [move, *self.pv[ply + 1]]
                    if score >= beta:
                        self.cutoffs += 1
                        if move not in noisy:
                            self._credit(move, depth, ply)
                        break
        flag = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
        draft = PROVEN_DRAFT if self.horizon == horizon_in else min(depth, MAX_DRAFT)
        if self.use_table:
            self.table.store(key, best, ply, draft, flag, best_index if flag != UPPER else NO_MOVE)
        return best

    def _late_move_from(self, position: Any, depth: int) -> int | float:
        """The move number from which quiet moves are reduced here; infinity where none is:
        with the layer off, too near the horizon for a reduced search to mean anything, or
        where the side to move is forced (in check in chess)."""
        if not self.settings.lmr or depth < 3 or self.game.must_move(position):
            return float("inf")
        return self.settings.lmr_moves

    def _null_move(self, position: Any, key: int, beta: int, depth: int, ply: int) -> int | None:
        """The node's value bound if a pass still fails high (verified), else None."""
        if V.is_decisive(beta) or self.game.evaluate(position) < beta:
            return None
        passed = self.game.null_move(position)
        if passed is None:
            return None
        # At an even depth the reply to a pass keeps at least one full-width ply, not
        # quiescence alone, which cannot see a quiet mate in one: the cutoff hid a mate the
        # depth proves (WAC.001's mate in 2 once hid until depth 5). A mate in N is
        # proved at depth 2N - 1, where the loser's nodes have even depths. Odd depths keep
        # quiescence: a ply there too cost 5 to 10 of 300 Win at Chess positions at 0.5 s.
        reduced = depth - 1 - self.settings.null_reduction
        if reduced < 1 and depth % 2 == 0:
            reduced = 1
        score = -self.search(passed, self.game.hash_key(passed), -beta, 1 - beta, reduced, ply + 1, False)
        if score < beta:
            return None
        if V.is_decisive(score):
            score = beta  # a mate found after a pass is not a mate
        if self.settings.null_verify:
            reduced_depth = max(depth - self.settings.null_reduction, 1)
            verified = self.search(position, key, beta - 1, beta, reduced_depth, ply, False)
            if verified < beta:
                return None
        self.horizon += 1
        return score

    def quiesce(self, position: Any, alpha: int, beta: int, ply: int) -> int:
        """Search noisy moves only, standing pat on the evaluation (quiescence search)."""
        ended = self._visit(position, ply)
        if ended is not None:
            return ended
        game = self.game
        if self.knows:
            known = game.known_value(position)
            if known is not None:
                self.tb_hits += 1
                return int(V.from_table(known, ply))
        forced = game.must_move(position)
        if forced:
            moves = game.moves(position)
            if not moves:
                return 0 if self.is_score else self._end_value(self.no_move, ply)
            best = -INF
        else:
            best = game.evaluate(position)
            if best >= beta or ply >= MAX_PLY:
                return best
            moves = game.noisy_moves(position) or ()
        if best > alpha:
            alpha = best
        for move in moves:
            gain = game.gain(position, move) if self.is_score else 0
            if self.extra_turns and game.keeps_turn(position, move):  # the mover moves again
                score = gain + self.quiesce(game.play(position, move), alpha - gain, beta - gain, ply + 1)
            else:
                score = gain - self.quiesce(game.play(position, move), gain - beta, gain - alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    # -- move ordering -----------------------------------------------------------------
    def _order(self, position: Any, moves: Sequence[Any], tt_index: int,
               ply: int) -> tuple[Sequence[tuple[int, Any]], Any]:
        """(index, move) pairs: the table move, the noisy moves, the killers, then the rest by
        history score (ties keep the game's order). Also the set of noisy moves."""
        settings = self.settings
        killers = self.killers[ply] if settings.killers else ()
        use_history = settings.history and self.history
        noisy = set(self.game.noisy_moves(position) or ()) if self.has_noisy else ()
        if not killers and not use_history and not noisy:
            if 0 < tt_index < len(moves):
                return [(tt_index, moves[tt_index]),
                        *((i, m) for i, m in enumerate(moves) if i != tt_index)], noisy
            return list(enumerate(moves)), noisy
        first: list[tuple[int, Any]] = []
        if 0 <= tt_index < len(moves):
            first.append((tt_index, moves[tt_index]))
        rest = [(i, m) for i, m in enumerate(moves) if i != tt_index]
        if noisy:
            first.extend(pair for pair in rest if pair[1] in noisy)
            rest = [pair for pair in rest if pair[1] not in noisy]
        if killers:
            chosen = [pair for pair in rest if pair[1] in killers]
            chosen.sort(key=lambda pair: killers.index(pair[1]))
            first.extend(chosen)
            rest = [pair for pair in rest if pair[1] not in killers]
        if use_history:
            history = self.history
            rest.sort(key=lambda pair: -history.get(pair[1], 0))
        return first + rest, noisy

    def _credit(self, move: Any, depth: int, ply: int) -> None:
        """A quiet move cut off: remember it as a killer here and raise its history."""
        if self.settings.killers:
            killers = self.killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]
        if self.settings.history:
            self.history[move] = self.history.get(move, 0) + depth * depth

    def _visit(self, position: Any, ply: int) -> int | None:
        """Count the node, poll the clock, and return the value if the game has ended."""
        self.nodes += 1
        if not self.nodes & POLL_MASK:
            self.clock.poll(self.nodes)  # type: ignore[union-attr]
        if ply > self.seldepth:
            self.seldepth = ply
        result = self.game.outcome(position)
        return None if result is None else self._end_value(result, ply)

    def _end_value(self, result: Outcome, ply: int) -> int:
        if result is Outcome.DRAW:
            return 0
        return V.WIN - ply if result is Outcome.WIN else ply - V.WIN


def plain_settings(settings: Settings) -> Settings:
    """``settings`` with every ordering and pruning layer off (the reference search)."""
    return replace(settings, pvs=False, aspiration=False, killers=False, history=False,
                   null_move=False, lmr=False, check_extension=False, futility=False)


Callback = Callable[[Iteration], None]

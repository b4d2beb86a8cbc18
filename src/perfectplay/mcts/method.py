"""``--algorithm mcts``: Monte Carlo tree search under ``--nodes`` (simulations) or ``--time``
(docs/mcts.md). Its answers are estimates, with the share of wins and the visits behind them,
unless the MCTS-Solver proved the root (then win, draw or loss, exact, without distance).

Values of estimates: in a win/loss/draw game, 1000 (2q - 1) for the mover's mean result q
(win 1, draw 1/2, loss 0), so +1000 would be certain; a proved win is 1000, a proved loss
-1000; in a score game, the mean margin to come of the playouts. Moves are listed best first:
proved wins, then by that value.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from perfectplay.game import Game
from perfectplay.methods import Method, Request, register
from perfectplay.search.limits import Budget
from perfectplay.search.results import MoveValue, Solution, Stats

SCALE = 1000


@dataclass(frozen=True)
class TreeReport:
    """What an analysis reached, in the fields a deepening report has (play says how deep
    it looked): the tree's deepest ply, the best value, the simulations."""

    depth: int
    value: int
    nodes: int
    exact: bool = False


def _objection(game: Game[Any, Any], request: Request) -> str | None:
    limits = request.limits
    if (limits.nodes, limits.time) == (None, None) and request.budget is None:
        return "mcts searches to a limit: give --nodes (simulations) or --time (seconds)"
    if limits.depth is not None:
        return "mcts plays every simulation to the end of the game: drop --depth"
    if game.properties.loopy:
        return f"{game.name} is loopy (positions can repeat): use --algorithm retro"
    return None


def _search(game: Game[Any, Any], position: Any, request: Request) -> Any:
    from perfectplay.mcts.tree import BYTES_PER_NODE, DEFAULT_MAX_NODES, Search
    from perfectplay.search.transposition import parse_table_size
    budget = request.budget or Budget(request.limits)
    nodes = DEFAULT_MAX_NODES if request.table_size is None else \
        parse_table_size(request.table_size, BYTES_PER_NODE)
    search = Search(game, position, budget, max_nodes=nodes)
    with _interrupt_stops(budget):
        search.run()
    if search.counters.stopped == "stopped" and not search.root.visits:
        raise KeyboardInterrupt  # stopped before a single simulation: nothing to answer
    return search


@contextmanager
def _interrupt_stops(budget: Budget) -> Iterator[None]:
    """Ctrl-C stops the search with the estimate so far (docs/mcts.md): in the main thread,
    SIGINT sets the budget's stop flag, which the search polls, instead of unwinding it. A
    second Ctrl-C interrupts as usual."""
    previous = signal.getsignal(signal.SIGINT) if \
        threading.current_thread() is threading.main_thread() else None
    if previous is None:  # another thread, or a handler not set from Python: leave it be
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        if budget.stop.is_set():
            raise KeyboardInterrupt
        budget.stop.set()

    signal.signal(signal.SIGINT, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _child_value(search: Any, child: Any) -> tuple[int, bool]:
    """(value for the chooser, proved) of one root child."""
    proved = None if search.is_score else child.proved_for_parent()
    if proved is not None:
        return proved * SCALE, True
    if not child.visits:
        return (0 if search.is_score else -SCALE + 1), False
    if search.is_score:
        return round(child.margin / child.visits), False
    return round(SCALE * (2 * search.mean(child) - 1)), False


def _note(search: Any, child: Any, value: int, proved: bool) -> str:
    if proved:
        return {SCALE: "win (proved)", 0: "draw (proved)", -SCALE: "loss (proved)"}[value]
    if not child.visits:
        return "estimate: not searched"
    share = f"scores {100 * child.reward / child.visits:.0f}%"
    if search.is_score:
        return f"estimate {value:+d}: {share}, {child.visits:,} visits"
    return f"estimate: {share}, {child.visits:,} visits"


def _ranked(search: Any) -> list[tuple[Any, int, bool]]:
    """Root children best first (Search.ranked), each with its value and whether proved."""
    return [(child, *_child_value(search, child)) for child in search.ranked()]


def _line(search: Any, limit: int, first: Any = None) -> list[Any]:
    """From the root child ``first`` (the best move, when given), the most visited path (its
    proved moves where it is proved)."""
    node = search.root
    line: list[Any] = []
    while node.children and len(line) < limit:
        proved = node.proved
        winning = [c for c in node.children if proved is not None and c.proved_for_parent() == proved]
        if first is not None and node is search.root:
            child = first  # the line shows the move the answer names, whatever its visits
        else:
            child = winning[0] if winning else max(node.children, key=lambda c: c.visits)
            if not winning and child.visits < 2:
                break
        line.append(child.move)
        node = child
    return line


def solve(game: Game[Any, Any], position: Any, request: Request) -> Solution:
    search = _search(game, position, request)
    root, counters = search.root, search.counters
    stats = Stats(nodes=counters.simulations, max_ply=counters.max_ply,
                  elapsed_s=search.budget.elapsed(), depth=counters.max_ply)
    score = search.is_score
    if root.proved is not None and not root.children:  # the game is already over
        return Solution.of(game, position, "mcts", 0 if score else root.proved, [], [], stats,
                           score_game=score, outcome_only=not score)
    if root.proved is not None and not score:
        best = [c.move for c in root.children if c.proved_for_parent() == root.proved]
        return Solution.of(game, position, "mcts", root.proved, best, _line(search, request.pv_limit),
                           stats, score_game=False, outcome_only=True)
    ranked = _ranked(search)
    child, value, _ = ranked[0]
    interrupted = " (stopped early)" if counters.stopped == "stopped" else ""
    note = (f"{_note(search, child, value, False)} for the best move, "
            f"{counters.simulations:,} simulations{interrupted}; not proved")
    return Solution.of(game, position, "mcts", value, [child.move], _line(search, request.pv_limit, child),
                       stats, exact=False, score_game=score, note=note)


def analyze(game: Game[Any, Any], position: Any, request: Request) -> list[MoveValue]:
    search = _search(game, position, request)
    score = search.is_score
    valued = []
    for child, value, proved in _ranked(search):
        valued.append(MoveValue(child.move, game.format_move(position, child.move), value, score,
                                proved, note=_note(search, child, value, proved)))
    # Moves the time did not reach: listed last, valued as the worst move seen, so that
    # every legal move has a value and none looks better than it is known to be.
    untried = search.root.untried
    unseen = list(game.moves(position)) if untried is None and search.root.proved is None else untried or []
    worst = min((move.value for move in valued), default=0)
    valued += [MoveValue(move, game.format_move(position, move), worst, score, False,
                         note="estimate: not searched") for move in unseen]
    if request.on_depth is not None and valued:
        request.on_depth(TreeReport(search.counters.max_ply, valued[0].value, search.counters.simulations))
    return valued


register(Method("mcts", "Monte Carlo tree search (UCT, random playouts, MCTS-Solver) under "
                "--nodes (simulations) or --time: estimates with visit counts unless proven",
                solve, analyze, applies=_objection))

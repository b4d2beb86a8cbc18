"""Monte Carlo tree search: UCT with random playouts (Kocsis and Szepesvari 2006) and the
MCTS-Solver (Winands, Bjornsson and Saito 2008), over any game of the protocol.

Each simulation walks down the tree by UCB1 (mean reward + C sqrt(ln N / n)), adds one child,
plays random moves from it to the end, and backs the result up: 1 for a win, 1/2 for a draw,
0 for a loss, from the side of the player who chose each move (a score game's result is the
sign of the final margin; its mean margin is kept too, as its estimate). A move that keeps the
turn (``Game.keeps_turn``, when the game declares ``extra_turns``) backs up without changing
sides.

MCTS-Solver: a finished position is proved at once, and proofs back up as minimax values
(win, draw, loss for its mover): a node is proved when one child is proved a win for its
mover, or when every child is proved (its value is then their best). Proved losses are never
selected again, so the search spends its simulations where the answer is still open, and a
root proved ends the search with an exact answer. Score games prove only finished positions.

Memory is bounded: past ``max_nodes`` nodes the tree stops growing and simulations start
from its leaves.

A game that offers compiled playouts (``Game.compiled_playouts``: Othello's, in numba) has its
playouts played by them, the same uniformly random moves as the Python playout below, many
times faster; the tree itself stays in Python, over the rules. Loading them (numba, then the
compiled code from its cache) takes a second or two on a busy machine, which a search under
a time limit cannot spare: such a search plays out in Python while a thread loads them for
the searches that follow (:func:`playouts_for`).
"""

from __future__ import annotations

import math
import random
import threading
import time
from dataclasses import dataclass
from typing import Any

from perfectplay.game import CompiledPlayouts, Game, Outcome, has_compiled_playouts
from perfectplay.search.limits import Budget, OutOfBudget

DEFAULT_EXPLORATION = 1.0
DEFAULT_MAX_NODES = 500_000
BYTES_PER_NODE = 600  # a node, its position and its move list in CPython, roughly
RESULT = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}


# Plies of a playout between two looks at the clock: a ply of a Python game costs about a
# microsecond or more, so a deadline is seen within a millisecond or so.
PLAYOUT_POLL = 1024


# The game classes whose compiled playouts this process has loaded (called once), and the
# threads loading them: numba's code is loaded once a process, whatever the board.
_LOADED: set[type] = set()
_LOADING: dict[type, threading.Thread] = {}


def compiled_playouts(game: Game[Any, Any]) -> CompiledPlayouts | None:
    """The game's compiled playouts, loaded (called once, so numba compiles them or loads
    them from its cache now), where it offers them; else None (Python playouts)."""
    playouts = game.compiled_playouts() if has_compiled_playouts(game) else None
    if playouts is not None and type(game) not in _LOADED:
        playouts(game.start(), 1, 0)
        _LOADED.add(type(game))
    return playouts


def playouts_for(game: Game[Any, Any], budget: Budget) -> CompiledPlayouts | None:
    """The compiled playouts a search under ``budget`` can use now: loaded already, or loaded
    now when the budget has no deadline; under a deadline, None while a thread loads them."""
    if not has_compiled_playouts(game):
        return None
    if type(game) in _LOADED or budget.deadline is None:
        return compiled_playouts(game)
    if type(game) not in _LOADING:
        _LOADING[type(game)] = loading = threading.Thread(
            target=compiled_playouts, args=(game,), name="perfectplay-playouts", daemon=True)
        loading.start()
    return None


class Node:
    """One position in the tree. ``reward`` and ``margin`` are sums from the side of the
    player who chose the move into this node (``gain``: what that move earned him in a score
    game); ``side`` is +1 when this node's mover is the root's, -1 otherwise; ``proved`` is
    the exact value (1, 0, -1) for this node's own mover, once known; ``keeps`` says the
    mover is the parent's."""

    __slots__ = ("position", "move", "parent", "children", "untried", "visits", "reward",
                 "margin", "proved", "keeps", "gain", "side")

    def __init__(self, position: Any, move: Any, parent: Node | None, keeps: bool, gain: int,
                 side: int) -> None:
        self.position = position
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.untried: list[Any] | None = None  # listed when first selected
        self.visits = 0
        self.reward = 0.0
        self.margin = 0.0
        self.proved: int | None = None
        self.keeps = keeps
        self.gain = gain
        self.side = side

    def proved_for_parent(self) -> int | None:
        """The proved value seen by the player who chose this node's move."""
        if self.proved is None:
            return None
        return self.proved if self.keeps else -self.proved


@dataclass
class Counters:
    simulations: int = 0
    nodes: int = 1
    max_ply: int = 0
    stopped: str | None = None  # why the search stopped early: time, nodes, stopped, memory


class Search:
    """One tree for one root, grown by :meth:`run`."""

    def __init__(self, game: Game[Any, Any], root: Any, budget: Budget, *, seed: int | None = None,
                 exploration: float = DEFAULT_EXPLORATION, max_nodes: int = DEFAULT_MAX_NODES,
                 compiled: bool = True) -> None:
        self.game = game
        self.budget = budget
        self.random = random.Random(seed)
        self.exploration = exploration
        self.max_nodes = max_nodes
        budget.allow_memory(max_nodes * BYTES_PER_NODE)  # the memory guard counts the tree
        self.is_score = game.properties.is_score
        self.extra_turns = game.properties.extra_turns
        self.no_move = 1 if game.properties.misere else -1
        self.counters = Counters()
        # compiled=False keeps the Python playout (benchmarks/mcts_speed.py compares the two)
        self.compiled = playouts_for(game, budget) if compiled else None
        self.root = Node(root, None, None, False, 0, 1)
        self.root.proved = self.final(root)

    # -- the rules, as the search needs them ----------------------------------------------
    def mean(self, node: Node) -> float:
        """The chooser's mean reward through ``node``, pulled toward 1/2 by one win and one
        loss (Laplace), so a move seen once does not outrank one seen a thousand times."""
        return (node.reward + 1) / (node.visits + 2)

    def final(self, position: Any) -> int | None:
        """The proved value of a finished position for its mover, or None (score games:
        proofs of finished positions only, as a win, draw or loss of what is left: 0)."""
        result = self.game.outcome(position)
        if result is not None:
            return 0 if self.is_score else RESULT[result]
        if self.game.moves(position):
            return None
        return 0 if self.is_score else self.no_move

    def keeps(self, position: Any, move: Any) -> bool:
        return self.extra_turns and self.game.keeps_turn(position, move)

    # -- one simulation -------------------------------------------------------------------
    def run(self) -> None:
        """Simulate until the root is proved or the budget says stop (time, simulations,
        Ctrl-C through the budget's stop flag, memory)."""
        budget, counters = self.budget, self.counters
        limit = budget.node_limit
        while self.root.proved is None:
            if limit is not None and counters.simulations >= limit:
                counters.stopped = "nodes"
                return
            # The first poll comes after 16 simulations: a search started late (its time
            # already spent elsewhere) still answers with every root move looked at once.
            # From then on the clock is read after every simulation (a simulation of 8x8
            # Othello costs milliseconds: polling every 16th overran a 0.5 s move by up to
            # a tenth of a second), the rest of the budget (stop flag, memory) every 16th.
            # A playout itself gives up at the deadline or a stop, even among the first 16:
            # in a very deep game one playout can take longer than the whole think time.
            if counters.simulations >= 16:
                if budget.deadline is not None and time.perf_counter() >= budget.deadline:
                    counters.stopped = "time"
                    return
                if not counters.simulations & 15:
                    try:
                        budget.poll(0)
                    except OutOfBudget as stop:
                        counters.stopped = str(stop).split(":")[0]
                        return
            if not self.simulate():
                return  # its playout ran past the deadline (counters.stopped says so)
            counters.simulations += 1

    def simulate(self) -> bool:
        """Select down the tree, add one node, play out, back up. Margins and results are
        kept from the root mover's side while walking, and handed to each node from its
        chooser's side. False when the playout was given up at the deadline (nothing backed
        up)."""
        node, ply = self.root, 0
        margin = 0
        while node.proved is None:
            if node.untried is None:
                node.untried = list(self.game.moves(node.position))
                self.random.shuffle(node.untried)
            grow = bool(node.untried) and self.counters.nodes < self.max_nodes
            if grow:
                node = self.expand(node)
            elif node.children:
                node = self.select(node)
            else:
                break  # the tree is full: play out from this leaf
            margin += node.parent.side * node.gain  # type: ignore[union-attr]
            ply += 1
            if grow:
                break  # one new node per simulation
        if ply > self.counters.max_ply:
            self.counters.max_ply = ply
        if node.proved is not None:
            result, rest = node.proved, 0
        else:
            played = self.playout(node.position)
            if played is None:
                return False
            result, rest = played
        margin += node.side * rest
        if self.is_score:
            result = (margin > 0) - (margin < 0)
            won = (result + 1) / 2
        else:
            won = (node.side * result + 1) / 2
        self.back_up(node, won, float(margin))
        return True

    def expand(self, node: Node) -> Node:
        assert node.untried is not None  # listed by simulate
        move = node.untried.pop()
        gain = self.game.gain(node.position, move) if self.is_score else 0
        keeps = self.keeps(node.position, move)
        child = Node(self.game.play(node.position, move), move, node, keeps, gain,
                     node.side if keeps else -node.side)
        child.proved = self.final(child.position)
        node.children.append(child)
        self.counters.nodes += 1
        if child.proved is not None and not self.is_score:
            self.prove_upwards(node)
        return child

    def select(self, node: Node) -> Node:
        """UCB1 among the children not proved lost for the chooser."""
        log_visits = math.log(max(node.visits, 1))
        best, best_score = None, -math.inf
        for child in node.children:
            proved = child.proved_for_parent()
            if proved is not None and not self.is_score:
                if proved == -1:
                    continue
                mean = (proved + 1) / 2
            else:
                mean = child.reward / child.visits if child.visits else 0.5
            score = mean + self.exploration * math.sqrt(log_visits / (child.visits + 1))
            if score > best_score:
                best, best_score = child, score
        return best if best is not None else node.children[0]

    def playout(self, position: Any) -> tuple[int, int] | None:
        """Random moves to the end: (the result 1, 0, -1 for the mover at ``position``, the
        margin that mover gained in a score game); None when the deadline or a stop came
        first. A playout may be very long (a game a million moves deep took 0.4 s each, and
        16 of them held a 0.2 s think for 6 s), so the clock is read every PLAYOUT_POLL plies.
        A game's compiled playout is short (CompiledPlayouts says so) and reads no clock."""
        if self.compiled is not None:
            (played,) = self.compiled(position, 1, self.random.getrandbits(64))
            return (0, played) if self.is_score else (played, 0)
        game, choice = self.game, self.random.choice
        deadline, stop = self.budget.deadline, self.budget.stop
        sign, margin = 1, 0
        plies = 0
        while True:
            plies += 1
            if not plies % PLAYOUT_POLL and (
                    stop.is_set() or (deadline is not None and time.perf_counter() >= deadline)):
                self.counters.stopped = "stopped" if stop.is_set() else "time"
                return None
            result = game.outcome(position)
            if result is not None:
                value = 0 if self.is_score else RESULT[result]
                break
            moves = game.moves(position)
            if not moves:
                value = 0 if self.is_score else self.no_move
                break
            move = choice(moves)
            if self.is_score:
                margin += sign * game.gain(position, move)
            keeps = self.extra_turns and game.keeps_turn(position, move)
            position = game.play(position, move)
            if not keeps:
                sign = -sign
        return sign * value, margin

    def back_up(self, node: Node, won: float, margin: float) -> None:
        """Add the result (``won``: 1, 1/2, 0 for the root's mover; ``margin``: the root
        mover's margin) to every node on the path, each from its chooser's side."""
        current: Node | None = node
        while current is not None:
            current.visits += 1
            chooser = current.parent.side if current.parent is not None else 1
            current.reward += won if chooser > 0 else 1 - won
            current.margin += margin * chooser
            current = current.parent

    def ranked(self) -> list[Node]:
        """The root's children best first: proved wins for the mover, then by mean result
        (a score game: mean margin), then by visits; proved losses last."""
        def merit(child: Node) -> tuple[float, float, int]:
            proved = None if self.is_score else child.proved_for_parent()
            if proved is not None:
                return (proved, proved, child.visits)
            if self.is_score:
                return (0, child.margin / child.visits if child.visits else -math.inf, child.visits)
            return (0, 2 * self.mean(child) - 1, child.visits)
        return sorted(self.root.children, key=merit, reverse=True)

    def prove_upwards(self, node: Node | None) -> None:
        """MCTS-Solver's backup: prove ``node`` and its ancestors where the children allow."""
        while node is not None and node.proved is None:
            seen = [child.proved_for_parent() for child in node.children]
            if 1 in seen:
                node.proved = 1
            elif not node.untried and node.untried is not None and None not in seen:
                node.proved = max(value for value in seen if value is not None)
            else:
                return
            node = node.parent

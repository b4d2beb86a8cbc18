"""Retrograde analysis in pure Python: the oracle for the compiled kernel (retro/kernel.py).

Three phases, none recursive, so a game of any depth and any cycle structure is safe:

1. **Enumerate** every position reachable from the root, breadth first, one index per
   stable key (Game.key), recording each position's children as indices (a CSR edge list:
   ``first[i]:first[i + 1]`` slices ``edges``). Ended positions get their value here.
2. **Parents**: the same edges reversed, so a solved position can reach its parents.
3. **Retrograde**: work backward from the ended positions, keeping per position a count of
   children not yet known to be won for their mover (i.e. lost for this position's mover),
   as the GamesCrafters' loopy solver does. A position with a child lost for that child's
   mover is a win; a position whose counter reaches zero (every child won for its mover) is a
   loss. Across an edge after which the mover moves again (extra turns, Game.keeps_turn) the
   child's mover is the parent's, so its state counts the other way round. Solved positions
   are taken first in, first out, which visits them in order of remoteness: so the first
   losing child found gives the shortest win, and the last winning child to bring a counter
   to zero gives the longest loss. Whatever is never solved is a draw: neither side can
   force a win from it.

Arrays are ``array('q')`` (8 bytes an entry, no int objects), so memory grows with the
positions and edges only; ``max_positions`` bounds it (LimitReached beyond).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from perfectplay import value as V
from perfectplay.errors import LimitReached
from perfectplay.game import Game, Outcome
from perfectplay.retro.result import Progress, ProgressFn, RetroResult, RetroStats

# Report progress every this many positions, and poll for a stop every POLL_EVERY: a game
# with slow moves (chess, some 1,000 positions a second) went 30 s between polls, past any
# --time.
PROGRESS_EVERY = 1 << 15
POLL_EVERY = 1 << 9
UNKNOWN, WON, LOST, DRAWN = 0, 1, 2, 3
PollFn = Callable[[int], None]


def _ignore(done: int) -> None:
    return None


class Graph:
    """The reachable position graph of one game from one root, as flat integer arrays."""

    def __init__(self) -> None:
        self.index: dict[Hashable, int] = {}
        self.keys: list[Hashable] = []
        self.positions: list[Any] = []
        self.first = array("q", [0])
        self.edges = array("q")
        # Per edge: 1 when the mover moves again after it (extra turns), else 0.
        self.same_mover = bytearray()
        # Per position: UNKNOWN, or WON / LOST / DRAWN once its value is known.
        self.state = bytearray()
        self.remoteness = array("q")

    def __len__(self) -> int:
        return len(self.keys)


def enumerate_graph(game: Game[Any, Any], root: Any, *, max_positions: int,
                    progress: ProgressFn | None = None, poll: PollFn = _ignore,
                    started: float | None = None) -> Graph:
    """Every position reachable from ``root``, breadth first, with its children's indices.

    A position whose game has ended (Game.outcome, or no legal move) is given its value
    and not expanded."""
    started = time.perf_counter() if started is None else started
    moves_of, play, outcome_of, key_of = game.moves, game.play, game.outcome, game.key
    extra, keeps = game.properties.extra_turns, game.keeps_turn
    no_move = WON if game.properties.misere else LOST
    ended = {Outcome.WIN: WON, Outcome.LOSS: LOST, Outcome.DRAW: DRAWN}
    graph = Graph()
    same_mover = graph.same_mover
    index, keys, positions, first, edges = graph.index, graph.keys, graph.positions, graph.first, graph.edges
    state = graph.state
    index[key_of(root)] = 0
    keys.append(key_of(root))
    positions.append(root)
    done = 0
    while done < len(positions):
        position = positions[done]
        result = outcome_of(position)
        moves = moves_of(position) if result is None else ()
        if result is not None:
            state.append(ended[result])
        elif not moves:
            state.append(no_move)
        else:
            state.append(UNKNOWN)
            for move in moves:
                child = play(position, move)
                key = key_of(child)
                at = index.get(key)
                if at is None:
                    at = len(keys)
                    if at >= max_positions:
                        raise LimitReached(
                            f"retrograde analysis of {game.name} stopped: more than {at:,} positions "
                            f"(the limit: --nodes, or max_positions in the library)")
                    index[key] = at
                    keys.append(key)
                    positions.append(child)
                edges.append(at)
                same_mover.append(1 if extra and keeps(position, move) else 0)
        first.append(len(edges))
        done += 1
        if not done & (POLL_EVERY - 1):
            poll(done)
        if not done & (PROGRESS_EVERY - 1) and progress is not None:
            progress(Progress("enumerate", done, None, time.perf_counter() - started))
    graph.remoteness = array("q", bytes(8 * len(keys)))
    return graph


def reverse_edges(graph: Graph) -> tuple[array[int], array[int], bytearray]:
    """The parents of every position, as a CSR list like the children (a duplicate move to
    the same child appears twice, matching the children counter), with each reversed edge's
    same-mover flag. numpy sorts the edges by child; the result goes back into arrays, which
    Python indexes fastest."""
    count = len(graph)
    children = np.frombuffer(graph.edges, dtype=np.int64) if len(graph.edges) else np.zeros(0, np.int64)
    degree = np.diff(np.frombuffer(graph.first, dtype=np.int64)).astype(np.int64)
    owners = np.repeat(np.arange(count, dtype=np.int64), degree)
    order = np.argsort(children, kind="stable")
    parents = owners[order]
    flags = np.frombuffer(bytes(graph.same_mover), dtype=np.uint8)
    same_mover = bytearray(flags[order].tobytes()) if len(flags) else bytearray()
    starts = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(np.bincount(children, minlength=count), out=starts[1:])
    return array("q", starts.tobytes()), array("q", parents.tobytes()), same_mover


def propagate(graph: Graph, starts: array[int], parents: array[int], same_mover: bytearray, *,
              progress: ProgressFn | None = None, poll: PollFn = _ignore,
              started: float = 0.0) -> None:
    """Phase 3 (see the module docstring): fills ``graph.state`` and ``graph.remoteness``."""
    state, remoteness, first = graph.state, graph.remoteness, graph.first
    pending = array("q", (first[i + 1] - first[i] for i in range(len(graph))))
    queue = array("q", (i for i in range(len(graph)) if state[i] in (WON, LOST)))
    head = 0
    while head < len(queue):
        child = queue[head]
        head += 1
        further = remoteness[child] + 1
        lost = state[child] == LOST
        for e in range(starts[child], starts[child + 1]):
            parent = parents[e]
            if state[parent] == UNKNOWN:
                # Lost for the child's mover wins for the parent's, unless they are one.
                if lost != same_mover[e]:
                    state[parent] = WON
                    remoteness[parent] = further
                    queue.append(parent)
                else:
                    pending[parent] -= 1
                    if pending[parent] == 0:
                        state[parent] = LOST
                        remoteness[parent] = further
                        queue.append(parent)
        if not head & (PROGRESS_EVERY - 1):
            poll(head)
            if progress is not None:
                progress(Progress("retrograde", head, len(graph), time.perf_counter() - started))


def node_values(state: bytearray | np.ndarray, remoteness: Any) -> np.ndarray:
    """perfectplay.value integers from (state, remoteness) arrays: WIN - r, r - WIN or 0."""
    codes = np.frombuffer(bytes(state), dtype=np.uint8) if isinstance(state, bytearray) else state
    distance = np.asarray(remoteness, dtype=np.int64)
    values = np.zeros(len(codes), dtype=np.int64)
    won, lost = codes == WON, codes == LOST
    values[won] = V.WIN - distance[won]
    values[lost] = distance[lost] - V.WIN
    return values


def solve_python(game: Game[Any, Any], root: Any, *, max_positions: int,
                 progress: ProgressFn | None = None, poll: PollFn = _ignore) -> RetroResult:
    """Every position reachable from ``root`` with its value (see retro.solve_all)."""
    started = time.perf_counter()
    graph = enumerate_graph(game, root, max_positions=max_positions, progress=progress,
                            poll=poll, started=started)
    enumerated = time.perf_counter()
    if progress is not None:
        progress(Progress("enumerate", len(graph), len(graph), enumerated - started))
    starts, parents, same_mover = reverse_edges(graph)
    if progress is not None:
        progress(Progress("parents", len(graph), len(graph), time.perf_counter() - started))
    propagate(graph, starts, parents, same_mover, progress=progress, poll=poll, started=started)
    values = node_values(graph.state, graph.remoteness)
    stats = RetroStats(positions=len(graph), edges=len(graph.edges), enumerate_s=enumerated - started,
                       solve_s=time.perf_counter() - enumerated, engine="python")
    if progress is not None:
        progress(Progress("retrograde", len(graph), len(graph), stats.elapsed_s))
    return RetroResult(game.name, graph.keys, values, graph.positions, stats, _index=graph.index)

"""Small games with extra turns for tests/test_extra_turns.py, and brute forces for them that
know nothing of negamax: they follow the players by identity (player 0 maximises player 0's
result, player 1 minimises it) and never negate a value.

Heaps: a move takes 1 or 2 stones from a heap; emptying a heap gives the mover another move
(so a chain of extra turns empties several heaps in a row). Each player holds one pass,
an ordinary move that hands the turn over. A position is (heaps, player, passes left by
player 0, by player 1) and faces the player to move.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from perfectplay import value as V
from perfectplay.game import Game, Kind, Outcome, Properties

Heaps = tuple[tuple[int, ...], int, int, int]
PASS = "pass"


class ExtraTurnHeaps(Game[Heaps, Any]):
    """Normal play (no move loses), or a score game (``score=True``) where taking from heap i
    earns the weight of that heap per stone (weights 1, -1, 2, ... so some moves lose points)."""

    name = "extra-turn-heaps"

    def __init__(self, score: bool = False, heaps: tuple[int, ...] = (2, 1, 3)) -> None:
        self.score = score
        self.heaps = heaps
        kind = Kind.SCORE if score else Kind.WIN_LOSS
        self.properties = Properties(kind=kind, extra_turns=True)

    def start(self) -> Heaps:
        return (self.heaps, 0, 1, 1)

    def moves(self, position: Heaps) -> list[Any]:
        heaps, player, *passes = position
        found: list[Any] = [(index, take) for index, size in enumerate(heaps)
                            for take in (1, 2) if take <= size]
        if passes[player]:
            found.append(PASS)
        return found

    def play(self, position: Heaps, move: Any) -> Heaps:
        heaps, player, pass0, pass1 = position
        if move == PASS:
            return (heaps, 1 - player, pass0 - (player == 0), pass1 - (player == 1))
        index, take = move
        left = heaps[:index] + (heaps[index] - take,) + heaps[index + 1:]
        next_player = player if left[index] == 0 else 1 - player
        return (left, next_player, pass0, pass1)

    def keeps_turn(self, position: Heaps, move: Any) -> bool:
        return move != PASS and position[0][move[0]] == move[1]

    def gain(self, position: Heaps, move: Any) -> int:
        if move == PASS:
            return 0
        index, take = move
        return take * weight(index)

    def format_move(self, position: Heaps, move: Any) -> str:
        return PASS if move == PASS else f"{move[0]}:{move[1]}"

    def format_position(self, position: Heaps) -> str:
        heaps, player, pass0, pass1 = position
        return f"{' '.join(map(str, heaps))} p{player} {pass0}{pass1}"

    def tabulation(self, position: Heaps) -> list[Heaps]:
        """Every move removes a stone or a pass: order by what is left, least first."""
        seen = {position}
        frontier = [position]
        while frontier:
            node = frontier.pop()
            for move in self.moves(node):
                child = self.play(node, move)
                if child not in seen:
                    seen.add(child)
                    frontier.append(child)
        return sorted(seen, key=lambda node: sum(node[0]) + node[2] + node[3])

    def random_position(self, rng: random.Random) -> Heaps:
        return random_heaps(rng)


def weight(index: int) -> int:
    return (1, -1, 2, -2)[index % 4]


def random_heaps(rng: random.Random) -> Heaps:
    heaps = tuple(rng.randrange(0, 4) for _ in range(rng.randrange(1, 4)))
    return (heaps, rng.randrange(2), rng.randrange(2), rng.randrange(2))


def brute_value(game: Game[Any, Any], position: Any) -> int:
    """The value from the side to move, by max/min over player identities: a win/loss game
    counts plies (player 0's result is WIN - plies when it wins), a score game sums the
    points player 0 earns minus player 1's. ``position[1]`` is the player to move."""
    score = game.properties.is_score

    @functools.cache
    def for_player0(node: Any) -> int:
        player = node[1]
        moves = game.moves(node)
        if not moves:
            if score:
                return 0
            return -V.WIN if player == 0 else V.WIN  # no move: the player to move loses
        results = []
        for move in moves:
            child = for_player0(game.play(node, move))
            if score:
                earned = game.gain(node, move)
                results.append(child + (earned if player == 0 else -earned))
            else:  # one ply further from the end
                results.append(child - 1 if child > 0 else child + 1 if child < 0 else 0)
        return max(results) if player == 0 else min(results)

    found = for_player0(position)
    return found if position[1] == 0 else -found


class LoopyExtraTurns(Game[tuple[int, int], int]):
    """A random directed graph with cycles: a position is (node, player); each edge either
    hands the turn over or (one in three) keeps it. Nodes without edges lose for the mover."""

    name = "loopy-extra-turns"
    properties = Properties(loopy=True, can_draw=True, extra_turns=True)

    def __init__(self, seed: int, nodes: int = 9) -> None:
        rng = random.Random(seed)
        self.edges = {node: sorted(rng.sample(range(nodes), rng.randrange(0, 3)))
                      for node in range(nodes)}
        self.keeps = {(node, to): rng.randrange(3) == 0
                      for node, targets in self.edges.items() for to in targets}

    def start(self) -> tuple[int, int]:
        return (0, 0)

    def moves(self, position: tuple[int, int]) -> list[int]:
        return self.edges[position[0]]

    def play(self, position: tuple[int, int], move: int) -> tuple[int, int]:
        node, player = position
        return (move, player if self.keeps[(node, move)] else 1 - player)

    def keeps_turn(self, position: tuple[int, int], move: int) -> bool:
        return self.keeps[(position[0], move)]

    def outcome(self, position: tuple[int, int]) -> Outcome | None:
        return None


def loopy_brute_values(game: LoopyExtraTurns) -> dict[tuple[int, int], int]:
    """Every position's value from the side to move, by sweeps over player identities: a
    position is won by its player at sweep k if some edge reaches a position already won by
    that same player (whoever moves there), lost if every edge reaches one won by the other;
    what no sweep decides is a draw."""
    positions = [(node, player) for node in game.edges for player in (0, 1)]
    winner: dict[tuple[int, int], tuple[int, int]] = {}  # position -> (winning player, plies)
    for position in positions:
        if not game.moves(position):
            winner[position] = (1 - position[1], 0)
    sweep = 0
    while True:
        sweep += 1
        decided = {}
        for position in positions:
            if position in winner:
                continue
            player = position[1]
            known = [winner.get(game.play(position, move)) for move in game.moves(position)]
            if any(result is not None and result[0] == player for result in known):
                decided[position] = (player, sweep)
            elif all(result is not None and result[0] != player for result in known):
                decided[position] = (1 - player, sweep)
        if not decided:
            break
        winner.update(decided)
    values = {}
    for position in positions:
        if position not in winner:
            values[position] = 0
        else:
            who, plies = winner[position]
            values[position] = V.WIN - plies if who == position[1] else plies - V.WIN
    return values

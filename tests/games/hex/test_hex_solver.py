"""Hex's connection solver and its knowledge (virtual connections, must-play regions, dead
and captured cells) against plain search: a brute force on every 3x3 position, the plain
kernel on random 4x4 and 5x5 positions; and the maps of docs/pns.md."""

from __future__ import annotations

import random
from functools import cache

import pytest

from perfectplay import registry
from perfectplay.compiled import numba_available

pytestmark = pytest.mark.skipif(not numba_available(), reason="numba is not installed")


class Knowledge:
    """One board's connection and inferior-cell tests, called as the solver calls them."""

    def __init__(self, size: int) -> None:
        import numpy as np

        from perfectplay.games.hex import connections
        self.game, self.start = registry.load("hex", {"size": size})
        self.neighbours, self.bridges = connections.geometry_tables(size)
        self.work = connections.Workspace()
        game = self.game
        self.edges = np.array([game.top, game.bottom, game.left, game.right], dtype=np.int64)
        self.scratch = np.zeros(8, dtype=np.int64)

    def sides(self, position: tuple[int, int]) -> tuple[int, int, int, int, int, int, bool]:
        """(mover's stones, other's, mover's edges, other's edges, whether X moves)."""
        x, o = position
        game = self.game
        if x.bit_count() == o.bit_count():
            return x, o, game.top, game.bottom, game.left, game.right, True
        return o, x, game.left, game.right, game.top, game.bottom, False

    def connection(self, stones: int, other: int, source: int,
                   target: int) -> tuple[int, int, int, int, int]:
        from perfectplay.games.hex.connections import edges_connection
        work = self.work
        return edges_connection(stones, other, self.game.board, source, target, self.neighbours,
                                self.bridges, work.full, work.full_count, work.semi,
                                work.semi_key, work.semi_count, work.fresh, work.semi_changed,
                                work.groups)

    def filled(self, position: tuple[int, int]) -> tuple[int, int]:
        from perfectplay.games.hex.inferior import fill_inferior
        x, o = position
        x_moves = x.bit_count() == o.bit_count()
        return fill_inferior(x, o, not x_moves, self.game.board, self.edges, self.neighbours,
                             self.scratch)


def check_knowledge(knowledge: Knowledge, position: tuple[int, int], mover_wins: bool,
                    winning_moves: set[int]) -> None:
    """What the connections and the fill claim about ``position`` must agree with its value
    and keep a winning move."""
    from perfectplay.games.hex.connections import FULL, NONE, SEMI
    game = knowledge.game
    text = game.format_position(position)
    mover, other, source, target, other_source, other_target, _ = knowledge.sides(position)
    kind, _, key, _, _ = knowledge.connection(mover, other, source, target)
    assert kind == NONE or mover_wins, text
    if kind == SEMI:
        assert key in winning_moves, text
    kind, must, _, _, _ = knowledge.connection(other, mover, other_source, other_target)
    assert kind != FULL or not mover_wins, text
    if kind == SEMI and mover_wins:
        assert must & sum(1 << move for move in winning_moves), text


def test_knowledge_and_solver_agree_with_a_brute_force_on_every_3x3_position() -> None:
    from perfectplay.games.hex.solver import ConnectionSearcher
    knowledge = Knowledge(3)
    game = knowledge.game
    value = brute_force(game)
    searcher = ConnectionSearcher(game, 1 << 12)
    positions = reachable(game, knowledge.start)
    assert len(positions) == 4_520  # undecided positions from the empty 3x3 board
    for position in positions:
        mover, other, *_, x_moves = knowledge.sides(position)
        x, o = position
        wins = value(x, o, x_moves)
        winning = {move for move in game.moves(position)
                   if game.outcome(game.play(position, move)) is not None
                   or not value(*game.play(position, move), not x_moves)}
        check_knowledge(knowledge, position, wins, winning)
        assert value(*knowledge.filled(position), x_moves) == wins, game.format_position(position)
        found = searcher.mover_wins(position)
        assert found is not None and found[0] == wins, game.format_position(position)
        assert not wins or found[1] in winning, game.format_position(position)


@pytest.mark.parametrize("size, positions, least_stones", [(4, 150, 0), (5, 60, 6)])
def test_knowledge_and_solver_agree_with_the_plain_kernel_on_random_positions(
        size: int, positions: int, least_stones: int) -> None:
    from perfectplay.games.hex.kernel import Searcher
    from perfectplay.games.hex.solver import ConnectionSearcher
    knowledge = Knowledge(size)
    game = knowledge.game
    plain = Searcher(game, 1 << 18)
    solver = ConnectionSearcher(game, 1 << 18)

    def plain_value(position: tuple[int, int]) -> bool:
        ended = game.outcome(position)
        if ended is not None:
            return ended.name == "WIN"
        found = plain.mover_wins(position)
        assert found is not None
        return found[0]

    seen = set()
    for position in random_positions(game, positions, least_stones, random.Random(size)):
        wins = plain_value(position)
        seen.add(wins)
        winning = {move for move in game.moves(position)
                   if not plain_value(game.play(position, move))}
        check_knowledge(knowledge, position, wins, winning)
        found = solver.mover_wins(position)
        assert found is not None and found[0] == wins, game.format_position(position)
        assert not wins or found[1] in winning, game.format_position(position)
    assert seen == {True, False}


def test_the_maps_of_docs_pns_md_come_out_of_the_connection_solver() -> None:
    assert winning_first_moves(3) == {"b2", "a3", "c1", "a2", "c2"}
    assert winning_first_moves(4) == {"a4", "b3", "c2", "d1"}
    assert winning_first_moves(5) == {"c3", "e1", "a5", "b2", "c2", "d2", "e2", "b3", "d4",
                                      "c4", "b4", "a4", "d3"}


def test_a_half_turn_maps_the_board_onto_itself() -> None:
    from perfectplay.games.hex.solver import rotated
    game, _ = registry.load("hex", {"size": 5})
    last = game.parse_cell("e5")
    assert rotated(1 << game.parse_cell("a1"), last) == 1 << last
    assert rotated(1 << game.parse_cell("b1"), last) == 1 << game.parse_cell("d5")
    assert rotated(rotated(game.board, last), last) == game.board == rotated(game.board, last)


def winning_first_moves(size: int) -> set[str]:
    from perfectplay.games.hex.solver import ConnectionSearcher
    game, start = registry.load("hex", {"size": size})
    searcher = ConnectionSearcher(game, 1 << 18)
    winning = set()
    for move in game.moves(start):
        found = searcher.mover_wins(game.play(start, move))
        assert found is not None
        if not found[0]:
            winning.add(game.cell_name(move))
    return winning


def brute_force(game):  # type: ignore[no-untyped-def]
    """value(x, o, x_moves): whether the mover wins, for any stones (filled positions break
    the stone counts, so the mover is given): a plain minimax over the rules' ``connected``."""
    @cache
    def value(x: int, o: int, x_moves: bool) -> bool:
        if game.connected(x, game.top, game.bottom):
            return x_moves
        if game.connected(o, game.left, game.right):
            return not x_moves
        empty = [cell for cell in game.cells if not (x | o) >> cell & 1]
        if x_moves:
            return any(not value(x | 1 << cell, o, False) for cell in empty)
        return any(not value(x, o | 1 << cell, True) for cell in empty)
    return value


def reachable(game, start):  # type: ignore[no-untyped-def]
    seen, stack = {start}, [start]
    while stack:
        position = stack.pop()
        for move in game.moves(position):
            child = game.play(position, move)
            if child not in seen and game.outcome(child) is None:
                seen.add(child)
                stack.append(child)
    return sorted(seen)


def random_positions(game, count, least_stones, rng):  # type: ignore[no-untyped-def]
    found = []
    while len(found) < count:
        position = game.start()
        for _ in range(rng.randrange(least_stones, game.size * game.size - 1)):
            child = game.play(position, rng.choice(game.moves(position)))
            if game.outcome(child) is not None:
                break
            position = child
        found.append(position)
    return found


def test_a_third_row_stone_joins_both_edges_by_ziggurats_on_5x5() -> None:
    from perfectplay.games.hex.connections import FULL, SEMI
    knowledge = Knowledge(5)
    game = knowledge.game
    x, o = game.parse_position("c3")
    kind, _, _, carrier, _ = knowledge.connection(x, o, game.top, game.bottom)
    assert kind == FULL and carrier.bit_count() == 16  # two ziggurats of 8 cells each
    x, o = game.parse_position("c3 c2")  # O intrudes into the upper one; X, to move, restores it
    kind, *_ = knowledge.connection(x, o, game.top, game.bottom)
    assert kind in (FULL, SEMI)

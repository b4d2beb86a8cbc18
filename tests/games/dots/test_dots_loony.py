"""Loony endgames of Dots and Boxes (games/dots/loony.py): positions made only of chains and
loops, valued by their lengths, against the numba table (every position of 3x3 boxes, valued
with no rule) and against the chain kernel searching them without any rule (4x3, 4x4)."""

from __future__ import annotations

import random

import pytest

from perfectplay.compiled import numba_available
from perfectplay.games.dots.rules import DotsAndBoxes

pytestmark = pytest.mark.skipif(not numba_available(), reason="numba is not installed")


def _sides(game: DotsAndBoxes, drawn: int) -> list[int]:
    return [(drawn & mask).bit_count() for mask in game.box_masks]


def random_loony(game: DotsAndBoxes, rng: random.Random) -> int | None:
    """Lines drawn at random while every box has at most two sides, until no such line is
    left; then some of the chains and loops taken whole. None when a box ends with fewer
    than two sides (a junction: not a position of chains and loops only)."""
    drawn = 0
    while True:
        safe = [line for line in range(game.edges) if not drawn >> line & 1
                and all(_sides(game, drawn)[box] < 2 for box in game.boxes_of[line])]
        if not safe:
            break
        drawn |= 1 << rng.choice(safe)
    if any(side != 2 for side in _sides(game, drawn)):
        return None
    # Take some whole components: draw every line of the boxes reached from a random box.
    for _ in range(rng.randrange(3)):
        box = rng.randrange(game.boxes)
        seen, stack = {box}, [box]
        while stack:
            here = stack.pop()
            for line in range(game.edges):
                if game.box_masks[here] >> line & 1 and not drawn >> line & 1:
                    for there in game.boxes_of[line]:
                        if there not in seen:
                            seen.add(there)
                            stack.append(there)
        for here in seen:
            drawn |= game.box_masks[here]
    return drawn


def loony_positions(game: DotsAndBoxes, seed: int, count: int) -> list[int]:
    rng = random.Random(seed)
    found: list[int] = []
    while len(found) < count:
        drawn = random_loony(game, rng)
        if drawn is not None:
            found.append(drawn)
    return found


def _value(game: DotsAndBoxes, drawn: int) -> int:
    import numpy as np

    from perfectplay.games.dots.chains import board
    from perfectplay.games.dots.loony import loony_value
    geometry = board(game)
    sides = np.array(_sides(game, drawn), dtype=np.int64)
    return int(loony_value(drawn, sides, geometry.box_lines, geometry.line_boxes))


def test_chains_and_loops_of_3x3_are_valued_as_the_table_values_them() -> None:
    from perfectplay.games.dots.kernel import table
    game = DotsAndBoxes(3, 3)
    exact, _ = table(game)
    positions = loony_positions(game, 33, 300)
    assert len(set(positions)) > 100
    for drawn in positions:
        assert _value(game, drawn) == int(exact[drawn]), bin(drawn)


@pytest.mark.parametrize(("width", "height", "count"), [(4, 3, 40), (4, 4, 12)])
def test_chains_and_loops_of_larger_boards_are_valued_as_a_search_without_rules_finds(
        width: int, height: int, count: int) -> None:
    from perfectplay.games.dots.chains import LOONY_ENDGAME, Searcher
    game = DotsAndBoxes(width, height)
    plain = Searcher(game, rules=0, table_bits=20)
    ruled = Searcher(game, rules=LOONY_ENDGAME, table_bits=16)
    values = set()
    for drawn in loony_positions(game, width * 10 + height, count):
        expected = plain.value(drawn)
        assert _value(game, drawn) == expected, bin(drawn)
        assert ruled.value(drawn) == expected
        values.add(expected)
    assert len(values) > 3  # positions of several values, not one kind


def test_a_lone_long_chain_a_loop_and_their_sum_by_hand() -> None:
    import numpy as np

    from perfectplay.games.dots.loony import components_value
    chains = np.zeros(17, dtype=np.int64)
    loops = np.zeros(17, dtype=np.int64)
    chains[3] = 1
    assert components_value(chains, loops) == -3  # the opener gives all three away
    chains[3], loops[4] = 0, 1
    assert components_value(chains, loops) == -4
    # A 3-chain and a 4-loop. Open the chain: its taker hands two back (-1 + 2) and the
    # opener must open the loop (-4): -3. Open the loop: its taker takes the four and opens
    # the chain, -4 + 3 (handing the four back would give the opener 4 - 3).
    chains[3] = 1
    assert components_value(chains, loops) == -1

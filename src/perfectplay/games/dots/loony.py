"""The exact value of a Dots and Boxes position made only of independent chains and loops:
every box not yet taken has exactly two sides, so every line left gives boxes away (a loony
endgame in Berlekamp's "The Dots and Boxes Game", 2000; the strings-and-coins analysis that
Barker and Korf, "Solving Dots-And-Boxes", AAAI 2012, also use). Each such box lies on one
chain, whose two ends are at the border, or on one loop, and the value depends on the lengths
alone, so a small recursion over them replaces the search of the whole tail of the game.

The side to move must open a component; the other side then takes boxes. With ``rest`` the
value of the other components for whoever moves next there:

* a chain of one or two boxes (two opened by its middle line): the taker takes them all and
  moves on, ``-(n + rest)``;
* a chain of n >= 3: the taker takes all and moves on, or takes all but two and hands those
  two back with the double-dealing line, so the opener must move on: ``min(-(n + rest),
  (4 - n) + rest)``;
* a loop of n >= 4: the same, with four handed back (two pairs): ``min(-(n + rest),
  (8 - n) + rest)``.

Every other way of playing them is no better for the side that chooses it; these are the
chain rules of games/dots/chains.py (FREE_BOX, LONG_CHAIN, BOX_ON_OFFER, HARD_HEARTED,
ONE_OPENING) applied to such a position, so the value is the search's with those rules, and
the tests check it against a search without any rule.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def simple_components(drawn: int, sides: np.ndarray, box_lines: np.ndarray, line_boxes: np.ndarray,
                      chains: np.ndarray, loops: np.ndarray) -> None:
    """Counts the chains (``chains[n]``: those of n boxes) and loops of a position whose boxes
    not yet taken (``sides[b] < 4``) all have two sides. Trusts that they do."""
    chains[:] = 0
    loops[:] = 0
    seen = 0
    for start in range(sides.shape[0]):
        if sides[start] != 2 or (seen >> start) & 1:
            continue
        seen |= 1 << start
        length, loop = 1, False
        for k in range(4):
            line = box_lines[start, k]
            if (drawn >> line) & 1:
                continue
            here = start
            while True:
                there = line_boxes[line, 0] if line_boxes[line, 0] != here else line_boxes[line, 1]
                if there < 0:
                    break
                if there == start:
                    loop = True
                    break
                seen |= 1 << there
                length += 1
                for j in range(4):
                    other = box_lines[there, j]
                    if other != line and not (drawn >> other) & 1:
                        line = other
                        break
                here = there
            if loop:
                break
        if loop:
            loops[length] += 1
        else:
            chains[length] += 1


@njit(cache=True)
def components_value(chains: np.ndarray, loops: np.ndarray) -> int:
    """Boxes still to win for the side to move, who must open one of the chains and loops
    counted in ``chains`` and ``loops`` (by length); the arrays are restored on return."""
    best, found = -1 << 20, False
    for n in range(1, chains.shape[0]):
        if chains[n]:
            chains[n] -= 1
            rest = components_value(chains, loops)
            chains[n] += 1
            worth = -(n + rest) if n <= 2 else min(-(n + rest), 4 - n + rest)
            best, found = max(best, worth), True
        if loops[n]:
            loops[n] -= 1
            rest = components_value(chains, loops)
            loops[n] += 1
            best, found = max(best, min(-(n + rest), 8 - n + rest)), True
    return best if found else 0


@njit(cache=True)
def loony_value(drawn: int, sides: np.ndarray, box_lines: np.ndarray, line_boxes: np.ndarray) -> int:
    """The value (boxes still to win, side to move) of a position whose boxes not yet taken
    all have two sides."""
    size = sides.shape[0] + 1
    chains = np.zeros(size, dtype=np.int64)
    loops = np.zeros(size, dtype=np.int64)
    simple_components(drawn, sides, box_lines, line_boxes, chains, loops)
    return components_value(chains, loops)

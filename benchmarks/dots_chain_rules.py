"""Check every chain rule of the Dots and Boxes kernel (games/dots/chains.py) on every position
of small boards against the numba table (games/dots/kernel.py), which values every set of
lines exactly without any rule:

* a rule that plays a line (FREE_BOX, LONG_CHAIN): the position's value is that line's;
* a rule that leaves lines out (BOX_ON_OFFER, HARD_HEARTED, ONE_OPENING): the best of the
  lines it keeps is the position's value;
* LOONY_ENDGAME (games/dots/loony.py): every position whose boxes not yet taken all have two
  sides is valued as the table values it.

    .venv/bin/python benchmarks/dots_chain_rules.py 2x2 3x2 4x2 3x3

Prints, per board and rule, the positions (or lines) the rule decided and how many of them
disagree with the table (every count of disagreements must be 0).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from numba import njit

from perfectplay.games.dots import chains
from perfectplay.games.dots.kernel import table
from perfectplay.games.dots.loony import loony_value
from perfectplay.games.dots.rules import DotsAndBoxes


@njit(cache=True)
def _sides(drawn: int, box_masks: np.ndarray) -> np.ndarray:
    sides = np.zeros(box_masks.shape[0], dtype=np.int64)
    for b in range(box_masks.shape[0]):
        sides[b] = chains._popcount(drawn & box_masks[b])
    return sides


@njit(cache=True)
def _playing_rule(values: np.ndarray, box_masks: np.ndarray, box_lines: np.ndarray,
                  line_boxes: np.ndarray, rules: int) -> tuple[int, int]:
    decided = wrong = 0
    for drawn in range(values.shape[0] - 1):
        line = chains._forced(drawn, _sides(drawn, box_masks), box_masks, box_lines, line_boxes, rules)
        if line < 0:
            continue
        decided += 1
        gain = chains.boxes_taken(drawn, line, box_masks, line_boxes)
        if values[drawn] != gain + values[drawn | (1 << line)]:
            wrong += 1
    return decided, wrong


@njit(cache=True)
def _pruning_rule(values: np.ndarray, box_masks: np.ndarray, box_lines: np.ndarray,
                  line_boxes: np.ndarray, rules: int, order: np.ndarray) -> tuple[int, int]:
    edges = line_boxes.shape[0]
    moves = np.zeros(edges, dtype=np.int64)
    gains = np.zeros(edges, dtype=np.int64)
    left_out = wrong = 0
    for drawn in range(values.shape[0] - 1):
        sides = _sides(drawn, box_masks)
        allowed = -1
        if rules & chains.BOX_ON_OFFER:
            for b in range(box_masks.shape[0]):
                if sides[b] == 3:
                    allowed = chains._run_lines(drawn, b, box_masks, box_lines, line_boxes)
                    break
        count = chains._order(drawn, -1, allowed, sides, order, box_masks, box_lines, line_boxes,
                              rules, moves, gains)
        left_out += edges - chains._popcount(drawn) - count
        best = -100
        for i in range(count):
            child = values[drawn | (1 << moves[i])]
            best = max(best, gains[i] + child if gains[i] else -child)
        if best != values[drawn]:
            wrong += 1
    return left_out, wrong


@njit(cache=True)
def _loony_rule(values: np.ndarray, box_masks: np.ndarray, box_lines: np.ndarray,
                line_boxes: np.ndarray) -> tuple[int, int]:
    valued = wrong = 0
    for drawn in range(values.shape[0] - 1):
        sides = _sides(drawn, box_masks)
        if np.any((sides != 2) & (sides != 4)):
            continue
        valued += 1
        if loony_value(drawn, sides, box_lines, line_boxes) != values[drawn]:
            wrong += 1
    return valued, wrong


def main() -> None:
    for size in sys.argv[1:] or ["2x2", "3x2", "4x2", "3x3"]:
        width, height = (int(part) for part in size.split("x"))
        game = DotsAndBoxes(width, height)
        values, _ = table(game)
        board = chains.board(game)
        for name, rule in (("FREE_BOX", chains.FREE_BOX), ("LONG_CHAIN", chains.LONG_CHAIN)):
            began = time.process_time()
            decided, wrong = _playing_rule(values, board.box_masks, board.box_lines, board.line_boxes, rule)
            print(f"{size} {name}: plays the line in {decided:,} of {values.shape[0]:,} "
                  f"positions; {wrong} disagree ({time.process_time() - began:.1f} CPU s)", flush=True)
        for name, rule in (("BOX_ON_OFFER", chains.BOX_ON_OFFER), ("HARD_HEARTED", chains.HARD_HEARTED),
                           ("ONE_OPENING", chains.ONE_OPENING)):
            began = time.process_time()
            left_out, wrong = _pruning_rule(values, board.box_masks, board.box_lines, board.line_boxes,
                                            rule, board.order)
            print(f"{size} {name}: leaves out {left_out:,} lines; {wrong} positions disagree "
                  f"({time.process_time() - began:.1f} CPU s)", flush=True)
        began = time.process_time()
        valued, wrong = _loony_rule(values, board.box_masks, board.box_lines, board.line_boxes)
        print(f"{size} LOONY_ENDGAME: values {valued:,} positions of chains and loops only; {wrong} "
              f"disagree ({time.process_time() - began:.1f} CPU s)", flush=True)


if __name__ == "__main__":
    main()

"""Dots and Boxes searched past the table's 25 lines: alpha-beta in numba with chain rules, the
board's symmetries, a table of bounds and centre-out move ordering (the techniques of Barker
and Korf, "Solving Dots-And-Boxes", AAAI 2012).

The value is the one the rest of the game uses: boxes still to win, from the side to move,
so a completed box is counted as the line that completes it is played, and the table key is
the set of lines drawn. A line that completes a box keeps the mover's value and window
(shifted by the boxes it takes); any other line negates.

Chain rules, each a switch of ``rules`` (so tests can check each against a search without it):

* ``FREE_BOX``: a box with three sides whose missing line touches the border, a box with three
  sides too (the line takes both), or a box with at most one side. Taking it creates no new
  box to take, so the mover loses nothing by taking it now: it is the only line searched.
  (A free box at the border or a double box is worth the same whenever it is taken; the
  neighbour of at most one side is checked, not proved: see below.)
* ``LONG_CHAIN``: a box with three sides that starts a chain of at least three boxes (each
  after the first with two sides), ending at the border or at a box with at most one side.
  Taking the first box leaves a chain of two or more, so every choice the mover had (take
  all, or hand the last two back with a double-dealing move) is still there: only the
  capture is searched.
* ``BOX_ON_OFFER``: with a box of three sides on the board, the only lines searched are those
  that complete a box and those of its run (the boxes of two sides that follow it, where a
  double-dealing line is). Any other line m passes the turn with the run still on offer:
  the opponent may take its k boxes and then stand where the mover would stand after taking
  them and playing m, so m is worth at most -k minus that position's value, and taking the
  run first and then playing m is worth k minus it.
* ``HARD_HEARTED``: a chain of exactly two boxes (two sides each, its two ends at the border
  or at different boxes of at most one side) is offered by its middle line only. Offered by
  an end line (a half-hearted handout) the opponent may still take both and stand where the
  middle line would have left them, or decline: never better for the one who offers.
* ``ONE_OPENING``: a loop, or a chain of three or more boxes (ends as above), is opened at
  one of its lines only (the lowest). A loop opened anywhere is the same loop; a long chain
  opened anywhere leaves its taker the same two choices (all, or all but two), and what is
  left afterwards is the same set of lines.
* ``LOONY_ENDGAME``: when every box not yet taken has exactly two sides, the position is a
  set of independent chains and loops, valued exactly by their lengths (games/dots/loony.py)
  instead of searched.

benchmarks/dots_chain_rules.py checks every rule on every position of 2x2, 3x2, 4x2 and 3x3
boxes against the numba table, which values each position without any rule.

A line a rule plays is drawn inside the node that finds it (no node of its own, nothing
stored). The table holds, per position, a lower and an upper bound packed with the key in one
int64, and the best line beside it, under the smallest of the board's symmetric images (8 on
a square, 4 on a rectangle; carried down the search, each line drawn ORs its image in), with
each corner box's border lines normalised (Barker and Korf's corner symmetry: which of them
is drawn changes nothing), two entries a bucket, the one nearer the end of the game replaced
first. Before searching a position with many lines left, its children's bounds are looked up
(an enhanced transposition cut-off). Lines are searched in the order: the table's line,
captures, the killer (a line giving nothing away that cut off a search with as many lines
drawn), lines giving nothing away, sacrifices. The root's value comes from tests of windows
of two around values of the boxes' parity (MTD(f)).

A search gives up after ``budget`` nodes, or at its next node once ``counters[STOP]`` is set,
and says so (``counters[ABORTED]``); nothing it found after that is stored, so calling it
again goes on where the table left off (perfectplay.search.worker.in_slices slices a solve).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

from perfectplay.games.dots.loony import loony_value
from perfectplay.games.dots.rules import DotsAndBoxes
from perfectplay.games.dots.symmetry import symmetries
from perfectplay.search.worker import in_slices

FREE_BOX = 1
LONG_CHAIN = 2
BOX_ON_OFFER = 4
HARD_HEARTED = 8
ONE_OPENING = 16
LOONY_ENDGAME = 32
ALL_RULES = FREE_BOX | LONG_CHAIN | BOX_ON_OFFER | HARD_HEARTED | ONE_OPENING | LOONY_ENDGAME
# counters' slots
NODES, HITS, ABORTED, STOP, STORES = range(5)
TABLE_BITS = 24
# Positions with at least this many lines left look their children up before searching them.
ETC_LINES = 24
# Bounds sit in 6 bits each, offset by 32: values within [-31, 31] (a 5x6 board has 30 boxes).
_OFFSET = 32
# The golden-ratio multiplier of Fibonacci hashing, as a signed int64.
_GOLDEN = 0x9E3779B97F4A7C15 - (1 << 64)


@njit(cache=True)
def _popcount(x: int) -> int:
    """Set bits of a non-negative int64 (SWAR)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def _mirror(drawn: int, images: np.ndarray, mirrored: np.ndarray) -> None:
    """Writes ``drawn``'s image under each of the board's symmetries s into ``mirrored[s]``;
    ``images[s, k, byte]`` is the image under symmetry s of the lines of byte k of a mask."""
    for s in range(images.shape[0]):
        image = 0
        for k in range(images.shape[1]):
            image |= images[s, k, (drawn >> (8 * k)) & 255]
        mirrored[s] = image


@njit(cache=True)
def _smallest(mirrored: np.ndarray, maps: np.ndarray, line: int, borders: np.ndarray) -> tuple[int, int]:
    """The table key of a position with ``line`` drawn too (none: -1), whose images under the
    board's symmetries are ``mirrored[s]``: the smallest image, once the border lines of each
    box with two or more of them are normalised; and the symmetry that gives it.

    A line on the border touches one box only, so which of a box's border lines are drawn
    changes nothing but how many: positions that differ only there (a corner box with its
    top line drawn, or its left line) share a key (Barker and Korf's corner symmetry).
    ``borders[k]`` holds such a box's border lines (column 0) and the lowest c of them
    (column 1 + c)."""
    best, best_s = -1, 0
    for s in range(mirrored.shape[0]):
        image = mirrored[s] if line < 0 else mirrored[s] | (1 << maps[s, line])
        for k in range(borders.shape[0]):
            lines = borders[k, 0]
            image = (image & ~lines) | borders[k, 1 + _popcount(image & lines)]
        if best < 0 or image < best:
            best, best_s = image, s
    return best, best_s


@njit(cache=True)
def _forced(drawn: int, sides: np.ndarray, box_masks: np.ndarray, box_lines: np.ndarray,
            line_boxes: np.ndarray, rules: int) -> int:
    """The line a chain rule plays at ``drawn`` (``sides``: each box's sides drawn), or -1."""
    for b in range(box_masks.shape[0]):
        if sides[b] != 3:
            continue
        missing = -1
        for k in range(4):
            if not (drawn >> box_lines[b, k]) & 1:
                missing = box_lines[b, k]
        c = line_boxes[missing, 0] if line_boxes[missing, 0] != b else line_boxes[missing, 1]
        beyond = 0 if c < 0 else sides[c]
        if rules & FREE_BOX and (c < 0 or beyond != 2):
            return missing
        if rules & LONG_CHAIN and beyond == 2 and _chain_length(drawn, b, missing, c, box_masks, box_lines,
                                                                line_boxes) >= 3:
            return missing
    return -1


@njit(cache=True)
def _chain_length(drawn: int, first: int, entry: int, second: int, box_masks: np.ndarray,
                  box_lines: np.ndarray, line_boxes: np.ndarray) -> int:
    """Boxes of the chain that starts at ``first`` (three sides) through ``entry`` into
    ``second`` (two sides), when it ends at the border or at a box with at most one side; 0
    when it ends at a box with three sides (a loop or a chain open at both ends)."""
    length = 2
    here, came = second, entry
    while length <= box_masks.shape[0]:
        out = -1
        for k in range(4):
            line = box_lines[here, k]
            if line != came and not (drawn >> line) & 1:
                out = line
        there = line_boxes[out, 0] if line_boxes[out, 0] != here else line_boxes[out, 1]
        if there < 0:
            return length
        sides = _popcount(drawn & box_masks[there])
        if sides <= 1:
            return length
        if sides == 3 or there == first:
            return 0
        length += 1
        here, came = there, out
    return 0


@njit(cache=True)
def _run_lines(drawn: int, first: int, box_masks: np.ndarray, box_lines: np.ndarray,
               line_boxes: np.ndarray) -> int:
    """The undrawn lines of the run from ``first`` (three sides) through the boxes of two sides
    after it, up to and including the line out of its last box: the lines that take it."""
    lines = 0
    here, came = first, -1
    for _ in range(box_masks.shape[0]):
        out = -1
        for k in range(4):
            line = box_lines[here, k]
            if line != came and not (drawn >> line) & 1:
                out = line
        lines |= 1 << out
        there = line_boxes[out, 0] if line_boxes[out, 0] != here else line_boxes[out, 1]
        if there < 0 or _popcount(drawn & box_masks[there]) != 2:
            break
        here, came = there, out
    return lines


@njit(cache=True)
def _walk(drawn: int, start: int, box_masks: np.ndarray, box_lines: np.ndarray,
          line_boxes: np.ndarray) -> tuple[int, int, int, int, int, int]:
    """The chain or loop of boxes with two sides through ``start`` (which has two): its
    boxes, its lowest undrawn line, 1 when it is a loop, the boxes past its two ends (-1: the
    border), and its undrawn lines."""
    length, lowest, loop, lines = 1, 1 << 30, 0, 0
    ends = np.full(2, -1, dtype=np.int64)
    for k in range(4):
        line = box_lines[start, k]
        if not (drawn >> line) & 1 and line < lowest:
            lowest = line
    direction = 0
    for k in range(4):
        first_line = box_lines[start, k]
        if (drawn >> first_line) & 1:
            continue
        here, line = start, first_line
        while True:
            lines |= 1 << line
            there = line_boxes[line, 0] if line_boxes[line, 0] != here else line_boxes[line, 1]
            if there == start:
                loop = 1
                break
            if there < 0 or _popcount(drawn & box_masks[there]) != 2:
                ends[direction] = there
                break
            length += 1
            out = -1
            for j in range(4):
                other = box_lines[there, j]
                if other != line and not (drawn >> other) & 1:
                    out = other
            if out < lowest:
                lowest = out
            here, line = there, out
        if loop:
            break
        direction += 1
    return length, lowest, loop, ends[0], ends[1], lines


@njit(cache=True)
def _kept_sacrifices(drawn: int, line: int, box_masks: np.ndarray, box_lines: np.ndarray,
                     line_boxes: np.ndarray, rules: int) -> tuple[int, int]:
    """The undrawn lines of the chain or loop the sacrifice ``line`` (no box on offer) opens,
    and those of them HARD_HEARTED and ONE_OPENING leave to search (one walk decides them all)."""
    start = -1
    for slot in range(2):
        box = line_boxes[line, slot]
        if box >= 0 and _popcount(drawn & box_masks[box]) == 2:
            start = box
    if start < 0:
        return 1 << line, 1 << line
    length, lowest, loop, one_end, other_end, lines = _walk(drawn, start, box_masks, box_lines, line_boxes)
    if not loop and one_end >= 0 and one_end == other_end:
        return lines, lines
    if length == 2 and not loop:
        if not rules & HARD_HEARTED:
            return lines, lines
        # The middle line is the one whose two boxes both have two sides.
        for k in range(4):
            middle = box_lines[start, k]
            there = line_boxes[middle, 0] if line_boxes[middle, 0] != start else line_boxes[middle, 1]
            if (lines >> middle) & 1 and there >= 0 and _popcount(drawn & box_masks[there]) == 2:
                return lines, 1 << middle
        return lines, lines
    if (loop or length >= 3) and rules & ONE_OPENING:
        return lines, 1 << lowest
    return lines, lines


@njit(cache=True)
def boxes_taken(drawn: int, line: int, box_masks: np.ndarray, line_boxes: np.ndarray) -> int:
    after = drawn | (1 << line)
    taken = 0
    for slot in range(2):
        box = line_boxes[line, slot]
        if box >= 0 and after & box_masks[box] == box_masks[box]:
            taken += 1
    return taken


@njit(cache=True)
def _probe(table: np.ndarray, key: int, slot: int) -> int:
    """The entry of ``key`` in its bucket, or -1."""
    for i in range(2):
        entry = table[slot + i]
        if entry != 0 and entry >> 12 == key:
            return slot + i
    return -1


@njit(cache=True)
def _store(table: np.ndarray, key: int, slot: int, low: int, high: int) -> int:
    """Narrows ``key``'s bounds to (low, high), or writes them over the bucket's entry nearer
    the end of the game; returns the entry's index."""
    here = _probe(table, key, slot)
    if here >= 0:
        entry = table[here]
        low = max(low, ((entry >> 6) & 63) - _OFFSET)
        high = min(high, (entry & 63) - _OFFSET)
    else:
        here = slot
        other = table[slot + 1]
        if table[slot] != 0 and (other == 0 or _popcount(other >> 12) > _popcount(table[slot] >> 12)):
            here = slot + 1
    table[here] = (key << 12) | ((low + _OFFSET) << 6) | (high + _OFFSET)
    return here


@njit(cache=True)
def _etc(beta: int, moves: np.ndarray, gains: np.ndarray, count: int, mirrored: np.ndarray,
         maps: np.ndarray, borders: np.ndarray, table: np.ndarray) -> int:
    """A value of at least ``beta`` that a child's stored bound proves (an enhanced
    transposition cutoff), or -64."""
    for i in range(count):
        key, _ = _smallest(mirrored, maps, moves[i], borders)
        slot = ((key * _GOLDEN) >> 20) & (table.shape[0] - 1) & ~1
        found = _probe(table, key, slot)
        if found < 0:
            continue
        entry = table[found]
        # A capture keeps the turn: the child's lower bound plus the boxes; else minus its upper.
        worth = gains[i] + ((entry >> 6) & 63) - _OFFSET if gains[i] else -((entry & 63) - _OFFSET)
        if worth >= beta:
            return worth
    return -64


@njit(cache=True)
def _order(drawn: int, first: int, allowed: int, sides: np.ndarray, order: np.ndarray,
           box_masks: np.ndarray, box_lines: np.ndarray, line_boxes: np.ndarray, rules: int,
           moves: np.ndarray, gains: np.ndarray) -> int:
    """The lines to search at ``drawn`` into ``moves`` (their boxes taken into ``gains``), in
    order: the table's line, captures, lines that give nothing away, sacrifices, each group
    centre out; lines a rule leaves out are left out. Returns how many."""
    count = 0
    # Lines of the chains and loops walked so far, and those of them to search.
    walked, kept = 0, 0
    if first >= 0:
        moves[0] = first
        gains[0] = boxes_taken(drawn, first, box_masks, line_boxes)
        count = 1
    for stage in range(3):
        for index in range(order.shape[0]):
            line = order[index]
            if line == first or (drawn >> line) & 1:
                continue
            gain, gives = 0, False
            for slot in range(2):
                box = line_boxes[line, slot]
                if box >= 0:
                    if sides[box] == 3:
                        gain += 1
                    elif sides[box] == 2:
                        gives = True
            if (stage == 0) != (gain > 0):
                continue
            if stage > 0 and (not (allowed >> line) & 1 or gives != (stage == 2)):
                continue
            if stage == 2 and allowed == -1 and rules & (HARD_HEARTED | ONE_OPENING):
                if not (walked >> line) & 1:
                    lines, keep = _kept_sacrifices(drawn, line, box_masks, box_lines, line_boxes, rules)
                    walked |= lines
                    kept |= keep
                if not (kept >> line) & 1:
                    continue
            moves[count] = line
            gains[count] = gain
            count += 1
    return count


@njit(cache=True)
def _killer_first(killer: int, first: int, moves: np.ndarray, gains: np.ndarray, count: int) -> None:
    """Moves ``killer`` (a line that gives no box and cut off a search at the same number of
    lines drawn; -1: none), when it is among the lines to search, to just after the table's
    line and the captures."""
    if killer < 0:
        return
    p = 0
    while p < count and (moves[p] == first or gains[p] > 0):
        p += 1
    for i in range(p + 1, count):
        if moves[i] == killer:
            for j in range(i, p, -1):
                moves[j] = moves[j - 1]
                gains[j] = gains[j - 1]
            moves[p] = killer
            gains[p] = 0
            return


@njit(cache=True, nogil=True)
def _search(drawn: int, alpha: int, beta: int, box_masks: np.ndarray, box_lines: np.ndarray,
            line_boxes: np.ndarray, order: np.ndarray, borders: np.ndarray, maps: np.ndarray,
            table: np.ndarray, best_lines: np.ndarray, rules: int, counters: np.ndarray, budget: int,
            scratch: np.ndarray) -> int:
    """The value of ``drawn`` for the side to move (fail-soft). ``scratch[d]`` is the working
    space of the node with d lines drawn (one per level of the recursion): each box's sides,
    the lines to search and what each takes, and the position's image under each of the
    board's symmetries (the caller writes them: a line drawn adds its image to each)."""
    counters[0] += 1
    if counters[2] or counters[3] or counters[0] > budget:
        counters[2] = 1
        return 0
    edges = order.shape[0]
    if drawn == (1 << edges) - 1:
        return 0
    boxes = box_masks.shape[0]
    work = scratch[_popcount(drawn)]
    sides = work[:boxes]
    # The position's images under the board's symmetries, written by the caller.
    mirrored = work[boxes + 2 * edges:boxes + 2 * edges + maps.shape[0]]
    left, loose = 0, 0
    for b in range(boxes):
        sides[b] = _popcount(drawn & box_masks[b])
        if sides[b] < 4:
            left += 1
            if sides[b] != 2:
                loose += 1
    # The lines the chain rules play are drawn here, one after another, without a node each;
    # the boxes they take are added to every value returned.
    taken = 0
    line = _forced(drawn, sides, box_masks, box_lines, line_boxes, rules) if rules else -1
    while line >= 0:
        drawn |= 1 << line
        for s in range(mirrored.shape[0]):
            mirrored[s] |= 1 << maps[s, line]
        for slot in range(2):
            box = line_boxes[line, slot]
            if box >= 0:
                sides[box] += 1
                loose += 1 if sides[box] == 3 else -1 if sides[box] == 2 else 0
                if sides[box] == 4:
                    taken += 1
                    left -= 1
                    loose -= 1
        line = _forced(drawn, sides, box_masks, box_lines, line_boxes, rules)
    if left == 0:
        return taken
    alpha -= taken
    beta -= taken
    if rules & LOONY_ENDGAME and loose == 0:
        return taken + loony_value(drawn, sides, box_lines, line_boxes)
    if alpha >= left:
        return taken + left
    if beta <= -left:
        return taken - left
    key, symmetry = _smallest(mirrored, maps, -1, borders)
    slot = ((key * _GOLDEN) >> 20) & (table.shape[0] - 1) & ~1
    low, high = -left, left
    found = _probe(table, key, slot)
    first = -1
    if found >= 0:
        counters[1] += 1
        if best_lines[found]:
            # Stored as the line of the canonical image: back to this position's line.
            first = maps[symmetry, edges + best_lines[found] - 1]
            if (drawn >> first) & 1:
                first = -1  # a border line of a position that shares the key, drawn here
        entry = table[found]
        low = max(low, ((entry >> 6) & 63) - _OFFSET)
        high = min(high, (entry & 63) - _OFFSET)
        if low >= beta or low == high:
            return taken + low
        if high <= alpha:
            return taken + high
    allowed = -1  # every line
    if rules & BOX_ON_OFFER:
        for b in range(boxes):
            if sides[b] == 3:
                allowed = _run_lines(drawn, b, box_masks, box_lines, line_boxes)
                break
    moves = work[boxes:boxes + edges]
    gains = work[boxes + edges:boxes + 2 * edges]
    count = _order(drawn, first, allowed, sides, order, box_masks, box_lines, line_boxes, rules, moves, gains)
    _killer_first(work[-1] - 1, first, moves, gains, count)
    window_low, window_high = max(alpha, low), min(beta, high)
    if edges - _popcount(drawn) >= ETC_LINES:
        cut = _etc(window_high, moves, gains, count, mirrored, maps, borders, table)
        if cut > -64:
            counters[1] += 1
            return taken + cut
    a = window_low
    best, best_line = -64, -1
    for i in range(count):
        line, gain = moves[i], gains[i]
        child = drawn | (1 << line)
        below = scratch[_popcount(child), boxes + 2 * edges:]
        for s in range(mirrored.shape[0]):
            below[s] = mirrored[s] | (1 << maps[s, line])
        if gain:
            value = gain + _search(child, a - gain, window_high - gain, box_masks, box_lines, line_boxes,
                                   order, borders, maps, table, best_lines, rules, counters, budget, scratch)
        else:
            value = -_search(child, -window_high, -a, box_masks, box_lines, line_boxes, order, borders,
                             maps, table, best_lines, rules, counters, budget, scratch)
        if counters[2]:
            return 0
        if value > best:
            best, best_line = value, line
            if value > a:
                a = value
                if a >= window_high:
                    if not gain:
                        work[-1] = line + 1
                    break
    counters[4] += 1
    if best <= window_low:
        here = _store(table, key, slot, -left, best)
    elif best >= window_high:
        here = _store(table, key, slot, best, left)
    else:
        here = _store(table, key, slot, best, best)
    best_lines[here] = maps[symmetry, best_line] + 1
    return taken + best


@dataclass(frozen=True)
class Board:
    """A board's geometry as the kernel reads it."""
    box_masks: np.ndarray
    box_lines: np.ndarray
    line_boxes: np.ndarray
    order: np.ndarray
    images: np.ndarray
    # maps[s, line] the image of line under symmetry s; maps[s, edges + line] its preimage
    maps: np.ndarray
    # per box with two or more lines on the border: those lines, then the lowest 0..4 of them
    borders: np.ndarray


def centre_out(game: DotsAndBoxes) -> np.ndarray:
    """The lines nearest the board's centre first (Barker and Korf's ordering)."""
    middle = (game.height / 2, game.width / 2)

    def distance(line: int) -> float:
        (r1, c1), (r2, c2) = game._ends(line)
        return math.hypot((r1 + r2) / 2 - middle[0], (c1 + c2) / 2 - middle[1])
    return np.array(sorted(range(game.edges), key=lambda line: (distance(line), line)), dtype=np.int64)


def board(game: DotsAndBoxes, use_symmetry: bool = True) -> Board:
    maps = symmetries(game) if use_symmetry else symmetries(game)[:1]
    chunks = (game.edges + 7) // 8
    images = np.zeros((len(maps), chunks, 256), dtype=np.int64)
    for s, lines in enumerate(maps):
        for k in range(chunks):
            for byte in range(256):
                image = 0
                for bit in range(8):
                    line = 8 * k + bit
                    if byte >> bit & 1 and line < game.edges:
                        image |= 1 << lines[line]
                images[s, k, byte] = image
    box_lines = np.array([[line for line in range(game.edges) if mask >> line & 1]
                          for mask in game.box_masks], dtype=np.int64)
    line_boxes = np.full((game.edges, 2), -1, dtype=np.int64)
    for line, boxes in enumerate(game.boxes_of):
        line_boxes[line, :len(boxes)] = boxes
    forward = np.array(maps, dtype=np.int64)
    inverse = np.argsort(forward, axis=1).astype(np.int64)
    borders = []
    for mask in game.box_masks:
        outer = [line for line in range(game.edges) if mask >> line & 1 and len(game.boxes_of[line]) == 1]
        if len(outer) >= 2:
            borders.append([sum(1 << line for line in outer)]
                           + [sum(1 << line for line in outer[:count]) for count in range(5)])
    return Board(np.array(game.box_masks, dtype=np.int64), box_lines, line_boxes, centre_out(game),
                 images, np.concatenate([forward, inverse], axis=1),
                 np.array(borders, dtype=np.int64).reshape(len(borders), 6))


class Narrowing:
    """MTD(f) over a Dots and Boxes position with ``left`` boxes to take, from ``guess``. The
    boxes left split between the two sides, so the value has their count's parity: the window
    (g - 1, g + 1) around a value g of that parity holds no other value, and one test either
    finds the value is g or moves a bound past it (two null-window tests would be needed to
    prove g)."""

    def __init__(self, left: int, guess: int) -> None:
        self.low, self.high = -left, left
        g = max(self.low, min(self.high, guess))
        self.g = g - (g - left) % 2

    def learn(self, found: int) -> None:
        """What the test of the window around ``g`` found (fail-soft)."""
        if found < self.g:
            self.high = found
        elif found > self.g:
            self.low = found
        else:
            self.low = self.high = self.g
        self.g = found

    def state(self) -> dict[str, int]:
        return {"low": self.low, "high": self.high, "g": self.g}

    @classmethod
    def resumed(cls, state: dict[str, int]) -> Narrowing:
        driver = cls(0, 0)
        driver.low, driver.high, driver.g = int(state["low"]), int(state["high"]), int(state["g"])
        return driver


class Searcher:
    """One table for one board, kept across searches (the values of several positions)."""

    def __init__(self, game: DotsAndBoxes, rules: int = ALL_RULES, table_bits: int = TABLE_BITS,
                 use_symmetry: bool = True) -> None:
        self.game = game
        self.rules = rules
        self.board = board(game, use_symmetry)
        self.table = np.zeros(1 << table_bits, dtype=np.int64)
        self.best_lines = np.zeros(1 << table_bits, dtype=np.int8)  # line + 1; 0: none
        self.scratch = np.zeros((game.edges + 1, game.boxes + 2 * game.edges + len(self.board.maps) + 1),
                                dtype=np.int64)
        self.counters = np.zeros(5, dtype=np.int64)

    def test(self, drawn: int, alpha: int, beta: int, budget: int) -> int:
        """One search of ``drawn`` with the window (alpha, beta), up to ``budget`` nodes."""
        b = self.board
        _mirror(drawn, b.images, self.scratch[drawn.bit_count(), self.game.boxes + 2 * self.game.edges:-1])
        return int(_search(drawn, alpha, beta, b.box_masks, b.box_lines, b.line_boxes, b.order, b.borders,
                           b.maps, self.table, self.best_lines, self.rules, self.counters, budget,
                           self.scratch))

    def value(self, drawn: int, slice_nodes: int = 1 << 62,
              poll: Callable[[int], None] = lambda nodes: None, node_cap: int | None = None,
              guess: int = 0, driver: Narrowing | None = None) -> int | None:
        """The exact value of ``drawn`` by tests of narrow windows from ``guess`` (``Narrowing``;
        the table keeps what earlier tests proved); None when the search stopped first (a node
        cap, or the STOP word). ``driver``: a narrowing of ``drawn`` already under way (one a
        snapshot kept), to go on with."""
        if driver is None:
            driver = Narrowing(sum(1 for mask in self.game.box_masks if drawn & mask != mask), guess)
        while driver.low < driver.high:
            def test(budget: int, g: int = driver.g) -> int:
                return self.test(drawn, g - 1, g + 1, budget)
            found = in_slices(test, self.counters, slice_nodes, poll, node_cap,
                              nodes=NODES, aborted=ABORTED, stop=STOP)
            if found is None:
                return None
            driver.learn(found)
        return driver.low

    def arrays(self) -> dict[str, np.ndarray]:
        """What a snapshot of a long search keeps (perfectplay.search.checkpoint): the table,
        its best lines and the counters."""
        return {"table": self.table, "best_lines": self.best_lines, "counters": self.counters}

    def move_values(self, drawn: int, lines: list[int] | None = None) -> dict[int, int]:
        """The value of each of ``lines`` (every undrawn line by default) at ``drawn``: the boxes
        it takes plus the child's value, or minus it when the turn passes."""
        game = self.game
        found = {}
        for line in lines if lines is not None else [i for i in range(game.edges) if not drawn >> i & 1]:
            taken = game.completed(drawn, line)
            child = self.value(drawn | 1 << line)
            assert child is not None  # no cap, no stop word
            found[line] = taken + child if taken else -child
        return found

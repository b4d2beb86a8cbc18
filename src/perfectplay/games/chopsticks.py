"""Chopsticks, the finger game: a loopy game whose value depends on the exact rules.

Rules as implemented (the "cutoff" rules with free transfers):

* Each player has two hands and starts with one finger raised on each. A hand holds 0 to 4
  fingers; a hand with 0 is dead.
* On your turn you either **tap** or **split**:
  - tap: touch one of the opponent's live hands with one of your live hands; their hand
    gains as many fingers as yours shows, and dies if that makes 5 or more (cutoff: no
    rollover, a 3 tapped by a 4 is dead, not 2);
  - split: move any number of fingers from one of your hands to the other, so that each
    holds 0 to 4 and the pair is different (swapping the two hands is no move). A split may
    revive a dead hand (0 and 4 to 2 and 2) and may empty one (1 and 1 to 0 and 2).
* A player whose hands are both dead has lost.

Splits make positions repeat, so the game declares itself loopy. Other rule sets (rollover,
no reviving, no self-kill) give other values: these are the ones solved in docs/retro.md.

A position is one int from the side to move: 3 bits per hand, mover's left and right
(bits 0-2, 3-5), then the opponent's (6-8, 9-11). Moves: 0-3 are taps (2 * my hand + their
hand, 0 = left), 4 + n is the split that leaves n fingers on the left hand. The table key
sorts each player's two hands (which hand is which does not matter). The rule functions use
only ints so numba compiles them unchanged for the retrograde kernel (compiled_spec).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from perfectplay.diagram import Diagram, Hand, Hands, Step
from perfectplay.entry import Entry, Loaded, Options, from_text
from perfectplay.errors import BadPosition
from perfectplay.game import Game, Outcome, Properties
from perfectplay.games._loopy import retro_brute_force

DEAD_AT = 5
SPLIT = 4
START = 1 | 1 << 3 | 1 << 6 | 1 << 9
_HANDS = "LR"


def hands(state: int) -> tuple[int, int, int, int]:
    """(my left, my right, their left, their right)."""
    return state & 7, state >> 3 & 7, state >> 6 & 7, state >> 9 & 7


def finger_moves(state: int, out: Any) -> int:
    """Write the mover's legal moves into ``out`` (taps first); return how many."""
    a, b, c, d = state & 7, state >> 3 & 7, state >> 6 & 7, state >> 9 & 7
    count = 0
    if a + b == 0 or c + d == 0:
        return 0
    for mine in range(2):
        if (a if mine == 0 else b) > 0:
            for theirs in range(2):
                if (c if theirs == 0 else d) > 0:
                    out[count] = 2 * mine + theirs
                    count += 1
    total = a + b
    for left in range(5):
        right = total - left
        if 0 <= right <= 4 and not (left == a and right == b) and not (left == b and right == a):
            out[count] = SPLIT + left
            count += 1
    return count


def finger_play(state: int, move: int) -> int:
    a, b, c, d = state & 7, state >> 3 & 7, state >> 6 & 7, state >> 9 & 7
    if move >= SPLIT:
        left = move - SPLIT
        a, b = left, a + b - left
    else:
        hit = (a if move >> 1 == 0 else b) + (c if move & 1 == 0 else d)
        if hit >= DEAD_AT:
            hit = 0
        if move & 1 == 0:
            c = hit
        else:
            d = hit
    # The opponent is to move next: their hands come first.
    return c | d << 3 | a << 6 | b << 9


def finger_outcome(state: int) -> int:
    """The compiled engine's codes: LOSS (-1) when the mover's hands are dead, WIN (1) when
    the opponent's are (only in a position typed in), else ONGOING (2)."""
    if state & 0o77 == 0:
        return -1
    if state >> 6 & 0o77 == 0:
        return 1
    return 2


def finger_key(state: int) -> int:
    a, b, c, d = state & 7, state >> 3 & 7, state >> 6 & 7, state >> 9 & 7
    return min(a, b) | max(a, b) << 3 | min(c, d) << 6 | max(c, d) << 9


class Chopsticks(Game[int, int]):
    name = "chopsticks"
    properties = Properties(can_draw=True, loopy=True)

    def start(self) -> int:
        return START

    def moves(self, position: int) -> list[int]:
        out = [0] * 9
        return out[:finger_moves(position, out)]

    def play(self, position: int, move: int) -> int:
        return finger_play(position, move)

    def outcome(self, position: int) -> Outcome | None:
        code = finger_outcome(position)
        return None if code == 2 else Outcome.LOSS if code == -1 else Outcome.WIN

    def key(self, position: int) -> int:
        return finger_key(position)

    def format_move(self, position: int, move: int) -> str:
        if move >= SPLIT:
            a, b, _, _ = hands(position)
            left = move - SPLIT
            return f"split {left} {a + b - left}"
        return _HANDS[move >> 1] + _HANDS[move & 1]

    def format_position(self, position: int) -> str:
        a, b, c, d = hands(position)
        return f"{a} {b} / {c} {d}"

    def parse_position(self, text: str) -> int:
        digits = re.findall(r"\d+", text)
        if len(digits) != 4 or any(int(n) > 4 for n in digits) or re.search(r"[^\d\s/,]", text):
            raise BadPosition(f"chopsticks position {text!r}: give four hands of 0 to 4 fingers, "
                              "the player to move first, e.g. '1 1 / 1 1'")
        a, b, c, d = (int(n) for n in digits)
        if c + d == 0:
            raise BadPosition(f"chopsticks position {text!r}: the opponent's hands are both dead, "
                              "so the game ended on the mover's last move")
        return a | b << 3 | c << 6 | d << 9

    def render(self, position: int) -> str:
        a, b, c, d = hands(position)
        return (f"to move:   left {a}  right {b}\n"
                f"opponent:  left {c}  right {d}\n"
                "moves: LR = my left taps their right; 'split 2 0' leaves 2 on my left, 0 on my right")

    def diagram(self, position: int, history: Sequence[tuple[int, int]] = ()) -> Diagram:
        """The mover's hands below, the opponent's above; a tap is my hand, then theirs (the
        splits are the move buttons)."""
        a, b, c, d = hands(position)
        steps = tuple(Step(notation, "m" + notation[0], "t" + notation[1])
                      for notation in (self.format_move(position, m) for m in self.moves(position))
                      if not notation.startswith("split"))
        return Hands(top=(Hand("tL", c, f"their left: {c}"), Hand("tR", d, f"their right: {d}")),
                     bottom=(Hand("mL", a, f"my left: {a}"), Hand("mR", b, f"my right: {b}")),
                     top_label="opponent", bottom_label="to move", steps=steps,
                     help="Click your hand, then theirs: each tap is filled by its value. Splits are "
                          "the buttons below.")

    def compiled_spec(self) -> Any:
        """These rules for the compiled retrograde kernel (the functions compile unchanged)."""
        from numba import njit

        from perfectplay.compiled.generic import Spec
        return Spec(moves=njit(finger_moves), play=njit(finger_play), outcome=njit(finger_outcome),
                    key=njit(finger_key), max_moves=9, max_length=1)


def _load(options: Options, text: str | None) -> Loaded:
    return from_text(Chopsticks(), text)


ENTRY = Entry("chopsticks", "loopy: finger game; tap a live hand of the opponent's to add yours "
              "(5 or more kills it: cutoff, no rollover), or split: move any fingers between "
              "your own hands (reviving or emptying one; no mere swap); both hands dead loses",
              "the mover's hands then the other's, e.g. '1 1 / 1 1'", _load,
              aliases=("chopstick", "fingers"), brute_force=retro_brute_force, order=110)

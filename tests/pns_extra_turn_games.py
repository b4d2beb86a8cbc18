"""For tests/test_pns.py and tests/test_mcts.py: two small games where some moves keep the
turn, with brute forces that know the rule and
nothing of negamax: for the proof-number and Monte Carlo searches."""

from __future__ import annotations

from functools import cache

from perfectplay.game import Game, Kind, Properties

PASS = 0


class BonusSticks(Game[tuple[int, bool], int]):
    """A pile of sticks; take 1 or 2, and whoever takes the last stick wins. Taking 2 from an
    even pile earns another move at once (a chain of them is possible: 8, 6, 4, ...). A
    player facing a pile of 3 may also pass, once per game (the flag)."""

    name = "bonus-sticks"
    properties = Properties(extra_turns=True)

    def __init__(self, sticks: int = 9) -> None:
        self.sticks = sticks

    def start(self) -> tuple[int, bool]:
        return (self.sticks, True)

    def moves(self, position: tuple[int, bool]) -> list[int]:
        pile, may_pass = position
        found = [take for take in (1, 2) if take <= pile]
        if pile == 3 and may_pass:
            found.append(PASS)
        return found

    def play(self, position: tuple[int, bool], move: int) -> tuple[int, bool]:
        pile, may_pass = position
        return (pile, False) if move == PASS else (pile - move, may_pass)

    def keeps_turn(self, position: tuple[int, bool], move: int) -> bool:
        return move == 2 and position[0] % 2 == 0


class BonusCoins(BonusSticks):
    """The same moves as a score game: a take earns the sticks taken, doubled from an odd pile."""

    name = "bonus-coins"
    properties = Properties(kind=Kind.SCORE, extra_turns=True, value_bound=40)

    def gain(self, position: tuple[int, bool], move: int) -> int:
        return move * (2 if position[0] % 2 else 1)


@cache
def sticks_winner(pile: int, may_pass: bool, mover: int) -> int:
    """Which player (0 or 1) wins with best play, ``mover`` to move: plain game-tree
    search by players, not by values from the side to move."""
    if pile == 0:
        return 1 - mover  # the previous player took the last stick
    options = []
    for take in (1, 2):
        if take <= pile:
            again = take == 2 and pile % 2 == 0
            options.append(sticks_winner(pile - take, may_pass, mover if again else 1 - mover))
    if pile == 3 and may_pass:
        options.append(sticks_winner(pile, False, 1 - mover))
    return mover if mover in options else 1 - mover


@cache
def coins_totals(pile: int, may_pass: bool, mover: int) -> tuple[int, int]:
    """Each player's points from here with best play (each maximises their own margin)."""
    if pile == 0:
        return (0, 0)
    options = []
    for take in (1, 2):
        if take <= pile:
            again = take == 2 and pile % 2 == 0
            later = coins_totals(pile - take, may_pass, mover if again else 1 - mover)
            earned = take * (2 if pile % 2 else 1)
            options.append((later[0] + earned, later[1]) if mover == 0 else (later[0], later[1] + earned))
    if pile == 3 and may_pass:
        options.append(coins_totals(pile, False, 1 - mover))
    sign = 1 if mover == 0 else -1
    return max(options, key=lambda totals: sign * (totals[0] - totals[1]))

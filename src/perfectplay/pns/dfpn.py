"""Depth-first proof-number search (df-pn; Nagai 2002) over any game of the protocol.

A question is "can the player to move at ``position`` make the final value, from here, at
least ``need``?" In a win/loss/draw game the value of a finished game is 1, 0 or -1 (win,
draw, loss) and moves gain nothing; in a score game it is the sum of the gains to come
(perfectplay.value). The question about a child follows from the parent's: after a move that
gains ``g`` and hands the turn over, the parent reaches ``need`` unless the opponent reaches
``g - need + 1`` (values are integers); after a move that keeps the turn
(``Game.keeps_turn``, asked only when the game declares ``extra_turns``), the same player
must reach ``need - g`` from the child.

Every node carries two numbers from its mover's side: the proof number ``pn`` (how many
leaves at least must still be proved for "yes") and the disproof number ``dn`` (for "no").
Seen from the parent, a child that hands the turn over swaps them; one that keeps the turn
does not. The parent's ``pn`` is the least of its children's (seen) ``pn`` and its ``dn``
their sum. The search descends to the most-proving child with thresholds, as Nagai's MID,
and backs up when a threshold is met, so it needs memory only for its transposition table.
The child's threshold on ``pn`` uses the 1 + epsilon trick (Pawlewicz and Lew 2007): stay
in a child until its ``pn`` passes the second-best's by a fraction, not by one, which cuts
the thrashing between siblings.

The table maps (game.key(position), need) to (pn, dn). It is bounded: when it holds more
than ``max_entries`` entries, the unsolved ones are dropped (proofs and disproofs stay),
which costs only re-search. Positions must not repeat (loopy games are refused upstream):
on a DAG, df-pn with a table has no graph-history interaction.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game, Outcome
from perfectplay.search.limits import Budget

INFINITE = 1 << 40
# A child as a node's loop sees it: the position, its need, whether its mover is the
# node's, and its table key.
Child = tuple[Any, int, bool, tuple[Hashable, int]]
EPSILON = 0.25
DEFAULT_ENTRIES = 2_000_000
# A table entry in CPython: the key (a tuple holding the position's key and need), the value
# (a tuple of two ints) and the dict's slot; measured at about 200 bytes on Hex 6x6.
BYTES_PER_ENTRY = 250
OUTCOME_VALUE = {Outcome.WIN: 1, Outcome.DRAW: 0, Outcome.LOSS: -1}


@dataclass
class Counters:
    nodes: int = 0      # MID calls: one per visit of a node, as df-pn papers count
    expanded: int = 0   # positions whose children were generated
    generated: int = 0  # children generated (each a position played and looked up)
    max_ply: int = 0
    draws_seen: int = 0


class ProofSearch:
    """One game's df-pn with its table, reused across questions (the thresholds of a score
    game's bisection, the two searches of a draw, every root move)."""

    def __init__(self, game: Game[Any, Any], budget: Budget, max_entries: int = DEFAULT_ENTRIES) -> None:
        if game.properties.loopy:
            raise UnsupportedSearch(f"{game.name} is loopy (positions can repeat); proof-number "
                                    "search needs a game that ends: use --algorithm retro")
        self.game = game
        self.budget = budget
        self.max_entries = max_entries
        budget.allow_memory(max_entries * BYTES_PER_ENTRY)  # the memory guard counts the table
        self.table: dict[tuple[Hashable, int], tuple[int, int]] = {}
        self.counters = Counters()
        self.is_score = game.properties.is_score
        self.extra_turns = game.properties.extra_turns
        self.no_move = 1 if game.properties.misere else -1
        self._poll_mask = budget.poll_mask
        self._node_cap = budget.node_cap  # polled there too, so a node limit holds exactly

    # -- the question at a finished position ---------------------------------------------
    def final_value(self, position: Any) -> int | None:
        """The value of a finished game for its mover (1, 0, -1, or 0 in a score game), or
        None while it goes on."""
        result = self.game.outcome(position)
        if result is not None:
            if result is Outcome.DRAW:
                self.counters.draws_seen += 1
            return 0 if self.is_score else OUTCOME_VALUE[result]
        return None

    def children(self, position: Any, need: int) -> list[Child]:
        """(child, the child's need, whether the child's mover is this node's, the child's
        table key) per move. The keys are built once here: a node's loop looks its children
        up again after every descent."""
        game = self.game
        key = game.key
        found: list[Child] = []
        for move in game.moves(position):
            gain = game.gain(position, move) if self.is_score else 0
            child = game.play(position, move)
            if self.extra_turns and game.keeps_turn(position, move):
                child_need, same = need - gain, True
            else:
                child_need, same = gain - need + 1, False
            found.append((child, child_need, same, (key(child), child_need)))
        self.counters.generated += len(found)
        return found

    def leaf_numbers(self, position: Any, need: int) -> tuple[int, int]:
        """(pn, dn) of a position seen for the first time: solved if the game is over."""
        value = self.final_value(position)
        if value is None:
            if self.game.moves(position):
                return (1, 1)
            value = 0 if self.is_score else self.no_move
            if not self.is_score and value == 0:
                self.counters.draws_seen += 1
        return (0, INFINITE) if value >= need else (INFINITE, 0)

    def numbers(self, position: Any, need: int) -> tuple[int, int]:
        entry = self.table.get((self.game.key(position), need))
        if entry is None:
            # Stored even when unsolved: a node's loop reads every child's numbers again
            # after each descent, and the rules would otherwise be asked again each time.
            entry = self.leaf_numbers(position, need)
            self.store(position, need, entry)
        return entry

    def store(self, position: Any, need: int, entry: tuple[int, int]) -> None:
        table = self.table
        if len(table) >= self.max_entries:
            self._make_room()
        table[(self.game.key(position), need)] = entry

    def _make_room(self) -> None:
        """Drop the unsolved entries (their numbers are only estimates, found again by
        search); if proofs alone fill the table, drop everything."""
        solved = {key: entry for key, entry in self.table.items() if entry[0] == 0 or entry[1] == 0}
        self.table = solved if len(solved) < self.max_entries // 2 else {}

    # -- the search ----------------------------------------------------------------------
    def prove(self, position: Any, need: int) -> bool:
        """Whether the mover at ``position`` can reach ``need`` (True) or not (False);
        raises OutOfBudget when the budget runs out first."""
        pn, dn = self.numbers(position, need)
        if pn and dn:
            self.mid(position, need, INFINITE, INFINITE, 0)
            pn, dn = self.numbers(position, need)
        return pn == 0

    def mid(self, position: Any, need: int, pn_limit: int, dn_limit: int, ply: int) -> None:
        """Nagai's multiple iterative deepening: search below ``position`` until its pn
        reaches ``pn_limit`` or its dn reaches ``dn_limit``; store the numbers found."""
        counters = self.counters
        counters.nodes += 1
        if not counters.nodes & self._poll_mask or counters.nodes >= self._node_cap:
            self.budget.poll(counters.nodes)
        if ply > counters.max_ply:
            counters.max_ply = ply
        kids = self.children(position, need)
        counters.expanded += 1
        while True:
            pn, dn, best, best_seen, second_pn = self._gather(kids)
            if pn >= pn_limit or dn >= dn_limit:
                self.store(position, need, (pn, dn))
                return
            child, child_need, same_mover, _ = kids[best]
            seen_pn, seen_dn = best_seen
            # Thresholds in the parent's view, then in the child's own.
            next_pn = min(pn_limit, int(second_pn * (1 + EPSILON)) + 1)
            next_dn = min(INFINITE, dn_limit - dn + seen_dn)
            if same_mover:
                self.mid(child, child_need, next_pn, next_dn, ply + 1)
            else:
                self.mid(child, child_need, next_dn, next_pn, ply + 1)

    def _gather(self, kids: list[Child]) -> tuple[int, int, int, tuple[int, int], int]:
        """(pn, dn) of the node from its children's, the index of the most-proving child,
        that child's (pn, dn) in the node's view, and the second-smallest pn."""
        least = second = INFINITE
        total = 0
        best = 0
        best_seen = (INFINITE, 0)
        lookup = self.table.get
        for index, (child, child_need, same_mover, entry_key) in enumerate(kids):
            entry = lookup(entry_key)
            if entry is None:
                entry = self.leaf_numbers(child, child_need)
                self.store(child, child_need, entry)
                lookup = self.table.get  # a full table may have been replaced
            seen = entry if same_mover else (entry[1], entry[0])
            total += seen[1]
            if seen[0] < least:
                second, least, best, best_seen = least, seen[0], index, seen
            elif seen[0] < second:
                second = seen[0]
            if least == 0:
                return 0, INFINITE, best, best_seen, second
        return least, min(total, INFINITE), best, best_seen, second

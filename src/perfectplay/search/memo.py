"""Negamax with a table of exact values, keyed by the game's stable key (memoization: the
take-away game at 20 sticks takes 58 calls instead of plain recursion's 266,079).

Each position's value is computed once; later calls are answered from the table. Values are
stored relative to the node (value.to_table) so they serve every path to the position.
"""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.search.limits import Budget
from perfectplay.search.rules import Counters, Rules, Searcher, check_recent, reach_ply
from perfectplay.search.transposition import PYTHON_BYTES_PER_ENTRY, MemoTable


def build(rules: Rules, budget: Budget, capacity: int) -> Searcher:
    moves_of, play, outcome_of, key_of = rules.moves, rules.play, rules.outcome, rules.key
    gain_of, is_score = rules.gain, rules.is_score
    end_value, no_move_value = rules.end_value, rules.no_move_value
    extra, keeps = rules.extra_turns, rules.keeps_turn
    poll, poll_mask, node_cap = budget.poll, budget.poll_mask, budget.node_cap
    table = MemoTable(capacity)
    budget.allow_memory(capacity * PYTHON_BYTES_PER_ENTRY)
    lookup = table.get
    decisive = V.DECISIVE if rules.distance else V.INFINITY
    # Only win/loss values carry a distance to rebase; a score (a point lead) is a plain number
    # that may exceed DECISIVE, and must be stored and read back unchanged.
    path: list[Any] = [None]  # path[ply]: the position searched at that ply
    nodes = hits = max_ply = 0

    def search(position: Any, alpha: float, beta: float, ply: int, depth: int) -> float:
        nonlocal nodes, hits, max_ply
        nodes += 1
        if ply > max_ply:
            max_ply = ply
            reach_ply(rules, path, ply, position)
        else:
            path[ply] = position  # the current search path, checked for repeats (rules.py)
        if not nodes & poll_mask or nodes >= node_cap:
            poll(nodes)
            check_recent(rules, path, ply)
        key = key_of(position)
        stored = lookup(key)
        if stored is not None:
            hits += 1
            # Inline value.from_table with this search's own band (see above).
            return stored - ply if stored >= decisive else stored + ply if stored <= -decisive else stored
        result = outcome_of(position)
        if result is not None:
            return end_value(result, ply)
        moves = moves_of(position)
        if not moves:
            return no_move_value(ply)
        best = -V.INFINITY
        for move in moves:
            child = search(play(position, move), 0, 0, ply + 1, depth)
            if extra and keeps(position, move):
                child = -child  # the mover moves again: the child's value is already theirs
            value = gain_of(position, move) - child if is_score else -child
            if value > best:
                best = value
        if len(table) < table.capacity:
            # Inline value.to_table: this line runs once per distinct position.
            table[key] = best + ply if best >= decisive else best - ply if best <= -decisive else best
        return best

    def counters() -> Counters:
        return Counters(nodes=nodes, table_hits=hits, max_ply=max_ply)

    return Searcher("memo", search, counters, windowed=False)

"""Alpha-beta with a transposition table: each entry an exact value, a lower bound or an upper
bound, as chess programs store them.

Each searched node stores its value with a bound flag, the draft it was searched to, and its
best move (layout and replacement policy: perfectplay.search.transposition). A later visit returns
at once when the stored result decides the window, and otherwise tries the stored best move
first. Drafts make depth-limited results safe to reuse: an entry counts only if it was
searched at least as deep as now required; an entry whose subtree met no depth limit is
stored with FULL_DRAFT and serves any depth.
"""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.search.limits import Budget
from perfectplay.search.ordering import tt_move_first
from perfectplay.search.rules import Counters, Rules, Searcher, check_recent, reach_ply
from perfectplay.search.transposition import (
    FULL_DRAFT,
    PYTHON_BYTES_PER_ENTRY,
    TranspositionTable,
)
from perfectplay.value import EXACT, LOWER, UPPER


def build(rules: Rules, budget: Budget, table: TranspositionTable) -> Searcher:
    moves_of, play, outcome_of, key_of = rules.moves, rules.play, rules.outcome, rules.key
    gain_of, evaluate, is_score, distance = rules.gain, rules.evaluate, rules.is_score, rules.distance
    end_value, no_move_value = rules.end_value, rules.no_move_value
    extra, keeps = rules.extra_turns, rules.keeps_turn
    poll, poll_mask, node_cap = budget.poll, budget.poll_mask, budget.node_cap
    slots, mask, store = table.slots, table.mask, table.store
    budget.allow_memory(table.size * PYTHON_BYTES_PER_ENTRY)
    win = V.WIN
    decisive = V.DECISIVE if rules.distance else V.INFINITY
    # Only win/loss values carry a distance to rebase; a score (a point lead) is a plain number
    # that may exceed DECISIVE, and must be stored and read back unchanged.
    path: list[Any] = [None]  # path[ply]: the position searched at that ply
    nodes = hits = cutoffs = max_ply = horizon = 0

    def search(position: Any, alpha: float, beta: float, ply: int, depth: int) -> float:
        nonlocal nodes, hits, cutoffs, max_ply, horizon
        nodes += 1
        if ply > max_ply:
            max_ply = ply
            reach_ply(rules, path, ply, position)
        else:
            path[ply] = position  # the current search path, checked for repeats (rules.py)
        if not nodes & poll_mask or nodes >= node_cap:
            poll(nodes)
            check_recent(rules, path, ply)
        result = outcome_of(position)
        if result is not None:
            return end_value(result, ply)
        if distance:
            # Mate-distance pruning, as in alphabeta.py.
            if ply - win >= beta:
                return ply - win
            if win - ply <= alpha:
                return win - ply

        key = key_of(position)
        entry = slots[hash(key) & mask]
        tt_move = None
        if entry is not None and entry[0] == key:
            hits += 1
            draft = entry[3]
            if draft >= depth:
                stored = entry[1]
                # Inline value.from_table: rebase the node-relative value to this ply.
                if stored >= decisive:
                    stored -= ply
                elif stored <= -decisive:
                    stored += ply
                flag = entry[2]
                decided = flag == EXACT or (flag == LOWER and stored >= beta)
                if decided or (flag == UPPER and stored <= alpha):
                    if draft != FULL_DRAFT:
                        horizon += 1  # the answer rests on a depth-limited search
                    return stored
            tt_move = entry[4]

        moves = moves_of(position)
        if not moves:
            return no_move_value(ply)
        if depth <= 0:
            horizon += 1
            return evaluate(position)
        if tt_move is not None:
            moves = tt_move_first(moves, tt_move)

        alpha_in, horizon_in = alpha, horizon
        best = -V.INFINITY
        best_move = None
        for move in moves:
            gain = gain_of(position, move) if is_score else 0
            if extra and keeps(position, move):
                # The mover moves again: the child's value is already theirs; no bound swap.
                value = gain + search(play(position, move), alpha - gain, beta - gain, ply + 1, depth - 1)
            else:
                value = gain - search(play(position, move), gain - beta, gain - alpha, ply + 1, depth - 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        cutoffs += 1
                        break

        flag = LOWER if best >= beta else UPPER if best <= alpha_in else EXACT
        stored = best + ply if best >= decisive else best - ply if best <= -decisive else best
        store(key, stored, flag, FULL_DRAFT if horizon == horizon_in else depth, best_move)
        return best

    def counters() -> Counters:
        return Counters(nodes=nodes, table_hits=hits, cutoffs=cutoffs, max_ply=max_ply, horizon=horizon)

    return Searcher("tt", search, counters, windowed=True, table=table)

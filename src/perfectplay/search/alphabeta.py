"""Negamax with alpha-beta pruning (Knuth and Moore 1975) and the bound swap: the child is
searched with the window (-beta, -alpha), shifted by the move's gain in score games. No table."""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.search.limits import Budget
from perfectplay.search.rules import Counters, Rules, Searcher, check_recent, reach_ply


def build(rules: Rules, budget: Budget) -> Searcher:
    moves_of, play, outcome_of = rules.moves, rules.play, rules.outcome
    gain_of, evaluate, is_score, distance = rules.gain, rules.evaluate, rules.is_score, rules.distance
    end_value, no_move_value = rules.end_value, rules.no_move_value
    extra, keeps = rules.extra_turns, rules.keeps_turn
    poll, poll_mask, node_cap = budget.poll, budget.poll_mask, budget.node_cap
    win = V.WIN
    path: list[Any] = [None]  # path[ply]: the position searched at that ply
    nodes = cutoffs = max_ply = horizon = 0

    def search(position: Any, alpha: float, beta: float, ply: int, depth: int) -> float:
        nonlocal nodes, cutoffs, max_ply, horizon
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
            # Mate-distance pruning: no result here beats a win at this ply or falls below a
            # loss at this ply; a window outside that range is decided without searching.
            if ply - win >= beta:
                return ply - win
            if win - ply <= alpha:
                return win - ply
        moves = moves_of(position)
        if not moves:
            return no_move_value(ply)
        if depth <= 0:
            horizon += 1
            return evaluate(position)
        best = -V.INFINITY
        for move in moves:
            gain = gain_of(position, move) if is_score else 0
            if extra and keeps(position, move):
                # The mover moves again: the child's value is already theirs; no bound swap.
                value = gain + search(play(position, move), alpha - gain, beta - gain, ply + 1, depth - 1)
            else:
                value = gain - search(play(position, move), gain - beta, gain - alpha, ply + 1, depth - 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        cutoffs += 1
                        break
        return best

    def counters() -> Counters:
        return Counters(nodes=nodes, cutoffs=cutoffs, max_ply=max_ply, horizon=horizon)

    return Searcher("alphabeta", search, counters, windowed=True)

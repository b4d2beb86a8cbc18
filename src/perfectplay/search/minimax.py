"""Plain negamax: no table, no pruning. The reference every other algorithm is checked against."""

from __future__ import annotations

from typing import Any

from perfectplay import value as V
from perfectplay.search.limits import Budget
from perfectplay.search.rules import Counters, Rules, Searcher, check_recent, reach_ply


def build(rules: Rules, budget: Budget) -> Searcher:
    moves_of, play, outcome_of = rules.moves, rules.play, rules.outcome
    gain_of, evaluate, is_score = rules.gain, rules.evaluate, rules.is_score
    end_value, no_move_value = rules.end_value, rules.no_move_value
    extra, keeps = rules.extra_turns, rules.keeps_turn
    poll, poll_mask, node_cap = budget.poll, budget.poll_mask, budget.node_cap
    path: list[Any] = [None]  # path[ply]: the position searched at that ply
    nodes = max_ply = horizon = 0

    def search(position: Any, alpha: float, beta: float, ply: int, depth: int) -> float:
        nonlocal nodes, max_ply, horizon
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
        moves = moves_of(position)
        if not moves:
            return no_move_value(ply)
        if depth <= 0:
            horizon += 1
            return evaluate(position)
        best = -V.INFINITY
        for move in moves:
            child = search(play(position, move), 0, 0, ply + 1, depth - 1)
            if extra and keeps(position, move):
                child = -child  # the mover moves again: the child's value is already theirs
            value = gain_of(position, move) - child if is_score else -child
            if value > best:
                best = value
        return best

    def counters() -> Counters:
        return Counters(nodes=nodes, max_ply=max_ply, horizon=horizon)

    return Searcher("minimax", search, counters, windowed=False)

"""Differential checking: every algorithm against plain minimax on random small positions,
and a game that brings a brute force of its own against it, sharing no code with the engine
(the crate line's: plain recursion over the list of crates left, with no table)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from perfectplay import registry
from perfectplay.compiled import numba_available
from perfectplay.errors import LimitReached, UnsupportedSearch
from perfectplay.game import has_compiled_spec
from perfectplay.search import tabulation
from perfectplay.search.limits import Limits
from perfectplay.solving import analyze, resolve_algorithm, solve
from perfectplay.value import from_table, move_worth

CHECKED = ("memo", "alphabeta", "tt", "id")
# The reference, plain minimax, may search this many nodes for one position (seconds in
# Python); a random position that needs more is set aside and another drawn, at most
# DRAWS_PER_CASE times per case (`verify octal --cases 3` once drew Kayles 8 7, whose
# minimax tree is astronomically large, and ran for ever).
REFERENCE_NODES = 50_000
DRAWS_PER_CASE = 5


def _worth(game: Any, position: Any, move: Any, child: int) -> int:
    """A win/loss move's value for its player from its child's node value."""
    same_mover = game.properties.extra_turns and game.keeps_turn(position, move)
    return move_worth(child, 0, same_mover, False)


def value_from_table(node_value: int) -> int:
    """A node value read one ply down (perfectplay.value.from_table at ply 1)."""
    return int(from_table(node_value, 1))

# Checked too for games that declare a tabulation order (Game.tabulation).
TABULATED = ("table",)
# Checked too wherever they answer: methods written for one game (Connect Four's pure-Python
# mirror of its kernel, perfectplay.games.connect4).
GAME_SPECIFIC = ("null-window",)


@dataclass
class Mismatch:
    position: str
    check: str
    expected: Any
    got: Any


@dataclass
class Report:
    game: str
    cases: int = 0
    checks: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    # Random positions drawn and set aside: too large for the minimax reference.
    too_large: int = 0


def verify(choice: registry.GameChoice, cases: int, seed: int,
           on_case: Callable[[], None] | None = None) -> Report:
    """Solve ``cases`` random positions with every algorithm and compare with minimax;
    ``on_case`` hears of each case done (a progress bar)."""
    rng = random.Random(seed)
    report = Report(choice.name)
    for _ in range(cases):
        for _ in range(DRAWS_PER_CASE):
            game, position = choice.random_case(rng)
            if not game.solvable(position):
                if game.properties.too_big_to_solve:  # no random case of it is small enough
                    raise UnsupportedSearch(f"{game.name} is too big to solve, so minimax, the "
                                            "reference, cannot check it on random positions")
                report.too_large += 1  # this case is past what an exact search finishes
                continue
            if _check_case(choice, game, position, report):
                report.cases += 1
                break
            report.too_large += 1
        else:
            raise UnsupportedSearch(
                f"{choice.name}: {DRAWS_PER_CASE} random positions in a row were too large for "
                f"minimax, the reference ({REFERENCE_NODES:,} nodes each); verify needs smaller "
                "positions (a smaller board or fewer tokens)")
        if on_case is not None:
            on_case()
    return report


def _check_case(choice: registry.GameChoice, game: Any, position: Any, report: Report) -> bool:
    """Check one position; False (and no check) when minimax cannot value it in its budget."""
    if game.properties.loopy:
        _check_loopy_case(choice, game, position, report)
        return True
    shown = game.format_position(position)
    budget = Limits(nodes=REFERENCE_NODES)
    try:
        reference = solve(game, position, algorithm="minimax", pv_limit=0, limits=budget)
        reference_moves = [(m.notation, m.value)
                           for m in analyze(game, position, algorithm="minimax", limits=budget)]
    except LimitReached:
        return False
    expected = (reference.value, sorted(reference.best_moves))

    def compare(check: str, want: Any, got: Any) -> None:
        report.checks += 1
        if want != got:
            report.mismatches.append(Mismatch(shown, check, want, got))

    tabulated = TABULATED if tabulation.supports(game, position) else ()
    specific = tuple(name for name in GAME_SPECIFIC if _answers(game, name))
    for name in CHECKED + tabulated + specific:
        solution = solve(game, position, algorithm=name, pv_limit=0)
        compare(f"{name} value and best moves", expected, (solution.value, sorted(solution.best_moves)))
    for name in ("tt",) + tabulated:
        moves = [(m.notation, m.value) for m in analyze(game, position, algorithm=name)]
        compare(f"{name} analysis of every move", sorted(reference_moves), sorted(moves))
    if not game.properties.is_score:
        sign = (reference.value > 0) - (reference.value < 0)
        for name in ("alphabeta", "tt") + tabulated:
            quick = solve(game, position, algorithm=name, outcome_only=True, pv_limit=0)
            compare(f"{name} outcome-only", sign, quick.value)
    # df-pn proves outcomes (no distances: every move of the best outcome is optimal) and
    # scores, with every optimal move.
    proved = solve(game, position, algorithm="pns", pv_limit=0)
    if game.properties.is_score:
        want = (reference.value, sorted(reference.best_moves))
    else:
        sign = (reference.value > 0) - (reference.value < 0)
        want = (sign, sorted(notation for notation, value in reference_moves
                             if (value > 0) - (value < 0) == sign))
    compare("pns value and best moves", want, (proved.value, sorted(proved.best_moves)))
    if choice.brute_force is not None:
        compare("brute force", choice.brute_force(game, position), reference.value)
    return True


def _answers(game: Any, algorithm: str) -> bool:
    try:
        resolve_algorithm(game, algorithm)
    except UnsupportedSearch:
        return False
    return True


def _check_loopy_case(choice: registry.GameChoice, game: Any, position: Any, report: Report) -> None:
    """A loopy game has no minimax reference: retrograde analysis (Python, and the compiled
    kernel when the game gives integer states and numba imports) against the brute force
    value-iteration fixpoint (perfectplay.retro.brute), for the position and every move."""
    from perfectplay.retro.brute import fixpoint_values
    shown = game.format_position(position)

    def compare(check: str, want: Any, got: Any) -> None:
        report.checks += 1
        if want != got:
            report.mismatches.append(Mismatch(shown, check, want, got))

    brute = fixpoint_values(game, position)
    engines = ["python"]
    if has_compiled_spec(game) and numba_available() and not game.properties.extra_turns:
        engines.append("compiled")
    for engine in engines:
        solution = solve(game, position, algorithm="retro", engine=engine, pv_limit=0)
        compare(f"retro ({engine}) value against brute force", brute[position], solution.value)
        moves = sorted((m.notation, m.value) for m in analyze(game, position, algorithm="retro",
                                                                engine=engine))
        legal = game.moves(position) if game.outcome(position) is None else []
        expected = sorted((game.format_move(position, move),
                           _worth(game, position, move, brute[game.play(position, move)]))
                          for move in legal)
        compare(f"retro ({engine}) analysis of every move against brute force", expected, moves)

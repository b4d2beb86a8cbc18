"""Solving impartial positions by theory instead of search: ``--algorithm grundy``.

Under normal play a position is lost for the player to move exactly when the XOR of its
components' Grundy values is 0 (Sprague-Grundy theorem), and the winning moves are the moves
inside one component that bring the XOR to 0. Misère play changes the theory: only Nim's
misère rule is applied here (Bouton 1902: play as in normal Nim unless the move would leave
only heaps of size 1; then leave an odd number of them), and any other misère game falls
back to search.

Values carry no distance to the end: the answer is win or loss, and remoteness needs a
search (``--algorithm tt``). Every answer says so.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from perfectplay import value as V
from perfectplay.errors import UnsupportedSearch
from perfectplay.game import Game
from perfectplay.impartial.grundy import require_impartial
from perfectplay.impartial.sums import Component, SumAdapter, adapter_for
from perfectplay.search.results import MoveValue, Solution, Stats

NAME = "grundy"
REMOTENESS_NOTE = "remoteness needs --algorithm tt"
# Lost positions list every move (all lose alike) up to this many; analysis refuses more.
MOVE_LIST_LIMIT = 1_000
ANALYSIS_LIMIT = 100_000
# When the list of optimal moves is too long to enumerate, this many are shown.
SAMPLE_SIZE = 20
# The principal variation stops after this long, whatever --pv-limit says.
PV_SECONDS = 0.05


def applies(game: Game[Any, Any]) -> bool:
    """Whether ``--algorithm auto`` should use theory: an impartial game that declares its
    components, under normal play (or misère Nim, which has a closed form)."""
    props = game.properties
    if not props.impartial or props.is_score:
        return False
    if props.misere:
        return _is_nim(game)
    return type(game).components is not Game.components


def _is_nim(game: Game[Any, Any]) -> bool:
    """Whether the game's components are Nim piles, whose misère play has a closed form."""
    return adapter_for(game).misere_rule


@dataclass
class TheorySolution(Solution):
    """A Solution found by theory: also the Grundy value, and why remoteness is absent."""

    grundy: int | None = None
    note: str = REMOTENESS_NOTE
    complete: bool = True  # False when best_moves is a sample of a huge list

    def describe(self) -> str:
        word = V.outcome_word(self.value)
        basis = f"Grundy value {self.grundy}" if self.grundy is not None else "misère Nim rule"
        return f"{word} ({basis}; {self.note})"

    def as_dict(self) -> dict[str, Any]:
        result = super().as_dict()
        result.update(grundy=self.grundy, note=self.note, best_moves_complete=self.complete)
        return result


def grundy_of(game: Game[Any, Any], position: Any = None) -> tuple[int, list[int]]:
    """The Grundy value of ``position`` and its components' values (normal play)."""
    require_impartial(game)
    adapter = adapter_for(game)
    position = game.start() if position is None else position
    values = [adapter.value(part) for part in adapter.split(position)]
    total = 0
    for part_value in values:
        total ^= part_value
    return total, values


def solve(game: Game[Any, Any], position: Any = None, *, pv_limit: int = 1000) -> TheorySolution:
    """Value, winning moves and a principal variation by Sprague-Grundy theory."""
    started = time.perf_counter()
    position = game.start() if position is None else position
    _check(game)
    adapter = adapter_for(game)
    state = adapter.split(position)
    grundy = None if game.properties.misere else _xor(adapter, state)
    best = _optimal_steps(adapter, state, grundy)
    wins = _misere_nim_wins(state) if grundy is None else grundy != 0
    line, line_text = _principal_variation(adapter, state, pv_limit)
    complete = adapter.exhaustive and (wins or len(best) < MOVE_LIST_LIMIT)
    if not complete:
        best = best[:SAMPLE_SIZE]
    return TheorySolution.of(
        game, position, NAME, V.WIN_ONLY if wins else -V.WIN_ONLY,
        [adapter.game_move(state, index, move) for index, move, _ in best], line,
        Stats(elapsed_s=time.perf_counter() - started), score_game=False,
        written=([adapter.notation(state, index, move) for index, move, _ in best], line_text),
        outcome_only=True, grundy=grundy, complete=complete,
        note=REMOTENESS_NOTE + ("" if complete else f"; best moves: a sample of {len(best)}"))


def analyze(game: Game[Any, Any], position: Any = None) -> list[MoveValue]:
    """Every legal move with its value (win/loss) for the player who plays it, wins first."""
    position = game.start() if position is None else position
    _check(game)
    adapter = adapter_for(game)
    state = adapter.split(position)
    valued = []
    for count, (index, move, parts) in enumerate(_all_steps(adapter, state)):
        if count >= ANALYSIS_LIMIT:
            raise UnsupportedSearch(f"{game.name} {game.format_position(position)}: more than "
                                    f"{ANALYSIS_LIMIT:,} moves to list; `solve` gives the winning ones")
        after = state[:index] + parts + state[index + 1:]
        mover_wins = _lost(adapter, after, game.properties.misere)
        valued.append(MoveValue(adapter.game_move(state, index, move),
                                adapter.notation(state, index, move),
                                V.WIN_ONLY if mover_wins else -V.WIN_ONLY, False))
    if not adapter.exhaustive:
        raise UnsupportedSearch(f"{game.name} {game.format_position(position)}: too many moves "
                                "to list; `solve` gives winning ones")
    return sorted(valued, key=lambda mv: -mv.value)


def optimal_moves(game: Game[Any, Any], position: Any, limit: int = SAMPLE_SIZE) -> list[MoveValue]:
    """The optimal moves of ``position`` valued as :func:`analyze` values them, without
    listing the others: every winning move (one per component at most in Nim), or when every
    move loses the first ``limit``. What play needs where analyze refuses (a Nim heap of
    10^30 has 10^30 moves); any other move is valued by :func:`move_value`."""
    position = game.start() if position is None else position
    _check(game)
    adapter = adapter_for(game)
    state = adapter.split(position)
    grundy = None if game.properties.misere else _xor(adapter, state)
    wins = _misere_nim_wins(state) if grundy is None else grundy != 0
    value = V.WIN_ONLY if wins else -V.WIN_ONLY
    steps = _optimal_steps(adapter, state, grundy)
    return [MoveValue(adapter.game_move(state, index, move), adapter.notation(state, index, move),
                      value, False) for index, move, _ in (steps if wins else steps[:limit])]


def move_value(game: Game[Any, Any], position: Any, move: Any) -> MoveValue:
    """The value of one legal ``move`` for the player who plays it (win or loss, by theory)."""
    _check(game)
    adapter = adapter_for(game)
    after = adapter.split(game.play(position, move))
    mover_wins = _lost(adapter, after, game.properties.misere)
    return MoveValue(move, game.format_move(position, move), V.WIN_ONLY if mover_wins else -V.WIN_ONLY, False)


def _check(game: Game[Any, Any]) -> None:
    require_impartial(game, normal_play=False)
    if game.properties.misere and not _is_nim(game):
        raise UnsupportedSearch(f"{game.name} is played misère; Sprague-Grundy sums hold for "
                                "normal play only (misère Nim excepted); use --algorithm tt")


def _xor(adapter: SumAdapter, state: list[Component]) -> int:
    total = 0
    for part in state:
        total ^= adapter.value(part)
    return total


def _lost(adapter: SumAdapter, state: list[Component], misere: bool) -> bool:
    """Whether the player to move in ``state`` loses."""
    if misere:
        return not _misere_nim_wins(state)
    return _xor(adapter, state) == 0


Step = tuple[int, Any, list[Component]]  # component index, move inside it, parts it leaves


def _all_steps(adapter: SumAdapter, state: list[Component]) -> Iterator[Step]:
    for index, part in enumerate(state):
        for move, parts in adapter.steps(part):
            yield index, move, parts


def _optimal_steps(adapter: SumAdapter, state: list[Component], grundy: int | None) -> list[Step]:
    """Every move to a lost position when there is one; else every move loses, and the
    first MOVE_LIST_LIMIT are listed. ``grundy`` None means misère Nim."""
    if grundy is None:
        winning = _misere_nim_steps(state)
    else:
        winning = [(index, move, parts) for index, part in enumerate(state)
                   for move, parts in adapter.steps_to(part, adapter.value(part) ^ grundy)] if grundy else []
    if winning:
        return winning
    return list(itertools.islice(_all_steps(adapter, state), MOVE_LIST_LIMIT))


def _first_optimal_step(adapter: SumAdapter, state: list[Component]) -> Step | None:
    """One optimal move: a winning one when there is one, else the first legal move."""
    if adapter.game.properties.misere:
        winning = _misere_nim_steps(state)
        return winning[0] if winning else next(_all_steps(adapter, state), None)
    grundy = _xor(adapter, state)
    if grundy:
        for index, part in enumerate(state):
            for move, parts in adapter.steps_to(part, adapter.value(part) ^ grundy):
                return index, move, parts
    return next(_all_steps(adapter, state), None)


def _principal_variation(adapter: SumAdapter, state: list[Component],
                         limit: int) -> tuple[list[Any], list[str]]:
    """Optimal moves played out until the game ends, the limit, or PV_SECONDS (a line through
    Nim piles of 10^9 sticks is nobody's wish): the game's moves, and the same written in the
    game's notation."""
    started = time.perf_counter()
    line: list[Any] = []
    text: list[str] = []
    while len(line) < limit and time.perf_counter() - started < PV_SECONDS:
        step = _first_optimal_step(adapter, state)
        if step is None:
            break
        index, move, parts = step
        line.append(adapter.game_move(state, index, move))
        text.append(adapter.notation(state, index, move))
        state = state[:index] + parts + state[index + 1:]
    return line, text


# -- misère Nim (Bouton 1902) -------------------------------------------------------------

def _misere_nim_wins(state: list[Component]) -> bool:
    sizes = [size for _row, size in state]
    if all(size <= 1 for size in sizes):
        return sum(sizes) % 2 == 0  # even count of single sticks: the mover is not last
    total = 0
    for size in sizes:
        total ^= size
    return total != 0


def _misere_nim_steps(state: list[Component]) -> list[Step]:
    """The moves that leave a misère Nim position lost for the opponent (none when the
    mover loses). Each candidate is checked by the rule itself."""
    if not _misere_nim_wins(state):
        return []
    found: list[Step] = []
    for index, (row, size) in enumerate(state):
        for target in sorted(_misere_targets(state, index)):
            parts = [(row, target)] if target else []
            if not _misere_nim_wins(state[:index] + parts + state[index + 1:]):
                found.append((index, (row, size - target), parts))
    return found


def _misere_targets(state: list[Component], index: int) -> set[int]:
    """The sizes worth trying for pile ``index``: the normal-play target and 0 or 1 (which
    fix the parity of single sticks when every other pile is a single stick)."""
    total = 0
    for _row, size in state:
        total ^= size
    own = state[index][1]
    return {target for target in (own ^ total, 0, 1) if target < own}

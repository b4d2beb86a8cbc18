"""The depth-limited engine sees a short mate at the depth that proves it, with null-move
pruning on (WAC.001's mate in 2 once appeared only at depth 5, at depth 3 without null
moves). The mates are the exact mate search's, so the engine is held to proved answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfectplay import value as V
from perfectplay.engine import Engine, SearchLimits
from perfectplay.engine.api import Settings
from perfectplay.games.chess.rules import Chess
from perfectplay.search.mate import find_mate

WAC = Path(__file__).parents[2] / "fixtures" / "wac_head.epd"
GAME = Chess()


def _wac(number: int) -> str:
    line = WAC.read_text().splitlines()[number - 1]
    return " ".join(line.split()[:4])


# (WAC number, mate in, the mating move). WAC.001's first move is quiet (Qg6, then Qh7#):
# a pass answered by quiescence alone never sees the quiet mate.
SHORT_MATES = [(1, 2, "g3g6"), (4, 2, None), (5, 2, None), (12, 2, None)]


@pytest.mark.parametrize(("number", "moves", "first"), SHORT_MATES)
def test_a_mate_in_two_is_seen_at_depth_three_with_null_moves_on(number: int, moves: int,
                                                                  first: str | None) -> None:
    position = GAME.parse_position(_wac(number))
    assert find_mate(GAME, position, moves).moves == moves  # the proof, by the exact search
    engine = Engine(GAME, Settings(null_move=True))
    found = engine.search(position, SearchLimits(depth=2 * moves - 1))
    assert found.score == V.win_in(2 * moves - 1)
    if first is not None:
        assert found.best_move.uci() == first


def test_null_moves_and_no_null_moves_agree_on_wac_001_at_every_depth_to_three() -> None:
    position = GAME.parse_position(_wac(1))
    scores = {}
    for null in (True, False):
        seen: list[int] = []
        Engine(GAME, Settings(null_move=null)).search(
            position, SearchLimits(depth=3), on_info=lambda info, seen=seen: seen.append(info.score))
        scores[null] = seen
    assert scores[True] == scores[False] and scores[True][-1] == V.win_in(3)


def test_the_check_extension_finds_a_mate_by_checks_a_ply_earlier() -> None:
    # 1...Bc5+ 2. Kxc5 Qb6+ 3. Kd5 Qd6#: every move of the winner checks, so with each check
    # searched a ply deeper the mate in 3 (5 plies) shows at depth 4, and only at depth 5
    # without the extension.
    position = GAME.parse_position("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1")
    assert find_mate(GAME, position, 3).moves == 3
    extended = Engine(GAME, Settings(check_extension=True)).search(position, SearchLimits(depth=4))
    plain = Engine(GAME, Settings(check_extension=False)).search(position, SearchLimits(depth=4))
    assert extended.score == V.win_in(5) and extended.best_move.uci() == "f8c5"
    assert not V.is_decisive(plain.score)
    later = Engine(GAME, Settings(check_extension=False)).search(position, SearchLimits(depth=5))
    assert later.score == V.win_in(5)


def test_futility_pruning_saves_nodes_and_keeps_the_move_in_a_quiet_opening() -> None:
    # The Two Knights Defence before White castles: a quiet position where the margin
    # (Chess.properties.quiet_margin) prunes at the last ply.
    position = GAME.parse_position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    pruned = Engine(GAME, Settings(futility=True)).search(position, SearchLimits(depth=4))
    full = Engine(GAME, Settings(futility=False)).search(position, SearchLimits(depth=4))
    assert pruned.nodes < full.nodes
    assert pruned.best_move == full.best_move

"""Othello's compiled endgame search against the Python rules and searches, and against the
published FFO endgame scores (tests/data/othello: Edax's copy of the FFO suite, #40-#59)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

pytest.importorskip("numba")

import numpy as np  # noqa: E402

from perfectplay import registry, solve  # noqa: E402
from perfectplay.errors import LimitReached  # noqa: E402
from perfectplay.games.othello import bitboard  # noqa: E402
from perfectplay.games.othello.kernel_method import to_cell, to_words  # noqa: E402
from perfectplay.games.othello.rules import PASS, Othello  # noqa: E402
from perfectplay.search.limits import Limits  # noqa: E402

FFO = Path(__file__).parent / "data" / "othello" / "fforum-40-59.obf"


def random_position(game: Othello, rng: random.Random, empties: int) -> tuple[int, int, bool, int]:
    """A position of a random game with ``empties`` empty cells (or the game's end, if it
    ends sooner)."""
    position = game.start()
    while game.moves(position) and game.board.bit_count() - (position[0] | position[1]).bit_count() > empties:
        position = game.play(position, rng.choice(game.moves(position)))
    return position


def kernel_cells(game: Othello, word: int) -> set[int]:
    return {to_cell(game, square) for square in range(64) if word >> square & 1}


@pytest.mark.parametrize("size", [4, 6, 8])
def test_the_kernels_moves_flips_passes_and_score_are_the_rules(size: int) -> None:
    game = Othello(size)
    board = np.uint64(bitboard.board_word(size))
    rng = random.Random(size)
    positions = 0
    for _ in range(30 if size < 8 else 10):
        position = game.start()
        while True:
            mine, theirs = to_words(game, position)
            own, other = np.uint64(mine), np.uint64(theirs)
            legal = kernel_cells(game, int(bitboard.legal_moves(own, other, board)))
            moves = game.moves(position)
            if not moves:
                mover_points, other_points = game.points(position)
                assert bitboard.final_score(own, other, size * size) == mover_points - other_points
                break
            assert legal == (set() if moves == [PASS] else set(moves))
            for cell in legal:
                square = cell // game.stride * 8 + cell % game.stride
                turned = kernel_cells(game, int(bitboard.flips(own, other, square)))
                assert turned == {flipped for flipped in game.cells
                                  if game.flips(position[0], position[1], cell) >> flipped & 1}
            position = game.play(position, rng.choice(moves))
            positions += 1
    assert positions > 250


@pytest.mark.parametrize("size", [4, 6, 8])
def test_stable_discs_are_never_turned_over_in_random_continuations(size: int) -> None:
    game, rng = Othello(size), random.Random(100 + size)
    stable_seen = 0
    for _ in range(60):
        position = random_position(game, rng, rng.randrange(2, size * size // 2))
        mine, theirs = to_words(game, position)
        occupied = np.uint64(mine | theirs)
        stable = [int(bitboard.stable_discs(np.uint64(word), occupied, size)) for word in (mine, theirs)]
        stable_seen += sum(bin(word).count("1") for word in stable)
        black_first = position[2]
        while game.moves(position):
            position = game.play(position, rng.choice(game.moves(position)))
            now = to_words(game, position)
            if position[2] != black_first:
                now = (now[1], now[0])
            assert now[0] & stable[0] == stable[0] and now[1] & stable[1] == stable[1]
    assert stable_seen > 100


def _agree(game: Othello, position: tuple[int, int, bool, int], algorithm: str = "tt") -> None:
    python = solve(game, position, algorithm=algorithm, engine="python", pv_limit=0)
    kernel = solve(game, position, engine="compiled")
    assert kernel.algorithm == "othello-kernel"
    assert (kernel.value, sorted(kernel.best_moves)) == (python.value, sorted(python.best_moves)), \
        game.format_position(position)


def test_the_kernel_solves_random_4x4_positions_as_tt_and_pns_do() -> None:
    game, rng = Othello(4), random.Random(4)
    for index in range(40):
        position = random_position(game, rng, rng.randrange(4, 13))
        _agree(game, position, "pns" if index % 4 == 0 else "tt")


@pytest.mark.parametrize("size, count", [(6, 30), (8, 16)])
def test_the_kernel_solves_endgames_of_ten_empties_or_fewer_as_tt_does(size: int, count: int) -> None:
    game, rng = Othello(size), random.Random(size)
    for _ in range(count):
        position = random_position(game, rng, rng.randrange(2, 11))
        if game.moves(position):
            _agree(game, position)


def ffo(number: int) -> tuple[Othello, tuple[int, int, bool, int], dict[str, int]]:
    """FFO position ``number`` (40-59) in the rules' terms, and the score of every move."""
    line = FFO.read_text().splitlines()[number - 40]
    squares, side, *pairs = line.replace(";", " ").split()
    rows = "/".join(squares[i:i + 8] for i in range(0, 64, 8))
    text = rows.translate(str.maketrans("XO-", "BW.")) + (" B" if side == "X" else " W")
    game, position = registry.load("othello", {"size": 8}, text)
    scores = {move.lower(): int(score) for move, score in (pair.split(":") for pair in pairs)}
    return game, position, scores  # type: ignore[return-value]


def test_ffo_40_is_solved_with_its_published_score_and_a_best_move() -> None:
    # FFO #40, 20 empties: Black to move wins 51-13 (+38) with a2, the one best move.
    game, position, scores = ffo(40)
    solution = solve(game, position, engine="auto", pv_limit=0)
    best = max(scores.values())
    assert solution.algorithm == "othello-kernel" and best == 38
    assert solution.value + game.margin(position) == best
    assert set(solution.best_moves) == {move for move, score in scores.items() if score == best}


def test_two_threads_give_the_scores_and_best_moves_one_thread_gives() -> None:
    # two threads split the top of the tree (Young Brothers Wait over the shared table): on
    # random 8x8 endgames of 14-18 empties their score is one thread's, whole window or null
    # windows either side of it, and their best move earns it; on FFO #40 (20 empties, +38)
    # the second thread does part of the work
    from perfectplay.games.othello.searcher import Searcher
    game, rng = Othello(8), random.Random(7)
    alone, split = Searcher(8, 1 << 18), Searcher(8, 1 << 18, threads=2)

    def score(searcher: Searcher, words: tuple[int, int], alpha: int = -127,
              beta: int = 127) -> tuple[int, int]:
        found = searcher.score(*words, alpha, beta, 1 << 62, lambda nodes: None)
        assert found is not None
        return found
    for index in range(12):
        position = random_position(game, rng, 14 + index % 5)
        if not game.moves(position) or game.moves(position) == [PASS]:
            continue
        words = to_words(game, position)
        split.clear()
        value, square = score(split, words)
        assert value == score(alone, words)[0], game.format_position(position)
        cell = 1 << square
        turned = int(bitboard.flips(np.uint64(words[0]), np.uint64(words[1]), square))
        assert -score(alone, (words[1] & ~turned, words[0] | turned | cell))[0] == value
        split.clear()
        assert score(split, words, value - 1, value)[0] >= value
        split.clear()
        assert score(split, words, value, value + 1)[0] <= value
    game, position, published = ffo(40)
    split = Searcher(8, 1 << 20, threads=2)
    found = split.score(*to_words(game, position), -127, 127, 1 << 62, lambda nodes: None)
    assert found is not None and found[0] == max(published.values()) == 38
    assert split.helper_nodes > 0


def test_the_stop_word_stops_both_threads_and_leaves_the_table_true() -> None:
    import threading
    import time

    from perfectplay.games.othello.kernel import STOP
    from perfectplay.games.othello.searcher import Searcher
    game, position, published = ffo(49)  # 26 empties: far more than a second's search
    searcher = Searcher(8, 1 << 20, threads=2)
    words = to_words(game, position)
    timer = threading.Timer(0.5, lambda: searcher.counters.__setitem__(STOP, 1))
    began = time.perf_counter()
    timer.start()
    assert searcher.score(*words, -127, 127, 1 << 62, lambda nodes: None) is None
    assert time.perf_counter() - began < 10
    searcher.counters[STOP] = 0
    game, position, published = ffo(40)  # what the stopped search left in the table is true
    found = searcher.score(*to_words(game, position), -127, 127, 1 << 62, lambda nodes: None)
    assert found is not None and found[0] == max(published.values()) == 38


def test_every_move_of_an_endgame_has_the_value_the_python_search_gives() -> None:
    from perfectplay import analyze
    game = Othello(6)
    position = random_position(game, random.Random(9), 9)
    kernel = {move.notation: move.value for move in analyze(game, position, engine="compiled")}
    python = {move.notation: move.value for move in analyze(game, position, algorithm="tt")}
    assert kernel == python and len(kernel) > 1


def test_a_node_limit_stops_the_kernel_at_exactly_that_many_nodes() -> None:
    game, position, _ = ffo(40)
    # A table of its own size is a fresh one: the process keeps its table between solves, and
    # an earlier solve of #40 in this process would answer from it within the limit.
    with pytest.raises(LimitReached, match=r"othello-kernel stopped \(nodes\) after 5,000 nodes"):
        solve(game, position, engine="compiled", limits=Limits(nodes=5000), table_size="64K")


def test_a_time_limit_stops_the_kernel() -> None:
    game = Othello(8)
    with pytest.raises(LimitReached, match=r"othello-kernel stopped \(time\)"):
        solve(game, game.start(), engine="compiled", limits=Limits(time=0.3))


def test_endgames_within_the_kernels_reach_are_solvable_and_openings_are_not() -> None:
    game, position, _ = ffo(40)
    assert game.solvable(position)  # 20 empties
    game, position, _ = ffo(50)
    assert not game.solvable(position)  # 26 empties
    assert not game.solvable(game.start())


def test_the_command_line_solves_an_ffo_position() -> None:
    import subprocess
    import sys
    game, position, _ = ffo(40)
    done = subprocess.run([sys.executable, "-m", "perfectplay", "solve", "othello",
                           game.format_position(position)], capture_output=True, text=True)
    assert done.returncode == 0 and re.search(r"best moves: a2\b", done.stdout)
    assert "totals: mover 51 other 13" in done.stdout


def test_play_and_the_web_value_a_16_empty_endgame_exactly_as_the_kernel_does() -> None:
    # play and the web page both answer through perfectplay.deciding
    from perfectplay import analyze, deciding
    from perfectplay.deciding import Think
    from perfectplay.play.analyst import Analyst
    game = Othello(8)
    position = random_position(game, random.Random(16), 16)
    assert game.solvable(position) and game.moves(position)
    kernel = {move.notation: move.value for move in analyze(game, position, engine="compiled")}
    played = Analyst(game, think_time=30.0).analyze(position)
    assert played.exact and played.estimator is None
    assert {move.notation: move.value for move in played.moves} == kernel
    decided = deciding.decide(game, position, Think(seconds=30.0))
    assert decided.exact


def test_the_kernel_is_the_auto_method_on_6x6_and_8x8_endgames() -> None:
    from perfectplay.methods import Request
    from perfectplay.solving import choose
    game, position, _ = ffo(40)
    request = Request(engine="auto", position=position)
    assert choose(game, request).name == "othello-kernel"

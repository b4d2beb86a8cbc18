"""The engine's limits and what it reports under them: the time given is used in full, an
iteration the clock cuts short still counts, searchmoves, MultiPV lines, pondering's hold,
and outside tables (a probe, the game's own tables) counted as table hits."""

from __future__ import annotations

import threading
import time
from typing import Any

from perfectplay import analyze
from perfectplay.engine import Engine, Info, SearchLimits
from perfectplay.game import Game
from perfectplay.games.connect4.rules import ConnectFour
from perfectplay.games.tictactoe.rules import TicTacToe


class Deepening(Game[tuple, int]):
    """Root moves 0, 1 and 2. At depth 1 move 0 looks best (+10, against 0 and -50); at
    depth 2 move 1 is best (+30, against -20 and 0). Move 2 has 64 replies and only the last
    refutes it, so its search visits them all and polls the clock. Other leaves are 0."""

    name = "deepening"
    LEAVES = {(0,): -10, (1,): 0, (2,): 50, (0, 0): -20, (1, 0): 30,
              **{(2, reply): 100 for reply in range(63)}}

    def start(self) -> tuple:
        return ()

    def moves(self, position: tuple) -> list[int]:
        if position == ():
            return [0, 1, 2]
        return list(range(64)) if position == (2,) else [0]

    def play(self, position: tuple, move: int) -> tuple:
        return (*position, move)

    def evaluate(self, position: tuple) -> int:
        return self.LEAVES.get(position, 0)


def test_a_time_limit_is_used_in_full() -> None:
    # It used to stop between iterations at about half the limit (0.057 s of 0.1 s a move
    # against Stockfish): now it starts iterations while time is left.
    game = ConnectFour()
    for seconds in (0.1, 0.3):
        result = Engine(game).search(game.start(), SearchLimits(time=seconds))
        assert not result.exact
        assert seconds * 0.9 <= result.elapsed_s < seconds + 0.5  # upper: a guard, not a claim


def test_an_iteration_cut_short_plays_its_best_root_move_so_far() -> None:
    game = Deepening()
    stop = threading.Event()
    seen: list[Info] = []

    def stop_at_the_third_move_of_depth_two(depth: int, move: Any, number: int) -> None:
        if (depth, number) == (2, 3):
            stop.set()

    result = Engine(game).search(game.start(), SearchLimits(infinite=True), stop=stop, on_info=seen.append,
                                 on_root_move=stop_at_the_third_move_of_depth_two)
    assert [(info.depth, info.pv[0], info.bound) for info in seen] == [(1, 0, None), (2, 1, "lower")]
    assert (result.best_move, result.score, result.depth, result.partial) == (1, 30, 2, True)
    whole = Engine(game).search(game.start(), SearchLimits(depth=2))
    assert (whole.best_move, whole.score, whole.partial) == (1, 30, False)


def test_searchmoves_restricts_the_root_to_those_moves() -> None:
    game = Deepening()
    result = Engine(game).search(game.start(), SearchLimits(depth=2, searchmoves=(0, 2)))
    assert (result.best_move, result.score) == (2, 0)
    game4 = ConnectFour()
    position = game4.parse_position("4455")  # 2 or 5 wins at once
    result = Engine(game4).search(position, SearchLimits(depth=4, searchmoves=(1, 7)))
    assert result.best_move in (1, 7) and all(line.pv[0] in (1, 7) for line in result.lines)


def test_multipv_lines_carry_each_moves_exact_value() -> None:
    game = TicTacToe()
    position = game.parse_position("X.O/.X./...")
    moves = game.moves(position)
    result = Engine(game).search(position, SearchLimits(), multipv=len(moves))
    assert result.exact and len(result.lines) == len(moves)
    scores = [line.score for line in result.lines]
    assert scores == sorted(scores, reverse=True)
    engine_values = {line.pv[0]: line.score for line in result.lines}
    solver_values = {move.move: move.value for move in analyze(game, position)}
    assert engine_values == solver_values


def test_multipv_reports_one_info_per_line_and_depth() -> None:
    game = ConnectFour()
    seen: list[Info] = []
    Engine(game).search(game.start(), SearchLimits(depth=3), multipv=3, on_info=seen.append)
    assert [(info.depth, info.multipv) for info in seen] == [(d, k) for d in (1, 2, 3) for k in (1, 2, 3)]
    last = seen[-3:]
    assert len({info.pv[0] for info in last}) == 3
    assert last[0].score >= last[1].score >= last[2].score


def test_a_held_search_starts_its_clock_when_released() -> None:
    game = ConnectFour()
    hold = threading.Event()
    hold.set()
    threading.Timer(0.3, hold.clear).start()
    started = time.perf_counter()
    Engine(game).search(game.start(), SearchLimits(time=0.1), hold=hold)
    assert time.perf_counter() - started >= 0.3 + 0.09


def test_a_probe_ends_lines_and_counts_as_a_table_hit() -> None:
    game = TicTacToe()
    exact = Engine(game).search(game.start(), SearchLimits())
    assert (exact.score, exact.exact, exact.tb_hits) == (0, True, 0)

    def draw_once_four_stones_stand(position: Any) -> int | None:
        return 0 if sum(cell != "." for cell in game.format_position(position) if cell != "/") >= 4 else None

    probed = Engine(game, probe=draw_once_four_stones_stand).search(game.start(), SearchLimits(depth=9))
    assert probed.tb_hits > 0 and not probed.exact and probed.score == 0
    silent = Engine(game, probe=lambda position: None).search(game.start(), SearchLimits())
    assert (silent.score, silent.exact, silent.tb_hits) == (0, True, 0)


def test_the_games_own_tables_count_as_table_hits() -> None:
    from perfectplay.games.chess.rules import Chess
    game = Chess()
    seen: list[Info] = []
    result = Engine(game).search(game.parse_position("8/8/8/4k3/8/8/3QK3/8 w - - 0 1"), SearchLimits(depth=3),
                                 on_info=seen.append)
    assert result.exact and result.tb_hits > 0 and seen[-1].tbhits == result.tb_hits

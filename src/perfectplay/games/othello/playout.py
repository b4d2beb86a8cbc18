"""Othello's random playouts in numba, for Monte Carlo tree search (Game.compiled_playouts).

A playout plays uniformly random legal moves on the kernel's bitboards
(perfectplay.games.othello.bitboard: boards 4x4 to 8x8) until neither side can move, passing
where the mover has no move, as the rules do. Its result is the margin the player to move at
the start gains to the end: the final disc difference with the empty cells to the winner
(the World Othello Federation's count), less the difference on the board at the start, which
is what the rules' gains add up to. One call plays many playouts, so the cost of calling
numba from Python and of converting the position is paid once for them all.

Random numbers come from splitmix64 (Steele, Lea and Flood 2014) seeded by the caller, so
a seed gives the same playouts in every process, and no state is shared between calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from perfectplay.games.othello.bitboard import (
    ONE,
    board_word,
    final_score,
    flips,
    legal_moves,
    lowest,
    popcount,
    to_words,
)

PASS = -1  # the rules' pass, as a playout's line records it
# A game on 8x8 has at most 60 placements and, between them, at most one pass each.
MAX_PLIES = 128
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
MIX_2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def _next_random(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    """splitmix64: the next state and its 64 random bits."""
    state = state + GOLDEN
    mixed = (state ^ (state >> np.uint64(30))) * MIX_1
    mixed = (mixed ^ (mixed >> np.uint64(27))) * MIX_2
    return state, mixed ^ (mixed >> np.uint64(31))


@njit(cache=True)
def play_out(mine: np.uint64, theirs: np.uint64, board: np.uint64, cells: int, state: np.uint64,
             line: np.ndarray) -> tuple[int, int, np.uint64]:
    """One random game from (``mine``, ``theirs``) to its end: its moves go to ``line`` (kernel
    squares, PASS; the two passes that end a game by blocking are not played); returns the
    final score for the player to move at the start, the plies in ``line`` and the random
    state after it."""
    sign = 1
    plies = 0
    while True:
        legal = legal_moves(mine, theirs, board)
        if not legal:
            if not legal_moves(theirs, mine, board):
                break
            line[plies] = PASS
            plies += 1
            mine, theirs = theirs, mine
            sign = -sign
            continue
        state, bits = _next_random(state)
        # 31 random bits reduced modulo at most 32 moves: a bias below one in ten million
        skip = np.int64(bits >> np.uint64(33)) % popcount(legal)
        for _ in range(skip):
            legal &= legal - ONE
        square = lowest(legal)
        turned = flips(mine, theirs, square)
        line[plies] = square
        plies += 1
        mine, theirs = theirs & ~turned, mine | turned | (ONE << np.uint64(square))
        sign = -sign
    return sign * final_score(mine, theirs, cells), plies, state


@njit(cache=True)
def random_playouts(mine: np.uint64, theirs: np.uint64, board: np.uint64, cells: int, count: int,
                    seed: np.uint64) -> np.ndarray:
    """``count`` playouts from (``mine``, ``theirs``): the margin each gains for the mover."""
    line = np.empty(MAX_PLIES, dtype=np.int64)
    results = np.empty(count, dtype=np.int64)
    on_board = popcount(mine) - popcount(theirs)
    state = seed
    for index in range(count):
        score, _, state = play_out(mine, theirs, board, cells, state, line)
        results[index] = score - on_board
    return results


class RandomPlayouts:
    """Game.compiled_playouts for one board: called with a position of the rules (a finished
    one too), a count and a seed."""

    def __init__(self, game: Any) -> None:
        self.size = game.size
        self.stride = game.stride
        self.board = np.uint64(board_word(game.size))
        self.cells = game.size * game.size

    @staticmethod
    def game_margin(position: Any) -> int:
        return int(position[0].bit_count() - position[1].bit_count())

    def words(self, position: Any) -> tuple[np.uint64, np.uint64]:
        mine, theirs = to_words(self.size, self.stride, position[0], position[1])
        return np.uint64(mine), np.uint64(theirs)

    def __call__(self, position: Any, count: int, seed: int) -> list[int]:
        if position[3] >= 2:
            return [0] * count  # two passes have ended it: the empty cells are counted already
        mine, theirs = self.words(position)
        return random_playouts(mine, theirs, self.board, self.cells, count,
                               np.uint64(seed & 0xFFFFFFFFFFFFFFFF)).tolist()

    def line(self, position: Any, seed: int) -> tuple[int, list[int]]:
        """The first playout of ``seed`` with its moves: the margin it gains for the mover (as
        the call gives it) and the moves, cells as the rules number them, or PASS (without the
        passes that end a blocked game)."""
        if position[3] >= 2:
            return 0, []
        mine, theirs = self.words(position)
        line = np.empty(MAX_PLIES, dtype=np.int64)
        score, plies, _ = play_out(mine, theirs, self.board, self.cells,
                                   np.uint64(seed & 0xFFFFFFFFFFFFFFFF), line)
        cells = [PASS if square == PASS else square // 8 * self.stride + square % 8
                 for square in line[:plies].tolist()]
        return int(score) - self.game_margin(position), cells

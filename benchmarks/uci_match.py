"""A match between ``perfectplay uci chess`` and another UCI engine, played through
python-chess's engine API as a GUI plays it: ``ucinewgame``, ``position ... moves ...``,
``go`` with both clocks and increments (or a fixed ``movetime``), optionally pondering.
Clocks are kept here: an engine whose clock runs out loses on time, and an illegal or
missing move loses the game.

    .venv/bin/python benchmarks/uci_match.py                       # 10 games, 10 s + 0.1 s
    .venv/bin/python benchmarks/uci_match.py --games 20 --clock 5+0.05 --ponder
    .venv/bin/python benchmarks/uci_match.py --movetime 0.1 --opponent /usr/games/stockfish \\
        --option UCI_LimitStrength=true --option UCI_Elo=1350

The default opponent is Debian's Stockfish (``benchmarks/setup_opponents.sh``) at its
lowest strength. Openings: ``--opening-plies`` random moves from the start (seeded), each
opening played twice with colours swapped. Prints each game and then the score from
perfectplay's side, the seconds a move each engine took (measured around its move), and
the losses on time.
"""

from __future__ import annotations

import argparse
import random
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field

import chess
import chess.engine

PERFECTPLAY = f"{shlex.quote(sys.executable)} -m perfectplay uci chess"


@dataclass
class Player:
    name: str
    engine: chess.engine.SimpleEngine
    seconds: list[float] = field(default_factory=list)
    time_losses: int = 0


def opening(rng: random.Random, plies: int) -> chess.Board:
    while True:
        board = chess.Board()
        for _ in range(plies):
            board.push(rng.choice(list(board.legal_moves)))
        if board.outcome() is None:
            return board


def play_game(white: Player, black: Player, start: chess.Board, args: argparse.Namespace) -> str:
    """The result from White's side ('1-0', '0-1', '1/2-1/2') and how it ended."""
    board = start.copy()
    clocks = {chess.WHITE: args.base, chess.BLACK: args.base}
    game = object()  # a new game for both engines: python-chess sends ucinewgame
    while board.outcome(claim_draw=True) is None and board.ply() < args.max_plies:
        mover = white if board.turn == chess.WHITE else black
        if args.movetime is not None:
            limit = chess.engine.Limit(time=args.movetime)
        else:
            limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                       white_inc=args.increment, black_inc=args.increment)
        started = time.perf_counter()
        try:
            ponder = args.ponder and mover.name == "perfectplay"
            played = mover.engine.play(board, limit, game=game, ponder=ponder)
        except chess.engine.EngineError as error:
            print(f"  {mover.name} failed: {error}")
            return "0-1" if board.turn == chess.WHITE else "1-0"
        spent = time.perf_counter() - started
        mover.seconds.append(spent)
        if args.movetime is None:
            clocks[board.turn] -= spent
            if clocks[board.turn] < 0:
                mover.time_losses += 1
                return "0-1 (time)" if board.turn == chess.WHITE else "1-0 (time)"
            clocks[board.turn] += args.increment
        if played.move is None or played.move not in board.legal_moves:
            print(f"  {mover.name} played {played.move} in {board.fen()}")
            return "0-1" if board.turn == chess.WHITE else "1-0"
        board.push(played.move)
    outcome = board.outcome(claim_draw=True)
    return outcome.result() if outcome is not None else "1/2-1/2 (adjudicated)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--clock", default="10+0.1", help="base+increment in seconds per side")
    parser.add_argument("--movetime", type=float, default=None, help="seconds a move instead of a clock")
    parser.add_argument("--opponent", default="/usr/games/stockfish")
    parser.add_argument("--option", action="append", default=None,
                        help="NAME=VALUE for the opponent (default: UCI_LimitStrength=true, UCI_Elo=1350)")
    parser.add_argument("--ponder", action="store_true", help="perfectplay ponders on the opponent's time")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    base, _, increment = args.clock.partition("+")
    args.base, args.increment = float(base), float(increment or 0)
    written = args.option or ["UCI_LimitStrength=true", "UCI_Elo=1350"]
    options = dict(item.split("=", 1) for item in written)
    ours = Player("perfectplay", chess.engine.SimpleEngine.popen_uci(shlex.split(PERFECTPLAY), timeout=60))
    theirs = Player("opponent", chess.engine.SimpleEngine.popen_uci(shlex.split(args.opponent), timeout=60))
    rng = random.Random(args.seed)
    score, counts = 0.0, {"win": 0, "draw": 0, "loss": 0}
    try:
        theirs.engine.configure(options)  # python-chess sets Ponder itself when asked to ponder
        start = opening(rng, args.opening_plies)
        for number in range(args.games):
            if number % 2 == 0 and number:
                start = opening(rng, args.opening_plies)
            white, black = (ours, theirs) if number % 2 == 0 else (theirs, ours)
            result = play_game(white, black, start, args)
            points = {"1-0": 1.0, "0-1": 0.0}.get(result.split()[0], 0.5)
            ours_points = points if white is ours else 1 - points
            score += ours_points
            counts["win" if ours_points == 1 else "loss" if ours_points == 0 else "draw"] += 1
            colour = "white" if white is ours else "black"
            print(f"game {number + 1}: perfectplay {colour}, {result}", flush=True)
    finally:
        ours.engine.quit()
        theirs.engine.quit()
    played = sum(counts.values())
    print(f"perfectplay {counts['win']}-{counts['draw']}-{counts['loss']} ({score:g}/{played})")
    for player in (ours, theirs):
        if player.seconds:
            print(f"{player.name}: {statistics.mean(player.seconds):.3f} s a move (longest "
                  f"{max(player.seconds):.3f}), {len(player.seconds)} moves, "
                  f"{player.time_losses} lost on time")


if __name__ == "__main__":
    main()

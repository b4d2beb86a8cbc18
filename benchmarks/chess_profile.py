"""Where the chess engine's time goes: python-chess (move generation, making moves) or
perfectplay's layers (the search, the chess game over python-chess, the evaluation).

The engine searches Win at Chess positions to a fixed depth under cProfile; each function's
own time (tottime) is put in one bucket by the file it is in. cProfile slows small functions
more than large ones, so the shares are indicative; the totals without the profiler are
printed beside them (nodes per second with and without it).

    .venv/bin/python benchmarks/chess_profile.py                 # every 30th position, depth 4
    .venv/bin/python benchmarks/chess_profile.py --depth 5 --every 20
    .venv/bin/python benchmarks/chess_profile.py --speed-only     # nodes per CPU second only

This decides whether a compiled move generator pays: at most the share of
python-chess's move generation can be saved, and less, since each call from the Python
search into compiled code and each move handed back as a Python object still costs.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import time
from collections import defaultdict
from pathlib import Path

import chess

from perfectplay.engine import Engine, SearchLimits
from perfectplay.engine.api import Settings
from perfectplay.games.chess.rules import Chess, position_from_board

ROOT = Path(__file__).resolve().parents[1]
CANDIDATES = [ROOT.parent / "shared" / "data" / "chess" / "wac.epd", Path("/work/shared/data/chess/wac.epd")]
# python-chess functions that generate moves or test legality (the part a compiled move
# generator would replace); the rest of python-chess is making moves, copying boards, hashing.
GENERATION = ("generate_", "_is_safe", "attacks_mask", "attackers_mask", "_slider_blockers",
              "scan_", "_attacked_for_king", "is_check", "checkers_mask", "is_into_check",
              "_ep_skewered", "has_legal_en_passant", "is_pseudo_legal", "is_legal", "piece_type_at",
              "king", "is_castling", "is_en_passant", "__init__", "pin_mask", "_castling_uncovers")


def bucket(filename: str, function: str) -> str:
    if "/chess/" in filename and "site-packages" in filename:
        if any(function.startswith(prefix) or function == prefix for prefix in GENERATION):
            return "python-chess: move generation and legality"
        return "python-chess: making moves, board copies, other"
    if "perfectplay/engine/" in filename:
        return "perfectplay: engine search (engine/)"
    if "perfectplay/games/chess/evaluation" in filename:
        return "perfectplay: chess evaluation"
    if "perfectplay/games/chess/" in filename:
        return "perfectplay: chess game layer (rules.py)"
    if filename.startswith("<") or filename == "~":
        return "builtins (sorted, len, list, ...)"
    return "other"


def positions(every: int) -> list[chess.Board]:
    path = next(path for path in CANDIDATES if path.exists())
    boards = []
    for line in path.read_text().splitlines()[::every]:
        board = chess.Board()
        board.set_epd(line)
        boards.append(board)
    return boards


def search_all(boards: list[chess.Board], depth: int) -> int:
    game, nodes = Chess(), 0
    for board in boards:
        engine = Engine(game, Settings())
        nodes += engine.search(position_from_board(board), SearchLimits(depth=depth)).nodes
    return nodes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--every", type=int, default=30, help="every Nth Win at Chess position")
    parser.add_argument("--speed-only", action="store_true",
                        help="nodes and nodes per CPU second without the profiler, then stop")
    args = parser.parse_args()
    boards = positions(args.every)
    started, cpu = time.perf_counter(), time.process_time()
    nodes = search_all(boards, args.depth)
    plain, cpu = time.perf_counter() - started, time.process_time() - cpu
    if args.speed_only:
        # CPU seconds of this process: on a shared machine the wall clock measures the
        # other work too, and a node count at a fixed depth does not depend on it.
        print(f"{len(boards)} positions at depth {args.depth}: {nodes:,} nodes; {cpu:.1f} CPU s "
              f"({nodes / cpu:,.0f} nodes per CPU second), {plain:.1f} s wall; "
              f"load average {os.getloadavg()[0]:.1f}")
        return
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.runcall(search_all, boards, args.depth)
    profiled = time.perf_counter() - started
    stats = pstats.Stats(profiler)
    shares: dict[str, float] = defaultdict(float)
    for (filename, _, function), row in stats.stats.items():  # type: ignore[attr-defined]
        shares[bucket(filename, function)] += row[2]
    total = sum(shares.values())
    print(f"{len(boards)} positions at depth {args.depth}: {nodes:,} nodes; {plain:.1f} s "
          f"({nodes / plain:,.0f} nodes/s) without the profiler, {profiled:.1f} s with it")
    for name, seconds in sorted(shares.items(), key=lambda item: -item[1]):
        print(f"  {name:<48} {seconds:7.1f} s  {100 * seconds / total:5.1f}%")
    print("top functions by own time:")
    stats.sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()

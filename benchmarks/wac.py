"""Win at Chess (300 tactical positions, public EPD): how many a UCI engine solves at a fixed
time per position. A position counts as solved when the engine's move is one of its ``bm``.

    .venv/bin/python benchmarks/wac.py                         # perfectplay uci chess, 1 s each
    .venv/bin/python benchmarks/wac.py --time 1 --limit 50     # the first 50 only
    .venv/bin/python benchmarks/wac.py --time 1 --every 5      # every fifth: 60 positions
    .venv/bin/python benchmarks/wac.py --sunfish               # perfectplay, then sunfish, same run
    .venv/bin/python benchmarks/wac.py --engine "sunfish-uci"  # any other UCI engine

``--sunfish`` adds sunfish from ``.venv-sunfish`` (made by ``make bench-venvs``, i.e.
``benchmarks/setup_opponents.sh``) after perfectplay, with the same time per position.

Each ``--engine`` is a command line started through python-chess's chess.engine, so several
engines can be compared side by side in one run with the same time.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parents[1]
# The shared data beside the checkout (CI, the main checkout) or the workplace's copy.
CANDIDATES = [ROOT.parent / "shared" / "data" / "chess" / "wac.epd", Path("/work/shared/data/chess/wac.epd")]
DEFAULT_EPD = next((path for path in CANDIDATES if path.exists()), CANDIDATES[0])
PERFECTPLAY = f"{shlex.quote(sys.executable)} -m perfectplay uci chess"
SUNFISH = ROOT / ".venv-sunfish" / "bin" / "sunfish-uci"


def read_suite(path: Path) -> list[tuple[str, chess.Board, list[chess.Move]]]:
    suite = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        board = chess.Board()
        operations = board.set_epd(line)
        best = operations.get("bm")
        if isinstance(best, list) and best:
            suite.append((str(operations.get("id", f"#{len(suite) + 1}")), board,
                          [move for move in best if isinstance(move, chess.Move)]))
    return suite


def run(command: str, suite: list[tuple[str, chess.Board, list[chess.Move]]], seconds: float,
        verbose: bool) -> tuple[int, float]:
    solved = 0
    started = time.perf_counter()
    with chess.engine.SimpleEngine.popen_uci(shlex.split(command), timeout=60) as engine:
        for name, board, best in suite:
            # A new game object per position: python-chess sends ucinewgame, so no position
            # profits from the table of the one before.
            played = engine.play(board, chess.engine.Limit(time=seconds), game=object())
            hit = played.move in best
            solved += hit
            if verbose:
                print(f"  {name}: {board.san(played.move) if played.move else '-'} "
                      f"({'ok' if hit else 'want ' + ' '.join(board.san(m) for m in best)})", flush=True)
    return solved, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epd", type=Path, default=DEFAULT_EPD)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per position")
    parser.add_argument("--limit", type=int, default=None, help="only the first N positions")
    parser.add_argument("--every", type=int, default=1,
                        help="every Nth position (5: WAC.001, 006, ..., 60 in all)")
    parser.add_argument("--engine", action="append", default=None,
                        help="a UCI engine's command line (repeat to compare); default perfectplay")
    parser.add_argument("--sunfish", action="store_true",
                        help="also run sunfish from .venv-sunfish (make bench-venvs)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    suite = read_suite(args.epd)[::args.every][:args.limit]
    engines = list(args.engine or [PERFECTPLAY])
    if args.sunfish:
        if not SUNFISH.exists():
            parser.error(f"{SUNFISH} is missing: run 'make bench-venvs' first")
        engines.append(shlex.quote(str(SUNFISH)))
    for command in engines:
        load = os.getloadavg()[0]
        solved, elapsed = run(command, suite, args.time, args.verbose)
        print(f"{command}: {solved}/{len(suite)} solved at {args.time:g} s each "
              f"({elapsed:.0f} s wall clock; load average {load:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after)", flush=True)


if __name__ == "__main__":
    main()

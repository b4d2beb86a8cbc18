"""The FFO endgame test suite solved by Othello's numba kernel, beside Edax's published figures.

    nice -n 10 python benchmarks/othello_ffo.py tests/data/othello/fforum-40-59.obf           # 40-49
    nice -n 10 python benchmarks/othello_ffo.py FILE --first 50 --last 59 --seconds 600

FILE is an .obf file of the suite (tests/data/othello holds #40-#59, copied from Edax's
repository): one position a line, 64 squares a1..h8 (X Black, O White, - empty), the side to
move, then ``move:score`` pairs, best first. Each position is solved from an empty table (the
search the suite measures: the exact score and a best move, not every move's score) and
printed as it finishes: empties, our score beside the file's, our move and whether the file
scores it best, nodes, CPU seconds and nodes per CPU second, then Edax 4.5.3's figures where
published (i9-11900K, 16 threads: CPU time there is wall time x 16 threads at best).
``--seconds`` stops a position after that many seconds of wall time (the kernel's stop word).
``--threads 2`` searches with two threads (Young Brothers Wait over the shared table; nodes
are both threads', CPU seconds the process's); ``--speedup`` solves each position with one
thread and then with two, each from an empty table, and prints the ratio of their wall
times.
"""

from __future__ import annotations

import argparse
import threading
import time
from pathlib import Path
from typing import Any

# Edax 4.5.3 on an i9-11900K with 16 threads (wall seconds, nodes), as published with the
# suite's results; positions without a published figure are left blank.
EDAX = {40: (0.03, 11.2e6), 45: (0.56, 269e6), 49: (0.81, 380e6), 50: (1.97, 934e6),
        55: (19.7, 11.3e9)}
COLUMNS = "abcdefgh"


def read_suite(path: Path, first: int) -> dict[int, tuple[int, int, dict[str, int]]]:
    """Number -> (mover's word, opponent's word, {move: score}) for every line of the file."""
    suite = {}
    for offset, line in enumerate(path.read_text().splitlines()):
        if not line.strip():
            continue
        squares, side, *pairs = line.replace(";", " ").split()
        black = sum(1 << i for i, mark in enumerate(squares) if mark == "X")
        white = sum(1 << i for i, mark in enumerate(squares) if mark == "O")
        mine, theirs = (black, white) if side == "X" else (white, black)
        scores = {move.lower(): int(score) for move, score in (pair.split(":") for pair in pairs)}
        suite[first + offset] = (mine, theirs, scores)
    return suite


def solve_one(searcher: Any, mine: int, theirs: int, seconds: float | None) -> tuple[Any, int, float, float]:
    from perfectplay.games.othello.kernel import NODES, STOP
    searcher.clear()
    counters = searcher.counters
    counters[:] = 0
    searcher.helper_nodes = 0
    timer = threading.Timer(seconds, lambda: counters.__setitem__(STOP, 1)) if seconds else None
    if timer:
        timer.start()
    began_cpu, began = time.process_time(), time.perf_counter()
    found = searcher.score(mine, theirs, -127, 127, 1 << 62, lambda nodes: None)
    cpu, wall = time.process_time() - began_cpu, time.perf_counter() - began
    if timer:
        timer.cancel()
    return found, int(counters[NODES]) + searcher.helper_nodes, cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("obf", type=Path)
    parser.add_argument("--first", type=int, default=40)
    parser.add_argument("--last", type=int, default=49)
    parser.add_argument("--number-of-first-line", type=int, default=40)
    parser.add_argument("--table-bits", type=int, default=23, help="log2 of the table's entries")
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--speedup", action="store_true", help="one thread, then two, per position")
    options = parser.parse_args()
    if options.speedup:
        speedup(options)
        return
    from perfectplay.games.othello.searcher import Searcher
    suite = read_suite(options.obf, options.number_of_first_line)
    Searcher(4, 1 << 10).score(0x40200, 0x20400, -127, 127, 1 << 62, lambda nodes: None)  # compiles
    searcher = Searcher(8, 1 << options.table_bits, threads=options.threads)
    print(f"{'#':>3} {'empty':>5} {'score':>5} {'file':>5} {'move':>4} {'best?':>5} {'nodes':>14} "
          f"{'cpu s':>8} {'wall s':>8} {'Mn/cpu s':>8} {'Edax s':>7} {'Edax nodes':>11} {'nodes/Edax':>10}")
    total_nodes = total_cpu = total_wall = 0.0
    edax_nodes = our_nodes_where_edax = 0.0
    for number in range(options.first, options.last + 1):
        mine, theirs, scores = suite[number]
        empties = 64 - bin(mine | theirs).count("1")
        found, nodes, cpu, wall = solve_one(searcher, mine, theirs, options.seconds)
        best = max(scores.values())
        if found is None:
            score_text, move_text, tied = "stop", "-", "-"
        else:
            score, square = found
            move_text = COLUMNS[square % 8] + str(square // 8 + 1) if square >= 0 else "pass"
            score_text = f"{score:+d}"
            tied = "yes" if scores.get(move_text) == best and score == best else "NO"
        edax = EDAX.get(number)
        edax_text = f"{edax[0]:>7.2f} {edax[1]:>11.3g} {nodes / edax[1]:>10.2f}" if edax else ""
        if edax and found is not None:
            edax_nodes += edax[1]
            our_nodes_where_edax += nodes
        total_nodes += nodes
        total_cpu += cpu
        total_wall += wall
        print(f"{number:>3} {empties:>5} {score_text:>5} {best:>+5d} {move_text:>4} {tied:>5} {nodes:>14,} "
              f"{cpu:>8.2f} {wall:>8.2f} {nodes / max(cpu, 1e-9) / 1e6:>8.1f} {edax_text}", flush=True)
    rate = total_nodes / max(total_cpu, 1e-9) / 1e6
    against = f"; where Edax published: {our_nodes_where_edax / edax_nodes:.2f}x its nodes" \
        if edax_nodes else ""
    print(f"all: {total_nodes:,.0f} nodes, {total_cpu:.1f} CPU s, {total_wall:.1f} s wall, {rate:.1f} M "
          f"nodes per CPU s{against}")


def speedup(options: argparse.Namespace) -> None:
    """Each position with one thread, then with two, back to back, each from an empty table:
    the ratio of wall times (the speed-up, fair only on an otherwise idle machine), and of
    nodes (the split's overhead)."""
    from perfectplay.games.othello.searcher import Searcher
    suite = read_suite(options.obf, options.number_of_first_line)
    Searcher(4, 1 << 10, threads=2).score(0x40200, 0x20400, -127, 127, 1 << 62, lambda nodes: None)
    searchers = [Searcher(8, 1 << options.table_bits, threads=threads) for threads in (1, 2)]
    walls, cpus, counts = [0.0, 0.0], [0.0, 0.0], [0, 0]
    print(f"{'#':>3} {'score':>5} {'1 thread s':>10} {'CPU s':>7} {'nodes':>14} {'2 threads s':>11} "
          f"{'CPU s':>7} {'nodes':>14} {'speed-up':>8} {'nodes x':>7}")
    for number in range(options.first, options.last + 1):
        mine, theirs, _ = suite[number]
        runs = [solve_one(searcher, mine, theirs, None) for searcher in searchers]
        for index, (_, nodes, cpu, wall) in enumerate(runs):
            walls[index] += wall
            cpus[index] += cpu
            counts[index] += nodes
        (found, nodes, cpu, wall), (found_2, nodes_2, cpu_2, wall_2) = runs
        assert found is not None and found_2 is not None and found[0] == found_2[0]
        print(f"{number:>3} {found[0]:>+5d} {wall:>10.2f} {cpu:>7.2f} {nodes:>14,} {wall_2:>11.2f} "
              f"{cpu_2:>7.2f} {nodes_2:>14,} {wall / wall_2:>8.2f} {nodes_2 / nodes:>7.2f}", flush=True)
    print(f"all: one thread {walls[0]:.1f} s wall, {cpus[0]:.1f} CPU s, {counts[0]:,} nodes; two threads "
          f"{walls[1]:.1f} s wall, {cpus[1]:.1f} CPU s, {counts[1]:,} nodes: speed-up "
          f"{walls[0] / walls[1]:.2f}x, {counts[1] / counts[0]:.2f}x the nodes")


if __name__ == "__main__":
    main()

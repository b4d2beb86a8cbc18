"""Lazy SMP: time to depth with 1 and 2 search processes on a fixed set of positions.

    echo -5 > /proc/$$/autogroup   # root: the shell's scheduling group at nice -5
    nice -n -5 .venv/bin/python benchmarks/lazy_smp.py [--game connect4|chess|both]
        [--c4-depth 10] [--chess-depth 5] [--rounds 1] [--own-session]

For every position the table is cleared, then the main search runs to the given depth with
``Settings(threads=1)`` and with ``threads=2`` (one helper process sharing the table), one
right after the other so that both see the same load. It prints, per position: the time to
depth, the main search's nodes (which fall when the helper fills the table ahead of it), the
helper's nodes, and the main search's hits on entries the helper wrote ("shared hits") and
those that answered a node outright ("shared cutoffs"). Node counts do not depend on the
load (but do on how far the helper got, so they vary a little from run to run); times do,
so the load average is printed before and after. Helpers are started once and stay alive
between positions, as in a game.

Linux with autogroup scheduling (``/proc/sys/kernel/sched_autogroup_enabled``) shares the
CPU fairly between sessions, not processes: a helper forked into the engine's session splits
that session's share with the main search instead of adding to it, so on a machine busy with
other sessions two processes cannot be faster than one, however well Lazy SMP works (and
``nice`` only orders processes inside a session). ``--own-session`` is a measuring device:
the helper calls ``setsid()`` and takes the main session's autogroup nice, so the two search
processes compete as two processes would without autogroup. The engine itself never does
this: it leaves the scheduler's fairness between users alone.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from dataclasses import dataclass
from typing import Any

import perfectplay.engine.smp as smp
from perfectplay.engine import Engine, SearchLimits, Settings
from perfectplay.games.connect4.rules import ConnectFour

# Connect Four: eight positions of 4 to 10 random moves (columns 1-7), drawn once with
# random.Random(13) and written down so the set never changes.
CONNECT4 = ["51177312", "731133", "67313", "2371", "5734", "72123753", "2766213", "1514316715"]
# Chess: quiet openings and middlegames, where the search is wide (tactical test positions
# end too soon to measure), plus "Kiwipete" and perft position 4 (Chess Programming Wiki).
CHESS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "2r2rk1/pp2bppp/2n1pn2/q2p4/3P4/2NBPN2/PPQ2PPP/2R2RK1 w - - 0 12",
]


@dataclass
class Run:
    seconds: float
    cpu: float  # CPU seconds of the main process: its share of a core is cpu / seconds
    main_nodes: int
    helper_nodes: int
    shared_hits: int
    shared_cutoffs: int
    table_hits: int
    best: str


def time_to_depth(engine: Engine, game: Any, position: Any, depth: int) -> Run:
    engine.new_game()  # an empty table: the helper's entries are all the sharing there is
    started, cpu = time.perf_counter(), time.process_time()
    result = engine.search(position, SearchLimits(depth=depth))
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    return Run(seconds, cpu, result.nodes - result.helper_nodes, result.helper_nodes, result.shared_hits,
               result.shared_cutoffs, result.table_hits, game.format_move(position, result.best_move))


def bench(title: str, game: Any, positions: list[str], depth: int, rounds: int) -> list[tuple[Run, Run]]:
    print(f"\n## {title}, time to depth {depth}, {len(positions)} positions, best of {rounds}")
    print("| position | 1 process s (main's core share) | main nodes | 2 processes s (main's share) "
          "| main nodes | helper nodes | shared hits | shared cutoffs | speedup |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    pairs = []
    with Engine(game, Settings(threads=1)) as single, Engine(game, Settings(threads=2)) as double:
        start = game.parse_position(positions[0])
        double.search(start, SearchLimits(depth=1))  # fork the helper before any timing
        for text in positions:
            position = game.parse_position(text)
            one = min((time_to_depth(single, game, position, depth) for _ in range(rounds)),
                      key=lambda run: run.seconds)
            two = min((time_to_depth(double, game, position, depth) for _ in range(rounds)),
                      key=lambda run: run.seconds)
            pairs.append((one, two))
            print(f"| `{text}` | {one.seconds:.2f} ({one.cpu / one.seconds:.2f}) | {one.main_nodes:,} | "
                  f"{two.seconds:.2f} ({two.cpu / two.seconds:.2f}) | "
                  f"{two.main_nodes:,} | {two.helper_nodes:,} | {two.shared_hits:,} | "
                  f"{two.shared_cutoffs:,} | {one.seconds / two.seconds:.2f}x |", flush=True)
    summarize(pairs)
    overhead(game, positions[0])
    return pairs


def overhead(game: Any, text: str, searches: int = 50) -> None:
    """What a search pays for its helper: the job message, the stop and the helper's answer,
    measured as the extra wall time of a depth-1 search (table kept, helpers already alive)."""
    position = game.parse_position(text)
    medians = []
    for threads in (1, 2):
        with Engine(game, Settings(threads=threads)) as engine:
            engine.search(position, SearchLimits(depth=1))
            times = []
            for _ in range(searches):
                started = time.perf_counter()
                engine.search(position, SearchLimits(depth=1))
                times.append(time.perf_counter() - started)
        medians.append(statistics.median(times))
    print(f"per-search cost of the helper (median of {searches} depth-1 searches): "
          f"{medians[0] * 1000:.2f} ms with 1 process, {medians[1] * 1000:.2f} ms with 2")


def summarize(pairs: list[tuple[Run, Run]]) -> None:
    one = sum(a.seconds for a, _ in pairs)
    two = sum(b.seconds for _, b in pairs)
    nodes_one = sum(a.main_nodes for a, _ in pairs)
    nodes_two = sum(b.main_nodes for _, b in pairs)
    cpu_one, cpu_two = sum(a.cpu for a, _ in pairs), sum(b.cpu for _, b in pairs)
    share_one, share_two = cpu_one / one, cpu_two / two
    geometric = math.exp(statistics.fmean(math.log(a.seconds / b.seconds) for a, b in pairs))
    print(f"total: 1 process {one:.2f} s, 2 processes {two:.2f} s: time-to-depth speedup "
          f"{one / two:.2f}x (geometric mean per position {geometric:.2f}x); main search nodes "
          f"{nodes_one:,} -> {nodes_two:,} ({nodes_two / nodes_one:.2f}); the main process had "
          f"{share_one:.2f} of a core alone, {share_two:.2f} with the helper; its CPU time to depth "
          f"{cpu_one:.2f} s -> {cpu_two:.2f} s ({cpu_one / cpu_two:.2f}x)")


def autogroup() -> str:
    try:
        with open("/proc/self/autogroup") as found:
            return found.read().strip()
    except OSError:
        return "no autogroup"


def helpers_in_their_own_session() -> None:
    """--own-session: wrap the helper's loop so it first leaves the session (a new autogroup)
    and gives its group the nice the benchmark's group has (lowering it needs root)."""
    nice = autogroup().rsplit(" ", 1)[-1]
    loop = smp._helper_loop

    def own_session(*args: Any) -> None:
        os.setsid()
        try:
            with open("/proc/self/autogroup", "w") as group:
                group.write(nice)
        except OSError:
            pass
        loop(*args)

    smp._helper_loop = own_session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("connect4", "chess", "both"), default="both")
    parser.add_argument("--c4-depth", type=int, default=10)
    parser.add_argument("--chess-depth", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=1, help="runs per position; the fastest counts")
    parser.add_argument("--own-session", action="store_true",
                        help="the helper in a scheduling group of its own (see above)")
    args = parser.parse_args()
    if args.own_session:
        helpers_in_their_own_session()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, nice {os.nice(0)}, {autogroup()}, "
          f"helper {'in its own session' if args.own_session else 'in the same session'}, "
          f"load average {os.getloadavg()[0]:.2f} at the start")
    pairs = []
    if args.game in ("connect4", "both"):
        pairs += bench("Connect Four", ConnectFour(), CONNECT4, args.c4_depth, args.rounds)
    if args.game in ("chess", "both"):
        from perfectplay.games.chess.rules import Chess
        pairs += bench("chess", Chess(), CHESS, args.chess_depth, args.rounds)
    if args.game == "both":
        print("\n## both games")
        summarize(pairs)
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

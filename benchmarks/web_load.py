"""Load test of `perfectplay serve`: N concurrent clients playing a game (127.0.0.1 only).

    python benchmarks/web_load.py [--clients 50] [--games 4] [--game tictactoe|connect4] [--slow N]

Starts the server on a free port, runs the clients (each request timed), prints requests,
errors and latency percentiles. ``--slow N`` keeps N chess analyses (thinking streams)
running beside the clients all along, to measure what slow analyses cost the others.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from perfectplay.web.loadtest import PLIES, SlowAnalyses, play_games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game", choices=sorted(PLIES), default="tictactoe")
    parser.add_argument("--slow", type=int, default=0, help="chess analyses running beside the clients")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[3]
        play_games(url, clients=2, games=1, game=args.game)  # warm up: imports and the first analyses
        watchers = SlowAnalyses(url, args.slow, seconds=60) if args.slow else None
        if watchers is not None:
            time.sleep(1.0)  # the analyses are under way before the clients start
        result = play_games(url, clients=args.clients, games=args.games, game=args.game, seed=2)
        if watchers is not None:
            watchers.stop()
    finally:
        server.terminate()
        server.wait(timeout=10)
    times = os.times()
    print(f"server process CPU: {times.children_user + times.children_system:.2f} s "
          f"(this machine's load average: {os.getloadavg()[0]:.1f})")
    print(f"{args.clients} clients x {args.games} {args.game} games"
          f"{f', {args.slow} chess analyses beside' if args.slow else ''}: {result.requests} requests "
          f"in {result.elapsed_s:.2f} s ({result.requests / result.elapsed_s:.0f}/s), "
          f"{len(result.errors)} errors")
    print(f"latency: median {result.percentile(0.5) * 1000:.1f} ms, "
          f"95% {result.percentile(0.95) * 1000:.1f} ms, 99% {result.percentile(0.99) * 1000:.1f} ms, "
          f"max {max(result.latencies_s, default=0) * 1000:.1f} ms")
    for error in result.errors[:5]:
        print("  ", error)


if __name__ == "__main__":
    main()

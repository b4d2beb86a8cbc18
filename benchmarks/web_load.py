"""Load test of `perfectplay serve`: N concurrent clients playing tic-tac-toe (127.0.0.1 only).

    python benchmarks/web_load.py [--clients 50] [--games 4]

Starts the server on a free port, runs the clients, prints requests, errors and latency.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from perfectplay.web.loadtest import play_games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[3]
        play_games(url, clients=2, games=1)  # warm up: imports and the first analyses
        result = play_games(url, clients=args.clients, games=args.games)
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"{args.clients} clients x {args.games} tic-tac-toe games: {result.requests} requests "
          f"in {result.elapsed_s:.2f} s ({result.requests / result.elapsed_s:.0f}/s), "
          f"{len(result.errors)} errors")
    print(f"latency: median {result.percentile(0.5) * 1000:.1f} ms, "
          f"95% {result.percentile(0.95) * 1000:.1f} ms, max {max(result.latencies_s) * 1000:.1f} ms")
    for error in result.errors[:5]:
        print("  ", error)


if __name__ == "__main__":
    main()

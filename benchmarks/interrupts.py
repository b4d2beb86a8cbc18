"""How soon Ctrl-C stops the compiled kernels: SIGINT sent to this process from a timer
thread while a long search runs, and the time until KeyboardInterrupt reaches the caller.

    python benchmarks/interrupts.py [--after SECONDS] [--repeat N]
"""

from __future__ import annotations

import argparse
import os
import signal
import threading
import time
from typing import Callable

from perfectplay import registry
from perfectplay.games.connect4.kernel_engine import Engine
from perfectplay.impartial import sparse
from perfectplay.impartial.octal_code import parse_code


def stop_latency(work: Callable[[], object], after: float) -> float:
    sent: list[float] = []

    def fire() -> None:
        time.sleep(after)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=fire, daemon=True).start()
    try:
        work()
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    raise RuntimeError("the work ended before the interrupt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game, empty = registry.load("connect4", {}, "")
    engine = Engine(game)
    engine.score(game.parse_position("4455"))  # load the kernel first
    code = parse_code("0." + "7" * 22)
    sparse.sparse_sequence(code, 700)

    def connect4() -> object:
        engine.new_solve()
        return engine.score(empty)
    cases = {"Connect Four kernel, empty board": connect4,
             "octal 0.7777777777777777777777 to 600,000 values":
                 lambda: sparse.sparse_sequence(code, 600_000)}
    for name, work in cases.items():
        times = sorted(stop_latency(work, args.after) for _ in range(args.repeat))
        print(f"{name}: stopped {times[len(times) // 2] * 1000:.1f} ms after Ctrl-C "
              f"(median of {args.repeat}; worst {times[-1] * 1000:.1f} ms)")


if __name__ == "__main__":
    main()

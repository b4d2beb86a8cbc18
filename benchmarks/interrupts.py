"""How soon Ctrl-C stops the compiled kernels: SIGINT sent to this process from a timer
thread while a long search runs, and the time until KeyboardInterrupt reaches the caller.

    python benchmarks/interrupts.py [--after SECONDS] [--repeat N] [--busy N]

The Connect Four kernel is measured twice: interrupted ``--after`` seconds in (its worker
thread by then) and 20 ms in, inside the first slice it runs directly in the main thread
(kernel_engine.DIRECT_NODES nodes), where Python acts on the signal only when the slice ends.
``--busy N`` starts N CPU-bound processes beside it for the run (and ends them after).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from perfectplay import registry
from perfectplay.games.connect4.kernel_engine import Engine
from perfectplay.impartial import sparse
from perfectplay.impartial.octal_code import parse_code

# A CPU-bound process that ends by itself when this one does.
BURNER = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"


def stop_latency(work: Callable[[], object], after: float) -> float:
    sent: list[float] = []

    def fire() -> None:
        time.sleep(after)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)
    try:  # on a busy machine the signal may come while the timer's thread starts
        threading.Thread(target=fire, daemon=True).start()
        work()
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    raise RuntimeError("the work ended before the interrupt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes beside it")
    args = parser.parse_args()
    burners = [subprocess.Popen([sys.executable, "-c", BURNER])
               for _ in range(args.busy)]
    try:
        measure(args.after, args.repeat)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def measure(after: float, repeat: int) -> None:
    game, empty = registry.load("connect4", {}, "")
    engine = Engine(game)
    engine.score(game.parse_position("4455"))  # load the kernel first
    code = parse_code("0." + "7" * 22)
    sparse.sparse_sequence(code, 700)

    def connect4() -> object:
        engine.new_solve()
        return engine.score(empty)
    cases = {f"Connect Four kernel, empty board, {after:g} s in": (connect4, after),
             "Connect Four kernel, empty board, 0.02 s in (the direct slice)": (connect4, 0.02),
             f"octal 0.7777777777777777777777 to 600,000 values, {after:g} s in":
                 (lambda: sparse.sparse_sequence(code, 600_000), after)}
    for name, (work, when) in cases.items():
        times = sorted(stop_latency(work, when) for _ in range(repeat))
        print(f"{name}: stopped {times[len(times) // 2] * 1000:.1f} ms after Ctrl-C "
              f"(median of {repeat}; worst {times[-1] * 1000:.1f} ms)")


if __name__ == "__main__":
    main()

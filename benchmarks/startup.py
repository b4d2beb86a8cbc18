"""Whole-process start-up and exit times a user meets: best and median of N runs.

    python benchmarks/startup.py [--repeat N] [--only light|compiled|interrupt]

light:     `perfectplay --version` (the floor), `perfectplay solve tictactoe`, `import perfectplay`
           and `python -c pass` (the interpreter alone).
compiled:  the second and later runs of `solve tictactoe --engine compiled` and of the docs'
           user kernel (docs/compiled.md, written to a temporary file), and `import numba`.
interrupt: `perfectplay solve connect4 --engine compiled` sent SIGINT after 3 s: the time
           from the signal to the process's exit, and its exit code.

Each run is a new process, started from the venv's own `perfectplay` script. Run it at a
raised priority on a shared machine (`nice -n -5`, as root) and report the load average,
which this script prints.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
PERFECTPLAY = str(BIN / "perfectplay")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "compiled.md"


# CPU seconds (user + system) of each run's process, beside its wall time: on a shared
# machine the CPU time says what the process itself costs, the wall time what a user waits.
CPU: dict[int, list[float]] = {}


def timed(command: list[str], repeat: int) -> list[float]:
    times, cpu = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        times.append(time.perf_counter() - started)
        cpu.append(usage.ru_utime + usage.ru_stime)
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(command)} failed")
    times.sort()
    CPU[id(times)] = sorted(cpu)
    return times


def report(name: str, times: list[float]) -> None:
    cpu = CPU.get(id(times))
    used = f"   CPU best {cpu[0] * 1000:7.1f} ms" if cpu else ""
    print(f"{name:<58} wall best {times[0] * 1000:7.1f} ms   median "
          f"{statistics.median(times) * 1000:7.1f} ms{used}   ({len(times)} runs)")


def user_kernel_file(folder: str) -> str:
    """The docs' FastTakeAway example as a module of its own (the first python block)."""
    text = DOCS.read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S)
    if block is None or "FastTakeAway" not in block.group(1):
        raise SystemExit("docs/compiled.md: the FastTakeAway example was not found")
    path = Path(folder) / "fast_takeaway.py"
    path.write_text(block.group(1))
    return f"{path}:FastTakeAway"


def light(repeat: int) -> None:
    report("python -c pass", timed([sys.executable, "-c", "pass"], repeat))
    report("python -c 'import perfectplay'", timed([sys.executable, "-c", "import perfectplay"], repeat))
    report("perfectplay --version", timed([PERFECTPLAY, "--version"], repeat))
    report("perfectplay solve tictactoe", timed([PERFECTPLAY, "solve", "tictactoe"], repeat))


def compiled(repeat: int) -> None:
    report("python -c 'import numba'", timed([sys.executable, "-c", "import numba"], repeat))
    command = [PERFECTPLAY, "solve", "tictactoe", "--engine", "compiled"]
    timed(command, 1)  # the first run may compile and fill the cache
    report("perfectplay solve tictactoe --engine compiled (cached)", timed(command, repeat))
    with tempfile.TemporaryDirectory() as folder:
        spec = user_kernel_file(folder)
        command = [PERFECTPLAY, "solve", spec, "--engine", "compiled", "--algorithm", "tt"]
        timed(command, 1)
        report("perfectplay solve fast_takeaway.py:FastTakeAway --engine compiled", timed(command, repeat))


def interrupt(repeat: int, after: float = 3.0) -> None:
    """SIGINT to a long compiled Connect Four solve: seconds until the process is gone."""
    times, codes = [], set()
    for _ in range(repeat):
        process = subprocess.Popen([PERFECTPLAY, "solve", "connect4", "--engine", "compiled",
                                    "--book", "none"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        time.sleep(after)
        if process.poll() is not None:
            raise SystemExit("the solve ended before the interrupt; raise --after")
        sent = time.perf_counter()
        os.kill(process.pid, signal.SIGINT)
        codes.add(process.wait())
        times.append(time.perf_counter() - sent)
    report(f"SIGINT to exit, solve connect4 --engine compiled (exit {sorted(codes)})", sorted(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--only", choices=["light", "compiled", "interrupt"])
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}, "
          f"nice {os.nice(0)}, Python {sys.version.split()[0]}")
    for name, part in (("light", light), ("compiled", compiled), ("interrupt", interrupt)):
        if args.only in (None, name):
            part(args.repeat if name != "interrupt" else max(1, args.repeat // 3))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()

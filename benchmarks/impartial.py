"""Impartial-game figures for docs/benchmarks-log.md. Run: python benchmarks/impartial.py

Prints one Markdown table row per figure. Times are wall-clock seconds (time.perf_counter)
of the library call in this process, and for the contest command also of a whole
`perfectplay contest claim` process (interpreter start included).
"""

from __future__ import annotations

import platform
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from perfectplay import solve
from perfectplay.cli.impartial import read_queries
from perfectplay.games.nim import Nim
from perfectplay.impartial.octal import analyse, parse_code, plain_sequence
from perfectplay.impartial.sums import heap_value


def timed(function: Callable[[], Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def claim_queries(text: str) -> list[str]:
    """What `perfectplay contest claim` does, minus reading stdin."""
    analysis = analyse(parse_code("0.137"), 256)
    return ["WIN" if heap_value(analysis, n) else "LOSE" for n in read_queries(text, 10**18)]


def whole_process(text: str) -> float | None:
    command = shutil.which("perfectplay")
    if command is None:
        return None
    times = []
    for _ in range(5):  # the best of five: the machine is shared, start-up time is noisy
        started = time.perf_counter()
        subprocess.run([command, "contest", "claim"], input=text, text=True, check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return min(times)


def row(figure: str, target: str, measured: str, note: str = "") -> None:
    print(f"| {figure} | {target} | {measured} | {note} |")


def main() -> None:
    rng = random.Random(2026)
    small = "300\n" + "\n".join(str(rng.randint(1, 20)) for _ in range(300)) + "\n"
    huge = "300\n" + "\n".join(str(rng.randint(1, 10**18)) for _ in range(300)) + "\n"
    print(f"machine: {platform.processor() or platform.machine()}, Python {sys.version.split()[0]}, "
          f"{platform.system()} {platform.release()}\n")
    print("| figure | target | measured | note |\n|---|---|---|---|")
    for label, text in (("n <= 20", small), ("n <= 10^18", huge)):
        answers, seconds = timed(lambda text=text: claim_queries(text))
        process = whole_process(text)
        shown = f"{seconds:.4f} s in process" + (f"; {process:.3f} s whole process" if process else "")
        row(f"300 claim queries, {label}", "< 0.08 s (published C++)", shown,
            f"{answers.count('WIN')} WIN / {answers.count('LOSE')} LOSE; whole process: best of 5")
    for code, expected in (("0.77", (12, 71)), ("0.137", (34, 52))):
        analysis, seconds = timed(lambda code=code: analyse(parse_code(code)))
        found = analysis.periodicity
        row(f"{code} period and preperiod, certified", f"{expected}, < 1 s",
            f"({found.period}, {found.preperiod}) certified={found.certified} in {seconds:.3f} s",
            f"from {found.checked_to} values")
    from perfectplay.impartial import sparse
    _, compile_seconds = timed(lambda: sparse.sparse_sequence(parse_code("0.16"), 700))
    values, seconds = timed(lambda: sparse.sparse_sequence(parse_code("0.16"), 100_001))
    row("0.16 values to n = 100,000", "< 60 s", f"{seconds:.2f} s",
        f"rare/common method; largest value {int(values.max())}; numba load/compile {compile_seconds:.2f} s")
    plain, seconds = timed(lambda: plain_sequence(parse_code("0.16"), 5_001))
    row("0.16 by the plain mex rule to n = 5,000 (for scale)", "-", f"{seconds:.2f} s",
        f"quadratic: about {seconds * 400 / 60:.0f} min to n = 100,000; same values: "
        f"{plain == values[:5_001].tolist()}")
    analysis, seconds = timed(lambda: analyse(parse_code("0.16"), 1 << 20))
    found = analysis.periodicity
    row("0.16 period found and certified (stretch)", "149,459 / 105,351, < 10 min",
        f"{found.period:,} / {found.preperiod:,} certified={found.certified} in {seconds:.1f} s",
        f"from {found.checked_to:,} values")
    for code, terms, published in (("0.127", 1 << 17, "4 / 46,578 (last exception 46,577)"),
                                   ("0.56", 1 << 20, "144 / about 326,640")):
        analysis, seconds = timed(lambda code=code, terms=terms: analyse(parse_code(code), terms))
        found = analysis.periodicity
        row(f"{code} period found and certified (extra)", f"{published} (Gangolli and Plambeck)",
            f"{found.period:,} / {found.preperiod:,} certified={found.certified} in {seconds:.1f} s",
            f"from {found.checked_to:,} values")
    piles = tuple(rng.randint(1, 10**9) for _ in range(100))
    result, seconds = timed(lambda: solve(Nim(), piles))
    row("solve nim, 100 piles <= 10^9", "< 0.1 s", f"{seconds:.4f} s",
        f"{result.outcome}, first winning move {result.best_moves[0] if result.best_moves else '-'}, "
        f"PV {len(result.pv)} plies")


if __name__ == "__main__":
    main()

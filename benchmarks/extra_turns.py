"""Kalah and Dots and Boxes from their start positions (docs/extra_turns.md).

    .venv/bin/python benchmarks/extra_turns.py kalah [--pits 1-6] [--seeds 1-6]
            [--engine python|compiled] [--limit 120]
        value, best first moves and wall time of `perfectplay solve kalah --pits M --seeds N`
        for every size in the ranges, each a fresh process cut off after --limit seconds.
    .venv/bin/python benchmarks/extra_turns.py dots [--sizes 1x1,2x2,3x2,3x3]
        the same for `perfectplay solve dots --width C --height R` (auto: the numba table
        from 13 lines).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time


def run(arguments: list[str], limit: float) -> str:
    started = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "perfectplay", "solve", *arguments,
                               "--pv-limit", "0"], capture_output=True, text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return f"not within {limit:.0f} s"
    wall = time.perf_counter() - started
    if done.returncode != 0:
        return f"exit {done.returncode}: {done.stderr.strip()}"
    lines = dict(line.split(": ", 1) for line in done.stdout.splitlines() if ": " in line)
    return f"{lines.get('value', '?')}; best {lines.get('best moves', '?')}; {wall:.1f} s"


def span(text: str) -> range:
    low, _, high = text.partition("-")
    return range(int(low), int(high or low) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=["kalah", "dots"])
    parser.add_argument("--pits", default="1-6")
    parser.add_argument("--seeds", default="1-6")
    parser.add_argument("--engine", default="auto")
    parser.add_argument("--sizes", default="1x1,2x1,2x2,3x2,4x2,3x3")
    parser.add_argument("--limit", type=float, default=120.0)
    options = parser.parse_args()
    if options.game == "kalah":
        for pits in span(options.pits):
            for seeds in span(options.seeds):
                found = run(["kalah", "--pits", str(pits), "--seeds", str(seeds),
                             "--engine", options.engine], options.limit)
                print(f"Kalah({pits},{seeds}): {found}", flush=True)
    else:
        for size in options.sizes.split(","):
            width, height = size.split("x")
            found = run(["dots", "--width", width, "--height", height, "--engine", options.engine],
                        options.limit)
            print(f"dots {size} boxes: {found}", flush=True)


if __name__ == "__main__":
    main()

"""Pool several `perfectplay match` runs into one result: each run's per-pair lines ("pair N:
W w D d L l", cumulative) give its pairs, the pairs of every run go into one pentanomial, and
the Elo and its 95% interval come from it as the match computes them
(perfectplay.engine.sprt.elo_estimate). A run stopped by hand counts its finished pairs.

    python benchmarks/match_pool.py match1.out match2.out
"""

from __future__ import annotations

import re
import sys

from perfectplay.engine.sprt import elo_estimate

PAIR_LINE = re.compile(r"pair (\d+): W (\d+) D (\d+) L (\d+)")


def pairs_of(path: str) -> tuple[list[int], tuple[int, int, int]]:
    """A run's pentanomial (pairs scoring 0 to 4 half points for the first player) and its
    games won, drawn and lost."""
    pentanomial = [0] * 5
    last = (0, 0, 0)
    with open(path) as lines:
        for line in lines:
            found = PAIR_LINE.match(line)
            if found is None:
                continue
            now = (int(found[2]), int(found[3]), int(found[4]))
            won, drawn = now[0] - last[0], now[1] - last[1]
            pentanomial[2 * won + drawn] += 1
            last = now
    return pentanomial, last


def main() -> None:
    pooled = [0] * 5
    games = [0, 0, 0]
    for path in sys.argv[1:]:
        pentanomial, (won, drawn, lost) = pairs_of(path)
        print(f"{path}: {sum(pentanomial)} pairs, W {won} D {drawn} L {lost}, pentanomial {pentanomial}")
        pooled = [a + b for a, b in zip(pooled, pentanomial, strict=True)]
        games = [games[0] + won, games[1] + drawn, games[2] + lost]
    estimate = elo_estimate(pooled)
    if estimate is None:
        raise SystemExit("match_pool: no finished pair in " + " ".join(sys.argv[1:]))
    print(f"pooled: {sum(pooled)} pairs, W-D-L {games[0]}-{games[1]}-{games[2]}, pentanomial {pooled}")
    print(f"Elo {estimate.elo:+.0f} (95% interval {estimate.low:+.0f} to {estimate.high:+.0f})")


if __name__ == "__main__":
    main()

"""Kalah's endgame databases: the exact value of every board with up to N seeds in play, for
one number of pits and one capture rule, as Irving, Donkers and Uiterwijk built them
("Solving Kalah", ICGA Journal 23(3), 2000: every position with up to 20 seeds).

The stores are already banked, so a position's value (the margin still to win, from the side
to move) depends on the pits alone: the database holds that value, one signed byte, for each
way of putting k seeds into the 2m pits, facing the side to move, for k = 0..N. Boards with k
seeds come in order of their pits (the mover's first pit first, fewest seeds first), ranked by
the combinatorial number system; tier k starts after the C(k + 2m - 1, 2m) boards with fewer.

A move never adds seeds to the pits, so a board only reaches boards with as many seeds or
fewer: the tiers are built from k = 0 up. Inside a tier (a move that sows no seed into the
store and captures nothing), the mover's seeds only move towards its store, so the sum over
every seed of its distance to its side's store falls at each such move: the tier has no
cycle, and each board is valued by a search of its moves with the finished boards as leaves
(``_value``: the tier's own boards are valued on first need and kept).

The file: a header (``HEADER`` bytes: magic, pits, capture rule, the N asked for, the tiers
finished, a CRC-32 of each) and then the finished tiers' bytes, in order. A build appends
each tier as it finishes and then rewrites the header, so a stopped build resumes from the
last tier the header counts.
"""

from __future__ import annotations

import os
import random
import struct
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from perfectplay.errors import BadDatabase, BadOption
from perfectplay.games.kalah.files import path_for
from perfectplay.games.kalah.sowing import sow, turn
from perfectplay.value import move_worth

if TYPE_CHECKING:  # only annotations name it
    from perfectplay.games.kalah.rules import Kalah

MAGIC = b"KALAHDB1"
HEADER = 1024
MAX_TIERS = 200
UNKNOWN = -128
# Rows of the scratch boards a valuation may go down (each row one move deeper).
MAX_DEPTH = 4096
_HEAD = struct.Struct("<8s4i")
# A tier of fewer boards is valued on one thread; a larger one in this many pieces a thread
# (pieces differ in cost: smaller ones keep the threads busy to the end).
PARALLEL_LEAST = 1 << 16
PIECES_A_THREAD = 16
# The game verify builds to hold any board of the database (Kalah's own limit).
MAX_SEEDS_A_PIT = 30
# Boards verify also checks by the brute force of the rules (it is exponential).
BRUTE_FORCE_SEEDS = 8


def tier_start(pits: int, seeds: int) -> int:
    """How many boards of ``pits`` a side hold fewer than ``seeds`` seeds."""
    return comb(seeds + 2 * pits - 1, 2 * pits) if seeds else 0


def binomials(pits: int, most: int) -> np.ndarray:
    """C(n, r) for n up to ``most + 2 * pits`` and r up to 2 * pits."""
    table = np.zeros((most + 2 * pits + 1, 2 * pits + 1), dtype=np.int64)
    for n in range(table.shape[0]):
        for r in range(min(n, 2 * pits) + 1):
            table[n, r] = comb(n, r)
    return table


@njit(cache=True, nogil=True)
def rank(pits: np.ndarray, m: int, total: int, binom: np.ndarray) -> int:
    """The board's place among boards of ``total`` seeds: those whose first differing pit
    holds fewer seeds come first (by the hockey-stick identity, the boards with pit i below
    p_i number C(r + n, n) - C(r - p_i + n, n), r seeds left and n pits after it)."""
    index = 0
    left = total
    for i in range(2 * m - 1):
        after = 2 * m - 1 - i
        index += binom[left + after, after] - binom[left - pits[i] + after, after]
        left -= pits[i]
    return index


@njit(cache=True, nogil=True)
def unrank(index: int, pits: np.ndarray, m: int, starts: np.ndarray, binom: np.ndarray) -> None:
    """The board whose index (``starts`` of its seeds plus its rank) is ``index``, into
    ``pits``: rank's inverse, pit by pit, each given the most seeds whose smaller counts
    still fit below the index."""
    total = 0
    while total + 1 < len(starts) and starts[total + 1] <= index:
        total += 1
    left_over = index - starts[total]
    left = total
    for i in range(2 * m - 1):
        after = 2 * m - 1 - i
        below = binom[left + after, after]
        seeds = 0
        while seeds < left and below - binom[left - seeds - 1 + after, after] <= left_over:
            seeds += 1
        left_over -= below - binom[left - seeds + after, after]
        pits[i] = seeds
        left -= seeds
    pits[2 * m - 1] = left


@njit(cache=True, nogil=True)
def lookup(pits: np.ndarray, m: int, total: int, values: np.ndarray, starts: np.ndarray,
           binom: np.ndarray) -> int:
    return values[starts[total] + rank(pits, m, total, binom)]


@njit(cache=True, nogil=True)
def _slot_of(pits: np.ndarray, m: int, starts: np.ndarray, binom: np.ndarray) -> int:
    total = 0
    for i in range(2 * m):
        total += pits[i]
    return starts[total] + rank(pits, m, total, binom)


@njit(cache=True, nogil=True)
def _open(boards: np.ndarray, depth: int, m: int, values: np.ndarray, slots: np.ndarray,
          bests: np.ndarray, nexts: np.ndarray) -> bool:
    """Start valuing ``boards[depth]``: True when it has moves to try; else its entry is
    filled now (a side without seeds: never a position, since such a board has been swept,
    but filled as the sweep would count it)."""
    pits = boards[depth]
    own = 0
    total = 0
    for i in range(2 * m):
        total += pits[i]
        if i < m:
            own += pits[i]
    if own == 0 or own == total:
        values[slots[depth]] = 2 * own - total
        return False
    bests[depth] = -1000
    nexts[depth] = 0
    return True


@njit(cache=True, nogil=True)
def _value(boards: np.ndarray, m: int, empty_capture: bool, values: np.ndarray,
           starts: np.ndarray, binom: np.ndarray, stack: np.ndarray, agains: np.ndarray) -> None:
    """Value ``boards[0]`` into the database, and first every board of its tier it reaches
    that has no value yet: a depth-first search on an explicit stack (numba's cache reloads
    a self-recursive function wrongly), one row of ``boards`` a level; ``stack`` holds each
    level's slot, best worth so far, next pit and last move's gain, ``agains`` whether that
    move kept the turn."""
    slots, bests, nexts, gains = stack[0], stack[1], stack[2], stack[3]
    slots[0] = _slot_of(boards[0], m, starts, binom)
    if values[slots[0]] != UNKNOWN or not _open(boards, 0, m, values, slots, bests, nexts):
        return
    depth = 0
    while True:
        pits = boards[depth]
        pit = nexts[depth]
        while pit < m and pits[pit] == 0:
            pit += 1
        if pit == m:
            values[slots[depth]] = bests[depth]
            if depth == 0:
                return
            depth -= 1
            child_value = bests[depth + 1]
        else:
            nexts[depth] = pit + 1
            child = boards[depth + 1]
            gain, again = sow(pits, pit, child, m, empty_capture)
            if not again:
                turn(child, m)
            gains[depth] = gain
            agains[depth] = again
            slots[depth + 1] = _slot_of(child, m, starts, binom)
            known = values[slots[depth + 1]]
            if known == UNKNOWN:
                if _open(boards, depth + 1, m, values, slots, bests, nexts):
                    depth += 1
                    continue
                known = values[slots[depth + 1]]
            child_value = known
        worth = gains[depth] + child_value if agains[depth] else gains[depth] - child_value
        if worth > bests[depth]:
            bests[depth] = worth


@njit(cache=True, nogil=True)
def _build_tier(total: int, m: int, empty_capture: bool, values: np.ndarray, starts: np.ndarray,
                binom: np.ndarray, first: int, count: int) -> None:
    """Value ``count`` boards of ``total`` seeds from the ``first`` of them (in the order of
    ``rank``), visiting them as an odometer over the pits."""
    boards = np.zeros((MAX_DEPTH, 2 * m), dtype=np.int64)
    stack = np.zeros((4, MAX_DEPTH), dtype=np.int64)
    agains = np.zeros(MAX_DEPTH, dtype=np.bool_)
    pits = np.zeros(2 * m, dtype=np.int64)
    unrank(starts[total] + first, pits, m, starts, binom)
    for _ in range(count):
        boards[0, :] = pits
        _value(boards, m, empty_capture, values, starts, binom, stack, agains)
        # The next board in the order of ``rank``: the last pit holds what the others leave.
        last = pits[2 * m - 1]
        if last:
            pits[2 * m - 2] += 1
            pits[2 * m - 1] = last - 1
            continue
        # Carry: the rightmost nonempty pit before the last empties, the pit left of it
        # takes one seed more and the last pit the rest.
        j = 2 * m - 2
        while j >= 0 and pits[j] == 0:
            j -= 1
        if j <= 0:
            return
        spill = pits[j]
        pits[j] = 0
        pits[j - 1] += 1
        pits[2 * m - 1] = spill - 1


def _value_tier(total: int, m: int, empty_capture: bool, values: np.ndarray, starts: np.ndarray,
                binom: np.ndarray, pool: ThreadPoolExecutor | None, threads: int) -> None:
    """Every board of ``total`` seeds, in pieces on ``threads`` threads. Threads may value one
    board at once (a board's search values the boards of its tier it reaches first); both
    write the same byte, its final value, so the race costs time, never a wrong entry."""
    size = int(starts[total + 1] - starts[total])
    if pool is None or size < PARALLEL_LEAST:
        _build_tier(total, m, empty_capture, values, starts, binom, 0, size)
        return
    step = -(-size // (PIECES_A_THREAD * threads))
    pieces = [(first, min(step, size - first)) for first in range(0, size, step)]
    list(pool.map(lambda piece: _build_tier(total, m, empty_capture, values, starts, binom,
                                            *piece), pieces))


def _crc(values: np.ndarray, starts: np.ndarray, tier: int) -> int:
    return zlib.crc32(values[starts[tier]:starts[tier + 1]].tobytes())


@dataclass(frozen=True)
class Database:
    """An endgame database in memory: ``values[starts[k] + rank]`` for boards of k <= seeds."""

    pits: int
    empty_capture: bool
    seeds: int
    values: np.ndarray
    starts: np.ndarray
    binom: np.ndarray

    def value(self, pits: list[int] | tuple[int, ...]) -> int:
        board = np.array(pits, dtype=np.int64)
        total = int(board.sum())
        if total > self.seeds:
            raise BadOption(f"a board of {total} seeds: this database holds up to {self.seeds}")
        return int(lookup(board, self.pits, total, self.values, self.starts, self.binom))

    def describe(self) -> str:
        return f"Kalah endgame database: every board of {self.pits} pits a side with up to " \
               f"{self.seeds} seeds in play ({_rule(self.empty_capture)})"


def _rule(empty_capture: bool) -> str:
    return "empty capture" if empty_capture else "standard capture"


def _starts(pits: int, seeds: int) -> np.ndarray:
    return np.array([tier_start(pits, k) for k in range(seeds + 2)], dtype=np.int64)


def _read_header(path: Path) -> tuple[int, bool, int, int, list[int]]:
    try:
        with path.open("rb") as file:
            head = file.read(HEADER)
    except OSError as error:
        raise BadDatabase(f"{str(path)!r}: cannot read it ({error.strerror})") from None
    if len(head) < HEADER or head[:8] != MAGIC:
        raise BadDatabase(f"{str(path)!r} is not a Kalah endgame database")
    _, pits, capture, seeds, done = _HEAD.unpack_from(head)
    crcs = list(struct.unpack_from(f"<{MAX_TIERS}I", head, _HEAD.size))[:done]
    return pits, bool(capture), seeds, done, crcs


def _write_header(file: object, pits: int, empty_capture: bool, seeds: int,
                  crcs: list[int]) -> None:
    head = bytearray(HEADER)
    _HEAD.pack_into(head, 0, MAGIC, pits, int(empty_capture), seeds, len(crcs))
    struct.pack_into(f"<{len(crcs)}I", head, _HEAD.size, *crcs)
    file.seek(0)  # type: ignore[attr-defined]
    file.write(bytes(head))  # type: ignore[attr-defined]


def build(path: str | Path, pits: int, empty_capture: bool, seeds: int,
          report: Callable[[str], None] = lambda line: None, threads: int = 1) -> Database:
    """Build (or go on building) the database of ``pits`` a side to ``seeds`` seeds at ``path``,
    each tier on ``threads`` threads (the file is the same whatever their number)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if not 1 <= pits <= 6:
        raise BadOption(f"--pits {pits}: the Kalah endgame database takes 1 to 6 pits a side")
    if not 0 <= seeds < MAX_TIERS - 1:
        raise BadOption(f"--endgame {seeds}: give 0 to {MAX_TIERS - 2} seeds in play")
    if threads < 1:
        raise BadOption(f"--workers {threads}: at least 1")
    path = Path(path)
    starts = _starts(pits, seeds)
    binom = binomials(pits, seeds)
    values = np.full(int(starts[seeds + 1]), UNKNOWN, dtype=np.int8)
    crcs: list[int] = []
    if path.exists() and path.stat().st_size:
        found_pits, found_rule, found_seeds, done, crcs = _read_header(path)
        if (found_pits, found_rule) != (pits, empty_capture):
            raise BadDatabase(f"{str(path)!r} holds Kalah with {found_pits} pits "
                              f"({_rule(found_rule)}), not {pits} ({_rule(empty_capture)})")
        done = min(done, seeds + 1)
        crcs = crcs[:done]
        kept = np.fromfile(path, dtype=np.int8, count=int(starts[done]), offset=HEADER)
        values[:len(kept)] = kept
        if any(_crc(values, starts, tier) != crc for tier, crc in enumerate(crcs)):
            raise BadDatabase(f"{str(path)!r}: a finished tier fails its checksum; delete the file")
        report(f"resumed after {done} tiers (boards of up to {done - 1} seeds)")
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    with path.open("r+b" if path.exists() else "w+b") as file, pool or nullcontext():
        for tier in range(len(crcs), seeds + 1):
            began = time.perf_counter()
            _value_tier(tier, pits, empty_capture, values, starts, binom, pool, threads)
            crcs.append(_crc(values, starts, tier))
            file.seek(HEADER + int(starts[tier]))
            file.write(values[starts[tier]:starts[tier + 1]].tobytes())
            file.flush()
            os.fsync(file.fileno())
            _write_header(file, pits, empty_capture, max(seeds, tier), crcs)
            file.flush()
            os.fsync(file.fileno())
            report(f"tier {tier}: {int(starts[tier + 1] - starts[tier]):,} boards in "
                   f"{time.perf_counter() - began:.1f} s")
    return Database(pits, empty_capture, seeds, values, starts, binom)


def load(path: str | Path) -> Database:
    """The finished tiers of the database at ``path`` (a database to as many seeds as finished)."""
    path = Path(path)
    pits, empty_capture, _, done, crcs = _read_header(path)
    if done == 0:
        raise BadDatabase(f"{str(path)!r} holds no finished tier yet")
    seeds = done - 1
    starts = _starts(pits, seeds)
    values = np.fromfile(path, dtype=np.int8, count=int(starts[seeds + 1]), offset=HEADER)
    if len(values) != starts[seeds + 1]:
        raise BadDatabase(f"{str(path)!r} is shorter than its header says: a damaged file")
    return Database(pits, empty_capture, seeds, values, starts, binomials(pits, seeds))


def check(database: Database, path: str | Path) -> list[str]:
    """Each finished tier whose bytes fail the header's checksum."""
    *_, crcs = _read_header(Path(path))
    return [f"tier {tier} fails its checksum" for tier, crc in enumerate(crcs)
            if _crc(database.values, database.starts, tier) != crc]


def find(pits: int, empty_capture: bool) -> Database | None:
    """The database for this board in ``directory()``, when one has a finished tier."""
    path = path_for(pits, empty_capture)
    if not path.exists():
        return None
    found = load(path)
    if (found.pits, found.empty_capture) != (pits, empty_capture):
        raise BadDatabase(f"{str(path)!r} holds Kalah with {found.pits} pits "
                          f"({_rule(found.empty_capture)}), not {pits} ({_rule(empty_capture)})")
    return found


# -- what `perfectplay db build --endgame` and `db verify` call -------------------------------

def build_for(game: Kalah, seeds: int, path: str | Path | None,
              report: Callable[[str], None], threads: int = 1) -> str:
    """Build the database of ``game``'s pits and capture rule to ``seeds`` seeds in play at
    ``path`` (default: where the kernel looks, ``path_for``) on ``threads`` threads; the line
    that says what was done."""
    target = path_for(game.pits, game.empty_capture) if path is None else Path(path)
    began = time.perf_counter()
    built = build(target, game.pits, game.empty_capture, seeds, report, threads)
    return (f"{target}: {built.describe()}, {len(built.values):,} boards, "
            f"{time.perf_counter() - began:.1f} s this run")


def recognizes(path: str | Path) -> bool:
    try:
        with Path(path).open("rb") as file:
            return file.read(len(MAGIC)) == MAGIC
    except OSError:
        return False


def verify(path: str | Path, sample: int, rng: random.Random) -> tuple[list[str], str]:
    """Every finished tier against its checksum, then ``sample`` random boards (of a random
    number of seeds up to the database's) against the Python rules: each board's value must
    be its best move's gain plus or minus its child's value in the database (the rule that
    built it, played by other code; with every entry so, the whole database is right), and a
    board of up to ``BRUTE_FORCE_SEEDS`` seeds must hold the brute force's value. The findings,
    and what was checked."""
    from perfectplay.games.kalah.rules import Kalah, brute_force_value

    database = load(path)
    findings = check(database, path)
    m = database.pits
    # Seeds enough a pit that any board of the database fits in the game's total.
    game = Kalah(m, MAX_SEEDS_A_PIT, empty_capture=database.empty_capture)
    checked = 0
    while checked < sample and database.seeds > 1:
        total = rng.randrange(2, database.seeds + 1)
        cuts = sorted(rng.randrange(total + 1) for _ in range(2 * m - 1))
        pits = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
        if not any(pits[:m]) or not any(pits[m:]):
            continue
        store = 2 * m * MAX_SEEDS_A_PIT - total
        position = ((*pits[:m], store, *pits[m:], 0), 0)
        held = database.value(pits)
        backed = max(_backed_up(game, database, position, move) for move in game.legal_moves(position))
        if backed != held:
            findings.append(f"the board {pits} holds {held:+d}; its moves give {backed:+d}")
        if total <= BRUTE_FORCE_SEEDS and brute_force_value(game, position) != held:
            findings.append(f"the board {pits} holds {held:+d}; the brute force says "
                            f"{brute_force_value(game, position):+d}")
        checked += 1
    return findings, (f"{database.describe()}: {len(database.values):,} boards, every tier's "
                      f"checksum, and {checked} random boards against the rules")


def _backed_up(game: Kalah, database: Database, position: tuple[tuple[int, ...], int],
               move: int) -> int:
    """A move's worth for the mover: its gain, plus the child's value after an extra turn,
    else minus it; the child's value read from the database by its pits."""
    child = game.play(position, move)
    value = database.value(game.pits_from_mover(child))
    return move_worth(value, game.gain(position, move), child[1] == position[1], score_game=True)

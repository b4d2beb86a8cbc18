"""The engine's value objects: what to switch on, how far to search, what comes back.

These records are the stable interface that front ends (the UCI loop, ``perfectplay match``,
``play``'s levels) call; new fields only ever arrive with defaults. Times are in seconds
everywhere (a UCI front end divides its milliseconds by 1000). Scores follow
perfectplay.value: from the side to move, a forced win ending ``p`` plies from the root is
``WIN - p`` (see :func:`mate_in`), anything strictly inside the decisive bands is the game's
heuristic ``evaluate`` scale (centipawns in chess).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from perfectplay import value as V
from perfectplay.errors import BadOption
from perfectplay.search.limits import Limits

# Deepest nominal depth an iteration may ask for; also the ply cap of any line (quiescence
# included), so a search never comes near Python's recursion limit.
MAX_DEPTH = 100
MAX_PLY = 128


@dataclass(frozen=True)
class Settings:
    """Which layers of search the engine uses; each can be switched on or off to measure it.

    On by default are the layers the measurements in docs/benchmarks.md ("The depth-limited
    engine") show to help: PVS, killer moves, quiescence, null-move pruning and the table.
    Aspiration windows and the history heuristic are off by default: aspiration saved no
    nodes (12% more in chess at depth 5) and history saved none once killers are on.
    Late-move reductions are off by default too: in a first chess match at 0.1 s a move
    they did not help (docs/benchmarks.md).

    ``tt`` off gives a search with no transposition table (a pure fixed-depth alpha-beta,
    the reference the layers are tested against); ``tt_size`` is the number of table entries
    (rounded down to a power of two, 16 bytes each); ``threads`` is the number of Lazy SMP
    searchers (processes) sharing that table.
    ``aspiration_window`` is the half-width of the first window in evaluation units, doubled
    on every fail; ``null_reduction`` is null-move pruning's R. ``lmr`` searches the late
    quiet moves of a node (from the ``lmr_moves``-th move on) one or two plies shallower
    with a null window first, and fully only if that fails high. ``check_extension``
    searches a move one ply deeper when it leaves the opponent forced (``game.must_move``:
    in check, in chess), as most engines extend checks; off by default, since in chess at
    0.1 s a move it lost a match against the same engine without it (docs/chess.md).
    ``futility`` prunes near the horizon by the game's ``quiet_margin`` (where it declares
    one), at the last ply before quiescence only: a node whose static value beats beta by the
    margin returns it (reverse futility), and quiet moves are skipped when the static value
    plus the margin cannot reach alpha (futility pruning). Deeper reverse futility (two or
    three plies) hid Win at Chess 1's mate in two at depth 3 (tests/games/chess).
    """

    pvs: bool = True
    aspiration: bool = False
    killers: bool = True
    history: bool = False
    quiescence: bool = True
    null_move: bool = True
    tt: bool = True
    tt_size: int = 1 << 18
    threads: int = 1
    aspiration_window: int = 25
    null_reduction: int = 2
    null_verify: bool = True
    lmr: bool = False
    lmr_moves: int = 3
    check_extension: bool = False
    futility: bool = True

    def __post_init__(self) -> None:
        if self.threads < 1:
            raise BadOption(f"--threads {self.threads}: at least one search thread is needed")
        if self.tt_size < 16:
            raise BadOption(f"table size {self.tt_size}: at least 16 entries are needed")
        if self.aspiration_window < 1:
            raise BadOption(f"aspiration window {self.aspiration_window} must be at least 1")
        if not 1 <= self.null_reduction <= 4:
            raise BadOption(f"null-move reduction {self.null_reduction} must be 1 to 4")
        if self.lmr_moves < 1:
            raise BadOption(f"late-move reductions from move {self.lmr_moves}: must be at least 1")


# How long to search: the one Limits every searcher takes (depth, nodes, time, the clocks,
# infinite, searchmoves), under the engine's old name. With no limit at all the engine
# searches to ``MAX_DEPTH`` (or until ``stop`` is set when ``infinite``); a time for the move
# is used in full, clocks are shared out by perfectplay.engine.clock.
SearchLimits = Limits


def within_reach(limits: Limits) -> Limits:
    """``limits``, refused in one line when they ask for a depth the engine cannot search."""
    if limits.depth is not None and limits.depth > MAX_DEPTH:
        raise BadOption(f"depth {limits.depth}: the engine searches at most {MAX_DEPTH} plies")
    return limits


@dataclass(frozen=True)
class Line:
    """One principal variation and its value (several with MultiPV)."""

    score: int
    pv: list[Any]


@dataclass(frozen=True)
class Info:
    """Progress after each completed iteration, one per line with MultiPV (``multipv`` 1 is
    the best), after each failed aspiration window, and at the end for an iteration the
    clock cut short. ``bound`` is None for an exact score, "lower" when the true value may be
    higher (a fail high, or an iteration cut short after some root moves), "upper" when it
    may be lower (a fail low). ``tbhits`` counts endgame-table answers (the game's own
    tables and a probe's), ``hashfull`` the table's use in permille."""

    depth: int
    seldepth: int
    score: int
    nodes: int
    nps: int
    time_s: float
    pv: list[Any] = field(default_factory=list)
    multipv: int = 1
    bound: str | None = None
    tbhits: int = 0
    hashfull: int = 0


@dataclass(frozen=True)
class SearchResult:
    """The move of the last completed iteration, or of a deeper one the clock cut short once
    it had searched a root move (``depth`` is then that iteration's, and ``partial`` True).
    ``exact`` is True only when the iteration met no depth limit anywhere (the value is then
    proven, not estimated)."""

    best_move: Any
    score: int
    depth: int
    pv: list[Any]
    nodes: int
    elapsed_s: float
    exact: bool = False
    seldepth: int = 0
    partial: bool = False
    table_hits: int = 0
    cutoffs: int = 0
    # Lazy SMP: the main search's hits on entries a helper process wrote, and those of them
    # that answered the node outright; the helpers' own nodes (also counted in ``nodes``).
    shared_hits: int = 0
    shared_cutoffs: int = 0
    helper_nodes: int = 0
    # Endgame-table answers in the main search; every line searched (MultiPV), best first.
    tb_hits: int = 0
    lines: list[Line] = field(default_factory=list)


def mate_in(score: int) -> int | None:
    """Moves (not plies) to a forced end for a decisive score: +3 is "mate in 3" for the side
    to move, -2 is "mated in 2"; None for a heuristic score."""
    if not V.is_decisive(score):
        return None
    plies = V.WIN - abs(score)
    moves = (plies + 1) // 2
    return moves if score > 0 else -moves


def describe_score(score: int) -> str:
    """'mate in 3', 'mated in 2' or 'estimate +35' for display."""
    moves = mate_in(score)
    if moves is None:
        return f"estimate {score:+d}"
    return f"mate in {moves}" if moves > 0 else f"mated in {-moves}"

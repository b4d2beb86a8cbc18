"""Kalah(m, n): m pits a side, n seeds in each at the start, a store at each player's right.

The rules, as Irving, Donkers and Uiterwijk solved them ("Solving Kalah", ICGA Journal 23(3),
2000; their program's rules.c, github.com/girving/kalah):

* a move takes every seed from one of the mover's pits and sows them one by one
  counter-clockwise, into the mover's own store but never the opponent's;
* a last seed in the mover's store gives the mover another move (an extra turn: the game
  declares ``Properties(extra_turns=True)`` and ``keeps_turn``);
* a last seed in an empty pit of the mover's own side captures: it goes to the mover's
  store with every seed of the pit opposite. The paper captures even when that pit is empty
  (the "empty capture" convention; the last seed alone is then stored), and so does this
  game by default; ``Kalah(empty_capture=False)`` captures only when the opposite pit has
  seeds (the rule most rule sheets print);
* when either side has no seed left in its pits, after any move, the game ends and each
  player's remaining seeds go to their own store.

A score game: the value is the margin of seeds still to win, from the side to move, so at the
start it is the final margin (store difference). Stores do not change what is still to win,
so the table key leaves them out (the paper's endgame databases are indexed the same way,
by the seeds left on the board).

A position is ``(cells, mover)``: ``cells`` holds South's pits 1..m, South's store, North's
pits 1..m and North's store, in sowing order; ``mover`` is 0 when South (the first player)
is to move. A move is the pit number 1..m on the mover's side, counted from the mover's left
(pit m is next to the mover's store).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from perfectplay.diagram import Diagram
from perfectplay.errors import BadOption, BadPosition
from perfectplay.game import Game, Kind, Properties
from perfectplay.games.kalah.boards import board_index, boards_up_to
from perfectplay.games.kalah.own_methods import METHODS

if TYPE_CHECKING:  # only annotations name it
    from perfectplay.search.results import Solution

Cells = tuple[int, ...]
Position = tuple[Cells, int]
SIDES = ("South", "North")
MAX_PITS = 12
MAX_SEEDS = 30


# The most seeds a side whose start this machine's kernel has solved (docs/extra_turns.md).
SOLVED_SEEDS_A_SIDE = 20
# The most seeds in play from which an exact solve finishes in seconds to a few minutes
# (Game.solvable): random 6x4 positions with 36 took the kernel 10-12 s of CPU, with 40 from
# 12 s to past 240 s (benchmarks/solvable.py, docs/benchmarks-log.md). A board whose start the
# kernel has solved (SOLVED_SEEDS_A_SIDE: Kalah(5,4) in 42 s, 40 seeds) stays solvable too.
SOLVABLE_SEEDS = 36
# With an endgame database built (perfectplay.games.kalah.endgame), the kernel finds the start's
# value of boards of up to this many seeds a side in minutes of CPU (Kalah(6,4): 1.5 with the
# database's build; every first move takes several times that: docs/extra_turns.md).
SOLVED_WITH_DATABASE = 24


class Kalah(Game[Position, int]):
    name = "kalah"
    method_modules = METHODS  # declared once, beside the entry

    def __init__(self, pits: int = 6, seeds: int = 4, *, empty_capture: bool = True) -> None:
        if not 1 <= pits <= MAX_PITS:
            raise BadOption(f"--pits {pits}: Kalah takes 1 to {MAX_PITS} pits a side")
        if not 1 <= seeds <= MAX_SEEDS:
            raise BadOption(f"--seeds {seeds}: Kalah takes 1 to {MAX_SEEDS} seeds a pit")
        self.pits = pits
        self.seeds = seeds
        self.empty_capture = empty_capture
        # Solved here up to 20 seeds a side without a database, 24 with one (Kalah(6,4));
        # beyond that an exact search without a limit is refused up front.
        self.properties = Properties(kind=Kind.SCORE, extra_turns=True,
                                     value_bound=2 * pits * seeds,
                                     too_big_to_solve=not self._solved_from_start())

    def _solved_from_start(self) -> bool:
        if self.pits * self.seeds <= SOLVED_SEEDS_A_SIDE:
            return True
        from perfectplay.games.kalah.files import path_for
        return (self.pits * self.seeds <= SOLVED_WITH_DATABASE
                and path_for(self.pits, self.empty_capture).exists())

    def solvable(self, position: Position) -> bool:
        # A position the opening book holds is answered at once whatever its size.
        if self.searchable(position):
            return True
        from perfectplay.games.kalah.book import lookup
        return bool(self.legal_moves(position)) and lookup(self, position) is not None

    def searchable(self, position: Position) -> bool:
        """Whether the kernel's search of every move can be expected to finish: the seeds
        still in play decide, on a board larger than those solved from the start."""
        return not self.properties.too_big_to_solve or self.total_points(position) <= SOLVABLE_SEEDS

    def options(self) -> dict[str, object]:
        return {"pits": self.pits, "seeds": self.seeds,
                "capture": "empty" if self.empty_capture else "standard"}

    # -- rules -----------------------------------------------------------------------
    def start(self) -> Position:
        side = (self.seeds,) * self.pits + (0,)
        return side + side, 0

    def legal_moves(self, position: Position) -> list[int]:
        cells, mover = position
        first = mover * (self.pits + 1)
        return [pit for pit in range(1, self.pits + 1) if cells[first + pit - 1]]

    def moves(self, position: Position) -> list[int]:
        """Moves that end in the store (an extra turn) first, nearest the store first; then
        the rest from the store side: alpha-beta prunes most with the strong moves first."""
        cells, mover = position
        m = self.pits
        first = mover * (m + 1)
        lap = 2 * m + 1
        again: list[int] = []
        rest: list[int] = []
        for pit in range(m, 0, -1):
            seeds = cells[first + pit - 1]
            if seeds:
                (again if seeds % lap == m - pit + 1 else rest).append(pit)
        return again + rest

    def keeps_turn(self, position: Position, move: int) -> bool:
        """The last seed lands in the mover's store: it is ``m - pit + 1`` steps away, and a
        lap of the board (skipping the opponent's store) is ``2m + 1`` steps."""
        cells, mover = position
        m = self.pits
        seeds = cells[mover * (m + 1) + move - 1]
        return seeds % (2 * m + 1) == m - move + 1

    def play(self, position: Position, move: int) -> Position:
        cells, mover = position
        board, last = self._sow(list(cells), mover, move)
        store = mover * (self.pits + 1) + self.pits
        return tuple(board), mover if last == store else 1 - mover

    def _sow(self, board: list[int], mover: int, pit: int) -> tuple[list[int], int]:
        """Sow ``pit``, capture, and end the game if a side is empty; the board and the index
        of the cell the last seed went to."""
        m = self.pits
        size = 2 * m + 2
        store = mover * (m + 1) + m
        skip = (store + m + 1) % size  # the opponent's store
        at = store - m + pit - 1
        seeds, board[at] = board[at], 0
        while seeds:
            at += 1
            if at == size:
                at = 0
            if at != skip:
                board[at] += 1
                seeds -= 1
        if store - m <= at < store and board[at] == 1:
            opposite = 2 * m - at
            if self.empty_capture or board[opposite]:
                board[store] += board[opposite] + 1
                board[at] = board[opposite] = 0
        if not any(board[:m]) or not any(board[m + 1:size - 1]):
            board[m] += sum(board[:m])
            board[size - 1] += sum(board[m + 1:size - 1])
            for index in range(m):
                board[index] = board[m + 1 + index] = 0
        return board, at

    def gain(self, position: Position, move: int) -> int:
        """Seeds the move adds to the mover's store minus those it adds to the opponent's (the
        opponent's only grow when the move ends the game)."""
        cells, mover = position
        after, _ = self.play(position, move)
        m = self.pits
        own, other = mover * (m + 1) + m, (1 - mover) * (m + 1) + m
        return (after[own] - cells[own]) - (after[other] - cells[other])

    # The stores hold the points; the seeds left on the board are swept into them when a side
    # runs out (_sow), so a finished position's stores are the final score.
    holds_points = True

    def points(self, position: Position) -> tuple[int, int]:
        south, north = self.stores(position)
        return (south, north) if position[1] == 0 else (north, south)

    def side_names(self, position: Position) -> tuple[str, str]:
        return (SIDES[position[1]], SIDES[1 - position[1]])

    def pits_from_mover(self, position: Position) -> Cells:
        """The pits seen from the side to move, its own first, the stores left out."""
        cells, mover = position
        m = self.pits
        south, north = cells[:m], cells[m + 1:2 * m + 1]
        return south + north if mover == 0 else north + south

    def key(self, position: Position) -> int:
        """The pits from the side to move as one int, their index in the endgame databases
        (games/kalah/boards.py); the stores do not change what is still to win. An int, not the
        tuple, so that the compiled database builder holds keys in int64 arrays."""
        return board_index(self.pits_from_mover(position))

    def tier(self, position: Position) -> int:
        """A number every move raises, for the database builders: a move that banks or
        captures takes seeds out of play; one that does neither sows only into the mover's
        own pits, nearer its store, so the seeds' total distance to their stores falls. So:
        seeds gone from play first, then that distance, reversed."""
        pits = self.pits_from_mover(position)
        m = self.pits
        total = 2 * m * self.seeds
        most = total * m
        distance = sum((m - i % m) * seeds for i, seeds in enumerate(pits))
        return (total - sum(pits)) * (most + 1) + most - distance

    def tier_spec(self) -> Any:
        """The rules as ``@njit`` functions of the key, for the compiled database builder
        (games/kalah/tiers.py; numba is imported only there), or None when the key of the
        board's most seeds does not fit an int64."""
        from perfectplay.games.kalah.tiers import make_spec
        return make_spec(self.pits, 2 * self.pits * self.seeds, self.empty_capture)

    def rank(self, position: Position) -> int:
        """The key: every board of the game's seeds has its own number (a dense record file
        holds one record a board)."""
        return self.key(position)

    def index_size(self) -> int:
        return boards_up_to(2 * self.pits, 2 * self.pits * self.seeds)

    def estimated_positions(self, position: Position) -> int:
        """An upper bound: every board of 2m pits holding no more seeds than this one."""
        return boards_up_to(2 * self.pits, self.total_points(position))

    def total_points(self, position: Position) -> int:
        """Seeds still on the board: what the two players will share from here."""
        cells, _ = position
        return sum(cells) - cells[self.pits] - cells[-1]

    def player_to_move(self, position: Position) -> int:
        return position[1]

    def stores(self, position: Position) -> tuple[int, int]:
        """South's and North's stores."""
        cells, _ = position
        return cells[self.pits], cells[-1]

    def random_position(self, rng: random.Random) -> Position:
        position = self.start()
        for _ in range(rng.randrange(0, 4 * self.pits)):
            legal = self.legal_moves(position)
            if not legal:
                break
            position = self.play(position, rng.choice(legal))
        return position

    def source_line(self, solution: Solution) -> str | None:
        """The kernel's answer says how it searched (MTD(f), the endgame database or none)
        and gives every first move's value, beside its count of nodes."""
        if solution.algorithm != "kalah-kernel" or solution.note is None:
            return None
        stats = solution.stats
        moves = ", ".join(f"{move.notation} {move.value:+d}" for move in solution.moves)
        return (f"kalah-kernel: {stats.nodes:,} nodes, {stats.table_hits:,} table hits, "
                f"{stats.cutoffs:,} cutoffs, {stats.elapsed_s:.1f} s; {stats.extra_nodes:,} "
                f"more nodes for every optimal move and the line\n{solution.note}"
                + (f"\nevery move: {moves}" if moves else ""))

    # -- notation --------------------------------------------------------------------
    def format_move(self, position: Position, move: int) -> str:
        return str(move)

    def diagram(self, position: Position, history: Sequence[tuple[Position, int]] = ()) -> Diagram:
        from perfectplay.games.kalah.diagram import draw
        return draw(self, position, history)

    def move_in_words(self, position: Position | None, move: int, notation: str) -> str:
        if position is None:
            return f"pit {notation}"
        cells, mover = position
        seeds = cells[mover * (self.pits + 1) + move - 1]
        again = " (last seed in the store: moves again)" if self.keeps_turn(position, move) else ""
        return f"pit {notation} ({seeds} seed{'s' * (seeds != 1)}){again}"

    def typed_move(self, notation: str) -> str:
        return notation

    def format_position(self, position: Position) -> str:
        """South's pits and store, then North's, then who moves: ``4 4 4 0 / 4 4 4 0 S``."""
        cells, mover = position
        m = self.pits
        south = " ".join(map(str, cells[:m + 1]))
        north = " ".join(map(str, cells[m + 1:]))
        return f"{south} / {north} {'SN'[mover]}"

    def parse_position(self, text: str) -> Position:
        words = text.replace(",", " ").split()
        mover = 0
        if words and words[-1].upper() in ("S", "N", "SOUTH", "NORTH"):
            mover = 0 if words.pop()[0].upper() == "S" else 1
        halves = " ".join(words).split("/")
        m = self.pits
        if len(halves) != 2:
            raise BadPosition(f"kalah position {text!r}: write South's {m} pits and store, '/', "
                              f"North's {m} pits and store, then S or N (who moves), "
                              f"e.g. {self.format_position(self.start())!r}")
        cells: list[int] = []
        for side, half in zip(SIDES, halves, strict=True):
            numbers = _numbers(half, text)
            if len(numbers) != m + 1:
                raise BadPosition(f"kalah position {text!r}: {side} needs {m} pits and a store "
                                  f"({m + 1} numbers), got {len(numbers)}")
            cells += numbers
        total = 2 * m * self.seeds
        if sum(cells) != total:
            raise BadPosition(f"kalah position {text!r} holds {sum(cells)} seeds; Kalah({m},"
                              f"{self.seeds}) has {total}")
        position = (tuple(cells), mover)
        south_empty, north_empty = not any(cells[:m]), not any(cells[m + 1:2 * m + 1])
        if (south_empty or north_empty) and self.total_points(position):
            raise BadPosition(f"kalah position {text!r}: a side with no seeds in its pits has "
                              "ended the game; its seeds belong in the stores")
        return position

    def render(self, position: Position) -> str:
        cells, mover = position
        m = self.pits
        width = max(2, len(str(max(cells))))
        cell = "{:>" + str(width) + "}"
        north_pits = " ".join(cell.format(cells[m + 1 + i]) for i in reversed(range(m)))
        south_pits = " ".join(cell.format(cells[i]) for i in range(m))
        pad = " " * (width + 1)
        north_labels = " ".join(cell.format(i + 1) for i in reversed(range(m)))
        south_labels = " ".join(cell.format(i + 1) for i in range(m))
        lines = [
            f"{pad} {north_labels}   North's pits",
            f"{pad} {north_pits}",
            f"{cell.format(cells[-1])} {' ' * len(north_pits)} {cell.format(cells[m])}",
            f"{pad} {south_pits}",
            f"{pad} {south_labels}   South's pits",
        ]
        south, north = self.stores(position)
        if self.total_points(position):
            lines.append(f"{SIDES[mover]} to move; stores South {south}, North {north}")
        else:
            lines.append(f"game over: South {south}, North {north}")
        return "\n".join(lines)

    def headline(self, start: Position) -> str | None:
        capture = ("empty capture: a last seed in an empty own pit captures even with nothing "
                   "opposite" if self.empty_capture else "standard capture: only with seeds "
                   "opposite")
        return (f"Kalah({self.pits},{self.seeds}): {self.pits} pits a side, {self.seeds} seeds "
                f"each; a last seed in your store moves again ({capture})" + self._reach_words())

    def _reach_words(self) -> str:
        """What is exact on a board too big to solve from the start in a few seconds: the
        opening book's plies, then the kernel's proofs with the endgame database, or, without
        one, estimates until few enough seeds are left (and how to build the database)."""
        if self.pits * self.seeds <= SOLVED_SEEDS_A_SIDE:
            return ""
        from perfectplay.games.kalah.book import board
        from perfectplay.games.kalah.files import path_for
        rule = "empty" if self.empty_capture else "standard"
        booked = board(self)
        plies = 0 if booked is None else booked.complete_plies
        book = (f". My opening book holds proved best moves for the first {plies} plies"
                if plies else ". I have no opening book for this board")
        if path_for(self.pits, self.empty_capture).exists():
            return (f"{book}; past it I prove each move with the endgame database, which may "
                    "take a minute of CPU (I show how it goes)")
        return (f"{book}; past it my moves are estimates until at most {SOLVABLE_SEEDS} seeds "
                "are left in play, since no endgame database is built for this board. Build "
                f"one (about 70 s on two cores) with: perfectplay db build kalah --pits {self.pits} "
                f"--capture {rule} --endgame 20 --workers 2; then I prove every move (with "
                "--endgame 24, about 9 minutes and 1.3 GB, each proof takes seconds)")


def _numbers(text: str, whole: str) -> list[int]:
    numbers = []
    for word in text.split():
        if not word.isdigit():
            raise BadPosition(f"kalah position {whole!r}: {word!r} is not a count of seeds")
        numbers.append(int(word))
    return numbers


def brute_force_value(game: Kalah, position: Position) -> int:
    """The margin still to win for the side to move, by max/min over South and North (South
    maximises South's final store minus North's), from the stores alone: it never asks
    gain or keeps_turn and never negates a child's value. Small boards only."""
    memo: dict[Position, int] = {}

    def south_margin(node: Position) -> int:
        found = memo.get(node)
        if found is not None:
            return found
        moves = game.legal_moves(node)
        if not moves:
            south, north = game.stores(node)
            value = south - north
        else:
            results = [south_margin(game.play(node, move)) for move in moves]
            value = max(results) if node[1] == 0 else min(results)
        memo[node] = value
        return value

    south, north = game.stores(position)
    final = south_margin(position) - (south - north)
    return final if position[1] == 0 else -final


# The capture rules by their option's words: the paper's "empty" capture (the default) and
# the "standard" one most rule sheets print.
CAPTURE_RULES = {"empty": True, "standard": False}


def sized(pits: Any, seeds: Any, capture: Any = None) -> Kalah:
    if capture is None:
        capture = "empty"
    if capture not in CAPTURE_RULES:
        raise BadOption(f"--capture {capture!r}: write 'empty' (a last seed in an empty own pit "
                        "captures even with nothing opposite) or 'standard' (only with seeds "
                        "opposite)")
    return Kalah(_whole(pits, "pits", 6), _whole(seeds, "seeds", 4),
                 empty_capture=CAPTURE_RULES[capture])


def _whole(given: Any, option: str, default: int) -> int:
    if given is None:
        return default
    try:
        return int(given)
    except (TypeError, ValueError):
        raise BadOption(f"--{option} {given!r}: give a whole number") from None

"""The compiled Connect Four kernel's search, written again in plain Python.

Each node does what ``perfectplay.games.connect4.kernel.negamax`` does, in the same order, so
that the two search the same tree and count the same nodes (tests/test_connect4_search.py
checks both on hundreds of positions): only moves that do not hand the opponent an immediate
win; the score's bounds from the stones on the board; the draw bound for a side with no room
left for four in a row (from LATE stones on); a node with one safe move playing it at once,
with no table probe, store or ordering; a table probe; moves ordered by the threats they
create, the table's move first, a win with the mover's next stone seen while ordering and,
when there is none, the score's upper bound a move later; then enhanced transposition cutoffs
under the kernel's conditions; fail-soft null-window searches narrowed towards the score
(Pons, "Solving Connect 4", parts 4-12). The kernel's docstrings say why each step is there.

One difference, in the table: here it is a dict from a position's key to one packed entry
(score, bound flag, best column), never colliding, emptied when a poll finds it holding more
than ``capacity`` entries (the kernel keeps two-entry buckets and replaces the entry nearer the
leaves). Node counts are the kernel's as long as neither table has to give up an entry
(docs/connect4_python.md says how often the kernel's does).

Speed comes from what the interpreter is good at (docs/connect4_python.md): one closure per
solve with every constant a local; each child handed the threats its parent computed while
ordering; every move's threats from one pass over a wide int with a lane per move; sort keys
packed into ints; int.bit_count. The search is one long function on purpose: every helper
call would be paid at every node.
"""

from __future__ import annotations

from collections.abc import Callable

from perfectplay.games.connect4.probes import toward
from perfectplay.games.connect4.rules import winning_squares
from perfectplay.search.limits import UNLIMITED_DEPTH, Budget
from perfectplay.value import EXACT, LOWER, UPPER

# The entry layout: bits 0-6 the score + 64, bits 7-8 the bound flag (perfectplay.value),
# bits 9-12 the best column + 1 (the kernel's layout, without its key and generation bits).
VALUE_BIAS = 64
FLAG_SHIFT, MOVE_SHIFT = 7, 9
# The kernel's thresholds (kernel.LATE, ETC_MIN_EMPTY, ETC_ALL_AFTER): equal, or the
# trees differ.
LATE = 16
ETC_MIN_EMPTY = 10
ETC_ALL_AFTER = 1 << 20
# What one filled dict entry costs in CPython (an int key, a small int value and the dict's
# slot), for turning a table size in bytes into entries.
BYTES_PER_ENTRY = 100


Negamax = Callable[[int, int, int, int, int, int], int]
# What a search has done so far: the kernel's NODES, HITS, CUTOFFS and MAX_PLY words.
Counts = tuple[int, int, int, int]


class Search:
    """One solve's search on a ``width`` x ``height`` board: ``negamax``, ``narrow`` and
    ``at_least`` take the kernel's arguments (mover's stones, every stone, their count)."""

    def __init__(self, width: int, height: int, order: tuple[int, ...], capacity: int,
                 budget: Budget) -> None:
        self.width, self.height, self.cells = width, height, width * height
        self.table: dict[int, int] = {}
        self.capacity = capacity
        self.budget = budget
        column = (1 << height) - 1
        self.masks = [column << c * (height + 1) for c in range(width)]
        self.board = sum(self.masks)
        self.bottom = sum(1 << c * (height + 1) for c in range(width))
        self.negamax, self.counters = self._build(order)

    def can_win_now(self, mover: int, occupied: int) -> bool:
        playable = (occupied + self.bottom) & self.board
        return bool(winning_squares(mover, occupied, self.height, self.board) & playable)

    def narrow(self, mover: int, occupied: int, stones: int, low: int, high: int,
               probes: int) -> tuple[int, int]:
        """The kernel's ``narrow``: at most ``probes`` null-window searches on [low, high]."""
        cells = self.cells
        if self.can_win_now(mover, occupied):
            best = min(high, (cells + 1 - stones) // 2)
            return best, best
        low = max(low, -((cells - stones) // 2))
        high = min(high, (cells + 1 - stones) // 2)
        for _ in range(probes):
            if low >= high:
                break
            middle = low + (high - low) // 2
            if middle <= 0 and toward(low) < middle:
                middle = toward(low)
            elif middle >= 0 and toward(high) > middle:
                middle = toward(high)
            found = self.negamax(mover, occupied, stones, middle, middle + 1,
                                 self.threats(mover, occupied))
            if found <= middle:
                high = found
            else:
                low = found
        return low, high

    def at_least(self, mover: int, occupied: int, stones: int, target: int) -> bool:
        """The kernel's ``at_least``: one null-window search."""
        if self.can_win_now(mover, occupied):
            return (self.cells + 1 - stones) // 2 >= target
        return self.negamax(mover, occupied, stones, target - 1, target,
                            self.threats(mover, occupied)) >= target

    def threats(self, mover: int, occupied: int) -> int:
        """The squares where the opponent would win with its next stone."""
        return winning_squares(mover ^ occupied, occupied, self.height, self.board)

    def _build(self, order: tuple[int, ...]) -> tuple[Negamax, Callable[[], Counts]]:
        """The recursive search as a closure over locals (a local read is the interpreter's
        cheapest lookup; attributes and globals cost more at every node), and a function
        that reads its counters."""
        table, capacity, budget = self.table, self.capacity, self.budget
        cells, board, bottom, masks = self.cells, self.board, self.bottom, self.masks
        height = self.height
        by_rank = [(rank, masks[column]) for rank, column in enumerate(order)]
        column_of = list(order)
        mask_of = [masks[column] for column in order]
        low_bits = board.bit_length()
        lane_of, lanes = _lanes(len(order), low_bits, 3 * (self.height + 2))
        a, b, c = self.height + 1, self.height, self.height + 2  # horizontal, the diagonals
        a2, a3, b2, b3, c2, c3 = 2 * a, 3 * a, 2 * b, 3 * b, 2 * c, 3 * c
        poll, poll_every = budget.poll, budget.poll_mask + 1
        node_cap = budget.node_cap if budget.node_cap != UNLIMITED_DEPTH else 1 << 62
        next_poll = min(poll_every, node_cap)
        nodes = hits = cutoffs = max_ply = 0
        # Per stone count: the score of a loss at the opponent's next stone, the least and
        # the most a live position can score (the kernel computes them at every node).
        lost = [-((cells - stones) // 2) for stones in range(cells + 1)]
        least = [-((cells - 2 - stones) // 2) for stones in range(cells + 1)]
        most = [(cells - 1 - stones) // 2 for stones in range(cells + 1)]
        most_later = [(cells - 3 - stones) // 2 for stones in range(cells + 1)]
        # Table entries less their score, per flag and rank of the best move.
        lower_bit, upper_bit, bias = LOWER << FLAG_SHIFT, UPPER << FLAG_SHIFT, VALUE_BIAS
        tags = [[bias | flag << FLAG_SHIFT | (column + 1) << MOVE_SHIFT for column in column_of]
                for flag in (0, LOWER, UPPER, EXACT)]
        cut_tag, upper_tag, exact_tag = tags[LOWER], tags[UPPER], tags[EXACT]
        late, etc_min_empty, etc_all_after = LATE, ETC_MIN_EMPTY, ETC_ALL_AFTER

        def has_four(s: int) -> bool:
            for shift in (1, a, b, c):
                pairs = s & (s >> shift)
                if pairs & (pairs >> 2 * shift):
                    return True
            return False

        def negamax(mover: int, occupied: int, stones: int, alpha: int, beta: int,
                    threats: int) -> int:
            """``threats``: the opponent's winning squares (from the parent's move ordering)."""
            nonlocal nodes, hits, cutoffs, max_ply, next_poll
            nodes += 1
            if nodes >= next_poll:
                poll(nodes)  # raises OutOfBudget past the time, node or memory budget
                next_poll = min(nodes + poll_every, node_cap)
                if len(table) > capacity:
                    table.clear()  # bounded memory: start again rather than grow
            if stones > max_ply:
                max_ply = stones
            # safe_moves: the playable squares that do not let the opponent win next move.
            empty = board ^ occupied
            moves = (occupied + bottom) & board
            other = mover ^ occupied
            forced = moves & threats
            if forced:
                if forced & (forced - 1):
                    return lost[stones]
                moves = forced
            moves &= ~(threats >> 1)
            if not moves:
                return lost[stones]  # the opponent wins with its next stone
            if stones >= cells - 2:
                return 0
            low = least[stones]
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    return alpha
            high = most[stones]
            if stones >= late:
                # games.connect4.has_four, unrolled, on the mover's stones and every empty
                # square: vertical first, where room is almost always left.
                x = mover | empty
                p = x & (x >> 1)
                if not p & (p >> 2):
                    p = x & (x >> a)
                    if not p & (p >> a2):
                        p = x & (x >> b)
                        if not p & (p >> b2):
                            p = x & (x >> c)
                            if not p & (p >> c2):
                                if not has_four(other | empty):
                                    return 0
                                high = 0
            if not moves & (moves - 1):
                # One safe move: its score is ours; no table, no ordering (as the kernel).
                if high <= alpha:
                    return high
                return -negamax(other, occupied | moves, stones + 1,
                                -(beta if beta < high else high), -alpha,
                                winning_squares(mover | moves, occupied | moves, height, board))
            key = mover + occupied
            entry = table.get(key, 0)
            hint = -1
            if entry:
                hits += 1
                value = (entry & 127) - bias
                hint = (entry >> MOVE_SHIFT) - 1
                if entry & upper_bit and value < high:
                    high = value
                if entry & lower_bit and value > low:
                    low = value
            if (alpha if alpha > low else low) >= (beta if beta < high else high):
                # The bounds decide the window: fail soft with the bound that does.
                if low >= beta:
                    return low
                return high if high <= alpha else low
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            # Most new threats first, the table's move ahead of all, centre first among equals.
            # Every move's threats come from one evaluation of a wide int that holds each
            # move's board in its own lane (see _lanes); the kernel's sort key and the move's
            # rank in the centre-first order make the high bits of one int per move, sorted
            # ascending; its low bits hold the move's threats, which are the child's.
            ranks = []  # two moves or more: one is played above
            played = 0
            for rank, mask in by_rank:
                square = moves & mask
                if square:
                    ranks.append(rank)
                    played |= square << lane_of[rank]
            s = mover * lanes | played
            open_squares = empty * lanes ^ played
            # games.connect4.winning_squares, unrolled for this board.
            x, y = s << a, s >> a
            found = (s << 1) & (s << 2) & (s << 3) | \
                x & (s << a2) & ((s << a3) | y) | y & (s >> a2) & (x | (s >> a3))
            x, y = s << b, s >> b
            found |= x & (s << b2) & ((s << b3) | y) | y & (s >> b2) & (x | (s >> b3))
            x, y = s << c, s >> c
            found |= x & (s << c2) & ((s << c3) | y) | y & (s >> c2) & (x | (s >> c3))
            found &= open_squares
            codes = []
            for rank in ranks:
                made = (found >> lane_of[rank]) & board
                # A move that leaves the opponent no safe reply (safe_moves in the child is
                # empty) wins with the mover's next stone: the best score there is.
                child = occupied | (moves & mask_of[rank])
                replies = (child + bottom) & board
                forced = replies & made
                if forced:
                    if forced & (forced - 1):
                        return most[stones]
                    replies = forced
                if not replies & ~(made >> 1):
                    return most[stones]
                if column_of[rank] == hint:
                    codes.append(rank << low_bits | made)
                else:
                    codes.append(((64 - made.bit_count()) << 4 | rank) << low_bits | made)
            # No move wins with the mover's next stone: the earliest win is a move later.
            if high > most_later[stones]:
                high = most_later[stones]
            if high <= alpha:
                return high
            if cells - stones >= etc_min_empty and (entry or nodes > etc_all_after):
                # Enhanced transposition cutoff, columns left to right as the kernel tries them.
                for mask in masks:
                    square = moves & mask
                    if square:
                        child = table.get(other + (occupied | square), 0)
                        if child & upper_bit and bias - (child & 127) >= beta:
                            return bias - (child & 127)
            codes.sort()
            alpha_in = alpha
            best_rank = (codes[0] >> low_bits) & 15
            best = -1000  # the highest score: on a fail low, a tighter bound than alpha
            for code in codes:
                rank = (code >> low_bits) & 15
                square = moves & mask_of[rank]
                score = -negamax(other, occupied | square, stones + 1, -beta, -alpha,
                                 code & board)
                if score >= beta:
                    cutoffs += 1
                    table[key] = score + cut_tag[rank]
                    return score
                if score > best:
                    best = score
                if score > alpha:
                    alpha = score
                    best_rank = rank
            if alpha == alpha_in:
                alpha = best  # fail soft with the children's best, as the kernel
            table[key] = alpha + (exact_tag if alpha > alpha_in else upper_tag)[best_rank]
            return alpha

        def counts() -> Counts:
            return nodes, hits, cutoffs, max_ply

        return negamax, counts


def _lanes(count: int, board_bits: int, reach: int) -> tuple[list[int], int]:
    """Where each of ``count`` boards sits in one wide int, and the int with bit 0 of each
    lane set (multiplying a board by it copies the board into every lane).

    A pass of winning_squares over the wide int evaluates every lane at once, at little more
    than the cost of one board (CPython's big-int operations cost per 30-bit digit, and
    their fixed cost dominates at these sizes). Shifts move bits by at most ``reach``, so
    lanes ``board_bits + reach + 1`` apart never mix their boards' squares."""
    stride = board_bits + reach + 1
    offsets = [rank * stride for rank in range(count)]
    return offsets, sum(1 << offset for offset in offsets)


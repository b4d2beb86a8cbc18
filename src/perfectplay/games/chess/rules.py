"""Chess, with the rules of python-chess (the optional extra ``perfectplay[chess]``).

A position is a :class:`ChessPosition`: an immutable snapshot of a python-chess board plus
what the rules need beyond the board to end a game by repetition: the Zobrist keys of the
positions since the last irreversible move (a capture or a pawn move; no earlier position
can recur after one). The fifty-move rule reads the board's halfmove clock. So a position
carries its own history and ``outcome`` needs no path from the caller:

* threefold repetition: the current key already occurs twice in the history (the rule as
  a player would claim it; engines and GUIs end the game there);
* the fifty-move rule: 100 plies without a capture or pawn move, unless the last move mated;
* stalemate and dead positions (python-chess's insufficient material): draws;
* checkmate: no legal move, which the protocol scores as a loss for the side to move.

Two positions are equal when board, side to move, castling rights, en-passant square (when
a capture there is legal), halfmove clock and history agree; the move number is ignored.

The table key is the 64-bit Polyglot Zobrist hash (python-chess's ``zobrist_hash``). It
covers the board, castling, en passant and side to move but not the history or the clock,
so a table shares values between positions that differ only in those (the usual engine
trade, "graph history interaction"); exact answers that depend on history, such as the
mate search, key their own tables on whole positions. ``play`` computes the child's key
incrementally from the parent's (:func:`key_delta`).

Moves are python-chess ``Move`` objects, written in UCI notation (``e2e4``, ``e7e8q``) and
read from UCI or SAN (``Nf3``, ``O-O``, ``exd8=Q+``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chess
import chess.polyglot

from perfectplay.diagram import Diagram
from perfectplay.errors import BadPosition, IllegalMove
from perfectplay.game import Game, Outcome, Properties
from perfectplay.games.chess import evaluation as chess_eval
from perfectplay.games.chess.own_methods import METHODS

if TYPE_CHECKING:  # only annotations name it
    from perfectplay.search.results import Solution

START_FEN = chess.STARTING_FEN
_RANDOM = chess.polyglot.POLYGLOT_RANDOM_ARRAY
_TURN_KEY = _RANDOM[780]
_CASTLING_KEYS = ((chess.BB_H1, _RANDOM[768]), (chess.BB_A1, _RANDOM[769]),
                  (chess.BB_H8, _RANDOM[770]), (chess.BB_A8, _RANDOM[771]))
_CORNERS = chess.BB_A1 | chess.BB_H1 | chess.BB_A8 | chess.BB_H8


class ChessPosition:
    """A chess position seen from the side to move, with its repetition history.

    ``board`` is a private snapshot: nothing may push moves onto it (``play`` copies it).
    """

    __slots__ = ("board", "key", "history", "sums", "_identity", "_hash", "_legal", "_ordered",
                 "_noisy_count", "_check", "_value")

    def __init__(self, board: chess.Board, key: int, history: tuple[int, ...],
                 sums: tuple[int, int, int] | None = None) -> None:
        self.board = board
        self.key = key
        self.history = history
        # The evaluation's material and square sums (chess_eval.tapered_sums), kept up to
        # date move by move once known, so evaluating a position does not scan the board.
        self.sums = sums
        # Computed when first needed: most positions a search makes are never compared.
        self._identity: tuple[Any, ...] | None = None
        self._hash: int | None = None
        self._legal: list[chess.Move] | None = None
        self._ordered: list[chess.Move] | None = None  # Chess.moves' order, once computed
        self._noisy_count = 0
        self._check: bool | None = None
        # The evaluation, once asked: the search asks for it up to three times a node
        # (futility, null move, quiescence's stand-pat).
        self._value: int | None = None

    def identity(self) -> tuple[Any, ...]:
        """Everything that decides the rest of the game (the move number does not)."""
        if self._identity is None:
            board = self.board
            ep = board.ep_square if board.has_legal_en_passant() else None
            self._identity = (self.key, board.occupied_co[0], board.occupied_co[1], board.pawns,
                              board.knights, board.bishops, board.rooks, board.queens, board.kings,
                              board.turn, board.clean_castling_rights(), ep, board.halfmove_clock,
                              self.history)
        return self._identity

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChessPosition) and (
            self is other or self.key == other.key and self.identity() == other.identity())

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self.key, self.board.halfmove_clock, self.history))
        return self._hash

    def __getstate__(self) -> tuple[chess.Board, int, tuple[int, ...]]:
        # Pickled without the kept move lists: Lazy SMP sends positions between processes.
        return self.board, self.key, self.history

    def __setstate__(self, state: tuple[chess.Board, int, tuple[int, ...]]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"ChessPosition({self.board.fen()!r}, history of {len(self.history)})"

    @property
    def fen(self) -> str:
        return self.board.fen()

    def legal_moves(self) -> list[chess.Move]:
        """python-chess's legal moves, generated once per position and kept."""
        if self._legal is None:
            self._legal = list(self.board.generate_legal_moves())
        return self._legal

    def has_legal_move(self) -> bool:
        """Whether the side to move can move. Out of check, a piece that is not pinned and
        has somewhere to go answers it from bitboards (nearly every position a search
        visits); otherwise python-chess's generator, stopping at the first legal move.
        The search asks this at every node (stalemate), quiescence nodes included, where
        python-chess's generator was a seventh of the engine's time."""
        if self._legal is not None:
            return bool(self._legal)
        if not self.in_check() and _free_piece_can_move(self.board):
            return True
        return any(self.board.generate_legal_moves())

    def in_check(self) -> bool:
        """Whether the side to move is in check, found once: a search asks at every node
        near the horizon (must_move, noisy_moves, null_move)."""
        if self._check is None:
            self._check = self.board.is_check()
        return self._check

    def repetitions(self) -> int:
        """How many times this position occurred before (within the kept history)."""
        return self.history.count(self.key)


def _pinned(board: chess.Board, king: int) -> int:
    """The side to move's pieces pinned to its king: the only piece between the king and an
    enemy slider that moves along that line."""
    them = board.occupied_co[not board.turn]
    straight = (board.rooks | board.queens) & them & (
        chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0])
    diagonal = (board.bishops | board.queens) & them & chess.BB_DIAG_ATTACKS[king][0]
    pinned = 0
    for slider in chess.scan_forward(straight | diagonal):
        between = chess.between(king, slider) & board.occupied
        if between and not between & (between - 1):  # exactly one piece in between
            pinned |= between
    return pinned & board.occupied_co[board.turn]


def _free_piece_can_move(board: chess.Board) -> bool:
    """True when the side to move, not in check, certainly has a legal move: a pawn or
    piece that is not pinned with a square to go to, or the king with a square no enemy
    attacks. False means "not shown this way" (a pinned piece or castling may still move).
    Out of check any move of an unpinned piece other than the king is legal, and a king
    step is legal when its target is not attacked."""
    turn, occupied = board.turn, board.occupied
    us, them = board.occupied_co[turn], board.occupied_co[not turn]
    king = (board.kings & us).bit_length() - 1
    free = us & ~board.kings & ~_pinned(board, king)
    pawns = board.pawns & free
    if turn:
        pushes = (pawns << 8) & ~occupied
        hits = ((pawns & ~chess.BB_FILE_A) << 7 | (pawns & ~chess.BB_FILE_H) << 9) & them
    else:
        pushes = (pawns >> 8) & ~occupied
        hits = ((pawns & ~chess.BB_FILE_A) >> 9 | (pawns & ~chess.BB_FILE_H) >> 7) & them
    if pushes or hits:
        return True
    for square in chess.scan_forward(board.knights & free):
        if chess.BB_KNIGHT_ATTACKS[square] & ~us:
            return True
    for target in chess.scan_forward(chess.BB_KING_ATTACKS[king] & ~us):
        if not board.is_attacked_by(not turn, target):
            return True
    for square in chess.scan_forward((board.bishops | board.rooks | board.queens) & free):
        if board.attacks_mask(square) & ~us:
            return True
    return False


_PIECE_BOARDS = (None, "pawns", "knights", "bishops", "rooks", "queens", "kings")
# Every attribute board_after sets on a board it makes without python-chess's constructor.
# A python-chess whose boards hold anything else (a later version) gets push's way instead,
# slower but never a board missing a field.
_CHILD_FIELDS = frozenset({"pawns", "knights", "bishops", "rooks", "queens", "kings", "occupied_co",
                           "occupied", "promoted", "castling_rights", "chess960", "ep_square",
                           "turn", "halfmove_clock", "fullmove_number", "move_stack", "_stack"})
_BUILT_FROM_BITBOARDS = set(vars(chess.Board())) == _CHILD_FIELDS


def board_after(board: chess.Board, move: chess.Move, moved: int) -> chess.Board:
    """A new board with ``move`` made (legal in ``board``, moving a piece of type
    ``moved``), built from the bitboards without python-chess's copy and ``push``: those
    set up an empty board first and record the undo state for ``pop``, which a search that
    never pops pays on every move (a quarter of the engine's time). Castling and
    Chess960 boards, and every board under a python-chess whose boards carry other fields,
    go through ``push``. The result equals ``push``'s (board, turn, castling, en passant,
    clocks; tested on random games) with an empty move stack."""
    if (not _BUILT_FROM_BITBOARDS or board.chess960
            or (moved == chess.KING and chess_eval.castling_squares(board, move, moved))):
        child = board.copy(stack=False)
        child.push(move)
        return child
    turn = board.turn
    from_bb, to_bb = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
    child = chess.Board.__new__(chess.Board)
    pieces = [board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings]
    ours, theirs = board.occupied_co[turn], board.occupied_co[not turn]
    promoted = board.promoted
    captured_bb = to_bb if theirs & to_bb else 0
    ep_square = None
    if moved == chess.PAWN:
        step = move.to_square - move.from_square
        if step == 16 or step == -16:
            ep_square = move.from_square + step // 2
        elif not captured_bb and step not in (8, -8):  # diagonal onto an empty square: en passant
            captured_bb = chess.BB_SQUARES[move.to_square - 8 if turn else move.to_square + 8]
    if captured_bb:
        for index in range(5):  # the king is never captured
            pieces[index] &= ~captured_bb
        theirs &= ~captured_bb
    placed = move.promotion or moved
    pieces[moved - 1] &= ~from_bb
    pieces[placed - 1] |= to_bb
    ours = ours & ~from_bb | to_bb
    if move.promotion or promoted & from_bb:
        promoted = promoted & ~from_bb | to_bb
    else:
        promoted &= ~to_bb & ~captured_bb
    child.pawns, child.knights, child.bishops, child.rooks, child.queens, child.kings = pieces
    child.occupied_co = [theirs, ours] if turn else [ours, theirs]
    child.occupied = ours | theirs
    child.promoted = promoted
    rights = board.castling_rights
    if rights:
        rights = board.clean_castling_rights() & ~from_bb & ~to_bb
        if moved == chess.KING:
            rights &= ~(chess.BB_RANK_1 if turn else chess.BB_RANK_8)
    child.castling_rights = rights
    child.chess960 = False
    child.ep_square = ep_square
    child.turn = not turn
    child.halfmove_clock = 0 if moved == chess.PAWN or captured_bb else board.halfmove_clock + 1
    child.fullmove_number = board.fullmove_number + (not turn)
    child.move_stack = []
    child._stack = []
    return child


def position_from_board(board: chess.Board, history: tuple[int, ...] = ()) -> ChessPosition:
    """A position from a python-chess board (copied, its move stack dropped)."""
    snapshot = board.copy(stack=False)
    return ChessPosition(snapshot, chess.polyglot.zobrist_hash(snapshot), history)


def parse_fen(text: str) -> chess.Board:
    """A board from FEN (or 'startpos'); BadPosition with python-chess's reason if illegal."""
    fen = " ".join(text.split())
    if fen in ("", "startpos"):
        return chess.Board()
    try:
        board = chess.Board(fen)
    except ValueError as error:
        raise BadPosition(f"illegal FEN {fen!r}: {error}") from None
    status = board.status()
    if status != chess.STATUS_VALID:
        reasons = [flag.name.removeprefix("STATUS_").lower().replace("_", " ")
                   for flag in chess.Status if flag and flag in status and flag.name]
        raise BadPosition(f"illegal FEN {fen!r}: {', '.join(reasons)}")
    return board


def _polyglot_castling(rights: int, board: chess.Board) -> int:
    """The Polyglot castling terms of ``rights`` (python-chess's clean castling rights) with
    the kings where they stand on ``board``: a right is kingside when its rook stands beyond
    the king, as python-chess hashes it. Standard chess has its rooks in the corners (the
    fast path)."""
    key = 0
    if not rights:
        return key
    if not rights & ~_CORNERS:
        for square, value in _CASTLING_KEYS:
            if rights & square:
                key ^= value
        return key
    kings = board.kings & ~board.promoted
    for backrank, kingside, queenside in ((chess.BB_RANK_1, _RANDOM[768], _RANDOM[769]),
                                          (chess.BB_RANK_8, _RANDOM[770], _RANDOM[771])):
        king = kings & backrank
        for rook in chess.scan_forward(rights & backrank):
            if king:
                key ^= kingside if chess.BB_SQUARES[rook] > king else queenside
    return key


def _piece_key(piece_type: int, color: bool, square: int) -> int:
    return _RANDOM[64 * ((piece_type - 1) * 2 + int(color)) + square]


def _ep_key(board: chess.Board) -> int:
    """The Polyglot en-passant term of ``board``: the file, only when a pawn of the side to
    move stands beside the pawn that just advanced two squares."""
    ep = board.ep_square
    if ep is None:
        return 0
    beside = chess.BB_SQUARES[ep - 8 if board.turn else ep + 8]
    beside = chess.shift_left(beside) | chess.shift_right(beside)
    if beside & board.pawns & board.occupied_co[board.turn]:
        return _RANDOM[772 + chess.square_file(ep)]
    return 0


def key_delta(board: chess.Board, move: chess.Move) -> int:
    """What ``move`` XORs into the Polyglot key of ``board`` (trusts the move to be legal;
    castling in either encoding, so Chess960 boards too). Checked against python-chess's full
    hash on random games in the tests."""
    mover = board.turn
    moved = board.piece_type_at(move.from_square)
    assert moved is not None  # legal moves start on a piece of the side to move
    castle = chess_eval.castling_squares(board, move, moved) if moved == chess.KING else None
    if castle is not None:  # standard (e1g1) or Chess960 (king onto its rook) encoding
        king_to, rook_from, rook_to = castle
        delta = (_TURN_KEY ^ _piece_key(chess.KING, mover, move.from_square)
                 ^ _piece_key(chess.KING, mover, king_to)
                 ^ _piece_key(chess.ROOK, mover, rook_from) ^ _piece_key(chess.ROOK, mover, rook_to))
    else:
        placed = move.promotion or moved
        delta = (_TURN_KEY ^ _piece_key(moved, mover, move.from_square)
                 ^ _piece_key(placed, mover, move.to_square))
        captured = board.piece_type_at(move.to_square)
        if captured is not None:
            delta ^= _piece_key(captured, not mover, move.to_square)
        elif moved == chess.PAWN and move.to_square == board.ep_square:
            taken = move.to_square - 8 if mover else move.to_square + 8
            delta ^= _piece_key(chess.PAWN, not mover, taken)
    rights = board.clean_castling_rights()
    after = rights & ~chess.BB_SQUARES[move.from_square] & ~chess.BB_SQUARES[move.to_square]
    if moved == chess.KING:
        after &= ~(chess.BB_RANK_1 if mover else chess.BB_RANK_8)
    delta ^= _polyglot_castling(rights, board) ^ _polyglot_castling(after, board) ^ _ep_key(board)
    if moved == chess.PAWN and abs(move.to_square - move.from_square) == 16:
        beside = chess.shift_left(chess.BB_SQUARES[move.to_square]) | chess.shift_right(
            chess.BB_SQUARES[move.to_square])
        if beside & board.pawns & board.occupied_co[not mover]:
            delta ^= _RANDOM[772 + chess.square_file(move.to_square)]
    return delta


def is_capture(board: chess.Board, move: chess.Move) -> bool:
    return bool(chess.BB_SQUARES[move.to_square] & board.occupied_co[not board.turn]) or (
        move.to_square == board.ep_square and bool(board.pawns & chess.BB_SQUARES[move.from_square]))


def _mvv_lva(board: chess.Board, move: chess.Move) -> int:
    """Most valuable victim first, then least valuable attacker, promotions as a gain."""
    victim = board.piece_type_at(move.to_square) or (chess.PAWN if is_capture(board, move) else None)
    attacker = board.piece_type_at(move.from_square) or chess.PAWN
    value = 10 * chess_eval.VICTIM_VALUE[victim] if victim else 0
    if move.promotion:
        value += 10 * chess_eval.VICTIM_VALUE[move.promotion]
    return value - chess_eval.VICTIM_VALUE[attacker]


def _loses_material(board: chess.Board, move: chess.Move) -> bool:
    """Whether a capture (legal) gives up more than it takes at once: a piece taking a less
    valuable one on a square the opponent defends. Promotions never count as losing."""
    if move.promotion:
        return False
    victim = board.piece_type_at(move.to_square) or chess.PAWN  # None: en passant
    attacker = board.piece_type_at(move.from_square)
    assert attacker is not None  # a legal move starts on a piece of the side to move
    value = chess_eval.VICTIM_VALUE
    if value[victim] >= value[attacker]:
        return False
    return board.is_attacked_by(not board.turn, move.to_square)


def _split_noisy(position: ChessPosition) -> tuple[list[chess.Move], list[chess.Move]]:
    """(captures and promotions in MVV-LVA order, quiet moves); records the count."""
    board = position.board
    targets = board.occupied_co[not board.turn]
    squares, ep, pawns = chess.BB_SQUARES, board.ep_square, board.pawns
    noisy, quiet = [], []
    for move in position.legal_moves():
        if move.promotion or squares[move.to_square] & targets or (
                move.to_square == ep and squares[move.from_square] & pawns):
            noisy.append(move)
        else:
            quiet.append(move)
    if len(noisy) > 1:
        noisy.sort(key=lambda move: _mvv_lva(board, move), reverse=True)
    position._noisy_count = len(noisy)
    return noisy, quiet


class Chess(Game[ChessPosition, chess.Move]):
    name = "chess"
    # A quiet move seldom gains more than a pawn and a fifth of positional value (the largest
    # single square-table and structure changes are a passed pawn's step or a piece leaving
    # the rim), so the engine's futility pruning uses that as its margin.
    properties = Properties(can_draw=True, too_big_to_solve=True, quiet_margin=120)
    method_modules = METHODS  # declared once, beside the entry

    # John Tromp's estimate of the number of legal chess positions, (4.822 +- 0.028) x 10^44
    # (github.com/tromp/ChessPositionRanking).
    LEGAL_POSITIONS = 482 * 10 ** 42

    def solvable(self, position: ChessPosition) -> bool:
        # No search finishes from a chess position; the endgame tables answer what they hold.
        return self.known_value(position) is not None

    def estimated_positions(self, position: ChessPosition) -> int:
        """A rough count for `db build`'s size check: every piece on any square, a pawn also
        as any of the four pieces it may become, either side to move; never more than the
        estimate of all legal positions."""
        board = position.board
        pieces, pawns = chess.popcount(board.occupied), chess.popcount(board.pawns)
        return min(self.LEGAL_POSITIONS, 2 * 64 ** pieces * 5 ** pawns)

    def __init__(self, start_fen: str = START_FEN) -> None:
        self.start_fen = start_fen

    # -- rules ---------------------------------------------------------------------------
    def start(self) -> ChessPosition:
        return position_from_board(parse_fen(self.start_fen))

    def moves(self, position: ChessPosition) -> list[chess.Move]:
        """Captures and promotions first (most valuable victim, least valuable attacker),
        then the quiet moves in python-chess's order. Kept in the position once computed."""
        if position._ordered is None:
            noisy, quiet = _split_noisy(position)
            position._ordered = noisy + quiet if noisy else quiet
        return position._ordered

    def legal_moves(self, position: ChessPosition) -> list[chess.Move]:
        """python-chess's legal moves in its generator's order (perft; no ordering)."""
        return position.legal_moves()

    def has_moves(self, position: ChessPosition) -> bool:
        return position.has_legal_move()

    def count_moves(self, position: ChessPosition) -> int:
        """The number of legal moves, from python-chess's generator without making them
        (perft's last ply); the list is kept, so ``outcome`` asks no generator again."""
        return len(position.legal_moves())

    def noisy_moves(self, position: ChessPosition) -> list[chess.Move]:
        """The captures and promotions quiescence follows, most valuable victim first: all
        of :meth:`captures` but those that lose material at once (a piece taking a less
        valuable one on a defended square). Skipping them past the horizon is the usual
        cheap stand-in for a static exchange evaluation (SEE pruning in quiescence, Chess
        Programming Wiki); in the full-width search they still come right after the
        killers, since ``moves`` lists every capture first."""
        board = position.board
        return [move for move in self.captures(position) if not _loses_material(board, move)]

    def captures(self, position: ChessPosition) -> list[chess.Move]:
        """Every capture and promotion, most valuable victim first. Without the full move
        list at hand, only these are generated: quiescence nodes are most of a search, and
        most of them never need their quiet moves."""
        if position._ordered is not None:
            return position._ordered[:position._noisy_count]
        board = position.board
        if position._legal is not None or position.in_check():
            return _split_noisy(position)[0]
        # One pass of the generator (it finds the king's pins and checkers once): moves onto
        # an enemy piece, or onto an empty last rank, which only promotions keep.
        last_rank = chess.BB_RANK_8 if board.turn else chess.BB_RANK_1
        targets = board.occupied_co[not board.turn]
        reached = targets | last_rank & ~board.occupied
        noisy = [move for move in board.generate_legal_moves(chess.BB_ALL, reached)
                 if move.promotion or chess.BB_SQUARES[move.to_square] & targets]
        if board.ep_square is not None:
            noisy += board.generate_legal_ep()
        if len(noisy) > 1:
            noisy.sort(key=lambda move: _mvv_lva(board, move), reverse=True)
        return noisy

    def play(self, position: ChessPosition, move: chess.Move) -> ChessPosition:
        board = position.board
        key = position.key ^ key_delta(board, move)
        moved = board.piece_type_at(move.from_square)
        assert moved is not None  # a legal move starts on a piece of the side to move
        sums = position.sums
        if sums is not None:
            middle, end, phase = chess_eval.move_delta(board, move, moved)
            sums = (sums[0] + middle, sums[1] + end, sums[2] + phase)
        child = board_after(board, move, moved)
        history = () if child.halfmove_clock == 0 else position.history + (position.key,)
        return ChessPosition(child, key, history, sums)

    def null_move(self, position: ChessPosition) -> ChessPosition | None:
        """The side to move passes, or None where that is illegal or zugzwang is likely: in
        check, or with nothing but king and pawns (null-move pruning's usual guard)."""
        board = position.board
        if position.in_check():
            return None
        own = board.occupied_co[board.turn]
        if not own & ~(board.kings | board.pawns):
            return None
        child = board.copy(stack=False)
        child.push(chess.Move.null())
        # A pass is no game move: the history starts again so no repetition spans it.
        return ChessPosition(child, position.key ^ _TURN_KEY ^ _ep_key(board), (), position.sums)

    def outcome(self, position: ChessPosition) -> Outcome | None:
        board = position.board
        if position.repetitions() >= 2:
            return Outcome.DRAW
        # A pawn, rook or queen on the board is always enough material (the quick test).
        if not board.pawns | board.rooks | board.queens and board.is_insufficient_material():
            return Outcome.DRAW
        if not position.has_legal_move():
            return None if position.in_check() else Outcome.DRAW  # checkmate / stalemate
        if board.halfmove_clock >= 100:
            return Outcome.DRAW
        return None

    def from_board(self, board: chess.Board) -> ChessPosition:
        """The position on a python-chess ``board`` (a Chess960 one included, for UCI)."""
        return position_from_board(board)

    def known_value(self, position: ChessPosition) -> int | None:
        """The endgame tables' value (perfectplay.games.chess.tablebase: KQK, KRK, KPK and the dead draws
        of two kings and a minor piece; no fifty-move rule), or None for any other board."""
        board = position.board
        if chess.popcount(board.occupied) > 3:
            return None  # the common case, decided without loading the tables
        from perfectplay.games.chess.tablebase.probe import value
        return value(board)

    def source_line(self, solution: Solution) -> str | None:
        """An answer from the endgame tables says what they give, and that they know no
        fifty-move rule, in place of a count of nodes."""
        from perfectplay.games.chess.tablebase.method import FROM_TABLE, table_verdict
        if not solution.algorithm.startswith(FROM_TABLE):
            return None
        return (f"{solution.algorithm}: {table_verdict(solution.value)}, without the fifty-move "
                f"rule; {solution.stats.elapsed_s * 1000:.1f} ms")

    def evaluate(self, position: ChessPosition) -> int:
        if position._value is None:
            if position.sums is None:
                position.sums = chess_eval.tapered_sums(position.board)
            position._value = chess_eval.evaluate(position.board, position.sums)
        return position._value

    def key(self, position: ChessPosition) -> int:
        return position.key

    def deciding_moves(self, position: ChessPosition) -> list[chess.Move]:
        """The checks: only a check can mate (the mate search's last move), found on the
        board without building each child position."""
        gives_check = position.board.gives_check
        return [move for move in self.moves(position) if gives_check(move)]

    def exact_key(self, position: ChessPosition) -> tuple[Any, ...]:
        """Board, side, castling, en passant, clock and history as a tuple (a few hundred
        bytes), not the position with its move lists (several KB): the mate search's
        tables hold millions of these."""
        return position.identity()

    def hash_key(self, position: ChessPosition) -> int:
        """The engine's 64-bit table key: the Polyglot Zobrist hash, the same as ``key``.
        ``play`` carries it from parent to child, so this is free, and chess does not
        override ``key_after``: the engine builds every child it searches anyway, and an
        incremental key beside ``play``'s computed it twice."""
        return position.key

    def must_move(self, position: ChessPosition) -> bool:
        """In check, quiescence may not stand pat: every evasion is searched."""
        return position.in_check()

    def player_to_move(self, position: ChessPosition) -> int:
        return 0 if position.board.turn else 1

    def side_names(self, position: ChessPosition) -> tuple[str, str]:
        return ("White", "Black") if position.board.turn else ("Black", "White")

    # -- notation ------------------------------------------------------------------------
    def format_move(self, position: ChessPosition, move: chess.Move) -> str:
        return move.uci()

    def parse_move(self, position: ChessPosition, text: str) -> chess.Move:
        """A legal move written in UCI (e2e4, e7e8q) or SAN (e4, Nf3, O-O, exd8=Q+)."""
        written = text.strip()
        board = position.board
        try:
            move = chess.Move.from_uci(written)
        except ValueError:
            move = None
        if move is not None and move in position.legal_moves():
            return move
        try:
            move = board.parse_san(written)
        except ValueError:
            move = None
        if move:  # a null move ('0000', '--') is falsy: no move of the game
            return move
        legal = ", ".join(sorted(board.san(move) for move in position.legal_moves())[:12])
        raise IllegalMove(f"{text!r} is not a legal move in {board.fen()!r}; legal moves: "
                          f"{legal or 'none'}{', ...' if len(position.legal_moves()) > 12 else ''}")

    def describe_line(self, position: ChessPosition, moves: Sequence[chess.Move]) -> str:
        """A line in SAN with move numbers, e.g. '1. Nf6+ gxf6 2. Bxf7#' (trusted legal)."""
        return position.board.copy(stack=False).variation_san(moves)

    def format_position(self, position: ChessPosition) -> str:
        return position.board.fen()

    def parse_position(self, text: str) -> ChessPosition:
        """FEN or 'startpos', optionally followed by 'moves' and moves in UCI or SAN; the
        moves are played so the position carries their history (repetitions)."""
        fen, _, played = " ".join(text.split()).partition("moves")
        position = position_from_board(parse_fen(fen))
        for written in played.split():
            position = self.play(position, self.parse_move(position, written))
        return position

    def diagram(self, position: ChessPosition,
                history: Sequence[tuple[ChessPosition, chess.Move]] = ()) -> Diagram:
        from perfectplay.games.chess.diagram import draw
        return draw(self, position, history)

    def render(self, position: ChessPosition) -> str:
        board = position.board
        rows = [f"{8 - index} {row}" for index, row in enumerate(str(board).splitlines())]
        side = "White" if board.turn else "Black"
        rows.append("  a b c d e f g h")
        rows.append(f"{side} to move; FEN {board.fen()}")
        return "\n".join(rows)


"""The chess evaluation: material and piece-square tables, tapered between the middlegame and
the endgame by the material left on the board. No trained weights: every number below is
set by hand from a stated principle.

The tapered evaluation is the idea of Fruit (Fabien Letouzey) as written up on the Chess
Programming Wiki ("Tapered Eval"): each term has a middlegame and an endgame value, and the
score is their mix weighted by the game phase, where a knight or bishop counts 1, a rook 2
and a queen 4 (24 with every piece on the board). The tables here are built from a few
shape functions (centralisation, advancement, the castled king's shelter) rather than typed
out square by square, so each number follows from its reason.

Everything is indexed by piece type and square from White's side; Black's squares are
mirrored (``square ^ 56``).
"""

from __future__ import annotations

import chess

# Centipawns, (middlegame, endgame). Minor pieces lose a little and rooks and pawns gain a
# little as the board empties (Kaufman, "The Evaluation of Material Imbalances", 1999).
MATERIAL = {
    chess.PAWN: (100, 125),
    chess.KNIGHT: (320, 300),
    chess.BISHOP: (335, 320),
    chess.ROOK: (490, 540),
    chess.QUEEN: (960, 990),
    chess.KING: (0, 0),
}
PHASE_WEIGHT = {chess.PAWN: 0, chess.KNIGHT: 1, chess.BISHOP: 1, chess.ROOK: 2, chess.QUEEN: 4,
                chess.KING: 0}
FULL_PHASE = 24
BISHOP_PAIR = (30, 50)
# So that the side to move's small initiative is counted (about a tempo in most engines).
TEMPO = 10


def _centrality(square: int) -> int:
    """0 in a corner to 6 in the four central squares: 6 minus the distance to the centre
    measured in files plus ranks."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    return 6 - (abs(2 * file - 7) // 2 + abs(2 * rank - 7) // 2)


def _pawn(square: int) -> tuple[int, int]:
    file, rank = chess.square_file(square), chess.square_rank(square)
    if rank in (0, 7):
        return 0, 0  # no pawn stands there
    advance = rank - 1  # 0 on its start rank .. 5 on the seventh
    central = 2 - min(abs(2 * file - 7) // 2, 2)  # d/e files 2, c/f 1, else 0
    # Middlegame: occupy the centre, keep the wing pawns in front of a castled king at home.
    middle = 4 * advance + 8 * central * min(advance, 2)
    if file in (0, 1, 6, 7) and advance >= 2:
        middle -= 4 * (advance - 1)
    # Endgame: a pawn is worth more the nearer it is to promotion.
    end = (0, 5, 12, 25, 45, 80)[advance]
    return middle, end


def _knight(square: int) -> tuple[int, int]:
    # A knight on the rim is dim: its value follows how many squares it reaches.
    reach = len(chess.SquareSet(chess.BB_KNIGHT_ATTACKS[square]))
    return 6 * reach - 30, 5 * reach - 25


def _bishop(square: int) -> tuple[int, int]:
    reach = len(chess.SquareSet(chess.BB_DIAG_ATTACKS[square][0]))  # empty-board diagonals
    return 3 * reach - 25, 2 * reach - 18


def _rook(square: int) -> tuple[int, int]:
    file, rank = chess.square_file(square), chess.square_rank(square)
    middle = 20 if rank == 6 else 0  # the seventh rank attacks pawns and confines the king
    middle += 5 if file in (3, 4) else 0
    return middle, 10 if rank == 6 else 0


def _queen(square: int) -> tuple[int, int]:
    return 2 * _centrality(square) - 6, 4 * _centrality(square) - 12


def _king(square: int) -> tuple[int, int]:
    file, rank = chess.square_file(square), chess.square_rank(square)
    # Middlegame: behind the pawns, on a castled square rather than in the centre.
    sheltered = 30 if file in (1, 2, 6) else (10 if file in (0, 7) else -10)
    middle = sheltered - 25 * rank
    # Endgame: the king is a fighting piece and belongs in the centre.
    end = 10 * _centrality(square) - 30
    return middle, end


_SHAPES = {chess.PAWN: _pawn, chess.KNIGHT: _knight, chess.BISHOP: _bishop, chess.ROOK: _rook,
           chess.QUEEN: _queen, chess.KING: _king}


def _tables() -> dict[tuple[int, bool], tuple[tuple[int, ...], tuple[int, ...]]]:
    """(piece type, colour) -> (middlegame, endgame) value per square, material included."""
    tables = {}
    for piece_type, shape in _SHAPES.items():
        base_middle, base_end = MATERIAL[piece_type]
        for color in chess.COLORS:
            middle, end = [], []
            for square in chess.SQUARES:
                # Black's squares mirrored onto White's.
                bonus_middle, bonus_end = shape(square if color else square ^ 56)
                middle.append(base_middle + bonus_middle)
                end.append(base_end + bonus_end)
            tables[(piece_type, color)] = (tuple(middle), tuple(end))
    return tables


TABLES = _tables()
_ORDER = tuple((piece_type, color, *TABLES[(piece_type, color)])
               for piece_type in chess.PIECE_TYPES for color in chess.COLORS)


def tapered_sums(board: chess.Board) -> tuple[int, int, int]:
    """(middlegame, endgame, phase) of ``board`` from White's side: material and squares of
    every piece, without the bishop pair. :func:`move_delta` keeps them up to date."""
    middle = end = phase = 0
    occupied_co = board.occupied_co
    for piece_type, color, middle_table, end_table in _ORDER:
        pieces = board.pieces_mask(piece_type, color) if piece_type != chess.PAWN \
            else board.pawns & occupied_co[color]
        sign = 1 if color else -1
        for square in chess.scan_forward(pieces):
            middle += sign * middle_table[square]
            end += sign * end_table[square]
            phase += PHASE_WEIGHT[piece_type]
    return middle, end, phase


def castling_squares(board: chess.Board, move: chess.Move, moved: int) -> tuple[int, int, int] | None:
    """(king's square after, rook's square before, rook's square after) when ``move`` (legal,
    moving a piece of type ``moved``) castles, else None. Both encodings: standard chess's
    king two squares (e1g1), and Chess960's king onto its own rook (e1h1), which python-chess
    uses on a Chess960 board whatever the start position."""
    if moved != chess.KING:
        return None
    onto_rook = board.rooks & board.occupied_co[board.turn] & chess.BB_SQUARES[move.to_square]
    if not onto_rook and abs(move.to_square - move.from_square) != 2:
        return None
    rank = move.from_square & ~7
    kingside = move.to_square > move.from_square
    rook_from = move.to_square if onto_rook else rank + 7 if kingside else rank
    return (rank + 6, rook_from, rank + 5) if kingside else (rank + 2, rook_from, rank + 3)


def move_delta(board: chess.Board, move: chess.Move, moved: int) -> tuple[int, int, int]:
    """What ``move`` (legal in ``board``, moving a piece of type ``moved``) adds to
    :func:`tapered_sums`: the piece leaves its square and lands (promoted) on the target, a
    captured piece (en passant included) leaves the board, a castling rook moves."""
    mover = board.turn
    sign = 1 if mover else -1
    castle = castling_squares(board, move, moved) if moved == chess.KING else None
    if castle is not None:
        king_to, rook_from, rook_to = castle
        king_middle, king_end = TABLES[(chess.KING, mover)]
        rook_middle, rook_end = TABLES[(chess.ROOK, mover)]
        middle = (king_middle[king_to] - king_middle[move.from_square]
                  + rook_middle[rook_to] - rook_middle[rook_from])
        end = king_end[king_to] - king_end[move.from_square] + rook_end[rook_to] - rook_end[rook_from]
        return sign * middle, sign * end, 0
    placed = move.promotion or moved
    from_middle, from_end = TABLES[(moved, mover)]
    to_middle, to_end = TABLES[(placed, mover)]
    middle = sign * (to_middle[move.to_square] - from_middle[move.from_square])
    end = sign * (to_end[move.to_square] - from_end[move.from_square])
    phase = PHASE_WEIGHT[placed] - PHASE_WEIGHT[moved]
    captured, square = board.piece_type_at(move.to_square), move.to_square
    if captured is None and moved == chess.PAWN and move.to_square == board.ep_square:
        captured, square = chess.PAWN, move.to_square - 8 if mover else move.to_square + 8
    if captured is not None:
        lost_middle, lost_end = TABLES[(captured, not mover)]
        middle += sign * lost_middle[square]  # the opponent's loss is the mover's gain
        end += sign * lost_end[square]
        phase -= PHASE_WEIGHT[captured]
    return middle, end, phase


# -- pawn structure and open files ---------------------------------------------------------
# The terms below depend on where pawns stand, which the squares tables cannot see. Each
# number is a hand-set size from the stated principle; none is copied from an engine.

# A passed pawn (no enemy pawn ahead of it on its own or a neighbouring file) by its advance
# from the start rank (0 .. 5 on the seventh). It needs fewer tempi to queen the further it
# has gone, and the defence has fewer moves to stop it, so the bonus grows with the square of
# the advance; in the endgame fewer pieces are left to blockade it, so it is worth about twice
# as much there (the squares tables already add a smaller advance bonus to every pawn).
PASSED = tuple((5 + 3 * advance * advance, 10 + 6 * advance + 4 * advance * advance)
               for advance in range(6))
# A second pawn on a file cannot advance past the first nor defend it, and a pawn with no
# friendly pawn on a neighbouring file can only be defended by pieces: both weaknesses matter
# more in the endgame, where pawns decide.
DOUBLED = (10, 20)
ISOLATED = (10, 15)
# A rook needs an open line: a file without pawns (open), or without its own pawns so that
# it presses on an enemy one (half-open). Mostly a middlegame matter.
ROOK_OPEN = (25, 10)
ROOK_HALF_OPEN = (12, 6)
# A king behind its own pawns is hard to attack: each pawn on the three files around a king
# on its first two ranks, one or two squares ahead of it, counts in the middlegame only.
SHIELD_PAWN = 10

_ADJACENT_FILES = tuple((chess.BB_FILES[file - 1] if file > 0 else 0)
                        | (chess.BB_FILES[file + 1] if file < 7 else 0) for file in range(8))


def _ahead(color: bool, square: int) -> int:
    """The squares on the ranks beyond ``square`` seen from ``color``, on every file."""
    rank = chess.square_rank(square)
    ranks = range(rank + 1, 8) if color else range(0, rank)
    mask = 0
    for other in ranks:
        mask |= chess.BB_RANKS[other]
    return mask


# The squares an enemy pawn must not stand on for a pawn of that colour there to be passed.
_PASSED_SPAN = {color: tuple(_ahead(color, square)
                             & (chess.BB_FILES[chess.square_file(square)]
                                | _ADJACENT_FILES[chess.square_file(square)])
                             for square in chess.SQUARES)
                for color in chess.COLORS}
# The pawns that shield a king on each square: up to two ranks ahead, on its file and the two
# beside it.
_SHIELD = {color: tuple(_ahead(color, square) & ~_ahead(color, square + 16 if color else square - 16)
                        & (chess.BB_FILES[chess.square_file(square)]
                           | _ADJACENT_FILES[chess.square_file(square)])
                        if (chess.square_rank(square) <= 1 if color else chess.square_rank(square) >= 6)
                        else 0
                        for square in chess.SQUARES)
           for color in chess.COLORS}

# Pawn structures recur across a search far more often than whole positions do (Chess
# Programming Wiki, "Pawn Hash Table"): the structure's score is kept by its two pawn sets.
_PAWN_CACHE: dict[tuple[int, int], tuple[int, int]] = {}
_PAWN_CACHE_LIMIT = 1 << 16


def _pawn_side(own: int, enemy: int, color: bool) -> tuple[int, int]:
    """(middlegame, endgame) of ``color``'s pawns ``own`` facing the ``enemy`` pawns."""
    middle = end = 0
    spans = _PASSED_SPAN[color]
    for square in chess.scan_forward(own):
        if not spans[square] & enemy:
            rank = chess.square_rank(square)
            passed_middle, passed_end = PASSED[(rank - 1) if color else (6 - rank)]
            middle += passed_middle
            end += passed_end
        if not _ADJACENT_FILES[square & 7] & own:
            middle -= ISOLATED[0]
            end -= ISOLATED[1]
    for file_mask in chess.BB_FILES:
        extra = (own & file_mask).bit_count() - 1
        if extra > 0:
            middle -= DOUBLED[0] * extra
            end -= DOUBLED[1] * extra
    return middle, end


def pawn_structure(white: int, black: int) -> tuple[int, int]:
    """(middlegame, endgame) from White's side of the pawn sets ``white`` and ``black``:
    passed, doubled and isolated pawns."""
    found = _PAWN_CACHE.get((white, black))
    if found is None:
        white_middle, white_end = _pawn_side(white, black, chess.WHITE)
        black_middle, black_end = _pawn_side(black, white, chess.BLACK)
        found = (white_middle - black_middle, white_end - black_end)
        if len(_PAWN_CACHE) >= _PAWN_CACHE_LIMIT:
            _PAWN_CACHE.clear()
        _PAWN_CACHE[(white, black)] = found
    return found


def _files_terms(board: chess.Board, color: bool, white_pawns: int, black_pawns: int) -> tuple[int, int]:
    """(middlegame, endgame) of ``color``'s rooks on open files and king shelter."""
    own_pawns = white_pawns if color else black_pawns
    middle = end = 0
    for square in chess.scan_forward(board.rooks & board.occupied_co[color]):
        file_mask = chess.BB_FILES[square & 7]
        if not file_mask & own_pawns:
            if file_mask & (white_pawns | black_pawns):
                middle += ROOK_HALF_OPEN[0]
                end += ROOK_HALF_OPEN[1]
            else:
                middle += ROOK_OPEN[0]
                end += ROOK_OPEN[1]
    king = board.king(color)
    if king is not None:
        middle += SHIELD_PAWN * min((_SHIELD[color][king] & own_pawns).bit_count(), 3)
    return middle, end


def structure(board: chess.Board) -> tuple[int, int]:
    """(middlegame, endgame) from White's side of the pawn-structure and file terms."""
    pawns = board.pawns
    white_pawns = pawns & board.occupied_co[chess.WHITE]
    black_pawns = pawns & board.occupied_co[chess.BLACK]
    middle, end = pawn_structure(white_pawns, black_pawns)
    white_middle, white_end = _files_terms(board, chess.WHITE, white_pawns, black_pawns)
    black_middle, black_end = _files_terms(board, chess.BLACK, white_pawns, black_pawns)
    return middle + white_middle - black_middle, end + white_end - black_end


def evaluate(board: chess.Board, sums: tuple[int, int, int] | None = None) -> int:
    """Centipawns for the side to move. Trusts ``board`` to be a legal position; ``sums`` are
    its :func:`tapered_sums` when the caller keeps them (the search does, incrementally)."""
    middle, end, phase = sums if sums is not None else tapered_sums(board)
    structure_middle, structure_end = structure(board)
    middle += structure_middle
    end += structure_end
    bishops = board.bishops
    for color, sign in ((chess.WHITE, 1), (chess.BLACK, -1)):
        if (bishops & board.occupied_co[color]).bit_count() >= 2:
            middle += sign * BISHOP_PAIR[0]
            end += sign * BISHOP_PAIR[1]
    phase = min(phase, FULL_PHASE)
    white = (middle * phase + end * (FULL_PHASE - phase)) // FULL_PHASE
    return (white if board.turn else -white) + TEMPO


# Most valuable victim, least valuable attacker: the order of captures in search.
VICTIM_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
                chess.KING: 0}

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


def evaluate(board: chess.Board, sums: tuple[int, int, int] | None = None) -> int:
    """Centipawns for the side to move. Trusts ``board`` to be a legal position; ``sums`` are
    its :func:`tapered_sums` when the caller keeps them (the search does, incrementally)."""
    middle, end, phase = sums if sums is not None else tapered_sums(board)
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

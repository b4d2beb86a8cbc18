"""UCI's ``position`` command: ``startpos`` or ``fen FEN``, then optionally ``moves ...``.

The text is read by the game (``parse_position``), or by its UCI extras where an option of
its own changes how (perfectplay.uci.extras: chess's UCI_Chess960).
"""

from __future__ import annotations

from perfectplay.uci.go import UciError


def position_text(arguments: list[str]) -> str:
    """The game's position text (FEN or 'startpos', then 'moves ...') from the arguments;
    UciError for a malformed command."""
    written = " ".join(arguments)
    if not arguments or arguments[0] not in ("startpos", "fen"):
        raise UciError(f"position {written!r}: write 'position startpos [moves ...]' "
                       "or 'position fen FEN [moves ...]'")
    if arguments[0] == "startpos" and len(arguments) > 1 and arguments[1] != "moves":
        raise UciError(f"position {written!r}: after startpos only 'moves ...' may follow")
    if arguments[0] == "fen" and (len(arguments) < 2 or arguments[1] == "moves"):
        raise UciError(f"position {written!r}: a FEN must follow 'fen'")
    return " ".join(arguments[1:]) if arguments[0] == "fen" else written

"""`perfectplay uci chess`: serve the Universal Chess Interface on stdin/stdout."""

from __future__ import annotations

import io
import sys

import click

from perfectplay.cli.common import resolve


@click.command("uci")
@click.argument("game", required=False)
def uci_command(game: str | None) -> None:
    """Speak UCI on stdin/stdout, so chess GUIs and python-chess's chess.engine can drive
    the engine (uci, isready, ucinewgame, setoption, position, go in every form, stop,
    ponderhit, quit; options Hash, Threads, MultiPV, Clear Hash, Move Overhead, Ponder,
    UCI_Chess960, SyzygyPath, UCI_LimitStrength, UCI_Elo)."""
    loaded, _ = resolve(_first_with_extras() if game is None else game, {}).load(None)
    from perfectplay.uci.protocol import run
    # Bytes that are not UTF-8 become a malformed command (an info string), not a traceback.
    source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    run(loaded, source, sys.stdout)


def _first_with_extras() -> str:
    """The game `perfectplay uci` serves when none is named: the first whose entry adds to
    the UCI loop (chess, which UCI was made for)."""
    from perfectplay import registry
    return next((entry.name for entry in registry.entries() if "uci" in entry.extensions),
                registry.entries()[0].name)

"""`perfectplay uci chess`: serve the Universal Chess Interface on stdin/stdout."""

from __future__ import annotations

import io
import sys

import click

from perfectplay.cli.common import resolve


@click.command("uci")
@click.argument("game", default="chess")
def uci_command(game: str) -> None:
    """Speak UCI on stdin/stdout, so chess GUIs and python-chess's chess.engine can drive
    the engine (uci, isready, ucinewgame, setoption, position, go in every form, stop,
    ponderhit, quit; options Hash, Threads, MultiPV, Clear Hash, Move Overhead, Ponder,
    UCI_Chess960, SyzygyPath, UCI_LimitStrength, UCI_Elo)."""
    loaded, _ = resolve(game, {}).load(None)
    from perfectplay.uci.protocol import run
    # Bytes that are not UTF-8 become a malformed command (an info string), not a traceback.
    source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    run(loaded, source, sys.stdout)

"""The check that python-chess (the extra ``perfectplay[chess]``) is installed, kept apart
from games/chess.py so it can run before that module imports ``chess``."""

from __future__ import annotations

import importlib.util

from perfectplay.errors import MissingExtra

INSTALL_HINT = "chess needs python-chess: pip install 'perfectplay[chess]'"


def require_chess() -> None:
    """Raise MissingExtra (one line, exit 2 from the CLI) when python-chess is absent."""
    if importlib.util.find_spec("chess") is None:
        raise MissingExtra(INSTALL_HINT)

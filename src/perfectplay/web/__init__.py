"""The browser: ``perfectplay serve`` runs a local web app to play and explore any game.

Pages are static files (plain JavaScript modules, no build step) over a JSON API; the
server calls the library as any user would (``perfectplay.analyze``, the registry, the
levels of ``perfectplay.play``). Starlette and uvicorn come with the ``web`` extra and are
imported only here and in ``perfectplay serve``.
"""

from __future__ import annotations

from typing import Any


def create_app(*args: Any, **kwargs: Any) -> Any:
    from perfectplay.web.app import create_app as build
    return build(*args, **kwargs)

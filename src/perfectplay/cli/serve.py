"""perfectplay serve: the browser front end on a local web server."""

from __future__ import annotations

import errno
import socket
import threading
import webbrowser

import click

from perfectplay.errors import BadOption, PerfectPlayError

SHUTDOWN_SECONDS = 2


class PortInUse(PerfectPlayError):
    """The port the server should listen on is taken."""


@click.command("serve")
@click.argument("game_files", nargs=-1, metavar="[GAME_FILE:Class]...")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="address to listen on; the default serves this machine only")
@click.option("--port", type=int, default=8000, show_default=True, help="port (0: any free port)")
@click.option("--db", "database", default=None, metavar="PATH",
              help="answer from this database (built by `perfectplay db build`) the positions it "
                   "holds; other positions and games are searched")
@click.option("--open", "open_browser", is_flag=True, default=False, help="open the page in a browser")
def serve_command(game_files: tuple[str, ...], host: str, port: int, database: str | None,
                  open_browser: bool) -> None:
    """Play and explore any game in a web page: every move coloured by its exact value.

    Besides the built-in games, the page offers each game file named here (file.py:Class);
    those are loaded once, now: a request can never load or run code."""
    try:
        import uvicorn

        from perfectplay.web.app import COMPUTER_WORKERS, Server, create_app
        from perfectplay.web.catalog import add_game_file, warm_up
        from perfectplay.web.positions import Analyses
    except ImportError as error:
        raise BadOption(f"perfectplay serve needs the web extra ({error.name} is missing): "
                        "pip install 'perfectplay[web]'") from None
    if not 0 <= port <= 65535:
        raise BadOption(f"--port {port}: give a port from 0 to 65535")
    from perfectplay.web.workers import ProcessThinkers
    server = Server(memory=Analyses(database=database), thinkers=ProcessThinkers(database=database),
                    players=ProcessThinkers(COMPUTER_WORKERS, database=database, niceness=0))
    database_game = None if database is None else _database_game(database)
    for spec in game_files:
        add_game_file(server.catalog, spec)
    listener = _bind(host, port)
    url = f"http://{_shown_host(host)}:{listener.getsockname()[1]}/"
    click.echo(f"perfectplay serving at {url} (Ctrl-C stops it)")
    if database_game is not None:
        click.echo(f"Answers come from database {database} ({database_game}) for the positions it holds.")
    for pool in (server.players, server.thinkers):
        threading.Thread(target=pool.prestart, name="perfectplay-thinkers", daemon=True).start()
    # Each game's one-off costs (a kernel's compilation), paid before its first position.
    threading.Thread(target=warm_up, args=(server.catalog,), name="perfectplay-warm-up",
                     daemon=True).start()
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    # Open thinking streams end within a few seconds of Ctrl-C or a terminate, not when
    # their searches would.
    config = uvicorn.Config(create_app(server), log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=SHUTDOWN_SECONDS)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    finally:
        server.thinkers.close()
        server.players.close()


def _database_game(path: str) -> str:
    """The game the database at ``path`` was built for; a missing or foreign file is refused
    now (BadDatabase, one line), not at the first request."""
    from perfectplay.store.lookup import open_store
    store = open_store(path)
    try:
        return store.identity.describe()
    finally:
        store.close()


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a taken port is one clear line."""
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    # As uvicorn does: a port left in TIME_WAIT is free; one with a live listener is not.
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as error:
        listener.close()
        if error.errno == errno.EADDRINUSE:
            raise PortInUse(f"port {port} on {host} is already in use; choose another with --port") from None
        raise BadOption(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


def _shown_host(host: str) -> str:
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host

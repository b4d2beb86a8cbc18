"""The web app: the pages, the JSON API they use, and the thinking stream (server-sent events).

Every search runs in a worker thread, so the event loop keeps answering while one thinks.
Bad input of any kind (an unknown game, option or query parameter, a position or move the
game cannot read) is answered with HTTP 400 and ``{"error": "..."}`` quoting it; a bug in a
user's own game (one of its methods raised) with HTTP 422 and the line the CLI prints, naming
the class, the method, the position and the user's line of code.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from perfectplay import registry
from perfectplay.errors import BadOption, BadPosition, LimitReached, PerfectPlayError, TooLarge
from perfectplay.game_faults import explain
from perfectplay.play.analyst import VALUE_PROBE_CPU, Analysis, Analyst
from perfectplay.play.levels import LEVELS, choose, level_named
from perfectplay.search.results import FROM_DATABASE
from perfectplay.web.answers import Answers
from perfectplay.web.boards import board_of
from perfectplay.web.catalog import Catalog, Source, builtin_catalog
from perfectplay.web.positions import (
    MAX_LINES,
    Analyses,
    Known,
    check_move_count,
    describe,
    parse_moves,
    quick_analysis,
    replay,
    source_note,
)
from perfectplay.web.thinking import DEFAULT_LINES, DEFAULT_SECONDS, MAX_SECONDS, Progress, Thinker, one_ply
from perfectplay.web.workers import ProcessThinkers

STATIC = Path(__file__).parent / "static"
MAX_POSITION_TEXT = 1_000
# A request's whole query string: a position of MAX_POSITION_TEXT characters and a game's
# moves fit (a chess game of 500 moves is about 3,000 characters). Longer: HTTP 414.
MAX_QUERY_BYTES = 8_192
MAX_SEED_DIGITS = 30
# The computer's think time where it estimates (a game too big to solve), and its bound.
COMPUTER_SECONDS = 2.0
COMPUTER_WORKERS = 1
# How long past its think time the computer waits for its search to report before playing
# from the deepest depth reported (or a one-ply look, when none has).
COMPUTER_GRACE_S = 0.1
DISCONNECT_POLL_S = 0.25
COMMON_PARAMETERS = ("position", "moves")
# (the game's source, the game, its start, the position reached, the moves played)
Located = tuple[Source, Any, Any, Any, list[Any]]
EXTRA_PARAMETERS = {"position": (), "think": ("seconds", "lines"), "computer": ("level", "seed", "seconds"),
                    "tree": ("depth",), "record": ()}
# The longest game record (PGN) a page may paste, in bytes of the request's body.
MAX_RECORD_BYTES = 100_000
# ``seconds=max`` asks the thinking stream to go on for the server's cap (MAX_SECONDS): the
# analysis board deepens until the page moves on, as lichess's does, within that bound.
UNTIL_THE_CAP = "max"
MAX_TREE_DEPTH = 4
TREE_SECONDS = 3.0  # a tree's exact values are searched under this time limit (else HTTP 422)


@dataclass
class Server:
    """What the app's handlers share: the games on offer, known analyses, running searches."""

    catalog: Catalog = field(default_factory=builtin_catalog)
    memory: Analyses = field(default_factory=Analyses)
    answers: Answers = field(default_factory=Answers)
    _rows: list[dict[str, Any]] | None = None
    thinkers: ProcessThinkers = field(default_factory=ProcessThinkers)
    # The computer's moves: a person waits for each, so its own worker at normal priority.
    players: ProcessThinkers = field(default_factory=lambda: ProcessThinkers(COMPUTER_WORKERS, niceness=0))

    def game_rows(self) -> list[dict[str, Any]]:
        """Every game on offer for the home page's cards: its summary, its start board (the
        card's picture) and whether it is solved exactly or estimated by the engine."""
        if self._rows is None:
            self._rows = [_game_row(source, self.catalog) for source in self.catalog.sources.values()]
        return self._rows

    def locate(self, name: str, query: Mapping[str, str], action: str) -> Located:
        """The game, its start, the position reached and the moves played, from a query."""
        allowed = set(COMMON_PARAMETERS) | set(EXTRA_PARAMETERS[action]) | set(registry.OPTION_HELP)
        unknown = sorted(set(query) - allowed)
        if unknown:
            raise BadOption(f"unknown parameter {unknown[0]!r}; this call takes: "
                            + ", ".join(sorted(allowed)))
        text = query.get("position")
        if text is not None and len(text) > MAX_POSITION_TEXT:
            raise BadPosition(f"position {text[:40]!r}... is too long ({len(text)} characters)")
        source, (game, start) = self.catalog.load(name, query, text or None)
        position, played = replay(game, start, parse_moves(query.get("moves")))
        check_move_count(game, position)  # a bounded answer, before any search starts
        return source, game, start, position, played

    def position(self, name: str, query: Mapping[str, str]) -> dict[str, Any]:
        source, game, start, position, played = self.locate(name, query, "position")
        known = quick_analysis(game, position, self.memory)
        payload = describe(source.name, game, start, played, position, known, self.memory.database)
        module = record_module(source)
        return payload | {"record_format": None if module is None else module.FORMAT}

    def record(self, name: str, query: Mapping[str, str]) -> dict[str, Any]:
        """The line on the page as a game record in the game's own format (chess: PGN)."""
        source, game, start, _position, played = self.locate(name, query, "record")
        module = _record_module_or_refuse(source)
        text = module.write(game.format_position(start), [game.format_move(*step) for step in
                                                          _steps(game, start, played)])
        return {"format": module.FORMAT, "text": text}

    def read_record(self, name: str, text: str) -> dict[str, Any]:
        """A pasted game record read: its start (the position's text, "" for the game's
        usual start) and its moves in notation, checked by replaying them."""
        source, (game, _start) = self.catalog.load(name, {}, None)
        module = _record_module_or_refuse(source)
        start_text, moves = module.read(text)
        _, (game, start) = self.catalog.load(name, {}, start_text)
        replay(game, start, moves)
        return {"format": module.FORMAT, "position": start_text or "", "moves": moves}

    def computer(self, name: str, query: Mapping[str, str]) -> dict[str, Any]:
        """The computer's move at ``level`` from the best analysis known (exact, else the
        deepest estimate the thinking stream left, else a quick one)."""
        source, game, start, position, played = self.locate(name, query, "computer")
        level = level_named(query.get("level", "perfect"))
        seed_text = query.get("seed", "")
        digits = seed_text.removeprefix("-")
        if seed_text and (not digits.isdigit() or not digits.isascii() or len(digits) > MAX_SEED_DIGITS):
            shown = seed_text if len(seed_text) <= 40 else seed_text[:40] + "..."
            raise BadOption(f"seed={shown!r}: give a whole number of at most {MAX_SEED_DIGITS} digits")
        seconds = _seconds(query.get("seconds"), COMPUTER_SECONDS)
        deadline = time.perf_counter() + seconds
        known = quick_analysis(game, position, self.memory)
        if (known is None or not known.exact) and level.name == "perfect":
            # The perfect level plays a proved move wherever exact play is in reach: it goes
            # on past the think time until one is proved (CPU time, so a busy server does not
            # turn it into a guess), and says so when even that fails.
            known = _proved(game, position, seconds) or known
        if known is None or not known.exact:
            # Estimated: think for the think time (an estimate the page's stream left is
            # deepened further, never thrown away), counted from the request.
            thinker = Thinker(game, position, self.memory, seconds, lambda _progress: None,
                              recipe(source, query, played_notation(query)), lines=1)
            handle = self.players.start(thinker)
            handle.join(max(0.0, deadline - time.perf_counter()) + COMPUTER_GRACE_S)
            thinker.cancel()
            known = self.memory.get(game, position)
            if known is None or not known.moves:
                known = Known(tuple(one_ply(game, position)), False, 1)
        if known is None or not known.moves:
            raise BadPosition(f"{source.name}: no move to play in {game.format_position(position)!r}")
        rng = random.Random(int(seed_text)) if seed_text else random.Random()
        choice = choose(Analysis(known.moves, known.exact), level, rng)
        chosen = choice.move
        if not known.exact and choice.kind == "best":
            # Equal estimates are not equal moves: keep the game's own order (Connect Four's
            # centre first), which the analysis preserves among ties.
            chosen = known.moves[0]
        answer = {"move": chosen.notation, "kind": choice.kind, "level": level.name,
                  "exact": known.exact, "depth": known.depth}
        if self.memory.database is not None:
            answer["source"] = source_note(self.memory.database, known.source == FROM_DATABASE)
        return answer

    def tree(self, name: str, query: Mapping[str, str]) -> str:
        """The game tree below the position as SVG (perfectplay tree), at most 4 plies."""
        from perfectplay.pictures.tree import tree_svg
        _source, game, _start, position, _played = self.locate(name, query, "tree")
        text = query.get("depth", "2")
        if not text.isdigit() or not 1 <= int(text) <= MAX_TREE_DEPTH:
            raise BadOption(f"depth={text!r}: give 1 to {MAX_TREE_DEPTH}")
        if game.properties.loopy or not game.solvable(position):
            raise BadOption(f"{game.name}: no game tree is drawn for a game whose positions repeat "
                            "or that is too big to solve")
        known = quick_analysis(game, position, self.memory)
        if known is None or known.source != "search":
            raise TooLarge(f"{game.name}: the game tree below {game.format_position(position)!r} "
                           "needs too long a search to draw; try a later position")
        return tree_svg(game, position, int(text), seconds=TREE_SECONDS)


def create_app(server: Server | None = None) -> Starlette:
    server = server or Server()

    async def games(request: Request) -> Response:
        rows = await run_in_threadpool(server.game_rows)
        levels = {name: level.summary for name, level in LEVELS.items()}
        return JSONResponse({"games": rows, "levels": levels})

    async def position(request: Request) -> Response:
        query = dict(request.query_params)
        key = Answers.key(request.path_params["game"], "position", query)
        kept = server.answers.get(key)  # an exact answer asked before: no thread, no search
        if kept is not None:
            return Response(kept, media_type="application/json")
        payload = await run_in_threadpool(server.position, request.path_params["game"], query)
        response = JSONResponse(payload)
        if payload["status"] == "exact":
            server.answers.put(key, bytes(response.body))
        return response

    async def computer(request: Request) -> Response:
        query = dict(request.query_params)
        payload = await run_in_threadpool(server.computer, request.path_params["game"], query)
        return JSONResponse(payload)

    async def think(request: Request) -> Response:
        query = dict(request.query_params)
        located = await run_in_threadpool(server.locate, request.path_params["game"], query, "think")
        seconds = _seconds(query.get("seconds"))
        lines = _lines(query.get("lines"))
        return StreamingResponse(_stream(server, located, seconds, lines, request),
                                 media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    async def record(request: Request) -> Response:
        name = request.path_params["game"]
        if request.method == "GET":
            return JSONResponse(await run_in_threadpool(server.record, name, dict(request.query_params)))
        body = await request.body()
        if len(body) > MAX_RECORD_BYTES:
            raise BadOption(f"the game record sent is {len(body):,} bytes; at most "
                            f"{MAX_RECORD_BYTES:,} are read")
        text = body.decode("utf-8", "replace")
        return JSONResponse(await run_in_threadpool(server.read_record, name, text))

    async def tree(request: Request) -> Response:
        query = dict(request.query_params)
        picture = await run_in_threadpool(server.tree, request.path_params["game"], query)
        return Response(picture, media_type="image/svg+xml")

    async def growth(request: Request) -> Response:
        from perfectplay.pictures.growth import growth_from_query
        payload = await run_in_threadpool(growth_from_query, dict(request.query_params))
        return JSONResponse(payload)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "game.html")

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    async def unknown_api(request: Request) -> Response:
        return JSONResponse({"error": f"no such API call: {request.url.path!r}; see docs/web.md"},
                            status_code=404)

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/game/{game}", page),
        Route("/api/games", games),
        Route("/api/growth", growth),
        Route("/api/{game}/position", position),
        Route("/api/{game}/think", think),
        Route("/api/{game}/computer", computer),
        Route("/api/{game}/tree.svg", tree),
        Route("/api/{game}/record", record, methods=["GET", "POST"]),
        Route("/api/{rest:path}", unknown_api),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(BoundedRequests), Middleware(UserGameFaults)],
                    exception_handlers={PerfectPlayError: _bad_input, TooLarge: _too_big,
                                        LimitReached: _too_big, HTTPException: _http_error,
                                        Exception: _internal_error})
    app.state.server = server
    return app


def played_notation(query: Mapping[str, str]) -> list[str]:
    return parse_moves(query.get("moves"))


def recipe(source: Source, query: Mapping[str, str], moves: list[str]) -> Any:
    """How a thinking process builds the game and position (None for a user's game file,
    which thinks in a thread here)."""
    if source.own:
        return None
    options = {name: query[name] for name in registry.OPTION_HELP if name in query}
    return (source.name, options, query.get("position") or None, moves)


def record_module(source: Source) -> Any:
    """The module that reads and writes the game's records (its entry's extension "record":
    chess's PGN), or None: a user's game, or a game that declares none."""
    if source.own or "record" not in registry.find(source.name).extensions:
        return None
    return registry.extension(source.name, "record")


def _record_module_or_refuse(source: Source) -> Any:
    module = record_module(source)
    if module is None:
        raise BadOption(f"{source.name} declares no game record format to read or write")
    return module


def _steps(game: Any, start: Any, played: list[Any]) -> list[tuple[Any, Any]]:
    """Each move played with the position it was played from."""
    steps, position = [], start
    for move in played:
        steps.append((position, move))
        position = game.play(position, move)
    return steps


def _proved(game: Any, position: Any, seconds: float) -> Known | None:
    """The optimal moves of ``position``, proved by play's Analyst (a game with a compiled
    kernel: Connect Four past its book), or None where that does not apply or no move could
    be proved."""
    if not game.solvable(position):
        return None
    analyst = Analyst(game, think_time=seconds, value_probe=VALUE_PROBE_CPU)
    if not analyst.compiled:
        return None
    found = analyst.best_moves(position)
    return Known(tuple(found.moves), True, None, "kernel") if found.exact else None


def _game_row(source: Source, catalog: Catalog) -> dict[str, Any]:
    row = {"name": source.name, "summary": source.summary, "position_help": source.position_help,
           "options": {name: registry.OPTION_HELP[name] for name in source.options},
           "own": source.own, "board": None, "exact": False}
    try:
        _, (game, start) = catalog.load(source.name, {}, None)
        # Solved exactly: the game says an exact method finishes from its start (a game that
        # cannot start, chess without python-chess, is not called solved).
        row |= {"board": board_of(game, start), "exact": game.solvable(start)}
    except Exception:  # a user's game that cannot start: its card has no picture
        pass
    return row


def _seconds(text: str | None, default: float = DEFAULT_SECONDS) -> float:
    if text is None:
        return default
    if text == UNTIL_THE_CAP:
        return MAX_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        raise BadOption(f"seconds={text[:40]!r}: give a number of seconds, or {UNTIL_THE_CAP!r} for the "
                        f"server's cap ({MAX_SECONDS:g} s)") from None
    if not 0 < seconds <= MAX_SECONDS:
        raise BadOption(f"seconds={text!r}: give more than 0 and at most {MAX_SECONDS:g}")
    return seconds


def _lines(text: str | None) -> int:
    """The number of best lines asked for (``lines=N``), 1 to MAX_LINES."""
    if text is None:
        return DEFAULT_LINES
    if not (text.isascii() and text.isdigit() and 1 <= int(text) <= MAX_LINES):
        raise BadOption(f"lines={text[:40]!r}: give a whole number of best lines from 1 to {MAX_LINES}")
    return int(text)


async def _stream(server: Server, located: Located, seconds: float, lines: int,
                  request: Request) -> AsyncIterator[str]:
    """Server-sent events: ``depth`` after each completed depth (with ``lines`` best lines),
    then ``done``. The page
    cancels by closing the stream. Starlette notices a close by itself under ASGI servers
    older than spec 2.4; the poll here notices it under any server within a quarter second."""
    source, game, start, position, played = located
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Progress] = asyncio.Queue()

    def report(progress: Progress) -> None:  # called from the search's thread
        loop.call_soon_threadsafe(queue.put_nowait, progress)

    thinker = Thinker(game, position, server.memory, seconds, report,
                      recipe(source, request.query_params, played_notation(request.query_params)), lines)
    await run_in_threadpool(server.thinkers.start, thinker)  # may wait for a worker to stop
    try:
        while True:
            try:
                progress = await asyncio.wait_for(queue.get(), timeout=DISCONNECT_POLL_S)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                continue
            payload = await run_in_threadpool(describe, source.name, game, start, played, position,
                                              progress.known, server.memory.database, lines)
            payload |= {"depth_reached": progress.depth, "elapsed_s": round(progress.elapsed_s, 3),
                        "reason": progress.reason, "seconds": seconds, "cap_s": MAX_SECONDS}
            yield f"event: {'done' if progress.done else 'depth'}\ndata: {json.dumps(payload)}\n\n"
            if progress.done:
                return
    finally:
        thinker.cancel()  # the page went away or cancelled: stop searching


async def _too_big(request: Request, error: Exception) -> Response:
    """A request past the page's bounds (too many moves to value, a search that would not
    finish in the page's time): HTTP 422 with the reason, at once."""
    return JSONResponse({"error": f"too big for the page: {error}"}, status_code=422)


class BoundedRequests:
    """ASGI middleware: a query string longer than MAX_QUERY_BYTES is answered HTTP 414
    before any handler reads it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and len(scope.get("query_string", b"")) > MAX_QUERY_BYTES:
            size = len(scope["query_string"])
            answer = JSONResponse({"error": f"the request's query is {size:,} bytes; at most "
                                            f"{MAX_QUERY_BYTES:,} are read"}, status_code=414)
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


async def _bad_input(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": str(error)}, status_code=400)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return JSONResponse({"error": f"{error.detail}: {request.url.path!r}"}, status_code=error.status_code)


class UserGameFaults:
    """ASGI middleware: an exception raised inside a user's game method becomes HTTP 422 with
    the one line of perfectplay.game_faults.explain (as the CLI prints it), not a 500 and a
    traceback in the server's log. It sits inside Starlette's last-resort handler
    of other exceptions (_internal_error), which Starlette re-raises after answering."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Any) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)
        try:
            await self.app(scope, receive, sending)
        except Exception as error:
            found = explain(error)
            if found is None or started:  # not the user's bug, or too late to answer
                raise
            await JSONResponse({"error": f"error: {found}"}, status_code=422)(scope, receive, send)


async def _internal_error(request: Request, error: Exception) -> Response:
    return JSONResponse({"error": f"internal error: {type(error).__name__}: {error}"}, status_code=500)

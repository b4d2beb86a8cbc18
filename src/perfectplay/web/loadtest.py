"""A bounded load test: many clients playing a game against a server on this machine.

Each client plays games by the JSON API, as the page does (one request per move, every
move's value in each answer), choosing among the legal moves at random: a game the caller
names, to the end or for a number of plies (as far as every position is answered exactly at
once: tic-tac-toe to the end, Connect Four for its first 7 moves, in its opening book).
Optionally some clients at once watch a slow analysis (thinking streams of a game too big to
solve), to see what a slow analysis costs the others. Only loopback addresses are accepted, and every loop is
bounded by a count and a deadline.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import quote, urlsplit

from perfectplay.errors import BadOption


@dataclass
class LoadResult:
    clients: int
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    latencies_s: list[float] = field(default_factory=list)
    elapsed_s: float = 0.0

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies_s)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def check_loopback(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    host = parts.hostname or ""
    loopback = host == "localhost"
    if not loopback:
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
    if not loopback or parts.port is None:
        raise BadOption(f"load tests run against this machine only (127.0.0.1 with a port), not {url!r}")
    return host, parts.port


def play_games(url: str, game: str, plies: int | None = None, clients: int = 50, games: int = 1,
               deadline_s: float = 120.0, seed: int = 1) -> LoadResult:
    """``clients`` threads, each playing ``games`` games of ``game``, each to the end or for
    ``plies`` moves; every position on the way must be answered exactly at once."""
    host, port = check_loopback(url)
    result = LoadResult(clients)
    lock = threading.Lock()
    stop_at = time.perf_counter() + deadline_s

    def client(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            for _ in range(games):
                _one_game(connection, rng, result, lock, stop_at, game, plies)
        except Exception as error:  # every failure is counted, never raised from a thread
            with lock:
                result.errors.append(f"client {number}: {type(error).__name__}: {error}")
        finally:
            connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result.elapsed_s = time.perf_counter() - started
    return result


def _one_game(connection: http.client.HTTPConnection, rng: random.Random, result: LoadResult,
              lock: threading.Lock, stop_at: float, game: str, plies: int | None) -> None:
    moves: list[str] = []
    for _ in range(100):  # every game here ends (or stops) well within 100 moves
        if time.perf_counter() > stop_at:
            raise TimeoutError("deadline passed")
        began = time.perf_counter()
        connection.request("GET", f"/api/{quote(game)}/position?moves=" + quote(",".join(moves)))
        response = connection.getresponse()
        body = response.read()
        with lock:
            result.requests += 1
            result.latencies_s.append(time.perf_counter() - began)
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}: {body[:200]!r}")
        payload = json.loads(body)
        if payload["over"]:
            return
        if payload["status"] != "exact" or not payload["moves"]:
            raise RuntimeError(f"no exact values for {payload['position']!r}")
        if plies is not None and len(moves) == plies:
            return
        moves.append(rng.choice(payload["moves"])["move"])
    raise RuntimeError(f"{game} game did not end: {moves}")


class SlowAnalyses:
    """``count`` thinking streams of ``game`` of ``seconds`` each, read in threads (the engine
    searching all the while) until :meth:`stop` closes them; stream n analyses the position
    after ``openings[n % len(openings)]`` (a first move), so that no two share an analysis."""

    def __init__(self, url: str, count: int, seconds: float, game: str, openings: Sequence[str]) -> None:
        self.host, self.port = check_loopback(url)
        self.seconds = seconds
        self.game, self.openings = game, tuple(openings) or ("",)
        self.connections = [http.client.HTTPConnection(self.host, self.port, timeout=seconds + 30)
                            for _ in range(count)]
        self.threads = [threading.Thread(target=self._watch, args=(n,), daemon=True) for n in range(count)]
        for thread in self.threads:
            thread.start()

    def _watch(self, number: int) -> None:
        opening = self.openings[number % len(self.openings)]
        connection = self.connections[number]
        try:
            connection.request("GET", f"/api/{quote(self.game)}/think?seconds={self.seconds}"
                                      f"&moves={quote(opening)}")
            connection.getresponse().read()
        except Exception:  # closed by stop(), mid-stream
            pass

    def stop(self) -> None:
        for connection in self.connections:
            if connection.sock is not None:
                connection.sock.shutdown(2)
            connection.close()
        for thread in self.threads:
            thread.join(timeout=5)

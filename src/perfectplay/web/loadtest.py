"""A bounded load test: many clients playing a game against a server on this machine.

Each client plays games by the JSON API, as the page does (one request per move, every
move's value in each answer), choosing among the legal moves at random: tic-tac-toe to the
end, or Connect Four for its first 7 moves (every position there is in the opening book).
Optionally some clients at once watch a slow analysis (chess thinking streams), to see what
a slow analysis costs the others. Only loopback addresses are accepted, and every loop is
bounded by a count and a deadline.
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import random
import threading
import time
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


# The games a client plays, and how many moves of each (None: to the end).
PLIES = {"tictactoe": None, "connect4": 7}


def play_games(url: str, clients: int = 50, games: int = 1, deadline_s: float = 120.0,
               seed: int = 1, game: str = "tictactoe") -> LoadResult:
    """``clients`` threads, each playing ``games`` games of ``game`` (see PLIES)."""
    host, port = check_loopback(url)
    if game not in PLIES:
        raise BadOption(f"load tests play {' or '.join(PLIES)}, not {game!r}")
    result = LoadResult(clients)
    lock = threading.Lock()
    stop_at = time.perf_counter() + deadline_s

    def client(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            for _ in range(games):
                _one_game(connection, rng, result, lock, stop_at, game)
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
              lock: threading.Lock, stop_at: float, game: str) -> None:
    moves: list[str] = []
    plies = PLIES[game]
    for _ in range(100):  # every game here ends (or stops) well within 100 moves
        if time.perf_counter() > stop_at:
            raise TimeoutError("deadline passed")
        began = time.perf_counter()
        connection.request("GET", f"/api/{game}/position?moves=" + quote(",".join(moves)))
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
    """``count`` chess thinking streams of ``seconds`` each, read in threads (the engine
    searching all the while) until :meth:`stop` closes them."""

    def __init__(self, url: str, count: int, seconds: float) -> None:
        self.host, self.port = check_loopback(url)
        self.seconds = seconds
        self.connections = [http.client.HTTPConnection(self.host, self.port, timeout=seconds + 30)
                            for _ in range(count)]
        self.threads = [threading.Thread(target=self._watch, args=(n,), daemon=True) for n in range(count)]
        for thread in self.threads:
            thread.start()

    def _watch(self, number: int) -> None:
        # A different opening each, so no two share an analysis.
        opening = ["e2e4", "d2d4", "g1f3", "c2c4", "b1c3", "g2g3", "b2b3", "f2f4"][number % 8]
        connection = self.connections[number]
        try:
            connection.request("GET", f"/api/chess/think?seconds={self.seconds}&moves={opening}")
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

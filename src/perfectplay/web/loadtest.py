"""A bounded load test: many clients playing tic-tac-toe against a server on this machine.

Each client plays whole games by the JSON API, as the page does (one request per move,
every move's value in each answer), choosing among the legal moves at random. Only loopback
addresses are accepted, and every loop is bounded by a count and a deadline.
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


def play_games(url: str, clients: int = 50, games: int = 1, deadline_s: float = 120.0,
               seed: int = 1) -> LoadResult:
    """``clients`` threads, each playing ``games`` tic-tac-toe games to the end."""
    host, port = check_loopback(url)
    result = LoadResult(clients)
    lock = threading.Lock()
    stop_at = time.perf_counter() + deadline_s

    def client(number: int) -> None:
        rng = random.Random(seed * 1000 + number)
        connection = http.client.HTTPConnection(host, port, timeout=30)
        try:
            for _ in range(games):
                _one_game(connection, rng, result, lock, stop_at)
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
              lock: threading.Lock, stop_at: float) -> None:
    moves: list[str] = []
    for _ in range(10):  # at most 9 moves, then the finished position
        if time.perf_counter() > stop_at:
            raise TimeoutError("deadline passed")
        began = time.perf_counter()
        connection.request("GET", "/api/tictactoe/position?moves=" + quote(",".join(moves)))
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
        moves.append(rng.choice(payload["moves"])["move"])
    raise RuntimeError(f"tic-tac-toe game did not end: {moves}")

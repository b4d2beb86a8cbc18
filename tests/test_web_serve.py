"""`perfectplay serve` as a user runs it: the URL, a taken port, a bad game file, and 50
clients playing tic-tac-toe at once (a bounded load test against 127.0.0.1)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_server import served

from perfectplay.errors import BadOption
from perfectplay.web.loadtest import check_loopback, play_games


def test_fifty_clients_play_tictactoe_with_no_error() -> None:
    with served() as url:
        result = play_games(url, "tictactoe", clients=50, games=1, deadline_s=120)
    assert result.errors == []
    assert result.requests >= 50 * 6  # a tic-tac-toe game has at least 5 moves, then the end


def test_a_taken_port_is_one_line_and_exit_2(cli: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        done = cli("serve", "--port", str(port), timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"error: port {port} on 127.0.0.1 is already in use; choose another with --port\n"


def test_a_game_file_that_cannot_load_is_one_line_and_exit_2(cli: Any, tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("this is not python\n")
    for spec in (f"{broken}:Game", f"{tmp_path / 'missing.py'}:Game", "nocolon.py"):
        done = cli("serve", "--port", "0", spec, timeout=60)
        assert done.returncode == 2 and done.stderr.count("\n") == 1, (spec, done.stderr)
        assert done.stderr.startswith("error:")


def test_load_tests_refuse_any_address_but_this_machine() -> None:
    assert check_loopback("http://127.0.0.1:8000/") == ("127.0.0.1", 8000)
    for url in ("http://10.0.0.1:8000/", "http://example.org:80/", "http://127.0.0.1/"):
        with pytest.raises(BadOption):
            check_loopback(url)


@pytest.fixture
def in_process() -> Iterator[tuple[str, Any]]:
    """A real uvicorn server in this process, so a test can see the searches it runs."""
    import threading

    import uvicorn

    from perfectplay.web.app import Server, create_app
    state = Server()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(state), log_level="warning", lifespan="off")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{listener.getsockname()[1]}", state
    finally:
        running.should_exit = True
        thread.join(timeout=10)
        listener.close()


def test_closing_the_thinking_stream_stops_the_search(in_process: tuple[str, Any]) -> None:
    import http.client
    import time
    where, state = in_process
    host, port = where.split(":")
    for _ in range(100):  # the server may take a moment to start listening
        try:
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            # 8x7 Connect Four: too big for an exact search, so the engine deepens at once.
            connection.request("GET", "/api/connect4/think?width=8&height=7&seconds=60")
            break
        except ConnectionRefusedError:
            time.sleep(0.05)
    response = connection.getresponse()
    assert response.status == 200
    # Wait for a depth that took over a second: the next one takes longer still, so a stop
    # within a second of the close comes from noticing the close, not from the next event.
    while True:
        line = response.readline()
        assert line, "the stream ended early"
        if line.startswith(b"data:") and json.loads(line[5:])["elapsed_s"] >= 1.0:
            break
    assert len(state.thinkers._running) == 1
    connection.close()  # what the page's Cancel does
    closed = time.perf_counter()
    while state.thinkers._running and time.perf_counter() < closed + 10:
        time.sleep(0.02)
    print(f"stopped {time.perf_counter() - closed:.2f} s after the close")
    assert state.thinkers._running == []
    assert time.perf_counter() - closed < 2.0  # the next depth would take longer than that

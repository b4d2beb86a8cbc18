"""Start `perfectplay serve --port 0` as a user would and read the URL it prints; read a
thinking stream's server-sent events."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from contextlib import contextmanager
from typing import Any, Iterator

LINE = re.compile(r"perfectplay serving at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops it\)\n")


@contextmanager
def served(*game_files: str) -> Iterator[str]:
    process = subprocess.Popen([sys.executable, "-m", "perfectplay", "serve", "--port", "0", *game_files],
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    try:
        match = LINE.fullmatch(line)
        assert match, line
        yield match.group(1)
    finally:
        process.terminate()
        process.wait(timeout=10)


def stream_events(client: Any, url: str, params: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """The (event name, data) pairs of a server-sent event stream, read to its end."""
    found, name = [], ""
    with client.stream("GET", url, params=params) as stream:
        for line in stream.iter_lines():
            if line.startswith("event:"):
                name = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                found.append((name, json.loads(line[5:])))
    return found


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's chromium driven by Playwright (never `playwright install`), for one module."""
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    assert Path(CHROMIUM).exists(), "install Debian's chromium: make install-test"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()

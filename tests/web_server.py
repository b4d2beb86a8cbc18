"""Start `perfectplay serve --port 0` as a user would and read the URL it prints; read a
thinking stream's server-sent events; open a page in Chromium at a desktop's or a phone's
width (the fixtures ``server``, ``browser`` and ``shots`` are in conftest)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

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
    """Debian's chromium driven by Playwright (never `playwright install`)."""
    from pathlib import Path

    from playwright.sync_api import sync_playwright
    assert Path(CHROMIUM).exists(), "install Debian's chromium: make install-test"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


# The two widths every page is tried at: a desktop window and a phone.
WIDTHS = {"desktop": (1100, 900), "phone": (390, 844)}


def open_page(browser: Any, width: str = "desktop") -> tuple[Any, list[str]]:
    """A page whose console errors (a 404 favicon too) and script errors are collected."""
    w, h = WIDTHS[width]
    page = browser.new_page(viewport={"width": w, "height": h})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return page, errors

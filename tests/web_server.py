"""Start `perfectplay serve --port 0` as a user would and read the URL it prints."""

from __future__ import annotations

import re
import subprocess
import sys
from contextlib import contextmanager
from typing import Iterator

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

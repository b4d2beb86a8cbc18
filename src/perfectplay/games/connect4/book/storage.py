"""The book's two file formats: batch files written while building, and the book file shipped.

**Batch files** (text, one per batch of frontier positions, under the build directory):

    # perfectplay connect4 book batch 1 7x6 stones=8 batch=12
    <canonical key in hex> <score> <nodes> <cpu seconds>
    ...
    sha256 <hex digest of every line above, newlines included>

A batch is written to a temporary name, flushed to disk and renamed, so a killed build leaves
either the whole batch or nothing; the last line's checksum catches anything else (a file cut
short, an edited line, a bad disk). A batch that fails its checksum is never read as results:
:func:`read_batch` raises, and the builder solves it again.

**The book file** (binary, shipped as package data):

    line 1: b"perfectplay-book 1\\n"
    line 2: a JSON header (game, width, height, stones, positions, build figures, payload_sha256)
    then:   n little-endian uint64 canonical keys, ascending; then n int8 scores

The checksum covers the payload; a book whose payload does not match is refused
(:class:`BookError` names the file), never served.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.errors import PerfectPlayError

BATCH_FORMAT = 1
BOOK_MAGIC = b"perfectplay-book 1\n"


class BookError(PerfectPlayError):
    """A book or batch file that cannot be used: missing, truncated, corrupted or foreign."""


@dataclass(frozen=True)
class Solved:
    """One frontier position's result: its canonical key and score, and what it cost."""

    key: int
    score: int
    nodes: int
    seconds: float


def batch_header(width: int, height: int, stones: int, index: int) -> str:
    return (f"# perfectplay connect4 book batch {BATCH_FORMAT} {width}x{height} "
            f"stones={stones} batch={index}\n")


def write_batch(path: Path, header: str, results: list[Solved]) -> None:
    """Write a batch atomically: a temporary file, fsync, then rename over ``path``."""
    lines = [header] + [f"{r.key:x} {r.score} {r.nodes} {r.seconds:.4f}\n" for r in results]
    body = "".join(lines)
    digest = hashlib.sha256(body.encode()).hexdigest()
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w") as handle:
        handle.write(body + f"sha256 {digest}\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def read_batch(path: Path, header: str) -> list[Solved]:
    """The results in a batch file; raises BookError when its checksum or header is wrong."""
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise BookError(f"{path}: cannot read the batch file ({error})") from None
    body, _, last = text.rstrip("\n").rpartition("\n")
    body += "\n"
    if not last.startswith("sha256 ") or hashlib.sha256(body.encode()).hexdigest() != last[7:]:
        raise BookError(f"{path}: the batch file fails its checksum (truncated or corrupted)")
    if not body.startswith(header):
        raise BookError(f"{path}: the batch file belongs to another board, level or batch")
    results = []
    for line in body[len(header):].splitlines():
        key, score, nodes, seconds = line.split()
        results.append(Solved(int(key, 16), int(score), int(nodes), float(seconds)))
    return results


def write_book(path: Path, header: dict[str, Any], keys: np.ndarray,
               scores: np.ndarray) -> dict[str, Any]:
    """Write a book file atomically (see the module docstring for the layout); returns the
    header written, with the count and checksum added."""
    payload = keys.astype("<u8").tobytes() + scores.astype(np.int8).tobytes()
    header = dict(header, positions=int(len(keys)),
                  payload_sha256=hashlib.sha256(payload).hexdigest())
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(BOOK_MAGIC + json.dumps(header, sort_keys=True).encode() + b"\n" + payload)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    return header


def read_book(path: Path) -> tuple[dict[str, Any], np.ndarray, np.ndarray]:
    """``(header, keys, scores)`` of a book file; BookError naming the file when it is not a
    book, is cut short or fails its checksum."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise BookError(f"{path}: cannot read the book ({error.strerror or error})") from None
    if not data.startswith(BOOK_MAGIC):
        raise BookError(f"{path}: not a perfectplay opening book")
    line_end = data.find(b"\n", len(BOOK_MAGIC))
    try:
        header = json.loads(data[len(BOOK_MAGIC):line_end])
        count = int(header["positions"])
        digest = str(header["payload_sha256"])
    except (ValueError, KeyError, TypeError):
        raise BookError(f"{path}: the book's header is damaged") from None
    payload = data[line_end + 1:]
    if len(payload) != 9 * count or hashlib.sha256(payload).hexdigest() != digest:
        raise BookError(f"{path}: the book fails its checksum (truncated or corrupted)")
    keys = np.frombuffer(payload, dtype="<u8", count=count)
    scores = np.frombuffer(payload, dtype=np.int8, offset=8 * count)
    return header, keys, scores

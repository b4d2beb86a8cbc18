"""The dense record file, for games with a perfect index (Game.rank / Game.index_size).

One 16-bit record per index (perfectplay.store.records.pack: two bits of outcome and
fourteen of remoteness, or a 16-bit score), memory-mapped with numpy, so a lookup is one
array read and a batch of lookups is one fancy-indexing call.

Layout: the 8 bytes ``PPDENSE1``, a little-endian uint32 header length, the header as JSON
(game, options, kind, records, chunk size, one CRC-32 per chunk of records, build facts,
and ``header_digest``, a digest of the fields that say what the records mean), zero padding
to ``DATA_OFFSET``, then the records. A chunk's CRC is checked the first time a lookup
touches it, so a corrupted record is reported, never served; a header whose fields are of
the wrong type or do not match their digest is refused when the file is opened (files
written before the digest was added are read without it).
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from perfectplay.errors import BadDatabase, CorruptDatabase
from perfectplay.store.records import FORMAT_VERSION, Identity, empty_record, pack, unpack

MAGIC = b"PPDENSE1"
DATA_OFFSET = 1 << 16
CHUNK_RECORDS = 1 << 20
# A dense file larger than this (4 GB) is refused: it is built in memory.
MAX_RECORDS = 1 << 31
# The header fields that decide what the records mean, covered by ``header_digest``.
DIGESTED = ("format_version", "game", "options", "kind", "records", "chunk_records", "crc32")


def write(path: str | Path, identity: Identity, score_game: bool, size: int,
          records: Iterable[tuple[int, int]], facts: dict[str, Any]) -> int:
    """Write a dense file of ``size`` records from (index, node-relative value) pairs;
    return how many records were set."""
    path = Path(path)
    check_size(path, size)
    array = np.full(size, empty_record(score_game), dtype=np.uint16)
    stored = 0
    for index, value in records:
        array[index] = pack(value, score_game)
        stored += 1
    crcs = [zlib.crc32(array[start:start + CHUNK_RECORDS].tobytes())
            for start in range(0, size, CHUNK_RECORDS)]
    start = header_block(path, identity, score_game, size, stored, crcs, facts)
    partial = Path(f"{path}.partial")
    with open(partial, "wb") as out:
        out.write(start)
        for start_record in range(0, size, CHUNK_RECORDS):
            out.write(array[start_record:start_record + CHUNK_RECORDS].tobytes())
    partial.replace(path)
    return stored


def check_size(path: Path, size: int) -> None:
    if size > MAX_RECORDS:
        raise BadDatabase(f"{path}: an index of {size:,} records is too large for a dense file "
                          f"(at most {MAX_RECORDS:,}); keep the SQLite database")


def header_block(path: Path, identity: Identity, score_game: bool, size: int, stored: int,
                 crcs: list[int], facts: dict[str, Any]) -> bytes:
    """The file's first DATA_OFFSET bytes: the magic, the header's length, the header (its
    fields, ``facts``, and its digest) and zero padding. Equal arguments give equal bytes."""
    header = {"format_version": FORMAT_VERSION, "game": identity.game, "options": identity.options,
              "kind": "score" if score_game else "wld", "records": size, "stored": stored,
              "chunk_records": CHUNK_RECORDS, "crc32": crcs, **facts}
    header["header_digest"] = header_digest(header)
    blob = json.dumps(header).encode()
    if len(blob) + 12 > DATA_OFFSET:
        raise BadDatabase(f"{path}: header too large")
    return MAGIC + struct.pack("<I", len(blob)) + blob + b"\0" * (DATA_OFFSET - 12 - len(blob))


class DenseFile:
    """A dense record file opened for lookups."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.header = _read_header(self.path)
        size = int(self.header["records"])
        expected = DATA_OFFSET + 2 * size
        actual = self.path.stat().st_size
        if actual != expected:
            raise BadDatabase(f"{self.path}: truncated or padded dense file ({actual:,} bytes, "
                              f"expected {expected:,})")
        self.records = np.memmap(self.path, dtype=np.uint16, mode="r", offset=DATA_OFFSET, shape=(size,))
        self.chunk = int(self.header["chunk_records"])
        self.checked = np.zeros(len(self.header["crc32"]), dtype=bool)

    @property
    def identity(self) -> Identity:
        return Identity(self.header["game"], self.header["options"])

    @property
    def score_game(self) -> bool:
        return bool(self.header["kind"] == "score")

    def check_identity(self, identity: Identity) -> None:
        if identity != self.identity:
            raise BadDatabase(f"{self.path}: built for {self.identity.describe()}, "
                              f"not for {identity.describe()}")

    def check_chunks(self, chunks: Iterable[int]) -> None:
        for chunk in chunks:
            if self.checked[chunk]:
                continue
            data = self.records[chunk * self.chunk:(chunk + 1) * self.chunk].tobytes()
            if zlib.crc32(data) != self.header["crc32"][chunk]:
                raise CorruptDatabase(f"{self.path}: records {chunk * self.chunk:,} onwards do "
                                      "not match their checksum; the file is corrupted and "
                                      "will not be served")
            self.checked[chunk] = True

    def check_all(self) -> None:
        self.check_chunks(range(len(self.checked)))

    def raw(self, indices: np.ndarray) -> np.ndarray:
        """The records at ``indices`` (checked chunks only): the fast batched path."""
        if not self.checked.all():
            self.check_chunks(np.unique(indices // self.chunk).tolist())
        return self.records[indices]

    def values(self, indices: Sequence[int]) -> list[int | None]:
        found = self.raw(np.asarray(indices, dtype=np.int64))
        score_game = self.score_game
        return [unpack(int(record), score_game) for record in found]

    def close(self) -> None:
        del self.records


def _read_header(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as handle:
            start = handle.read(12)
            if len(start) < 12 or start[:8] != MAGIC:
                raise BadDatabase(f"{path}: not a perfectplay dense file")
            (length,) = struct.unpack("<I", start[8:])
            header: dict[str, Any] = json.loads(handle.read(length))
    except (OSError, ValueError, UnicodeDecodeError) as error:
        raise BadDatabase(f"{path}: not a readable perfectplay dense file ({error})") from None
    if not isinstance(header, dict):
        raise CorruptDatabase(f"{path}: its header is not a header; the file is corrupted")
    if header.get("format_version") != FORMAT_VERSION:
        raise BadDatabase(f"{path}: dense format version {header.get('format_version')}, "
                          f"this perfectplay reads version {FORMAT_VERSION}")
    _check_header(path, header)
    return header


def header_digest(header: dict[str, Any]) -> str:
    fields = json.dumps([header.get(name) for name in DIGESTED])
    return hashlib.blake2b(fields.encode(), digest_size=16).hexdigest()


def _check_header(path: Path, header: dict[str, Any]) -> None:
    """Refuse a header that a changed byte has made wrong: fields of the wrong type, or
    fields that no longer match their digest."""
    def whole(name: str, least: int) -> bool:
        value = header.get(name)
        return type(value) is int and value >= least

    crcs = header.get("crc32")
    sound = (whole("records", 0) and whole("chunk_records", 1) and whole("stored", 0)
             and isinstance(header.get("game"), str) and isinstance(header.get("options"), str)
             and header.get("kind") in ("wld", "score") and isinstance(crcs, list)
             and all(type(crc) is int for crc in crcs))
    if sound:
        chunks = -(-header["records"] // header["chunk_records"])
        sound = len(crcs) == chunks  # type: ignore[arg-type]
    if sound:
        try:
            sound = isinstance(json.loads(header["options"]), dict)
        except ValueError:
            sound = False
    if sound and "header_digest" in header:
        sound = header["header_digest"] == header_digest(header)
    if not sound:
        raise CorruptDatabase(f"{path}: its header does not hold together (a field is missing, "
                              "of the wrong type, or does not match its checksum); the file is "
                              "corrupted and will not be served")


def is_dense(path: str | Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(8) == MAGIC
    except OSError:
        return False

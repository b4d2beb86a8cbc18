"""How Kalah's opening book (games/kalah/book.py) is computed: which positions it must hold
and each one's entry, by the kernel (games/kalah/kernel_method.prove) with the endgame
database it finds, the book itself never consulted. benchmarks/kalah_book.py drives it,
resumably; the tests build small boards' books with it and check them against Python's
search.

The positions the computer can face before ``plies`` plies have been played: from the
start, a side the computer plays moves only optimally (every optimal move, since the perfect
level may choose any), the other side plays anything; both sides are taken in turn as the
computer's, so the book serves the computer moving first or second.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perfectplay.games.kalah.book import BOOK_FILE, Board, Book, Entry, board_name, position_key, read


@dataclass(frozen=True)
class Proved:
    """One entry as the kernel found it, with what it cost."""

    key: str
    ply: int
    position: Any
    entry: Entry
    nodes: int
    cpu_seconds: float


def faced(game: Any, plies: int, entry_of: Callable[[int, Any], Entry]) -> Iterator[tuple[int, Any]]:
    """Each (ply, position) the computer faces before ``plies`` plies, ply by ply, once per
    book key; ``entry_of(ply, position)`` gives (or computes) a position's entry, whose
    optimal moves lead on."""
    level: set[tuple[Any, int]] = {(game.start(), side) for side in (0, 1)}
    seen: set[str] = set()
    for ply in range(plies):
        following: set[tuple[Any, int]] = set()
        for position, computer in sorted(level):
            if not game.legal_moves(position):
                continue
            if game.player_to_move(position) == computer:
                key = position_key(game, position)
                if key not in seen:
                    seen.add(key)
                    yield ply, position
                moves = entry_of(ply, position).best
            else:
                moves = tuple(game.legal_moves(position))
            following.update((game.play(position, pit), computer) for pit in moves)
        level = following


def prove_entry(game: Any, position: Any) -> tuple[Entry, int]:
    """The entry of ``position`` by the kernel (no budget) and the nodes it took."""
    from perfectplay.games.kalah.kernel_method import prove_by_search
    value, optimal, nodes = prove_by_search(game, position)
    return Entry(value, tuple(optimal)), nodes


def build(game: Any, plies: int, book: Book,
          on_proved: Callable[[Proved], None] = lambda proved: None) -> Board:
    """``game``'s part of ``book`` extended to every position faced before ``plies`` plies
    (the entries it holds are kept, not searched again), each new entry told to
    ``on_proved`` as soon as it is found (a caller saves it)."""
    name = board_name(game)
    old = book.get(name)
    positions: dict[str, Entry] = dict(old.positions) if old is not None else {}

    def entry_of(ply: int, position: Any) -> Entry:
        key = position_key(game, position)
        if key not in positions:
            cpu = time.process_time()
            entry, nodes = prove_entry(game, position)
            positions[key] = entry
            on_proved(Proved(key, ply, position, entry, nodes, time.process_time() - cpu))
        return positions[key]

    for ply, position in faced(game, plies, entry_of):
        entry_of(ply, position)
    return Board(max(plies, old.complete_plies if old is not None else 0), positions)


def to_text(book: Book) -> str:
    """A book as its file holds it: boards by name, one line per position, in a stable order."""
    parts = []
    for name, board in sorted(book.items()):
        lines = [f"    {json.dumps(key)}: {json.dumps({'value': entry.value, 'best': list(entry.best)})}"
                 for key, entry in sorted(board.positions.items())]
        parts.append(f'  {json.dumps(name)}: {{"complete_plies": {board.complete_plies}, "positions": {{\n'
                     + ",\n".join(lines) + "\n  }}")
    return '{"boards": {\n' + ",\n".join(parts) + "\n}}\n"


def load(path: Path) -> Book:
    """The book at ``path``, empty when there is no file yet."""
    return read(path.read_text(), str(path)) if path.exists() else {}


def save(path: Path, book: Book) -> None:
    """Writes ``book`` whole to a new file and renames it over ``path``: a stopped build
    leaves the last saved book, never half of one."""
    partial = path.with_suffix(".partial")
    partial.write_text(to_text(book))
    partial.replace(path)


def shipped_path() -> Path:
    """The book file in this package (a source checkout's, which the build writes)."""
    return Path(__file__).with_name(BOOK_FILE)

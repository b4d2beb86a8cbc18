"""Parsing helpers shared by the built-in games: integers in position text, with errors that
quote the input."""

from __future__ import annotations

from perfectplay.errors import BadPosition


def parse_ints(text: str, what: str, *, minimum: int = 0) -> list[int]:
    """Whitespace- or comma-separated integers, each at least ``minimum``."""
    numbers = []
    for token in text.replace(",", " ").split():
        try:
            number = int(token)
        except ValueError:
            raise BadPosition(f"{what}: {token!r} is not a whole number (in {text!r})") from None
        if number < minimum:
            raise BadPosition(f"{what}: {token!r} is below {minimum} (in {text!r})")
        numbers.append(number)
    return numbers


def parse_count(text: str, what: str) -> int:
    numbers = parse_ints(text, what)
    if len(numbers) != 1:
        raise BadPosition(f"{what}: expected one whole number, got {text!r}")
    return numbers[0]

"""Player specifications as written on the command line: ``"time=0.1,null-move=off"``.

Keys: the layer switches ``pvs``, ``aspiration``, ``killers``, ``history``, ``quiescence``,
``null-move``, ``verify``, ``lmr``, ``extension`` and ``tt`` (on/off); ``depth``, ``nodes``, ``time`` (seconds
per move); ``threads``, ``tt-size`` (entries), ``window``, ``reduction``, ``lmr-from``; or
``uci=COMMAND`` for an external engine, with ``option.NAME=VALUE`` items sent to it as
``setoption name NAME value VALUE`` (e.g. Stockfish's
``option.UCI_LimitStrength=true,option.UCI_Elo=1350``); or ``mcts`` for Monte Carlo tree
search (perfectplay.mcts, with ``nodes`` as simulations per move, or ``time``) and ``engine``
for this engine where mcts is the game's default. Anything else is rejected with one line
that quotes it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from perfectplay import value as V
from perfectplay.engine.api import MAX_DEPTH, SearchLimits, Settings
from perfectplay.errors import BadOption

SWITCHES = {"pvs": "pvs", "aspiration": "aspiration", "killers": "killers", "history": "history",
            "quiescence": "quiescence", "null-move": "null_move", "verify": "null_verify",
            "lmr": "lmr", "tt": "tt",
            "extension": "check_extension", "futility": "futility"}
WHOLE = {"threads": "threads", "tt-size": "tt_size", "window": "aspiration_window",
         "reduction": "null_reduction", "lmr-from": "lmr_moves"}
LIMITS = {"depth": int, "nodes": int, "time": float}

# The largest values a player may ask for. Threads and the table are the bounds the UCI
# options advertise (Threads max 64; Hash max 1024 MB of 16-byte entries: uci/protocol.py);
# `threads=1000` once started 1,000 processes and a load average of 86 on 2 cores.
MAX_THREADS = 64
MAX_TABLE_ENTRIES = (1024 << 20) // 16
# Each setting's range, lowest to highest, both allowed; time in seconds per move.
RANGES: dict[str, tuple[float, float]] = {
    "threads": (1, MAX_THREADS), "tt-size": (16, MAX_TABLE_ENTRIES),
    "window": (1, V.DECISIVE), "reduction": (1, 4), "lmr-from": (1, 256),
    "depth": (1, MAX_DEPTH), "nodes": (1, 10**15), "time": (0.0, 10**9),
}


@dataclass(frozen=True)
class PlayerSpec:
    text: str
    settings: Settings
    limits: SearchLimits
    uci: str | None = None
    uci_options: tuple[tuple[str, str], ...] = ()
    mcts: bool = False


def parse_spec(text: str, settings: Settings, limits: SearchLimits, mcts: bool = False) -> PlayerSpec:
    """``settings`` and ``limits`` changed as ``text`` says; ``mcts``: the default player is
    Monte Carlo tree search (a game too big to solve with no evaluation function)."""
    changes: dict[str, Any] = {}
    limit_changes: dict[str, Any] = {}
    uci = None
    options: list[tuple[str, str]] = []
    given: set[str] = set()
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, _, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if key in given:
            raise BadOption(f"player {text!r}: {key} is given twice; give each setting once")
        given.add(key)
        if item in ("mcts", "engine"):
            mcts = item == "mcts"
        elif key == "uci":
            uci = item.partition("=")[2].strip()
            if not uci:
                raise BadOption(f"player {text!r}: uci= needs a command")
        elif key.startswith("option.") and len(key) > len("option.") and raw:
            options.append((key[len("option."):], raw))
        elif key in SWITCHES:
            if raw not in ("on", "off"):
                raise BadOption(f"player {text!r}: {key} must be on or off (got {raw!r})")
            changes[SWITCHES[key]] = raw == "on"
        elif key in WHOLE:
            changes[WHOLE[key]] = _number(text, key, raw, int)
        elif key in LIMITS:
            limit_changes[key] = _number(text, key, raw, LIMITS[key])
        else:
            known = ", ".join([*SWITCHES, *WHOLE, *LIMITS, "uci", "option.NAME", "mcts", "engine"])
            raise BadOption(f"player {text!r}: unknown setting {key!r}; known: {known}")
    if limit_changes:
        limits = SearchLimits(**limit_changes)  # a player's own limits replace the shared ones
    if options and uci is None:
        raise BadOption(f"player {text!r}: option.NAME=VALUE is for a UCI engine (add uci=COMMAND)")
    return PlayerSpec(text, replace(settings, **changes), limits, uci, tuple(options), mcts and not uci)


def _number(text: str, key: str, raw: str, kind: type) -> Any:
    """``raw`` as a number of ``kind`` within the setting's range (RANGES); time above 0."""
    try:
        number = kind(raw)
    except ValueError:
        raise BadOption(f"player {text!r}: {key} must be a number (got {raw!r})") from None
    low, high = RANGES[key]
    if kind is float:
        if not low < number <= high:  # also refuses nan
            raise BadOption(f"player {text!r}: {key}={raw} is out of range: give more than "
                            f"{low:g} and at most {high:g} seconds")
    elif not low <= number <= high:
        raise BadOption(f"player {text!r}: {key}={raw} is out of range: give {low:,} to {high:,}")
    return number


def describe(spec: PlayerSpec) -> str:
    """One line: the layers that are off, the limits, or the UCI command."""
    if spec.uci:
        return f"UCI engine {spec.uci!r}"
    limits = spec.limits
    if spec.mcts:
        shown = [f"{name} {value:g}" for name, value in (("simulations", limits.nodes),
                                                         ("time", limits.time)) if value is not None]
        return f"Monte Carlo tree search ({', '.join(shown) or 'no limit'} per move)"
    on = [key for key, field in SWITCHES.items() if getattr(spec.settings, field)]
    off = [key for key, field in SWITCHES.items() if not getattr(spec.settings, field)]
    limits = spec.limits
    parts = [f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}"
             for name, value in (("depth", limits.depth), ("nodes", limits.nodes), ("time", limits.time))
             if value is not None]
    layers = f"on: {' '.join(on) or 'none'}; off: {' '.join(off) or 'none'}"
    threads = f", {spec.settings.threads} threads" if spec.settings.threads > 1 else ""
    return f"engine ({layers}; {', '.join(parts) or 'no limit'}{threads})"

"""Player specifications as written on the command line: ``"time=0.1,null-move=off"``.

Keys: the layer switches ``pvs``, ``aspiration``, ``killers``, ``history``, ``quiescence``,
``null-move``, ``verify``, ``lmr`` and ``tt`` (on/off); ``depth``, ``nodes``, ``time`` (seconds
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

from perfectplay.engine.api import SearchLimits, Settings
from perfectplay.errors import BadOption

SWITCHES = {"pvs": "pvs", "aspiration": "aspiration", "killers": "killers", "history": "history",
            "quiescence": "quiescence", "null-move": "null_move", "verify": "null_verify",
            "lmr": "lmr", "tt": "tt"}
WHOLE = {"threads": "threads", "tt-size": "tt_size", "window": "aspiration_window",
         "reduction": "null_reduction", "lmr-from": "lmr_moves"}
LIMITS = {"depth": int, "nodes": int, "time": float}


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
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, _, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
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
    try:
        return kind(raw)
    except ValueError:
        raise BadOption(f"player {text!r}: {key} must be a number (got {raw!r})") from None


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

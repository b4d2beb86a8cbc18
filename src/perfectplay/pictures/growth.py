"""Nodes searched against a game's size, one curve per algorithm (plain recursion grows
exponentially, a memo table linearly: 266,079 calls against 58 for take-away at 20 sticks).

A node cap keeps a curve from running away: once an algorithm needs more nodes than the cap
at some size, its curve stops there (``None`` from then on) and says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from perfectplay import registry
from perfectplay.errors import BadOption, LimitReached
from perfectplay.search.limits import Limits
from perfectplay.solving import algorithm_names, solve

DEFAULT_ALGORITHMS = ("minimax", "memo", "alphabeta", "tt")
RANGE = re.compile(r"^\s*(\d+)\s*\.\.\s*(\d+)\s*$")
MAX_SIZES = 200
# The page's default: enough to show the curves part, quick enough to draw while one waits.
WEB_NODE_CAP = 300_000


@dataclass
class Growth:
    """``nodes[algorithm][i]`` is the node count at ``sizes[i]``, None past the cap."""

    game: str
    sizes: list[int]
    nodes: dict[str, list[int | None]] = field(default_factory=dict)
    values: list[str] = field(default_factory=list)
    node_cap: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "sizes": self.sizes, "nodes": self.nodes, "values": self.values,
                "node_cap": self.node_cap}


def parse_sizes(text: str) -> list[int]:
    match = RANGE.match(text)
    if not match or int(match.group(1)) > int(match.group(2)):
        raise BadOption(f"sizes {text!r}: write FROM..TO with FROM <= TO, e.g. 1..25")
    first, last = int(match.group(1)), int(match.group(2))
    if last - first + 1 > MAX_SIZES:
        raise BadOption(f"sizes {text!r}: at most {MAX_SIZES} sizes")
    return list(range(first, last + 1))


def parse_algorithms(text: str, label: str = "--algorithms") -> list[str]:
    """Algorithm names separated by commas, each one the registry knows."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    known = algorithm_names()
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise BadOption(f"{label} {text!r}: unknown {', '.join(map(repr, unknown)) or 'list'}; "
                        f"choose from {', '.join(known)}")
    return names


def measure(game_name: str, sizes: list[int], algorithms: list[str] | tuple[str, ...] = DEFAULT_ALGORITHMS,
            options: Mapping[str, Any] | None = None, node_cap: int | None = None) -> Growth:
    """Solve the game at every size with every algorithm and count the nodes."""
    entry = registry.find(game_name)
    options = dict(options or {})
    registry.check_options(entry, options)
    if entry.sized is None:
        raise BadOption(f"{entry.name} has no size to vary; games with sizes: "
                        + ", ".join(e.name for e in registry.entries() if e.sized))
    growth = Growth(entry.name, sizes, {name: [] for name in algorithms}, node_cap=node_cap)
    for n in sizes:
        game, position = entry.sized(options, n)
        described = None
        for name in algorithms:
            counts = growth.nodes[name]
            if counts and counts[-1] is None:
                counts.append(None)  # past the cap at a smaller size: larger ones cost more
                continue
            try:
                solution = solve(game, position, algorithm=name, limits=Limits(nodes=node_cap), pv_limit=0)
            except LimitReached:
                counts.append(None)
                continue
            counts.append(solution.stats.nodes)
            described = described or solution.describe()
        growth.values.append(described or "?")
    return growth


def growth_from_query(query: Mapping[str, str]) -> dict[str, Any]:
    """The page's growth chart: ``?game=takeaway&sizes=1..25&algorithms=...``, node-capped."""
    allowed = {"game", "sizes", "algorithms"}
    unknown = sorted(set(query) - allowed)
    if unknown:
        raise BadOption(f"unknown parameter {unknown[0]!r}; this call takes: {', '.join(sorted(allowed))}")
    algorithms = parse_algorithms(query.get("algorithms", ",".join(DEFAULT_ALGORITHMS)), "algorithms")
    sizes = parse_sizes(query.get("sizes", "1..25"))
    return _measured(registry.find(query.get("game", "takeaway")).name, tuple(sizes), tuple(algorithms))


@lru_cache(maxsize=64)
def _measured(game: str, sizes: tuple[int, ...], algorithms: tuple[str, ...]) -> dict[str, Any]:
    # Node counts never change: each chart is measured once per server.
    return measure(game, list(sizes), algorithms, node_cap=WEB_NODE_CAP).as_dict()

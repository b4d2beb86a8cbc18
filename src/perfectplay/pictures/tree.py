"""A game tree as an SVG picture: every node to a small depth, coloured by its exact value,
with the branches alpha-beta never searched greyed out.

The pruned branches come from the library's own alpha-beta, not from a copy of it: the
search runs on a recording view of the game that notes every move it plays, and only the
first pass over the root's moves (the search that decides the value) is recorded; the later
passes that confirm every optimal move are not part of the picture.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from perfectplay import value as V
from perfectplay.errors import BadOption, LimitReached, TooLarge
from perfectplay.game import Game
from perfectplay.search.limits import Budget, Limits
from perfectplay.solving import solve

MAX_NODES = 3_000
# The alpha-beta search the picture shows stops here (a few seconds in Python).
MAX_SEARCH_NODES = 200_000
LEAF_GAP, LEVEL_GAP, MARGIN = 18, 120, 40


@dataclass
class Node:
    position: Any
    move: str  # the notation of the move that led here ('' at the root)
    value: int  # exact, for the player to move here
    children: list[Node] = field(default_factory=list)
    searched: bool = True  # False: alpha-beta pruned this branch
    x: float = 0.0


class Recorder(Game[Any, Any]):
    """The game, unchanged, noting each (position, move) the search plays until it starts
    its second pass over the root's moves."""

    def __init__(self, game: Game[Any, Any], root: Any) -> None:
        self.inner, self.root = game, root
        self.name = f"recorded {game.name}"  # not the game's name: no compiled kernel applies
        self.properties = game.properties
        self.played: set[tuple[Hashable, Any]] = set()
        self._root_moves: set[Any] = set()
        self.recording = True

    def start(self) -> Any:
        return self.inner.start()

    def moves(self, position: Any) -> Any:
        return self.inner.moves(position)

    def play(self, position: Any, move: Any) -> Any:
        if self.recording:
            if position == self.root:
                if move in self._root_moves:
                    self.recording = False  # the confirming passes begin
                self._root_moves.add(move)
            if self.recording:
                self.played.add((position, move))
        return self.inner.play(position, move)

    def outcome(self, position: Any) -> Any:
        return self.inner.outcome(position)

    def gain(self, position: Any, move: Any) -> int:
        return self.inner.gain(position, move)

    def evaluate(self, position: Any) -> int:
        return self.inner.evaluate(position)

    def key(self, position: Any) -> Hashable:
        return self.inner.key(position)

    def format_move(self, position: Any, move: Any) -> str:
        return self.inner.format_move(position, move)


def build_tree(game: Game[Any, Any], root: Any, depth: int, seconds: float | None = None) -> tuple[Node, int]:
    """The tree to ``depth`` plies with exact values and alpha-beta's pruning marked, and the
    number of nodes alpha-beta visited in the whole search. With ``seconds``, every search
    together stops at that time (LimitReached): the web page's bound."""
    if depth < 1:
        raise BadOption(f"--depth {depth}: give 1 or more")
    if _more_nodes_than(game, root, depth, MAX_NODES):
        # Counted first, without solving each node, so a huge --depth is refused at once.
        raise BadOption(f"the tree to depth {depth} has more than {MAX_NODES} nodes; "
                        "give a smaller --depth or a later position")
    budget = Budget(Limits(nodes=MAX_SEARCH_NODES, time=seconds))
    recorder = Recorder(game, root)
    try:
        searched = solve(recorder, root, algorithm="alphabeta", pv_limit=0, engine="python",
                         budget=budget)
    except LimitReached:
        if seconds is not None and budget.elapsed() >= seconds:
            raise  # the caller's time (the web page's bound)
        # Connect Four's empty board: alpha-beta alone would search for days.
        raise TooLarge(f"the tree's exact values need more than {MAX_SEARCH_NODES:,} nodes of "
                       "alpha-beta search; draw it from a later position") from None
    count = [0]

    def grow(position: Any, move: str, left: int, searched_here: bool) -> Node:
        count[0] += 1
        if count[0] > MAX_NODES:
            raise BadOption(f"the tree to depth {depth} has more than {MAX_NODES} nodes; "
                            "give a smaller --depth or a later position")
        node = Node(position, move, _value(game, position, budget), searched=searched_here)
        if left == 0 or game.outcome(position) is not None:
            return node
        for child_move in game.moves(position):
            seen = searched_here and (position, child_move) in recorder.played
            node.children.append(grow(game.play(position, child_move),
                                      game.format_move(position, child_move), left - 1, seen))
        return node

    return grow(root, "", depth, True), searched.stats.nodes


def _more_nodes_than(game: Game[Any, Any], root: Any, depth: int, limit: int) -> bool:
    """Whether the tree to ``depth`` plies has more than ``limit`` nodes (a capped walk)."""
    count = 0
    frontier = [(root, depth)]
    while frontier:
        position, left = frontier.pop()
        count += 1
        if count > limit:
            return True
        if left > 0 and game.outcome(position) is None:
            frontier.extend((game.play(position, move), left - 1) for move in game.moves(position))
    return False


def _value(game: Game[Any, Any], position: Any, budget: Budget | None) -> int:
    return solve(game, position, pv_limit=0, engine="python", budget=budget).value


def _colour(value: int, score_game: bool) -> str:
    if value == 0:
        return "hsl(50, 90%, 55%)"
    hue = 130 if value > 0 else 0
    if score_game or not V.is_decisive(value):
        return f"hsl({hue}, 70%, 40%)"
    return f"hsl({hue}, 70%, {min(28 + 5 * V.remoteness(value), 68)}%)"


def _layout(node: Node, next_leaf: list[float]) -> None:
    if not node.children:
        node.x = next_leaf[0]
        next_leaf[0] += LEAF_GAP
        return
    for child in node.children:
        _layout(child, next_leaf)
    node.x = sum(child.x for child in node.children) / len(node.children)


def tree_svg(game: Game[Any, Any], root: Any, depth: int, seconds: float | None = None) -> str:
    """The picture as SVG text. Colours: the value for the player to move at the root (win
    green, draw yellow, loss red; darker when sooner); grey, dashed: pruned by alpha-beta."""
    tree, alphabeta_nodes = build_tree(game, root, depth, seconds)
    _layout(tree, [float(MARGIN)])
    leaves = _count_leaves(tree)
    width = max(2 * MARGIN + leaves * LEAF_GAP, 420)
    height = 2 * MARGIN + depth * LEVEL_GAP + 40
    pruned = _count(tree, lambda node: not node.searched)
    shown = _count(tree, lambda node: True)
    title = (f"{game.name} {game.format_position(root) or '(start)'}: {shown} nodes to depth {depth}"
             f", {pruned} never searched by alpha-beta ({alphabeta_nodes:,} nodes in its "
             "whole search)")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif">',
             f'<rect width="{width}" height="{height}" fill="#fff"/>',
             f'<text x="10" y="20" font-size="13">{escape(title)}</text>',
             '<text x="10" y="36" font-size="11">colour: value for the player to move at the root '
             '(green win, yellow draw, red loss; darker is sooner); grey dashed: pruned by alpha-beta</text>']
    _draw(tree, 0, parts, game.properties.is_score, +1)
    parts.append("</svg>")
    return "\n".join(parts)


def _draw(node: Node, level: int, parts: list[str], score_game: bool, sign: int) -> None:
    y = MARGIN + 20 + level * LEVEL_GAP
    for child in node.children:
        child_y = y + LEVEL_GAP
        style = 'stroke="#555"' if child.searched else 'stroke="#ccc" stroke-dasharray="4 3"'
        parts.append(f'<line x1="{node.x:.1f}" y1="{y}" x2="{child.x:.1f}" y2="{child_y}" {style} '
                     f'class="{"searched" if child.searched else "pruned"}"/>')
        _draw(child, level + 1, parts, score_game, -sign)
    fill = _colour(sign * node.value, score_game) if node.searched else "#ddd"
    described = escape(V.describe(node.value, score_game=score_game))
    parts.append(f'<circle cx="{node.x:.1f}" cy="{y}" r="7" fill="{fill}" stroke="#333" '
                 f'class="node{"" if node.searched else " pruned"}"><title>{escape(node.move or "root")}: '
                 f'{described} for the player to move</title></circle>')
    if node.move:
        parts.append(f'<text x="{node.x:.1f}" y="{y + 20}" font-size="10" text-anchor="middle" '
                     f'fill="{"#222" if node.searched else "#aaa"}">{escape(node.move)}</text>')


def _count_leaves(node: Node) -> int:
    return 1 if not node.children else sum(_count_leaves(child) for child in node.children)


def _count(node: Node, keep: Any) -> int:
    return int(keep(node)) + sum(_count(child, keep) for child in node.children)

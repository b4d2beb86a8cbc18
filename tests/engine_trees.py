"""Small hand-built games for the engine's tests: each position is a node of an explicit tree
with a static evaluation (from the side to move), some moves marked noisy (captures) and an
optional pass. A leaf has one quiet move, "wait", that hands the turn over with the
evaluation negated, so a depth limit is reached at every leaf instead of a lost game."""

from __future__ import annotations

from dataclasses import dataclass, field

from perfectplay.game import Game

Position = tuple[str, bool]  # (node, turned over by waiting)


@dataclass
class Node:
    evaluation: int
    moves: dict[str, str] = field(default_factory=dict)  # move name -> child node
    noisy: tuple[str, ...] = ()
    passed: str | None = None  # the node after a pass (null move), if passing is allowed


class TreeGame(Game[Position, str]):
    name = "tree"

    def __init__(self, nodes: dict[str, Node], root: str = "root",
                 guard: frozenset[str] = frozenset()) -> None:
        self.nodes = nodes
        self.root = root
        self.guard = guard  # nodes where null_move refuses (zugzwang likely)

    def start(self) -> Position:
        return (self.root, False)

    def moves(self, position: Position) -> list[str]:
        node = self.nodes[position[0]]
        return list(node.moves) if node.moves and not position[1] else ["wait"]

    def play(self, position: Position, move: str) -> Position:
        name, turned = position
        if move == "wait":
            return (name, not turned)
        return (self.nodes[name].moves[move], False)

    def evaluate(self, position: Position) -> int:
        value = self.nodes[position[0]].evaluation
        return -value if position[1] else value

    def noisy_moves(self, position: Position) -> list[str]:
        return [] if position[1] else list(self.nodes[position[0]].noisy)

    def null_move(self, position: Position) -> Position | None:
        node = self.nodes[position[0]]
        if position[1] or node.passed is None or position[0] in self.guard:
            return None
        return (node.passed, False)


def horizon_game() -> TreeGame:
    """We may take a pawn (+1) with the queen, but the queen is then recaptured (-8 for us in
    all): one ply past a depth-1 horizon. The quiet alternative keeps material level."""
    return TreeGame({
        "root": Node(0, {"take": "taken", "quiet": "level"}),
        "taken": Node(-1, {"recapture": "lost-queen", "ignore": "pawn-up"}, noisy=("recapture",)),
        "lost-queen": Node(-8),   # we are to move, a queen down for a pawn
        "pawn-up": Node(1),       # we are to move, a pawn up
        "level": Node(0),
    })


def zugzwang_game(guard: bool = False) -> TreeGame:
    """After "squeeze" the opponent must move, and every move lets us cash in two plies later
    (+5 for us); its static evaluation (+3 for it) and a pass (we to move, -3 for us) say it
    stands well. "safe" keeps everything level. The right move is "squeeze"; a null move at
    the squeezed node wrongly says the opponent is fine, unless the game refuses the pass
    there (``guard``) or a verification search deep enough looks at the real moves."""
    return TreeGame({
        "root": Node(0, {"safe": "level", "squeeze": "squeezed"}),
        "level": Node(0),
        "squeezed": Node(3, {"step-1": "threat", "step-2": "threat"}, passed="after-pass"),
        "threat": Node(-2, {"cash": "cashed"}),  # we are to move; the win is one ply away
        "cashed": Node(-5),
        "after-pass": Node(-3),
    }, guard=frozenset({"squeezed"}) if guard else frozenset())

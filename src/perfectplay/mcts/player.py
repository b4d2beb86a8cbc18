"""Monte Carlo tree search as a match player (``perfectplay match GAME --first mcts``): a new
tree for every move, under the match's per-move simulations (``nodes=``) or ``time=``."""

from __future__ import annotations

from typing import Any

from perfectplay.errors import BadOption
from perfectplay.game import Game
from perfectplay.search.limits import Budget, Limits


class MctsPlayer:
    def __init__(self, game: Game[Any, Any], limits: Any, name: str, seed: int | None = None) -> None:
        if limits.nodes is None and limits.time is None:
            raise BadOption("an mcts player needs nodes= (simulations per move) or time= "
                            "(seconds per move); depth means nothing to it")
        self.game = game
        self.limits = Limits(nodes=limits.nodes, time=limits.time)
        self.name = name
        self.seed = seed
        self.nodes = 0  # simulations, summed over the match
        self.depths: list[int] = []
        from perfectplay.mcts.tree import compiled_playouts
        compiled_playouts(game)  # loaded before any move's clock runs, so every move uses them

    def new_game(self) -> None:
        pass

    def choose(self, opening: Any, moves: list[Any], position: Any) -> Any:
        from perfectplay.mcts.tree import Search
        search = Search(self.game, position, Budget(self.limits), seed=self.seed)
        search.run()
        self.nodes += search.counters.simulations
        self.depths.append(search.counters.max_ply)
        ranked = search.ranked()
        return ranked[0].move if ranked else self.game.moves(position)[0]

    def close(self) -> None:
        pass

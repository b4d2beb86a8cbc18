"""A small UCI engine for a built-in game, for testing `perfectplay match` against an
external process: `python uci_stub.py GAME [--illegal]`. Positions come as
`position startpos|fen TEXT [moves ...]` in the game's own notation; `go depth N` (or any go)
answers with perfectplay's engine. With --illegal, or after `setoption name Illegal value
true`, it always answers `bestmove 0`."""

from __future__ import annotations

import sys

from perfectplay import registry
from perfectplay.engine import Engine, SearchLimits


def main() -> None:
    game, start = registry.load(sys.argv[1], {}, None)
    illegal = "--illegal" in sys.argv
    engine = Engine(game)
    position = start
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name stub\nuciok", flush=True)
        elif words[:3] == ["setoption", "name", "Illegal"]:
            illegal = words[-1] == "true"
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            tail = words[words.index("moves") + 1:] if "moves" in words else []
            fen = words[2:words.index("moves")] if "moves" in words else words[2:]
            position = start if words[1] == "startpos" else game.parse_position(" ".join(fen))
            for text in tail:
                position = game.play(position, game.parse_move(position, text))
        elif words[0] == "go":
            depth = int(words[words.index("depth") + 1]) if "depth" in words else 2
            move = engine.search(position, SearchLimits(depth=depth)).best_move
            print(f"bestmove {'0' if illegal else game.format_move(position, move)}", flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()

"""Monte Carlo tree search: UCT with random playouts and the MCTS-Solver (``tree``), and the
solving method ``mcts`` that answers with it (``method``, docs/mcts.md): the player for games
too big to solve that have no evaluation function."""

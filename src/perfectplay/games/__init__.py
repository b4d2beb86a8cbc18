"""The built-in games: one package per game that has more than its rules (connect4, chess,
tictactoe), one module for the others. Each publishes an ``ENTRY`` (perfectplay.entry) through
the entry point group ``perfectplay.games`` in pyproject.toml, the way a third-party game
does, and perfectplay.registry finds them all there."""

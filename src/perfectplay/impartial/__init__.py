"""Impartial games: Grundy values, sums of games, octal and subtraction games.

* :mod:`.grundy` - Grundy values of any game that declares itself impartial, and a check
  that a game's declared components really add up (XOR) to the whole.
* :mod:`.octal` - octal codes, Grundy sequences, periods certified by the Guy-Smith theorem.
* :mod:`.sparse` - the rare/common value method for long octal sequences.
* :mod:`.theory` - solving impartial positions by the Sprague-Grundy theorem instead of search.
"""

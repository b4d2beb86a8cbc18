"""Pictures where people would rather look than read: how the search effort grows with a
game's size (plain recursion exponentially, a memo table linearly), and a game tree with
alpha-beta's pruned branches greyed.

SVG is drawn here with no dependency; PNG needs the ``plot`` extra (matplotlib).
"""

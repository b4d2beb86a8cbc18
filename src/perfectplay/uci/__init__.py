"""The Universal Chess Interface: chess GUIs and python-chess's ``chess.engine`` drive
perfectplay's depth-limited engine (perfectplay.engine) through it (protocol.py)."""

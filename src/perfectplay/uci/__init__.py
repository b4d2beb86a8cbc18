"""The Universal Chess Interface: chess GUIs and python-chess's ``chess.engine`` drive
perfectplay's engine through it (protocol.py). The engine is perfectplay.engine when that
package is present, else the stand-in of standin.py with the same shape."""

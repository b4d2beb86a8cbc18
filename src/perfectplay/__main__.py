"""`python -m perfectplay ...` runs the command-line interface."""

from perfectplay.cli import main

main()

"""`python -m perfectplay` runs the command line."""

from perfectplay.cli import main

main()

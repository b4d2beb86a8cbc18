#!/usr/bin/env bash
# The opponents of the chess strength benchmarks (docs/benchmarks-log.md, "Chess strength"):
#   .venv-sunfish/  sunfish from PyPI in its own virtual environment (it pins an older
#                   python-chess than perfectplay's), UCI as .venv-sunfish/bin/sunfish-uci
#   stockfish       Debian's package, installed with apt-get when missing (needs root);
#                   Debian puts it in /usr/games, which is often not on PATH
# Idempotent: what exists is left alone. Run from anywhere; paths are the checkout's.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
SUNFISH_VERSION="${SUNFISH_VERSION:-2026.1}"

if [ ! -x .venv-sunfish/bin/sunfish-uci ]; then
    "$PYTHON" -m venv .venv-sunfish
    .venv-sunfish/bin/python -m pip install --quiet "sunfish==$SUNFISH_VERSION"
fi
if ! command -v stockfish >/dev/null && [ ! -x /usr/games/stockfish ]; then
    apt-get update
    apt-get install -y stockfish
fi
echo "sunfish:   $PWD/.venv-sunfish/bin/sunfish-uci ($(.venv-sunfish/bin/python -m pip show sunfish | sed -n 's/^Version: //p'))"
echo "stockfish: $(command -v stockfish || echo /usr/games/stockfish)"

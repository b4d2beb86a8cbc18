# The README's two commands: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test bench bench-venvs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[fast,chess,web]"

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	@# The browser tests drive Debian's chromium through Playwright (never `playwright install`).
	@command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium)

run: install
	$(BIN)/perfectplay tour

test: install-test
	@# The kernels compile into numba's cache on the core that lint leaves idle.
	$(BIN)/python tests/warm_kernels.py & warming=$$!; \
	$(BIN)/ruff check src tests benchmarks && $(BIN)/mypy; linted=$$?; \
	wait $$warming && exit $$linted
	@# Two at a time (one per core; a module that shares one costly fixture stays on one
	@# worker by its xdist_group), then the tests that load the machine on purpose, alone.
	$(BIN)/python -m pytest -n 2 --dist loadgroup -m "not serial"
	$(BIN)/python -m pytest -m serial

# Every case of the fuzz harness: every command with every game and every bad input (a few
# thousand commands: 3 min on an idle machine, 12 on a busy one); `make test` runs a seeded
# sample of them.
.PHONY: fuzz
fuzz: install-test
	PERFECTPLAY_FUZZ=full $(BIN)/python -m pytest tests/test_fuzz_cli.py

bench: install-test
	$(BIN)/python benchmarks/seeds.py
	$(BIN)/python benchmarks/impartial.py
	$(BIN)/python benchmarks/crates.py
	$(BIN)/python benchmarks/play_levels.py

# The chess benchmarks' opponents: sunfish in .venv-sunfish, Debian's stockfish.
bench-venvs:
	bash benchmarks/setup_opponents.sh

clean:
	rm -rf $(VENV) .venv-sunfish build src/*.egg-info

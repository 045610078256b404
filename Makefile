# The two commands of the README: `make play` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# Extras the whole test suite needs.
TEST_EXTRAS := dev,arena,ray,rl,rl-train,server,fast
# Stamps: keltis is installed (editable, so source changes need no reinstall) once, and again
# only when pyproject.toml (dependencies, the command) or this file changes.
INSTALLED := $(VENV)/.installed
INSTALLED_TEST := $(VENV)/.installed-test
# The install compiles the hot modules with mypyc (setup.py; docs/performance.md); they are
# compiled again when their sources change (keltis runs pure Python, not stale compiled code).
COMPILED := $(VENV)/.compiled
# (keltis._native.COMPILED lists the modules; a test checks this list against it.)
NATIVE_SOURCES := setup.py src/keltis/_native.py \
	$(patsubst %,src/keltis/core/%.py,actions cards scoring setup gamestate) \
	$(patsubst %,src/keltis/board/%.py,layout state setup sample) \
	$(patsubst %,src/keltis/cards/%.py,state setup sample) \
	$(patsubst %,src/keltis/bots/%.py,policies board_policy cards_policy)
# The rules tests, run a second time against the pure-Python modules (KELTIS_PURE_PYTHON=1).
PURE_TESTS := tests/board tests/cards tests/core tests/test_native.py

.PHONY: play test install install-test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(INSTALLED): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@touch $@ $(COMPILED)

$(INSTALLED_TEST): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(TEST_EXTRAS)]'
	@touch $@ $(INSTALLED) $(COMPILED)

$(COMPILED): $(NATIVE_SOURCES) | $(INSTALLED)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $@

install: $(INSTALLED) $(COMPILED)

install-test: $(INSTALLED_TEST)

# A person playing: keltis in .venv, then a game against two bots in the terminal.
# On a terminal the game runs as a job of its own (bash -m: its own process group, given the
# terminal), so Ctrl-C reaches the game alone: it saves, says how to go on, and make ends
# quietly instead of reporting "Interrupt" or "Error 130".
play: $(INSTALLED)
	@if [ -t 0 ] && command -v bash >/dev/null; then \
		bash -mc '"$$0" play "$$@" || [ $$? -eq 130 ]' $(BIN)/keltis $(ARGS); \
	else \
		$(BIN)/keltis play $(ARGS); \
	fi

# Everything: unit, rule, property and golden tests, ruff and mypy --strict.
test: install-test $(COMPILED)
	$(BIN)/python -m pytest -n auto $(ARGS)
	KELTIS_PURE_PYTHON=1 $(BIN)/python -m pytest -n auto $(PURE_TESTS)

lint: install-test
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples
	$(BIN)/mypy

bench: $(INSTALLED)
	$(BIN)/python benchmarks/speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

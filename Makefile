# The two commands of the README: `make play` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# Extras the whole test suite needs.
TEST_EXTRAS := dev,arena,ray

.PHONY: play test install install-test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# A person playing: install keltis in .venv, then a game against two bots in the terminal.
play: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/keltis play $(ARGS)

install-test: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[$(TEST_EXTRAS)]'

# Everything: unit, rule, property and golden tests, ruff and mypy --strict.
test: install-test
	$(BIN)/python -m pytest -n auto $(ARGS)

lint: install-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

bench: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python benchmarks/speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

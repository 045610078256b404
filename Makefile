# The two commands of the README: `make play` and `make test` (and `make check`, the fast lane
# while working: docs/testing.md).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# Extras the whole test suite needs.
TEST_EXTRAS := dev,arena,ray,rl,rl-train,server,fast,tune,jax,web-test
# Stamps: keltis is installed (editable, so source changes need no reinstall) once, and again
# only when pyproject.toml (dependencies, the command) or this file changes.
INSTALLED := $(VENV)/.installed
INSTALLED_SERVER := $(VENV)/.installed-server
INSTALLED_TEST := $(VENV)/.installed-test
# The browser client's tools (web/: TypeScript, Vite, axe-core for the tests), installed by
# `npm ci` again only when its lock file changes; `make test` installs them where npm is.
WEB_TOOLS := web/node_modules/.keltis-installed
NPM := $(shell command -v npm)
TEST_WEB_TOOLS := $(if $(and $(NPM),$(wildcard web/package-lock.json)),$(WEB_TOOLS))
# Playwright (tests/web) drives Debian's Chromium: never a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1
# The install compiles the hot modules with mypyc (setup.py; docs/performance.md); they are
# compiled again when their sources change (keltis runs pure Python, not stale compiled code).
COMPILED := $(VENV)/.compiled
# Every install runs pip verbose under tools/install_progress.py: pip's whole output goes to
# .venv/install.log, the terminal gets each step and, while the C compiler works for a
# minute or more without a word, a line at least every 8 seconds.
PROGRESS := $(BIN)/python tools/install_progress.py $(VENV)/install.log
# (keltis._native.COMPILED lists the modules; a test checks this list against it.)
NATIVE_SOURCES := setup.py src/keltis/_native.py \
	$(patsubst %,src/keltis/core/%.py,actions card_codes scoring setup gamestate policy) \
	$(patsubst %,src/keltis/board/%.py,layout tables state setup sample policy) \
	$(patsubst %,src/keltis/cards/%.py,tables state setup sample policy) \
	src/keltis/match.py
# The rules tests, run a second time against the pure-Python modules (KELTIS_PURE_PYTHON=1);
# their `engine_free` tests (tests/test_native.py's subprocess games, …) run in the first pass only.
PURE_TESTS := tests/board tests/cards tests/core tests/test_native.py tests/test_match.py
# `make check`: every test but these markers' (pyproject.toml; docs/testing.md).
CHECK_MARKERS := not slow and not browser and not postgres and not ray and not train

.PHONY: play test check install install-test lint bench clean web

$(BIN)/python:
	@echo "Setting up keltis in $(VENV): the first time takes 2 to 5 minutes, more on a busy"
	@echo "machine (a Python environment, the packages keltis needs, and its game engine"
	@echo "compiled to C, the longest step); each step is said as it begins, pip's whole log"
	@echo "is $(VENV)/install.log."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(INSTALLED): pyproject.toml Makefile | $(BIN)/python
	@echo "Installing keltis and compiling its engine (2 to 5 minutes)…"
	@$(PROGRESS) -- $(BIN)/python -m pip install -v -e .
	@touch $@ $(COMPILED)

$(INSTALLED_SERVER): pyproject.toml Makefile | $(BIN)/python
	@echo "Installing keltis with its game server and compiling its engine (2 to 5 minutes)…"
	@$(PROGRESS) -- $(BIN)/python -m pip install -v -e '.[server]'
	@touch $@ $(INSTALLED) $(COMPILED)

$(INSTALLED_TEST): pyproject.toml Makefile | $(BIN)/python
	@$(PROGRESS) -- $(BIN)/python -m pip install -v -e '.[$(TEST_EXTRAS)]'
	@touch $@ $(INSTALLED) $(INSTALLED_SERVER) $(COMPILED)

$(WEB_TOOLS): web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	@touch $@

$(COMPILED): $(NATIVE_SOURCES) | $(INSTALLED)
	@echo "The engine's sources changed: compiling it again (1 to 3 minutes)…"
	@$(PROGRESS) -- $(BIN)/python -m pip install -v --no-deps -e .
	@touch $@

install: $(INSTALLED) $(COMPILED)

install-test: $(INSTALLED_TEST)

# A person playing: keltis with its server in .venv, then the game server, and the start page
# in the browser (the address is printed, for where no browser opens); only warnings are
# logged (ARGS="--log-level info" shows every request). The terminal game is
# `.venv/bin/keltis play`. On a terminal the server runs as a job of its own (bash -m: its
# own process group, given the terminal), so Ctrl-C reaches the server (and its bot workers)
# alone: it stops cleanly, and make ends quietly instead of reporting "Interrupt" or
# "Error 130".
play: $(INSTALLED_SERVER)
	@if [ -t 0 ] && command -v bash >/dev/null; then \
		bash -mc '"$$0" serve --open --log-level warning "$$@" || [ $$? -eq 130 ]' \
			$(BIN)/keltis $(ARGS); \
	else \
		$(BIN)/keltis serve --open --log-level warning $(ARGS); \
	fi

# The browser client, built into the package (src/keltis/server/static, committed: pip users
# need no Node) from web/ with its locked tools.
web: $(WEB_TOOLS)
	cd web && npm run build

# Everything: unit, rule, property and golden tests, ruff and mypy --strict.
test: install-test $(COMPILED) $(TEST_WEB_TOOLS)
	$(BIN)/python -m pytest -n auto $(ARGS)
	KELTIS_PURE_PYTHON=1 $(BIN)/python -m pytest -n auto $(PURE_TESTS)

# The fast lane: rules, wire and unit tests, ruff and mypy, without the slow, browser,
# PostgreSQL, Ray and training tests; `make test` (and .ci/run) stays the whole suite. Like
# `make test` it compiles the engine again after an edit to a compiled module (a minute or
# two; the searches' tests would take far longer in pure Python).
check: install-test $(COMPILED) $(TEST_WEB_TOOLS)
	$(BIN)/python -m pytest -n auto -m "$(CHECK_MARKERS)" $(ARGS)

lint: install-test
	$(BIN)/ruff check src tests benchmarks examples tools
	$(BIN)/ruff format --check src tests benchmarks examples tools
	$(BIN)/mypy

bench: $(INSTALLED)
	$(BIN)/python benchmarks/speed.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

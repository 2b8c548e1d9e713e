# The project's vocabulary: book, play, test, test-integrations, test-big, test-exports, test-packages, lint, bench, fuzz, web, test-browser, poster.
# Every target creates what it needs, starting with its own virtual environment in .venv:
# playing installs the package alone (click); building the book adds numpy and orjson (the
# build extra); testing adds the test and lint tools.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
RUNTIME := $(VENV)/.installed-runtime
BUILDTOOLS := $(VENV)/.installed-build
STAMP   := $(VENV)/.installed-dev
BENCHTOOLS := $(VENV)/.installed-bench
# Byte-compile on install and keep it: the player's start-up is measured (docs/benchmarks.md).
export PYTHONDONTWRITEBYTECODE :=

.PHONY: venv book play test test-integrations test-big test-exports test-packages test-python test-js lint format bench bench-record fuzz web test-browser poster clean

$(RUNTIME): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q player generator
	touch $(RUNTIME)

$(BUILDTOOLS): $(RUNTIME)
	$(BIN)/python -m pip install --quiet -e ".[build]"
	touch $(BUILDTOOLS)

$(STAMP): $(BUILDTOOLS)
	$(BIN)/python -m pip install --quiet -e ".[test,dev,build,cluster]"
	touch $(STAMP)

# make bench: the build extra and the build backend pyproject.toml names (the bench builds the
# wheel without the network), not the test and lint tools; nothing reinstalled once there.
$(BENCHTOOLS): $(BUILDTOOLS)
	$(BIN)/python -m pip install --quiet $$($(BIN)/python -c "import tomllib; print(*tomllib.load(open('pyproject.toml', 'rb'))['build-system']['requires'])")
	touch $(BENCHTOOLS)

venv: $(STAMP)

book: $(BUILDTOOLS)
	$(BIN)/ttt-book build
	$(BIN)/ttt-book build --rules 3x3:3 --misere -o book/tictactoe-misere.json --vectors book/tictactoe-misere.vectors.json
	$(BIN)/ttt-book build --against random -o book/tictactoe-vs-random.json --vectors book/tictactoe-vs-random.vectors.json
	$(BIN)/ttt-book build --against random --misere -o book/tictactoe-misere-vs-random.json --vectors book/tictactoe-misere-vs-random.vectors.json
	$(BIN)/python tests/book_vectors.py
	$(BIN)/python tests/parts_vectors.py
	$(BIN)/python -m tictactoe_generator.packaged book

play: $(RUNTIME)
	$(BIN)/ttt-play

# The posters of the book's play and the teaching figure (docs/posters/, committed; a test
# fails when they are stale).
poster: $(RUNTIME)
	$(BIN)/ttt-book poster --side X -o docs/posters/x.svg
	$(BIN)/ttt-book poster --side O -o docs/posters/o.svg
	$(BIN)/ttt-book poster --teaching -o docs/posters/teaching.svg

# The three at once, each one's output printed whole as it ends: node's tests (one process, about
# 12 s) run beside pytest's two workers, filling a core whenever a worker waits on a process,
# instead of after them.
test:
	@$(MAKE) --no-print-directory --jobs=3 --output-sync=target lint test-python test-js

# pytest-xdist workers (the tests are independent of each other): one more than the cores, since
# many tests wait on a process or a terminal (docs/benchmarks.md, "The test suite's time");
# WORKERS=auto for one per core.
WORKERS ?= $(shell echo $$(( $$(nproc) + 1 )))
test-python: $(STAMP)
	$(BIN)/python -m pytest -n $(WORKERS) -m "not big and not integrations and not exports and not packages"

# The adapters' extras (open_spiel, pettingzoo) into the same environment, then their tests.
test-integrations: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[openspiel,pettingzoo]"
	$(BIN)/python -m pytest -m integrations

test-big: $(STAMP)
	$(BIN)/python -m pytest -m big

# The book exported as C and Rust (ttt-book export), compiled with gcc (strict, and under
# AddressSanitizer and UBSan) and rustc, run against every board vector; the strategy tables
# played against every opposing line through the compiled C; the game state and the levels of
# both (tests/test_export_game.py: C89, C99, C++, 10,000 games a level, the crate's cargo test,
# the Rust Position against Python's); seeds 1 to 100 play Python's games at every level
# (tests/test_seeded_games.py, whose JavaScript and engine half make test runs); the exports
# built by avr-gcc for an ATmega328P and run in simavr (tests/test_export_avr.py). Needs gcc, g++, size, rustc and cargo on PATH (no crate is
# downloaded); installs Debian's gcc-avr, avr-libc and simavr when missing and run as root
# (tests/exports/setup-avr.sh; otherwise the AVR tests skip, saying so).
test-exports: $(STAMP)
	bash tests/exports/setup-avr.sh
	$(BIN)/python -m pytest -m exports

# What a game developer installs, built and used away from the repository (tests/test_packages.py):
# the npm package packed and installed into a fresh project (a Node game, tsc, a page with an
# import map in Chromium, the README's recipes for Vite, esbuild and webpack built and run), the
# sdist and the wheel built by `python -m build` and checked by twine, the wheel in a fresh
# virtual environment (ttt-play, ttt-book, the README's snippet, the single headers it exports
# compiled from two C files each) and in another with its extras (examples/). Installs build and
# twine, OpenSpiel and PettingZoo from PyPI, TypeScript and the bundlers from npm and Chromium
# from Debian (web/setup-browser.sh); needs npm and gcc. Its projects, environments and builds go
# under one temporary folder, removed at the end.
test-packages: $(STAMP)
	bash web/setup-browser.sh $(BIN)
	$(BIN)/python -m pip install --quiet -e ".[dist]"
	temporary=$$(mktemp -d -t ttt-packages.XXXXXX); \
	$(BIN)/python -m pytest -p no:cacheprovider -m packages --basetemp "$$temporary/pytest"; \
	status=$$?; rm -rf "$$temporary"; exit $$status

# node's own tests (the reader's in clients/js/, the page's in web/): a dot for each test as it
# passes, every failure in full at the end, then one line of counts (tests/node_summary.mjs), not
# node's default of some 900 lines of TAP.
JS_TESTS ?= clients/js/ web/
test-js:
	node --test --test-reporter=dot --test-reporter-destination=stdout \
		--test-reporter=./tests/node_summary.mjs --test-reporter-destination=stdout $(JS_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check player generator tests bench examples web/test_browser.py web/serve.py
	$(BIN)/ruff format --check player generator tests bench examples web/test_browser.py web/serve.py
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format player generator tests bench web/test_browser.py
	$(BIN)/ruff check --fix player generator tests bench web/test_browser.py

# Says each measurement as it starts, prints the figures and writes them to bench/results.json
# (untracked); bench-record also rewrites the recorded run in docs/benchmarks.md.
bench: $(BENCHTOOLS)
	$(BIN)/python -m compileall -q player generator
	$(BIN)/python bench/run.py

bench-record: $(BENCHTOOLS)
	$(BIN)/python -m compileall -q player generator
	$(BIN)/python bench/run.py --record

fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest -m fuzz tests

# The page and the book only (not the repository), on port 8000 or a free one; standard library only.
# BOOK=FILE serves a book of your own too (BOOK=FOLDER: a book by parts) and prints the page's address with ?book= filled in.
web:
	$(PYTHON) web/serve.py $(if $(BOOK),--book "$(BOOK)")

# npm ci installs the test-only axe-core (web/package.json) into web/node_modules.
test-browser: $(STAMP)
	bash web/setup-browser.sh $(BIN)
	npm ci --prefix web --no-audit --no-fund --loglevel=error
	$(BIN)/python -m pytest -p no:cacheprovider web/test_browser.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis

# The same commands locally and in CI. Everything runs from a project-local virtualenv (.venv).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check bench lab fit setup native system-deps clean

$(STAMP): pyproject.toml requirements-dev.txt setup.py ulti/bots/solver/_dd.pyx
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip
	$(BIN)/pip install -q -r requirements-dev.txt
	$(BIN)/pip install -q -e '.[server]'
	touch $(STAMP)

setup: $(STAMP)

## native: the server's hot modules compiled by mypyc into build/native, used where ULTI_NATIVE=1 (ulti/native.py)
NATIVE := build/native/manifest.json
$(NATIVE): $(STAMP) scripts/build_native.py $(wildcard ulti/engine/*.py ulti/server/*.py ulti/native.py)
	$(BIN)/python scripts/build_native.py

native: $(NATIVE)

## system-deps: Debian packages the tests need (Chromium, PostgreSQL, Redis)
system-deps:
	bash scripts/system-deps.sh

## run: set up and serve the game on http://127.0.0.1:8000 (SQLite under ./data, bots ready)
run: $(STAMP) $(NATIVE)
	ULTI_NATIVE=1 $(BIN)/ulti serve --host 127.0.0.1 --port 8000 --db sqlite+aiosqlite:///data/ulti.db

## test: set up and run every test (browser tests included): first the engine's tests and the examples of
## its docstrings, which fail under the engine's line-coverage floor ([tool.coverage.report] fail_under),
## then all the others (the packaging and stand-alone test among them)
test: $(STAMP) $(NATIVE) system-deps
	$(BIN)/pytest -q --cov --cov-report=term tests/engine ulti/engine
	ULTI_NATIVE=1 $(BIN)/pytest -q --ignore=tests/engine --ignore=ulti/engine

## check: lint and type-check (ruff on all the code, examples included; mypy strict on ulti, tests and benchmarks)
check: $(STAMP)
	$(BIN)/ruff check ulti tests benchmarks examples scripts conftest.py
	$(BIN)/mypy ulti tests benchmarks scripts/build_native.py conftest.py
	$(BIN)/lint-imports

## bench: speed and load (medians and ratios against a baseline run in the same process): engine, views, an accepted action applied once, the command path in process (beside fe2399b's, built from git), server load on 1 and 3 processes (and the server's CPU per action by part), floods, long work beside strong bots and people, people against two bots each (capacity), bad input, solver, bots' decision times (and beside the bots of fca854b, built from git), deal analysis and hint, puzzles cut per CPU-minute and the shipped set's survey, account (Argon2id login), player page, duplicate event, bot API, tournament seating (3,000 and 300 players) and standings
bench: export ULTI_NATIVE := 1
bench: $(STAMP) $(NATIVE)
	$(BIN)/python -m benchmarks.engine_bench
	$(BIN)/python -m benchmarks.view_bench
	$(BIN)/python -m benchmarks.act_once_bench
	$(BIN)/python -m benchmarks.command_path_bench fe2399b
	$(BIN)/python -m benchmarks.load_bench --tables 50 200 --seconds 20
	$(BIN)/python -m benchmarks.load_bench --tables 200 --seconds 20 --processes 1 3
	$(BIN)/python -m benchmarks.load_bench --tables 50 --seconds 15 --think 0 --processes 0 --rounds 5 --parts
	$(BIN)/python -m benchmarks.load_bench --tables 50 --seconds 15 --think 0 --processes 1 3
	$(BIN)/python -m benchmarks.flood_bench --rounds 3 --seconds 10
	$(BIN)/python -m benchmarks.work_bench --rounds 2 --seconds 20
	$(BIN)/python -m benchmarks.capacity_bench
	$(BIN)/python -m benchmarks.bot_queue_bench --level strong --turns 40
	$(BIN)/python -m benchmarks.bad_input_bench --messages 100000 --rounds 3
	$(BIN)/python -m benchmarks.solver_bench
	$(BIN)/python -m benchmarks.bot_bench
	$(BIN)/python -m benchmarks.bot_bench --against fca854b
	$(BIN)/python -m benchmarks.analysis_bench
	$(BIN)/python -m benchmarks.puzzle_bench
	$(BIN)/python -m benchmarks.puzzle_bench --survey
	$(BIN)/python -m benchmarks.account_bench
	$(BIN)/python -m benchmarks.player_bench
	$(BIN)/python -m benchmarks.event_bench --tables 20
	$(BIN)/python -m benchmarks.botapi_bench --seconds 20
	$(BIN)/python -m benchmarks.tournament_bench --server

## lab: the bots' strength research (ulti/lab; rows of docs/lab-journal.md): the expert's evidence, where its worlds place the unseen cards, card decisions priced against the true deal, what seeing every card would win in card play, the auction's estimates against declarations played out (double-dummy and by play-outs)
lab: $(STAMP)
	$(BIN)/python -m ulti.lab.evidence --deals 100
	$(BIN)/python -m ulti.lab.location --deals 30 --levels strong expert-blindtalon expert
	$(BIN)/python -m ulti.lab.regret --deals 60
	$(BIN)/python -m ulti.lab.clairvoyance --deals 200
	$(BIN)/python -m ulti.lab.playout_values --deals 100
	$(BIN)/python -m ulti.lab.declarations --deals 60

## fit: refit the bots' models from their own play and print the fit (add --write to a command to store it)
fit: $(STAMP)
	$(BIN)/python -m ulti.lab.declarer_fit --deals 3000 --seed 1 --negatives 8
	$(BIN)/python -m ulti.lab.discard_fit --deals 150

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

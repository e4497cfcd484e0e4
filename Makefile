# The same commands locally and in CI. Everything runs from a project-local virtualenv (.venv).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check bench setup system-deps clean

$(STAMP): pyproject.toml requirements-dev.txt setup.py ulti/bots/solver/_dd.pyx
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -U pip
	$(BIN)/pip install -q -r requirements-dev.txt
	$(BIN)/pip install -q -e '.[server]'
	touch $(STAMP)

setup: $(STAMP)

## system-deps: Debian packages the tests need (Chromium, PostgreSQL, Redis)
system-deps:
	bash scripts/system-deps.sh

## run: set up and serve the game on http://127.0.0.1:8000 (SQLite under ./data, bots ready)
run: $(STAMP)
	$(BIN)/ulti serve --host 127.0.0.1 --port 8000 --db sqlite+aiosqlite:///data/ulti.db

## test: set up and run every test (browser tests included): first the engine's tests and the examples of
## its docstrings, which fail under the engine's line-coverage floor ([tool.coverage.report] fail_under),
## then all the others (the packaging and stand-alone test among them)
test: $(STAMP) system-deps
	$(BIN)/pytest -q --cov --cov-report=term tests/engine ulti/engine
	$(BIN)/pytest -q --ignore=tests/engine --ignore=ulti/engine

## check: lint and type-check (ruff on all the code, examples included; mypy strict on ulti, tests and benchmarks)
check: $(STAMP)
	$(BIN)/ruff check ulti tests benchmarks examples
	$(BIN)/mypy ulti tests benchmarks
	$(BIN)/lint-imports

## bench: engine, solver, bot (strong and expert decision times, the expert's evidence, where its worlds place the unseen cards, card decisions priced against the true deal, what seeing every card would win in card play, the auction's estimates against declarations played out, the discard model's fit), deal analysis and hint, server (floods; long work beside strong bots and people), account (Argon2id login), player page and duplicate event figures (medians and ratios; load runs on 1 and 3 processes)
bench: $(STAMP)
	$(BIN)/python -m benchmarks.engine_bench
	$(BIN)/python -m benchmarks.view_bench
	$(BIN)/python -m benchmarks.load_bench --tables 50 200 --seconds 20
	$(BIN)/python -m benchmarks.load_bench --tables 200 --seconds 20 --processes 1 3
	$(BIN)/python -m benchmarks.load_bench --tables 50 --seconds 15 --think 0 --processes 0 --rounds 3
	$(BIN)/python -m benchmarks.load_bench --tables 50 --seconds 15 --think 0 --processes 1 3
	$(BIN)/python -m benchmarks.flood_bench --rounds 3 --seconds 10
	$(BIN)/python -m benchmarks.work_bench --rounds 2 --seconds 20
	$(BIN)/python -m benchmarks.bad_input_bench --messages 100000 --rounds 3
	$(BIN)/python -m benchmarks.solver_bench
	$(BIN)/python -m benchmarks.bot_bench
	$(BIN)/python -m benchmarks.evidence_bench --deals 100
	$(BIN)/python -m benchmarks.location_bench --deals 30 --levels strong expert-blindtalon expert
	$(BIN)/python -m benchmarks.regret_bench --deals 60
	$(BIN)/python -m benchmarks.clairvoyance_bench --deals 200
	$(BIN)/python -m benchmarks.declaration_bench --deals 60
	$(BIN)/python -m benchmarks.discard_fit --deals 150
	$(BIN)/python -m benchmarks.analysis_bench
	$(BIN)/python -m benchmarks.account_bench
	$(BIN)/python -m benchmarks.player_bench
	$(BIN)/python -m benchmarks.event_bench --tables 20
	$(BIN)/python -m benchmarks.botapi_bench --seconds 20

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache

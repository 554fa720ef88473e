# Set-up and everyday commands.  `make run` serves the app, `make test` runs everything.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000

# The first interpreter that really runs and is Python >= 3.12 (pyenv shims that
# only print "command not found" are skipped because they fail the version check).
PYTHON ?= $(shell for p in python3.13 python3.12 python3 \
		$$(ls -d /root/.pyenv/versions/3.1[3-9]*/bin/python3 2>/dev/null | sort -rV) \
		$$(ls -d /root/.pyenv/versions/3.12*/bin/python3 2>/dev/null | sort -rV); do \
	if "$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then \
		command -v "$$p" 2>/dev/null || echo "$$p"; break; fi; done)

PO_FILES := $(wildcard locale/*/LC_MESSAGES/django.po)
MO_FILES := $(PO_FILES:.po=.mo)

.PHONY: help venv install run test test-postgres lint bench cases schema messages compilemessages clean simulate-check hostile-check compiled clean-compiled

help:
	@echo "make run     set up .venv, migrate, serve at http://$(HOST):$(PORT)/ (DEBUG on)"
	@echo "make test    set up .venv, run pytest (incl. browser tests), ruff, mypy"
	@echo "make test-postgres   the pytest suite against a throwaway PostgreSQL on loopback"
	@echo "make lint    ruff check, mypy --strict on checker/engine and checker/play, mypy on checker"
	@echo "make cases   run the YAML case suite (manage.py runcases)"
	@echo "make schema  regenerate cases/case.schema.json from the case-kind records"
	@echo "make bench   engine benchmark (manage.py bench) and web benchmark (benchweb)"
	@echo "make compiled        optional: compile the engine's hot modules with mypyc (make clean-compiled)"

$(VPY):
	@if [ -z "$(PYTHON)" ]; then \
		echo "error: Python >= 3.12 is required (Django 6) but none was found." >&2; \
		echo "       Install python3.12 or newer, or run: make PYTHON=/path/to/python3.12" >&2; \
		exit 1; fi
	@echo "Creating $(VENV) with $(PYTHON)"
	"$(PYTHON)" -m venv $(VENV)

$(STAMP): pyproject.toml | $(VPY)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

venv install: $(STAMP)

# Compiled catalogs are committed; rebuild them when msgfmt is available.
compilemessages: $(STAMP)
	@if command -v msgfmt >/dev/null 2>&1; then \
		$(VPY) manage.py compilemessages --ignore=.venv -v 0; \
	else echo "msgfmt not found: using the committed .mo catalogs"; fi

messages: $(STAMP)
	$(VPY) manage.py makemessages -l en --ignore=.venv --ignore=checker/engine --no-obsolete
	$(MAKE) compilemessages

run: $(STAMP) compilemessages
	DJANGO_DEBUG=1 $(VPY) manage.py migrate --noinput -v 0
	DJANGO_DEBUG=1 $(VPY) manage.py runserver $(HOST):$(PORT)

# pytest runs last so that its summary is the closing line of the run: the tests but the
# browser's in TEST_WORKERS processes (pytest-xdist, a test module to a process), then the
# browser tests in BROWSER_WORKERS (each process drives its own chromium and live server). A compiled engine in the
# tree (make compiled) is rebuilt first if any engine source changed, then tested as it is.
TEST_WORKERS ?= 2
BROWSER_WORKERS ?= 2
test: $(STAMP) compilemessages
	@if [ -e $(COMPILED_STAMP) ]; then $(MAKE) compiled; fi
	$(MAKE) lint
	$(MAKE) simulate-check
	$(MAKE) hostile-check
	$(VPY) -m pytest -m "not browser" -n $(TEST_WORKERS) --dist loadfile
	$(VPY) -m pytest -m browser -n $(BROWSER_WORKERS) --dist loadfile

# The suite again (browser tests aside: they share the database code paths already run here)
# against a throwaway PostgreSQL server on loopback, as production uses (.ci/with-postgres).
test-postgres: $(STAMP) compilemessages
	.ci/with-postgres $(VPY) -m pytest -m "not browser" -p no:cacheprovider

# 1000 seeded random rounds and 100 seeded whole matches of every ruleset: zero illegal plays
# and no invariant breaks (levels by the rules' steps, one winning side, chips summing to zero).
simulate-check: $(STAMP)
	@set -o pipefail; for r in $$($(VPY) -c 'from checker.engine.ruleset import ruleset_names; print(*ruleset_names())'); do \
		$(VPY) manage.py simulate --ruleset $$r --rounds 1000 --seed 1 --no-store --no-progress \
			| grep -E '^(ruleset|illegal plays|invariant breaks|time)' || exit 1; \
		$(VPY) manage.py simulate --ruleset $$r --matches 100 --seed 1 --jobs 2 --no-store --no-progress \
			| grep -E '^(matches|rounds per match|illegal plays|invariant breaks|time)' || exit 1; \
	done

# Hostile requests against live games on a throwaway production-like server on loopback
# (gunicorn, a fresh SQLite database): bounded in requests and time; any 5xx fails.
hostile-check: $(STAMP)
	.ci/with-server $(VPY) $(VPY) manage.py hostilehttp --games 3 --requests 600 --seconds 60 --threads 4

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict checker/engine checker/play
	$(VENV)/bin/mypy checker

bench: $(STAMP)
	$(VPY) manage.py bench
	$(VPY) manage.py benchweb

cases: $(STAMP)
	$(VPY) manage.py runcases

# cases/case.schema.json is generated from the case-kind records (checker/suite/registry.py).
schema: $(STAMP)
	$(VPY) manage.py caseschema

# The optional compiled engine (docs/benchmarks.md): mypyc compiles the hot modules listed in
# checker/perf/compiled.py into extension files next to their sources, which Python then
# imports instead (gcc and the Python headers needed; mypy and setuptools come with the dev
# extras). Without them the pure-Python engine runs, as by default.
COMPILED_STAMP := checker/engine/.compiled.json

compiled: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) $(wildcard checker/engine/*.py) checker/perf/compiled.py
	$(VPY) -m checker.perf.compiled build

clean-compiled:
	rm -rf build $(COMPILED_STAMP) checker/engine/*.so

clean: clean-compiled
	rm -rf $(VENV) staticfiles screenshots .pytest_cache .mypy_cache .ruff_cache

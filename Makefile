# Two commands for a fresh clone: `make run` and `make test` (see README).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000
PYTEST_ARGS ?=

.PHONY: native run test test-browser mutate bench bench-network bench-scale loadtest loadtest-live loadtest-streams lint format check-deploy check-messages demo migrate clean

$(VENV)/.created:
	@python=$$(bin/find-python) && echo "Creating $(VENV) with $$python" && "$$python" -m venv $(VENV)
	@$(PY) -m pip install --quiet --upgrade pip
	@touch $@

$(VENV)/.runtime: $(VENV)/.created requirements.txt
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $@

# The rating rebuild's hot loop in C (games/ratings/_native.c), built for the venv's Python when
# a C compiler is there (bin/build-native); without one the rebuild runs in pure Python.
native: $(VENV)/.created
	@bin/build-native $(PY)

migrate: $(VENV)/.runtime native
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: demo
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

test: $(VENV)/.dev native
	$(PY) -m pytest -n auto $(PYTEST_ARGS)

# axe-core (package.json, pinned in package-lock.json): the browser tests' accessibility check.
node_modules/.installed: package.json package-lock.json
	@command -v npm >/dev/null || { echo "The browser tests need npm (Node.js) for axe-core" >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test-browser: $(VENV)/.dev node_modules/.installed
	@command -v chromium >/dev/null || [ -x /usr/bin/chromium ] || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else echo "Browser tests need Chromium: sudo apt-get install chromium" >&2; exit 1; fi; }
	$(PY) -m pytest -m browser $(or $(TESTS),tests/browser) $(PYTEST_ARGS)

# Mutation run: the kill rate per area and its survivors (docs/testing.md). A sample of SAMPLE
# mutants per area (0: all of them); AREA= one of referee services stats ratings live ui views
# access, or empty for every area.
AREA ?=
SAMPLE ?= 60
mutate: $(VENV)/.dev
	$(PY) tools/mutate.py --sample $(SAMPLE) $(AREA)

bench: $(VENV)/.dev native
	$(PY) benchmarks/run.py

# The play page on a phone on emulated Fast 3G, in Chromium (issue 28); make bench runs it too.
# BENCH_NETWORK_ARGS="--games punto --details", or "--root ../other-checkout" to measure that one.
bench-network: $(VENV)/.dev
	$(PY) benchmarks/bench_network.py $(BENCH_NETWORK_ARGS)

# 10k, 100k and 1M plays on SQLite and PostgreSQL: tens of minutes (BENCH_SCALE_ARGS to narrow).
bench-scale: $(VENV)/.dev native
	$(PY) benchmarks/bench_scale.py $(BENCH_SCALE_ARGS)

loadtest: $(VENV)/.dev native
	timeout 120 $(PY) benchmarks/loadtest.py

# The live pages: move-to-screen latency across two uvicorn processes, idle streams, entry.
# LIVE_DEPTH=N: the tables start N moves into a long Punto match; LIVE_PACE, LIVE_PUSH: benchmarks/live.py.
loadtest-live: $(VENV)/.dev
	timeout 600 $(PY) benchmarks/live.py

# Many idle streams in one process (issue 29): a watcher still hears of a move at once.
loadtest-streams: $(VENV)/.dev
	timeout 1500 $(PY) benchmarks/streams.py

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

check-deploy: $(VENV)/.runtime
	DEBUG=0 SECRET_KEY=ci-check-deploy-$$(head -c 32 /dev/urandom | base64 | tr -dc 'a-zA-Z0-9') \
	ALLOWED_HOSTS=referee.example.org $(PY) manage.py check --deploy --fail-level WARNING

# The French catalogue says what the code says, every string translated, and is compiled as
# committed. Its line numbers (#: lines) may lag: code that moves is no new string.
PO := locale/fr/LC_MESSAGES/django.po
check-messages: $(VENV)/.runtime
	@command -v xgettext >/dev/null && command -v msgfmt >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq gettext; \
	  else echo "The catalogue check needs gettext: sudo apt-get install gettext" >&2; exit 1; fi; }
	@dated=$$(grep -m1 '^"POT-Creation-Date: ' $(PO) | sed 's/[\\&/]/\\&/g') && \
	  $(PY) manage.py makemessages -l fr >/dev/null && \
	  sed -i "s/^\"POT-Creation-Date: .*/$$dated/" $(PO)
	@$(PY) manage.py compilemessages -l fr >/dev/null
	@git diff --exit-code -I '^#: ' -- locale || { \
	  echo "locale/ is not what makemessages -l fr and compilemessages make of the code" >&2; \
	  exit 1; }
	@counts=$$(LC_ALL=C msgfmt --statistics -o /dev/null $(PO) 2>&1 | tail -n1); \
	  case "$$counts" in *fuzzy*|*untranslated*) echo "$(PO): $$counts" >&2; exit 1;; esac

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .hypothesis games/ratings/_native*.so

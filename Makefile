# Everything a fresh machine needs is installed from here: CI runs `make check` on a clean clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# torch==2.13.0 (CPU) is named in the same pip command as the rest, so that pip takes the
# build that lies on disk instead of pulling a CUDA build of several GB.
TORCH := torch==2.13.0
STAMP := $(VENV)/.installed
# `make demo` needs only what a user's `pip install .` brings (no torch, no dev tools): a
# stamp of its own, so a demo on a fresh clone installs in about a minute, and a later
# `make test` adds the rest to the same venv.
DEMO_STAMP := $(VENV)/.demo

export ANONYMIZED_TELEMETRY := False
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false
# playwright drives the system's chromium; it must never fetch a browser build of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: install system-deps demo test test-fast lint format typecheck imports docs check \
	plain-install-check bench-core chroma-server clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q "$(TORCH)" -e ".[dev,multilingual]"
	touch $(STAMP)

install: $(STAMP)

$(DEMO_STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $(DEMO_STAMP)

# The inspector's browser tests (tests/server/test_ui_browser.py) drive Debian's chromium,
# headless; playwright (a dev dependency) talks to it and never downloads a browser of its
# own. Installed here when missing on a Debian machine run as root (CI); elsewhere a note,
# and those tests skip saying why.
CHROMIUM := /usr/bin/chromium
system-deps:
	@if [ -x $(CHROMIUM) ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "installing chromium for the browser tests (apt-get)"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q --no-install-recommends chromium >/dev/null 2>&1 \
		|| { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; } \
		|| echo "note: could not install chromium; the browser tests will skip"; \
	else \
		echo "note: no $(CHROMIUM), and no apt-get as root to install it: the browser tests will skip"; \
	fi

# The full install serves as well when it is already there (and up to date).
demo: $(if $(wildcard $(STAMP)),$(STAMP),$(DEMO_STAMP))
	$(BIN)/python -m recall.demo

test: $(STAMP) system-deps
	$(BIN)/python -m pytest -q

# The fast set for development: everything not marked slow, on two worker processes;
# memories embed with the HashEmbedder stand-in (tests/conftest.py). About a minute on the
# quiet 2-core machine. `make test` and `make check` run the whole suite in one process.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "not slow" -n 2

lint: $(STAMP)
	$(BIN)/ruff check recall tests benchmarks examples
	$(BIN)/ruff format --check recall tests benchmarks examples

format: $(STAMP)
	$(BIN)/ruff format recall tests benchmarks examples
	$(BIN)/ruff check --fix recall tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy recall tests

# The layers contract: store < index < lifecycle < context < facade < cli (pyproject.toml).
imports: $(STAMP)
	$(BIN)/lint-imports

# The documentation site (mkdocs.yml): docs/*.md and the API reference mkdocstrings renders
# from the docstrings (read statically, nothing imported or fetched). --strict: any warning,
# a reference that does not resolve among them, fails the build.
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

check: lint typecheck imports docs test plain-install-check

# What a user gets from `pip install .` without extras (issue 23): a fresh venv, recreated
# each time, must hold no torch, no dev package and no server or postgres extra (issue 34),
# run the README's commands and first snippet and `recall bench synthetic` to the end, and
# `recall serve` there names the server extra in one line. pip's cache and the configured
# indexes serve the wheels; nothing beyond the core dependencies is installed.
PLAIN := .venv-plain
PLAIN_ONLY_EXTRAS := torch|sentence-transformers|transformers|rank-bm25|matplotlib|langchain-core|llama-index-core|mcp|starlette|psycopg|psycopg-binary
plain-install-check:
	rm -rf $(PLAIN)
	$(PY) -m venv $(PLAIN)
	$(PLAIN)/bin/pip install -q .
	@extra=$$($(PLAIN)/bin/pip list --format=freeze 2>/dev/null | grep -iE '^($(PLAIN_ONLY_EXTRAS))==' || true); \
	if [ -n "$$extra" ]; then echo "a plain install pulled packages of the extras: $$extra"; exit 1; fi
	@! $(PLAIN)/bin/recall serve --path $(PLAIN)/no-memory 2>$(PLAIN)/serve.err
	grep -q "pip install 'recall-memory\[server\]'" $(PLAIN)/serve.err
	mkdir -p $(PLAIN)/run
	cd $(PLAIN)/run && ../bin/recall bench synthetic --users 1 --out results --quiet
	test -s $(PLAIN)/run/results/synthetic.json
	cd $(PLAIN)/run && ../bin/recall add "We chose Redis for the session cache." --user u1 \
		&& ../bin/recall search "cache decision" --user u1 && ../bin/recall stats
	$(PLAIN)/bin/python tests/readme_snippet.py

bench-core: $(STAMP)
	$(BIN)/python benchmarks/core_latency.py

chroma-server: $(STAMP)
	$(BIN)/chroma run --host 127.0.0.1 --port 8000 --path ./memory/chroma-server

clean:
	rm -rf $(VENV) $(PLAIN) .pytest_cache .mypy_cache .ruff_cache site

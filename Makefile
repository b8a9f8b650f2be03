# One command runs the product, one runs every test. Both create .venv when it is missing.
PY ?= $(shell for p in python3.11 python3.12 python3; do $$p -c "import sys; assert (3, 11) <= sys.version_info[:2] < (3, 13)" >/dev/null 2>&1 && { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8501
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: run test bench lint eval-contracts eval-llm clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test]' 2>&1 \
		| { grep -v 'neither a file nor a directory' || true; }
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python ui/serve.py --host $(HOST) --port $(PORT)

test: $(STAMP)
	$(BIN)/python -m ruff check advisor ui tests bench
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m bench

eval-contracts: $(STAMP)
	$(BIN)/python -m bench.eval_contracts

# The question sets through the LLM endpoint of the environment (docs/LLM.md), or a scripted local one.
eval-llm: $(STAMP)
	$(BIN)/python -m bench.eval_llm

lint: $(STAMP)
	$(BIN)/python -m ruff check advisor ui tests bench
	$(BIN)/python -m mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

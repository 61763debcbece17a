# Two commands do all the set-up on a fresh machine:
#   make lab   - create .venv, install the package with its extras, open the lessons in JupyterLab
#   make test  - create .venv, install everything the tests need (torch 2.13.0 CPU), run the whole suite
#                (under each of torch's CPU kernel settings this processor has)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The JupyterLite build gets its own environment: its kernel extension, installed next to JupyterLab, breaks
# every JupyterLab page ("Shared module @jupyterlite/services doesn't exist").
LITE := .venv-lite
LITE_STAMP := $(LITE)/.installed

.PHONY: lab test bench clean chromium lite

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[widgets,test,bench]'
	# The reference implementation for the conformance tests: a CPU wheel that is on disk here.
	$(BIN)/python -m pip install -q torch==2.13.0
	touch $(STAMP)

$(LITE_STAMP): tests/jupyterlite-requirements.txt
	test -x $(LITE)/bin/python || $(PYTHON) -m venv $(LITE)
	$(LITE)/bin/python -m pip install -q -r tests/jupyterlite-requirements.txt
	touch $(LITE_STAMP)

lite: $(LITE_STAMP)

# JupyterLab refuses to run as root unless told (containers, CI machines): say so only when we are root.
lab: $(STAMP)
	$(BIN)/jupyter lab notebooks/ $(if $(filter 0,$(shell id -u)),--allow-root)

# Browser tests drive Debian's chromium with playwright (never `playwright install`: it downloads a browser).
chromium:
	@command -v chromium >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } \
	  || echo "chromium could not be installed (not root?): the browser tests will be skipped"

# The whole suite (tests/suite.sh): unit, property, conformance and browser tests with the docstring examples;
# the conformance suites again under torch's other CPU kernel settings; every lesson under nbval-lax, here and in a
# fresh venv built from binder/ alone (as Binder builds it); the golden notebooks under strict nbval. Every step runs even when one fails; the failed ones are listed at the end.
test: $(STAMP) $(LITE_STAMP) chromium
	PYTHON=$(BIN)/python bash tests/suite.sh

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/viz.py
	$(BIN)/python benchmarks/hostile_input.py
	$(BIN)/python benchmarks/training_loops.py

clean:
	rm -rf $(VENV) $(LITE) build *.egg-info

# estconf: `make demo` to see it work, `make test` to check it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit compat bench fmt clean schemas docs mutants

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/estconf validate examples/*.json examples/*.yaml
	$(BIN)/estconf explain --tf-config examples/tf_config_worker.json --config examples/run_config.yaml
	$(BIN)/estconf tf-config examples/cluster/training.yaml --task worker:1 --format shell
	@echo '$$ estconf validate examples/broken/*   # what errors look like'
	@$(BIN)/estconf validate examples/broken/*; test $$? -eq 1

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

fmt: $(STAMP)
	$(BIN)/ruff format src tests
	$(BIN)/ruff check --fix src tests

schemas: $(STAMP)
	$(BIN)/estconf schema -o schemas

docs: $(STAMP)
	$(BIN)/python tests/cli_docs.py --update

# `make mutants`: mutation testing of the rules (docs/mutation.md); slow, so not part
# of `make test`.  MUTANTS_ARGS=--all runs every mutant instead of the sample.
MUTANTS_STAMP := $(VENV)/.mutants-installed
MUTANTS_ARGS ?=

$(MUTANTS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[mutants]'
	touch $(MUTANTS_STAMP)

mutants: $(MUTANTS_STAMP)
	$(BIN)/python tools/mutants.py $(MUTANTS_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_cli.py
	$(BIN)/python benchmarks/bench_models.py

# `make compat`: the differential suite against real TensorFlow, in its own
# venv (TensorFlow 2.15 needs Python 3.11).  Prints one SKIPPED line and
# succeeds when TensorFlow cannot be installed here.
TF_PYTHON ?= python3.11
TF_VENV := .venv-tf
TF_STAMP := $(TF_VENV)/.installed
COMPAT_PROFILE ?= thorough

$(TF_STAMP): pyproject.toml
	rm -rf $(TF_VENV)
	$(TF_PYTHON) -m venv $(TF_VENV)
	$(TF_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TF_VENV)/bin/python -m pip install --quiet -e '.[dev,tensorflow]'
	touch $(TF_STAMP)

compat:
	@if ! command -v $(TF_PYTHON) >/dev/null 2>&1; then \
		echo "SKIPPED: compat: $(TF_PYTHON) not found; TensorFlow 2.15 needs Python 3.11"; \
	elif ! $(MAKE) --no-print-directory $(TF_STAMP); then \
		echo "SKIPPED: compat: could not install tensorflow-cpu 2.15.1 and tensorflow-estimator 2.15.0 into $(TF_VENV)"; \
	else \
		HYPOTHESIS_PROFILE=$(COMPAT_PROFILE) $(TF_VENV)/bin/pytest tests/compat -p no:cacheprovider -rs; \
	fi

clean:
	rm -rf $(VENV) $(TF_VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis .mutants

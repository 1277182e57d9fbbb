# estconf: `make demo` to see it work, `make test` to check it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DOCS_STAMP := $(VENV)/.installed-docs
RELEASE_STAMP := $(VENV)/.installed-release
DIST_CHECK := build/dist-check

.PHONY: demo test lint typecheck unit pythons compat bench fmt clean schemas docs docs-serve docs-examples error-codes dist mutants fuzz

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/estconf validate examples/*.json examples/*.yaml examples/cluster examples/kinds examples/nodes
	$(BIN)/estconf explain --tf-config examples/tf_config_worker.json --config examples/run_config.yaml
	$(BIN)/estconf tf-config examples/cluster/training.yaml --task worker:1 --format shell
	@echo '$$ estconf validate examples/broken/*   # what errors look like'
	@$(BIN)/estconf validate examples/broken/*; test $$? -eq 1

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/lint-imports

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

# `make pythons`: the test suite under each other Python estconf supports, each in
# its own venv (.venv-pythonX.Y); a Python that is not installed is SKIPPED.
OTHER_PYTHONS ?= 3.10 3.12 3.13

pythons:
	@for version in $(OTHER_PYTHONS); do \
		python=; \
		for candidate in python$$version $$(pyenv root 2>/dev/null)/versions/$$version.*/bin/python$$version; do \
			if $$candidate -c '' 2>/dev/null; then python=$$candidate; break; fi; \
		done; \
		if [ -z "$$python" ]; then echo "SKIPPED: pythons: python$$version not found"; continue; fi; \
		venv=.venv-python$$version; \
		if [ ! $$venv/.installed -nt pyproject.toml ]; then \
			$$python -m venv $$venv && $$venv/bin/python -m pip install --quiet -e '.[dev]' \
				&& touch $$venv/.installed || exit 1; \
		fi; \
		echo "pythons: $$($$venv/bin/python --version)"; \
		$$venv/bin/pytest -p no:cacheprovider || exit 1; \
	done

fmt: $(STAMP)
	$(BIN)/ruff format src tests
	$(BIN)/ruff check --fix src tests

schemas: $(STAMP)
	$(BIN)/estconf schema -o schemas

# The documentation site, into site/; --strict fails on a broken link or reference.
# The docs extra is installed on first use only: `make test` does not need it.
$(DOCS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,docs]'
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

docs-serve: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

# Rewrite the output shown under each command of the docs' console examples.
docs-examples: $(STAMP)
	$(BIN)/python tests/cli_docs.py --update

# Rewrite the code tables of docs/errors.md and src/estconf/io/error_codes.json (each code's
# meaning, for SARIF) from the declarations of estconf.codes.
error-codes:
	$(PYTHON) tools/error_codes.py

# `make dist`: the wheel and the sdist into dist/, checked with twine and for
# their contents; then the wheel alone, in a bare venv, must run the command.
$(RELEASE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,release]'
	touch $(RELEASE_STAMP)

dist: $(RELEASE_STAMP)
	rm -rf dist $(DIST_CHECK)
	$(BIN)/python -m build --outdir dist
	$(BIN)/twine check --strict dist/*
	$(BIN)/python tests/check_dist.py dist
	$(PYTHON) -m venv $(DIST_CHECK)
	$(DIST_CHECK)/bin/python -m pip install --quiet dist/*.whl
	cd $(DIST_CHECK) && test "$$(bin/estconf --version)" = "estconf $$($(CURDIR)/$(BIN)/python -c 'import estconf; print(estconf.__version__)')"
	cd $(DIST_CHECK) && bin/estconf validate $(CURDIR)/examples/*.json $(CURDIR)/examples/*.yaml $(CURDIR)/examples/cluster
	cd $(DIST_CHECK) && bin/estconf validate $(CURDIR)/examples/broken/* >/dev/null; test $$? -eq 1
	@echo "dist: $$(ls dist | tr '\n' ' ')built, checked, installed and run"

# `make compat`: the differential suite against real TensorFlow, in its own
# venv (TensorFlow 2.15 needs Python 3.11); then the suites that need no
# estimator (the tf.distribute readers, tf.train.ClusterSpec and
# tf.train.Server, SlurmClusterResolver) against TensorFlow 2.21, in a venv of
# their own.  Each run prints one SKIPPED line and succeeds when its TensorFlow
# cannot be installed here.
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

# SageMaker's TensorFlow toolkit, for tests/compat/test_sagemaker.py.  Its own
# pins (numpy < 1.24, protobuf <= 3.20.3) would change the versions the rest of
# the suite runs TensorFlow with, so it is installed without them, beside the
# modules it imports.
TF_SAGEMAKER_STAMP := $(TF_VENV)/.installed-sagemaker

$(TF_SAGEMAKER_STAMP): $(TF_STAMP)
	$(TF_VENV)/bin/python -m pip install --quiet boto3 paramiko psutil retrying six
	$(TF_VENV)/bin/python -m pip install --quiet --no-deps \
		sagemaker-tensorflow-training==20.5.0 sagemaker-training==4.8.3
	touch $(TF_SAGEMAKER_STAMP)

# TensorFlow 2.21 (tensorflow-distribute extra), for the suites below.  The
# same Python as for 2.15, so that only TensorFlow differs between the runs.
TF221_PYTHON ?= $(TF_PYTHON)
TF221_VENV := .venv-tf221
TF221_STAMP := $(TF221_VENV)/.installed
TF221_SUITES := tests/compat/test_cluster.py tests/compat/test_distribute.py \
	tests/compat/test_placement.py tests/compat/test_slurm.py

$(TF221_STAMP): pyproject.toml
	rm -rf $(TF221_VENV)
	$(TF221_PYTHON) -m venv $(TF221_VENV)
	$(TF221_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TF221_VENV)/bin/python -m pip install --quiet -e '.[dev,tensorflow-distribute]'
	touch $(TF221_STAMP)

compat:
	@status=0; \
	if ! command -v $(TF_PYTHON) >/dev/null 2>&1; then \
		echo "SKIPPED: compat: $(TF_PYTHON) not found; TensorFlow 2.15 needs Python 3.11"; \
	elif ! $(MAKE) --no-print-directory $(TF_STAMP); then \
		echo "SKIPPED: compat: could not install tensorflow-cpu 2.15.1 and tensorflow-estimator 2.15.0 into $(TF_VENV)"; \
	else \
		$(MAKE) --no-print-directory $(TF_SAGEMAKER_STAMP) \
			|| echo "SKIPPED: compat: could not install sagemaker-tensorflow-training 20.5.0 into $(TF_VENV)"; \
		echo "compat: tests/compat against TensorFlow 2.15.1 and tensorflow-estimator 2.15.0"; \
		HYPOTHESIS_PROFILE=$(COMPAT_PROFILE) $(TF_VENV)/bin/pytest tests/compat -p no:cacheprovider -rs \
			|| status=1; \
	fi; \
	if ! command -v $(TF221_PYTHON) >/dev/null 2>&1; then \
		echo "SKIPPED: compat: $(TF221_PYTHON) not found for TensorFlow 2.21"; \
	elif ! $(MAKE) --no-print-directory $(TF221_STAMP); then \
		echo "SKIPPED: compat: could not install tensorflow-cpu 2.21.0 into $(TF221_VENV)"; \
	else \
		echo "compat: $(TF221_SUITES) against TensorFlow 2.21.0"; \
		HYPOTHESIS_PROFILE=$(COMPAT_PROFILE) $(TF221_VENV)/bin/pytest $(TF221_SUITES) -p no:cacheprovider -rs \
			|| status=1; \
	fi; \
	exit $$status

# `make bench`: every figure of docs/performance.md, side by side in one run, and the
# page rewritten.  TensorFlow is measured with the compat venv's Python when there is
# one (BENCH_PYTHON= to choose another); check-jsonschema comes with the bench extra.
BENCH_STAMP := $(VENV)/.installed-bench
BENCH_PYTHON ?= $(if $(wildcard $(TF_VENV)/bin/python),$(TF_VENV)/bin/python,$(BIN)/python)

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	CHECK_JSONSCHEMA=$${CHECK_JSONSCHEMA:-$(CURDIR)/$(BIN)/check-jsonschema} \
		ESTCONF_PYTHON=$(CURDIR)/$(BIN)/python PYTHONPATH=$(CURDIR)/src $(BENCH_PYTHON) benchmarks/performance.py
	$(BIN)/python benchmarks/bench_cli.py
	$(BIN)/python benchmarks/bench_deployment.py
	$(BIN)/python benchmarks/bench_launchers.py
	$(BIN)/python benchmarks/bench_yaml.py

# `make mutants`: mutation testing of every module (docs/mutation.md); slow, so not part
# of `make test`.  The sample is 10 mutants a module; MUTANTS_ARGS=--all runs every mutant,
# MUTANTS_ARGS="--modules 'tpu/*' --sample 20 --jobs 1" a few modules.
MUTANTS_STAMP := $(VENV)/.installed-mutants
MUTANTS_ARGS ?=

$(MUTANTS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,mutants]'
	touch $(MUTANTS_STAMP)

mutants: $(MUTANTS_STAMP)
	$(BIN)/python tools/mutants.py $(MUTANTS_ARGS)

# `make fuzz`: the long fuzzing run of every command and the Python API (docs/fuzzing.md),
# coverage-guided with atheris where it installs, else seeded random mutations.
# FUZZ_ARGS="--inputs 1000000 --seconds 7200" to change the budget.
FUZZ_STAMP := $(VENV)/.installed-fuzz
FUZZ_ARGS ?= --inputs 100000 --seconds 1800

$(FUZZ_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,fuzz]' || $(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(FUZZ_STAMP)

fuzz: $(FUZZ_STAMP)
	$(BIN)/python tools/fuzz.py $(FUZZ_ARGS)

clean:
	rm -rf $(VENV) $(TF_VENV) $(TF221_VENV) .venv-python* .import_linter_cache .mypy_cache .pytest_cache .ruff_cache .hypothesis site dist build .mutants

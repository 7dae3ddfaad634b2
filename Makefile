# Two entry points (see README): `make report` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DATA ?= data
OUT ?= reports
JOBS ?= 2

.PHONY: report test test-lowest wheel-check lint fuzz bench validate clean lock lock-check docs

# The environment is installed from uv.lock, exactly: a fresh machine gets the versions CI tested.
# uv itself comes from PyPI into .uv/ when it is not on PATH, at the version the lock was made with.
UV_VERSION := 0.13.9
UV ?= $(shell command -v uv 2>/dev/null || echo .uv/bin/uv)
EXTRAS ?= --extra scale --extra lab

.uv/bin/uv:
	$(PY) -m venv .uv
	.uv/bin/python -m pip install -q uv==$(UV_VERSION)

$(STAMP): pyproject.toml uv.lock $(filter .uv/bin/uv,$(UV))
	$(UV) sync --locked --python $(PY) $(EXTRAS)
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

# uv.lock, and the same pins as a hashed requirements file for pip (the check runs in CI);
# requirements-lowest.txt: the lowest-versions run's environment, compiled from pyproject.toml
# and requirements-lowest.in at uv's lowest-direct resolution, as PyPI stood on LOWEST_DATE
# (so that compiling it again gives the same file whatever has been published since)
LOCK_EXPORT = export --format requirements.txt --locked --all-extras --group dev \
	--no-emit-project --no-header -q
LOWEST_DATE := 2026-11-26T00:00:00Z
LOWEST_COMPILE = pip compile pyproject.toml requirements-lowest.in --resolution lowest-direct \
	--exclude-newer $(LOWEST_DATE) --generate-hashes --python-version 3.11 --no-header -q
lock:
	$(UV) lock
	$(UV) $(LOCK_EXPORT) -o requirements-lock.txt
	$(UV) $(LOWEST_COMPILE) -o requirements-lowest.txt

lock-check: $(filter .uv/bin/uv,$(UV))
	$(UV) $(LOCK_EXPORT) | diff -q - requirements-lock.txt >/dev/null || \
		{ echo "requirements-lock.txt is not uv.lock's export: run make lock"; exit 1; }
	$(UV) $(LOWEST_COMPILE) | diff -q - requirements-lowest.txt >/dev/null || \
		{ echo "requirements-lowest.txt is not requirements-lowest.in compiled: run make lock"; \
		  exit 1; }

report: $(STAMP)
	$(BIN)/ebsstats report $(DATA) -o $(OUT)

test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile -p no:cacheprovider --doctest-modules ebsstats tests --nbval-lax notebooks

# The unit tests at the LOWEST versions pyproject.toml declares (uv's lowest-direct resolution,
# locked with hashes in requirements-lowest.txt), in a separate venv: proves the floors.
# Notebooks, the browser test and the slow simulations run
# in `make test` only (they test statistics, not versions), which keeps this step a few minutes.
LOWEST := .venv-lowest
test-lowest: $(filter .uv/bin/uv,$(UV))
	rm -rf $(LOWEST)
	$(UV) venv -q --python $(PY) $(LOWEST)
	$(UV) pip sync -q --python $(LOWEST)/bin/python --require-hashes requirements-lowest.txt
	$(UV) pip install -q --python $(LOWEST)/bin/python --no-deps -e .
	$(UV) pip list --python $(LOWEST)/bin/python 2>/dev/null | grep -iE '^(pandas|numpy|scipy|statsmodels|matplotlib|seaborn|pyarrow|papermill|ipykernel) '
	$(LOWEST)/bin/python -m pytest -n $(JOBS) --dist loadfile -p no:cacheprovider -m "not browser and not slow" tests

# Build the wheel and run `ebsstats report` from it in a clean venv (core install, no extras;
# its dependencies at the locked versions).
wheel-check: $(filter .uv/bin/uv,$(UV))
	rm -rf dist .venv-wheel
	$(UV) build -q
	$(UV) venv -q --python $(PY) .venv-wheel
	$(UV) pip install -q --python .venv-wheel/bin/python dist/*.whl -c requirements-lock.txt
	cd /tmp && $(CURDIR)/.venv-wheel/bin/ebsstats report $(CURDIR)/data/samples -o $(CURDIR)/.venv-wheel/report

# ruff; the layer contracts of pyproject's [tool.importlinter]; cyclomatic complexity <= 25 in
# stats/, app/ and io/ (tools/complexity.py, radon).
lint: $(STAMP)
	$(BIN)/ruff check ebsstats tests benchmarks tools
	$(BIN)/lint-imports
	$(BIN)/python tools/complexity.py

fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz_readers.py

bench: $(STAMP)
	$(BIN)/python benchmarks/ingest_speed.py

validate: $(STAMP)
	$(BIN)/python benchmarks/validate_statistics.py

# The documentation site, offline, warnings as errors; the `docs` dependency group is added to .venv.
docs: $(STAMP)
	$(UV) run --locked --group docs sphinx-build -b html -E -W --keep-going -q docs docs/_build/html

clean:
	rm -rf $(VENV) .uv $(OUT) .pytest_cache $(LOWEST) .venv-wheel dist

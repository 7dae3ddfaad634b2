# Two entry points (see README): `make report` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DATA ?= data
OUT ?= reports
JOBS ?= 2

.PHONY: report test lint fuzz bench validate clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[test,scale]"
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	touch $(STAMP)

report: $(STAMP)
	$(BIN)/ebsstats report $(DATA) -o $(OUT)

test: $(STAMP)
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile -p no:cacheprovider --doctest-modules ebsstats tests --nbval-lax notebooks

lint: $(STAMP)
	$(BIN)/ruff check ebsstats tests benchmarks

fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz_readers.py

bench: $(STAMP)
	$(BIN)/python benchmarks/ingest_speed.py

validate: $(STAMP)
	$(BIN)/python benchmarks/validate_statistics.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache

"""Every fixture gives exactly the frames stored in ``tests/golden`` (values, dtypes,
categories), read on its own and as one folder; refused fixtures are refused with the same
message. The golden files were written by ``tests/golden/make_golden.py`` from the reader code
before the ingest rewrite; regenerate them only for an intended change of the frames."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest

from tests.golden import make_golden as mg

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def golden():
    return {
        "dtypes": json.loads((GOLDEN / "dtypes.json").read_text()),
        "errors": json.loads((GOLDEN / "errors.json").read_text()),
        "results": pd.read_parquet(GOLDEN / "files.results.parquet"),
        "series": pd.read_parquet(GOLDEN / "files.series.parquet"),
    }


@pytest.fixture(autouse=True)
def _at_root():
    cwd = os.getcwd()
    os.chdir(ROOT)  # sources are stored relative to the repository
    yield
    os.chdir(cwd)


def _same(actual: pd.DataFrame, expected: pd.DataFrame, dtypes: dict, what: str) -> None:
    assert mg.dtypes_of(actual) == dtypes, f"{what}: dtypes or categories changed"
    columns = [c for c, _, _ in dtypes]
    expected = expected[columns].reset_index(drop=True)
    got = mg.plain(actual).reset_index(drop=True)
    pd.testing.assert_frame_equal(got, expected, check_dtype=False, obj=what)


def test_every_fixture_alone_gives_its_golden_frames(golden):
    files = mg.fixture_files()
    assert len(files) > 150
    for path in files:
        rel = path.relative_to(mg.FIXTURES).as_posix()
        df, ts, err = mg.read_file(path)
        if rel in golden["errors"]:
            assert err == golden["errors"][rel], rel
            continue
        assert err is None, f"{rel}: {err}"
        d = golden["dtypes"][rel]
        _same(df, golden["results"][golden["results"]["_fixture"] == rel], d["results"], rel)
        _same(ts, golden["series"][golden["series"]["_fixture"] == rel], d["series"],
              rel + " (series)")


def test_the_fixtures_folder_gives_its_golden_frames(golden):
    df, ts, fails = mg.read_folder()
    d = golden["dtypes"]["<folder>"]
    _same(df, pd.read_parquet(GOLDEN / "folder.results.parquet"), d["results"], "folder")
    _same(ts, pd.read_parquet(GOLDEN / "folder.series.parquet"), d["series"], "folder series")
    want = pd.read_json(GOLDEN / "folder.failures.json", orient="records", dtype=False)
    assert fails.astype(object).where(fails.notna(), None).to_dict("records") == \
        want.astype(object).where(want.notna(), None).to_dict("records")

"""The ``--pattern`` notes live in the library: ``ebsstats.read(path, pattern=...)`` warns
(:class:`ebsstats.io.meta.PatternWarning`, once each) when the pattern matched only some of the
files read, names a placeholder that is no column of the schema, or has none. Before, only the
command line said so, matching every file a second time after ``read`` had matched them."""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

import ebsstats as es
from ebsstats.io import folder
from tests.conftest import ROOT

FIO = ROOT / "data" / "samples" / "fio"
PARTLY = "gp2/randread_4k_rep{repetition}.json"  # (matches the file in gp2/ only)


@pytest.fixture
def runs(tmp_path) -> Path:
    """Two fio runs, ``gp2/randread_4k_rep0.json`` and ``io2/randread_4k_rep1.json``."""
    d = tmp_path / "runs"
    for sub, name in (("gp2", "randread_4k_rep0.json"), ("io2", "randread_4k_rep1.json")):
        (d / sub).mkdir(parents=True)
        shutil.copy(FIO / name, d / sub / name)
    return d


def _said(path, **kwargs) -> list[tuple[str, str]]:
    """``(category name, message)`` of every warning of ``read(path, **kwargs)``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        es.read(path, **kwargs)
    return [(w.category.__name__, str(w.message)) for w in caught
            if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_read_says_once_how_many_files_the_pattern_matched(runs, jobs):
    said = _said(runs, pattern=PARTLY, jobs=jobs)  # (jobs=2: counted in the workers too)
    assert said == [("PatternWarning", f"pattern {PARTLY!r} matched 1 of the 2 file(s) read: "
                                       "1 got no metadata from it")]
    assert _said(runs, pattern="{config}/randread_4k_rep{repetition}.json", jobs=jobs) == []


def test_read_says_a_placeholder_that_is_no_column_and_a_pattern_without_any(runs):
    said = _said(runs, pattern="{conifg}/randread_4k_rep{repetition}.json")
    assert said == [("PatternWarning", "pattern {conifg} is not a column of ebsstats' schema: "
                                       "it makes a column of its own (did you mean {config}?)")]
    assert _said(runs, pattern="*/randread_4k_rep0.json") == [
        ("PatternWarning", "pattern '*/randread_4k_rep0.json' has no {name} placeholder: it "
                           "gives no metadata")]


def test_the_match_count_is_taken_as_each_file_is_read(runs, monkeypatch):
    """No second pass: each file is read, and matched against the pattern, once."""
    from ebsstats.io import meta

    calls: dict[str, list[str]] = {"read": [], "match": []}
    real_read, real_meta = folder._read_path, meta.pattern_meta

    def counted_read(path, rel, *args, **kwargs):
        calls["read"].append(rel)
        return real_read(path, rel, *args, **kwargs)

    def counted_meta(rel, pattern):
        calls["match"].append(rel)
        return real_meta(rel, pattern)

    monkeypatch.setattr(folder, "_read_path", counted_read)
    monkeypatch.setattr(meta, "pattern_meta", counted_meta)
    monkeypatch.setattr(meta, "pattern_matches", lambda *a: pytest.fail("matched again"))
    with pytest.warns(UserWarning, match="matched 1 of the 2"):
        df = es.read(runs, pattern=PARTLY, jobs=1)
    files = ["gp2/randread_4k_rep0.json", "io2/randread_4k_rep1.json"]
    assert sorted(calls["read"]) == files and sorted(calls["match"]) == files
    got = df.dropna(subset=["repetition"]).groupby("source", observed=True)["repetition"]
    assert got.unique().to_dict() == {"gp2/randread_4k_rep0.json": [0]}


def test_the_command_line_says_the_librarys_pattern_notes(runs, tmp_path):
    from tests.conftest import run_cli

    proc = run_cli("ingest", str(runs), "-o", str(tmp_path / "t.parquet"), "-q", "--pattern",
                   PARTLY)
    assert proc.returncode == 0, proc.stderr
    notes = [ln for ln in proc.stderr.splitlines() if "--pattern" in ln]
    assert notes == [f"note: --pattern {PARTLY!r} matched 1 of the 2 file(s) read: 1 got no "
                     f"metadata from it (see `ebsstats check {runs} --pattern ...`)"]

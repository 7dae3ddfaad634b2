"""One rule keeps an output apart from its data (:func:`ebsstats.atomic.overlap`): ingest's
outputs (:func:`ebsstats.io.meta.check_apart`) and a report's folder
(:func:`ebsstats.app.reports.check_output`) follow it, each saying it in its own words. Before,
each had a copy of its own, and the copies differed (links to the same file, files as data)."""

from __future__ import annotations

import os

import pytest

from ebsstats import atomic
from ebsstats.app import reports
from ebsstats.io import meta


def test_overlap_of_an_output_with_its_data(tmp_path):
    from ebsstats.atomic import overlap

    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    one = data / "run.json"
    one.write_text("{}")
    os.symlink(data, tmp_path / "alias")
    os.link(one, tmp_path / "hard.json")
    assert [overlap(out, data) for out in (data, tmp_path / "alias", data / "sub" / "rep",
                                           tmp_path / "alias" / "rep", tmp_path,
                                           tmp_path / "rep")] == [
        "same", "same", "inside", "inside", "contains", None]
    assert overlap(tmp_path / "hard.json", one) == "same"  # (another name of the same file)
    assert overlap(tmp_path / "one.parquet", one) is None


@pytest.mark.parametrize("how", ["same", "inside", "contains"])
def test_ingest_and_report_say_the_one_rule_in_their_words(tmp_path, monkeypatch, how):
    data, out = tmp_path / "data", tmp_path / "elsewhere"
    data.mkdir()
    calls = []

    def rule(o, d):
        calls.append((str(o), str(d)))
        return how

    monkeypatch.setattr(atomic, "overlap", rule)
    monkeypatch.setattr(reports, "overlap", rule, raising=False)
    said = {"same": (f"-o {out} is the input {data}; writing it would replace the data: choose "
                     "another path", f"-o {out} is the data folder; choose another folder"),
            "inside": (f"-o {out} lies inside the data folder {data}; write it outside the data",
                       f"-o {out} lies inside the data folder {data}; choose a folder outside "
                       "it"),
            "contains": (f"-o {out} contains the data {data}; choose another path",
                         f"-o {out} contains the data {data}; replacing it would delete the "
                         "data: choose an empty or new folder")}[how]
    with pytest.raises(ValueError) as apart:
        meta.check_apart([data], {"-o": out})
    with pytest.raises(reports.OutputRefused) as refused:
        reports.check_output(data, out)
    assert (str(apart.value), str(refused.value)) == said
    assert calls == [(str(out), str(data))] * 2

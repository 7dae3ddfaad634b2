"""The fio JSON reader's per-job columns as :class:`~ebsstats.io._columns.Runs` (a report of
several jobs: ``test``, ``job``, ``rw``, ``workload``, any option the jobs set differently)
against the rule they replace, each job's value repeated on each of its rows as a list: the
same records, the same typed frame (alone, beside single-job reports, beside other tools'
files, in a folder read, through Parquet), the same errors."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats.io import _common, fio
from ebsstats.io._columns import Const, Runs, _piece_list, records_of
from ebsstats.io.fio import json as fio_json
from tests.conftest import fixture

SMALL = json.loads(fixture("fio", "small_json.json").read_text())
MULTI = ["multi_gr_json.json", "f2110_multi_gr_json.json", "multi_json.json",
         "stonewall_groups_json.json"]


def _each_job_repeated(per_job, counts) -> list:
    """The rule the runs replace: each job's value repeated over its rows, as one list."""
    out: list = []
    for v, m in zip(per_job, counts, strict=True):
        out += [v] * m
    return out


def _expanded(chunk):
    """A chunk with every :class:`Runs` piece as the per-row list it stands for (the rule the
    reader followed before)."""
    cols, n = chunk
    return {k: _piece_list(v) if type(v) is Runs else v for k, v in cols.items()}, n


def _report(jobs: list[dict]) -> str:
    """small_json.json with one job per entry of ``jobs`` (its name and job options)."""
    doc = json.loads(json.dumps(SMALL))
    doc["jobs"] = []
    for i, spec in enumerate(jobs):
        job = json.loads(json.dumps(SMALL["jobs"][0]))
        job["jobname"] = spec["name"]
        job["job options"] = spec["options"]
        job["read"]["iops"] += i  # (reports differ in values, not only names)
        doc["jobs"].append(job)
    return json.dumps(doc)


def _same_frames(chunks) -> None:
    got = _common.results_of(chunks)
    want = _common.results_of([_expanded(c) for c in chunks])
    pd.testing.assert_frame_equal(got, want)


@pytest.mark.parametrize("name", MULTI)
def test_multi_job_fixtures_give_runs_typed_as_the_per_row_lists(name):
    path = fixture("fio", name)
    parsed = fio._parse(path.read_text(), str(path))
    chunk = parsed.chunk({"volume": "gp3"})
    runs = [k for k, v in chunk[0].items() if type(v) is Runs]
    if len({v for v in _piece_list(chunk[0]["test"])}) > 1:
        assert {"test", "job"} <= set(runs)
    if len(set(_piece_list(chunk[0]["run_key"]))) > 1:  # (run ids hashed once per run)
        assert "run_key" in runs
    _same_frames([chunk])
    # beside a single-job report and another tool's file, in either order
    other = fio._parse(fixture("fio", "small_json.json").read_text(), "s.json").chunk()
    assert not any(type(v) is Runs for v in other[0].values())
    _same_frames([other, chunk])
    _same_frames([chunk, other])
    # the records parse() gives are the per-row rows
    assert fio.parse(path.read_text(), str(path)).records == records_of(_expanded(
        parsed.columns))


def _job_specs():
    value = st.sampled_from(["4", "8", "", "randread", "write", "rw", "randrw", "4k", "1m"])
    options = st.dictionaries(st.sampled_from(["rw", "iodepth", "bs", "numjobs", "ioengine"]),
                              value, max_size=4)
    spec = st.fixed_dictionaries({"name": st.sampled_from(["a", "b", "seq", "rand", "a"]),
                                  "options": options})
    return st.lists(spec, min_size=2, max_size=5)


@settings(max_examples=int(__import__("os").environ.get("EBSSTATS_FUZZ_EXAMPLES", "60")),
          deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(jobs=_job_specs())
def test_any_jobs_give_the_frame_and_records_of_per_row_lists(jobs):
    text = _report(jobs)
    try:
        parsed = fio._parse(text, "r.json")
    except es.ParseError as e:  # refused as before: the runs change no rule
        with pytest.raises(es.ParseError) as again:
            fio.parse(text, "r.json")
        assert str(again.value) == str(e)
        return
    cols, n = parsed.columns
    for k, v in cols.items():
        assert type(v) in (Const, Runs, list), k
        if type(v) is Runs:
            assert sum(v.counts) == n and len(v.values) == len(v.counts) == len(jobs)
    assert fio.parse(text, "r.json").records == records_of(_expanded(parsed.columns))
    saved = fio_json._per_job  # the rule the runs replace: each job's value on its rows
    fio_json._per_job = lambda name, per_job, counts: _each_job_repeated(per_job, counts)
    fio_json._COLUMNS_MADE.clear()  # (columns made by the other rule: made again)
    try:
        lists = fio._parse(text, "r.json")
    finally:
        fio_json._per_job = saved
        fio_json._COLUMNS_MADE.clear()
    assert not any(type(v) is Runs for v in lists.columns[0].values())
    assert records_of(lists.columns) == records_of(parsed.columns)
    pd.testing.assert_frame_equal(_common.results_of([lists.chunk()]),
                                  _common.results_of([parsed.chunk()]))
    _same_frames([parsed.chunk({"volume": "io2"}),
                  fio._parse(fixture("fio", "small_json.json").read_text(), "s.json").chunk()])


def test_the_general_path_gives_runs_too(monkeypatch):
    # jobs whose options differ in their keys (not one layout of names): the general rule of
    # _job_columns, a missing option None on that job's rows
    text = _report([{"name": "a", "options": {"rw": "read", "iodepth": "4"}},
                    {"name": "b", "options": {"rw": "write"}},
                    {"name": "c", "options": {"rw": "write", "bs": "64k"}}])
    fast = fio._parse(text, "r.json")
    monkeypatch.setattr(fio_json, "_fast_json", lambda text, source: None)
    monkeypatch.setattr(fio, "_fast_json", lambda text, source: None)  # (the bytes path)
    general = fio._parse(text, "r.json")
    for parsed in (fast, general):
        cols, _ = parsed.columns
        assert type(cols["test"]) is Runs and cols["test"].values == ("a", "b", "c")
        assert records_of(parsed.columns) == records_of(_expanded(parsed.columns))
        _same_frames([parsed.chunk()])
    assert records_of(fast.columns) == records_of(general.columns)


def test_runs_of_jobs_without_rows_and_their_rule():
    # a job of no row is a run of none (left out of the typing), as the list left it out
    got = fio_json._per_job("test", ("a", "b", "c"), (2, 0, 1))
    assert got == Runs(("a", "b", "c"), (2, 0, 1))
    assert _piece_list(got) == _each_job_repeated(("a", "b", "c"), (2, 0, 1)) == [
        "a", "a", "c"]
    assert fio_json._per_job("run_key", ("a", "b"), (1, 2)) == Runs(("a", "b"), (1, 2))
    # types kept per job: 1 and True differ, as in the list
    typed = _piece_list(fio_json._per_job("iodepth", (1, True), (1, 1)))
    assert [type(v) for v in typed] == [int, bool]


def test_a_folder_of_multi_job_reports_reads_as_per_row_lists(tmp_path, monkeypatch):
    for name in MULTI + ["small_json.json"]:
        (tmp_path / name).write_bytes(fixture("fio", name).read_bytes())
    parsed = [fio._parse(p.read_text(), str(p)) for p in sorted(tmp_path.glob("*.json"))]
    assert any(type(v) is Runs for p in parsed for v in p.columns[0].values())
    got = es.read(tmp_path, jobs=1, progress=False)
    got_series = es.read_series(tmp_path, jobs=1, progress=False)
    # the rule the runs replace: each job's value repeated on its rows as a list
    monkeypatch.setattr(fio_json, "_per_job", lambda name, per_job, counts:
                        _each_job_repeated(per_job, counts))
    monkeypatch.setattr(fio_json, "_COLUMNS_MADE", {})  # (none made by the runs kept)
    parsed = [fio._parse(p.read_text(), str(p)) for p in sorted(tmp_path.glob("*.json"))]
    assert not any(type(v) is Runs for p in parsed for v in p.columns[0].values())
    pd.testing.assert_frame_equal(got, es.read(tmp_path, jobs=1, progress=False))
    pd.testing.assert_frame_equal(got_series, es.read_series(tmp_path, jobs=1, progress=False))
    # and through Parquet
    out = tmp_path / "r.parquet"
    es.to_parquet(got, out)
    pd.testing.assert_frame_equal(es.read_parquet(out), got)


def test_columns_take_runs_as_the_per_row_lists_they_stand_for():
    # _common.Columns (a reader's series without a DataFrame): a Runs piece kept as it is (not
    # wrapped as one value on every row), its plain frame and its typed series the list's
    runs = Runs(["read", "write", "read"], [2, 0, 1])
    cols = {"t": [0.0, 1.0, 2.0], "value": [1.5, 2.5, 3.5], "metric": "iops", "op": runs}
    lists = {**cols, "op": ["read", "read", "read"]}
    got, want = _common.Columns(cols, 3), _common.Columns(lists, 3)
    assert got.cols["op"] is runs and type(got.cols["metric"]) is Const
    pd.testing.assert_frame_equal(got.frame(), want.frame())
    meta = {"source": "x.log", "tool": "fio", "run_key": "r", "test": "t"}
    pd.testing.assert_frame_equal(_common.series_of([_common.series_chunk(got, meta)]),
                                  _common.series_of([_common.series_chunk(want, meta)]))

"""The constant columns of a usual report of several jobs made at once (``_jobs_columns``)
against the rule it shortens (``_job_columns`` of a dict per job, :func:`_base_of`): the same
columns in the same order, the same pieces (Const or Runs) holding the same values of the same
types, on the genuine multi-job fixtures and on random jobs (names, groups, option metadata
shared, copied, equal but of other types, of other keys; start times; flags and hosts; jobs of
no row)."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ebsstats.io import fio
from ebsstats.io.fio import json as fio_json
from tests.conftest import fixture


def _rule(source, version, infos, n):
    return fio_json._job_columns([(fio_json._base_of(source, version, info), info[6])
                                  for info in infos])[0]


def _same(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for k in want:
        g, w = got[k], want[k]
        assert type(g) is type(w), k
        assert g == w, k
        gv = g.values if type(g) is fio_json.Runs else g if type(g) is list else (g.value,)
        wv = w.values if type(w) is fio_json.Runs else w if type(w) is list else (w.value,)
        assert [type(x) for x in gv] == [type(x) for x in wv], k


T0 = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def _infos(rng: random.Random):
    metas = [{"workload": "randread", "iodepth": 1, "rw": "randread"},
             {"workload": "randread", "iodepth": True, "rw": "randread"},  # (1 == True)
             {"workload": "write", "iodepth": 4, "rw": "write"},
             {"rw": "randread", "workload": "randread", "iodepth": 1}]  # (other key order)
    shared = rng.choice(metas)
    infos = []
    for i in range(rng.randint(2, 5)):
        meta = shared if rng.random() < 0.6 else (
            dict(shared) if rng.random() < 0.5 else rng.choice(metas))
        tail = {} if rng.random() < 0.9 else rng.choice([{"host": "h"}, {"flag": "aggregate"}])
        ts = rng.choice([T0, T0, T0 + dt.timedelta(seconds=1), None])
        m = rng.choice([3, 3, 5, 0]) if rng.random() < 0.95 else 0
        infos.append((f"$.jobs[{i}]", rng.choice(["a", "a", "b", ""]),
                      rng.choice(["0", "0", "1", "None"]), meta, tail, ts, m, False))
    return infos


@pytest.mark.parametrize("seed", range(500))
def test_jobs_columns_are_the_rule(seed):
    rng = random.Random(seed)
    infos = _infos(rng)
    n = sum(info[6] for info in infos)
    version = rng.choice(["fio-3.33", None])
    _same(fio_json._fast_columns("x.json", version, infos, n),
          _rule("x.json", version, infos, n))


def test_equal_metadata_of_other_types_is_not_shared():
    a = {"iodepth": 1}
    b = {"iodepth": True}
    infos = [("$.jobs[0]", "a", "0", a, {}, T0, 2, False),
             ("$.jobs[1]", "a", "0", b, {}, T0, 2, False)]
    got = fio_json._fast_columns("x.json", "fio-3.33", infos, 4)
    assert type(got["iodepth"]) is fio_json.Runs
    _same(got, _rule("x.json", "fio-3.33", infos, 4))


@pytest.mark.parametrize("name", ["multi_gr_json.json", "f2110_multi_gr_json.json",
                                  "multi_json.json", "stonewall_groups_json.json"])
def test_multi_job_fixtures_read_alike(name, monkeypatch):
    text = fixture("fio", name).read_text()
    got = fio._parse(text, name).columns
    monkeypatch.setattr(fio_json, "_jobs_columns", lambda *a: None)  # (the rule alone)
    monkeypatch.setattr(fio_json, "_COLUMNS_MADE", {})  # (none made by _jobs_columns kept)
    want = fio._parse(text, name).columns
    assert got[1] == want[1]
    _same(got[0], want[0])


@pytest.mark.parametrize("seed", range(300))
def test_columns_made_again_from_a_kept_layout_are_the_rule(seed):
    # _fast_columns keeps a layout's columns and sets source and timestamp anew: a report of
    # the same jobs (one or several) with another source and other start times gives the rule
    rng = random.Random(seed)
    infos = _infos(rng)[:rng.choice([1, 5])]
    n = sum(info[6] for info in infos)
    version = rng.choice(["fio-3.33", None])
    for source in ("x.json", "y.json", "z.json"):
        _same(fio_json._fast_columns(source, version, infos, n),
              _rule(source, version, infos, n))
        infos = [(*info[:5], rng.choice([T0, T0 + dt.timedelta(seconds=2), None]), *info[6:])
                 for info in infos]
        # (the same metadata dicts: the kept columns are found; equal copies: made again)
        if rng.random() < 0.3:
            infos = [(*info[:3], dict(info[3]), *info[4:]) for info in infos]


def test_kept_columns_are_copies_the_caller_may_extend(monkeypatch):
    monkeypatch.setattr(fio_json, "_COLUMNS_MADE", {})
    monkeypatch.setattr(fio_json, "_COLUMNS_SEEN", {})
    meta = {"workload": "read", "iodepth": 1, "rw": "read"}
    info = ("$.jobs[0]", "a", "0", meta, {}, T0, 2, False)
    for source in ("a.json", "b.json", "c.json"):  # (kept from the second, found the third)
        cols = fio_json._fast_columns(source, "fio-3.33", [info], 2)
        assert "value" not in cols and cols["source"] == fio_json.Const(source, 2)
        _same(cols, _rule(source, "fio-3.33", [info], 2))
        cols["value"] = [1.0, 2.0]  # (the caller adds its row columns)
    assert len(fio_json._COLUMNS_MADE) == 1


@pytest.mark.parametrize("jobs", [1, 3])
def test_a_layout_s_columns_are_kept_from_its_second_report(monkeypatch, jobs):
    # a folder of distinct reports keeps no copy of their columns: a layout's are kept when it
    # is seen again, and found from its third report on (each time the rule's columns)
    monkeypatch.setattr(fio_json, "_COLUMNS_MADE", {})
    monkeypatch.setattr(fio_json, "_COLUMNS_SEEN", {})
    meta = {"workload": "read", "iodepth": 1, "rw": "read"}
    infos = [(f"$.jobs[{i}]", f"j{i}", "0", meta, {}, T0, 2, False) for i in range(jobs)]
    made = []
    saved = fio_json._made_columns

    def counted(*args):
        made.append(args[0])
        return saved(*args)

    monkeypatch.setattr(fio_json, "_made_columns", counted)
    kept = []
    for source in ("a.json", "b.json", "c.json", "d.json"):
        cols = fio_json._fast_columns(source, "fio-3.33", infos, 2 * jobs)
        _same(cols, _rule(source, "fio-3.33", infos, 2 * jobs))
        kept.append(len(fio_json._COLUMNS_MADE))
    assert made == ["a.json", "b.json"] and kept == [0, 1, 1, 1]

"""Property tests of the typing contract of :mod:`ebsstats.io._columns` (the fixtures' frames
themselves are pinned by ``tests/test_golden.py``): however rows arrive — as records, split into
files, as constants or lists — they type to the same frame, in the schema's columns and dtypes,
with each value kept."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats.errors import SchemaError
from ebsstats.io import _columns, _common
from ebsstats.io._columns import Const
from ebsstats.schema import COLUMNS, META_COLUMNS, metric_info, run_id

_text = st.text(alphabet="abcxyz-_/. 0123456789", min_size=1, max_size=8)
_record = st.fixed_dictionaries(
    {"source": st.sampled_from(["a.json", "b/c.csv", "d.txt"]),
     "tool": st.sampled_from(["fio", "bonnie++", "sysbench", "pts"]),
     "test": _text,
     "metric": st.sampled_from(["iops", "bandwidth", "lat_mean", "clat_p99.9", "cpu"]),
     "value": st.one_of(st.floats(0, 1e12), st.integers(0, 10**9)),
     "run_key": st.sampled_from(["$.jobs[0]", "$.jobs[1]", "line 3"])},
    optional={"op": st.one_of(st.none(), st.sampled_from(["read", "write", "total"])),
              "workload": st.one_of(st.none(), st.sampled_from(["randread", "seqwrite"])),
              "block_size": st.one_of(st.none(), st.integers(512, 2**20)),
              "threads": st.one_of(st.none(), st.integers(1, 64)),
              "timestamp": st.one_of(st.none(), st.sampled_from(
                  ["2024-03-04T10:00:00Z", "2024-03-05T23:59:59+02:00"])),
              "position": _text, "config": st.one_of(st.none(), _text),
              "size_gib": st.one_of(st.none(), st.floats(1, 16384)),
              "job": st.one_of(st.none(), _text, st.integers(0, 9), st.floats(0, 9)),
              "synthetic": st.booleans()})


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a, b, check_exact=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_record, min_size=1, max_size=25), st.data())
def test_rows_type_alike_however_they_arrive(records, data):
    whole = _columns.frame(records)
    # split into "files" at arbitrary points: typed together, the same frame
    cuts = sorted(data.draw(st.lists(st.integers(0, len(records)), max_size=4)))
    parts = [records[a:b] for a, b in zip([0, *cuts], [*cuts, len(records)], strict=True)]
    chunks = [_common.record_chunk(p) for p in parts if p]
    _same(_common.results_of(chunks), whole)
    # the schema's columns first, in order, with their dtypes; extras sorted, as strings
    fixed = list(COLUMNS) + list(META_COLUMNS)
    assert list(whole.columns[: len(fixed)]) == fixed
    extras = list(whole.columns[len(fixed):])
    assert extras == sorted(extras) and all(whole[c].dtype == "string" for c in extras)
    es.validate(whole)
    # each value kept, in canonical form
    assert whole["value"].tolist() == [float(r["value"]) for r in records]
    assert whole["unit"].astype(str).tolist() == [metric_info(r["metric"])[0] for r in records]
    assert whole["run_id"].tolist() == [run_id(r["source"], r["run_key"]) for r in records]
    if "job" in whole:
        want = [None if r.get("job") is None else
                str(int(r["job"])) if isinstance(r["job"], float) and r["job"].is_integer()
                else str(r["job"]) for r in records]
        assert [None if v is pd.NA else v for v in whole["job"].tolist()] == want
    for col in ("block_size", "threads"):
        got = [None if v is pd.NA else v for v in whole[col].tolist()]
        assert got == [r.get(col) for r in records]


@settings(max_examples=40, deadline=None)
@given(st.one_of(_text, st.integers(-5, 5), st.booleans(), st.floats(-1, 1), st.none()),
       st.integers(1, 30), st.sampled_from(["test", "config", "extra", "block_size"]))
def test_a_constant_types_as_its_repetitions(value, n, column):
    if column == "block_size" and not (isinstance(value, int) and not isinstance(value, bool)):
        value = None
    base = {"source": [Const("s", n)], "tool": [Const("fio", n)], "metric": [Const("iops", n)],
            "value": [Const(1.0, n)], "test": [Const("t", n)]}
    a = _columns.frame_of_columns({**base, column: [Const(value, n)]}, [n])
    b = _columns.frame_of_columns({**base, column: [[value] * n]}, [n])
    _same(a, b)


def test_a_list_shared_by_chunks_types_as_its_copies():
    """A reader may give several files the same list object (a layout's metric names): typed
    once, spread to each file's rows, as copies of it would type."""
    metric = ["iops", "bandwidth", "lat_mean"]
    pieces = {"source": [Const("a.json", 3), Const("b.json", 3), Const("c.json", 2)],
              "tool": [Const("fio", 8)], "test": [Const("t", 8)],
              "metric": [metric, metric, ["iops", "iops"]],
              "position": [["$.a", "$.b", "$.c"]] * 2 + [Const("$.d", 2)],
              "value": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0]]}
    copies = {k: [list(p) if isinstance(p, list) else p for p in v] for k, v in pieces.items()}
    shared = _columns.frame_of_columns(pieces, [3, 3, 2])
    pd.testing.assert_frame_equal(shared, _columns.frame_of_columns(copies, [3, 3, 2]))
    assert shared["metric"].tolist() == metric * 2 + ["iops", "iops"]
    assert shared["position"].tolist() == ["$.a", "$.b", "$.c"] * 2 + ["$.d"] * 2


def test_distinct_values_that_python_calls_equal_stay_distinct():
    # 1, 1.0 and True hash alike; 0.0 and -0.0 too: typed by value, not merged
    cols = {"source": [Const("s", 1)] * 5, "tool": [Const("fio", 1)] * 5,
            "metric": [Const("iops", 1)] * 5, "value": [Const(1.0, 1)] * 5,
            "test": [Const("t", 1)] * 5,
            "x": [Const(1, 1), Const(1.0, 1), Const(True, 1), Const(0.0, 1), Const(-0.0, 1)]}
    df = _columns.frame_of_columns(cols, [1] * 5)
    assert df["x"].tolist() == ["1", "1", "True", "0", "0"]  # str() of each, never merged


def test_concat_unions_categories_and_conform_is_idempotent():
    a = _columns.frame([{"source": "x", "tool": "fio", "test": "t", "metric": "iops",
                         "value": 1.0, "run_key": "k", "job": 3}])
    b = _columns.frame([{"source": "y", "tool": "pts", "test": "u", "metric": "score",
                         "unit": "MB/s", "value": 2.0, "run_key": "k"}])
    df = _columns.concat([a, b])
    assert list(df["metric"].cat.categories) == ["iops", "score"]
    assert list(df["tool"].cat.categories) == ["fio", "pts"]
    assert df["job"].tolist()[0] == "3" and pd.isna(df["job"].tolist()[1])
    _same(_columns.conform(df), df)
    assert math.isclose(df["value"].sum(), 3.0)


def test_empty_frames_have_every_column_and_pass_the_contract():
    e = es.schema.empty()
    assert list(e.columns) == list(COLUMNS) + list(META_COLUMNS) and len(e) == 0
    es.validate(e)
    es.validate_series(es.schema.empty_series())
    _same(_columns.conform(e), e)


def test_untypeable_values_raise_schema_error_naming_the_column():
    with pytest.raises(SchemaError, match="'threads'"):
        _columns.frame([{"source": "x", "tool": "fio", "test": "t", "metric": "iops",
                         "value": 1.0, "threads": "many"}])
    assert np.isnan(_columns.frame([{"source": "x", "tool": "fio", "test": "t",
                                     "metric": "iops", "value": float("nan"),
                                     "flag": "error=5"}])["value"][0])


def test_moved_constructors_say_where_they_went():
    with pytest.raises(AttributeError, match="ebsstats.io.frame"):
        es.schema.frame  # noqa: B018
    assert es.io.frame is _columns.frame


def test_a_typed_frame_never_writes_through_to_the_callers_frame():
    # the typed frame is built from its columns' arrays where typing made them (faster than
    # from Series); a column that may be the caller's array stays copy-on-write
    df = es.read(str(Path(__file__).parent / "fixtures" / "bonnie" / "bon_q_s512_n0.csv"))
    before = df.copy()
    out = _columns.conform(df)
    out.loc[0, "value"] = -1.0
    out.loc[0, "run_id"] = "changed"
    pd.testing.assert_frame_equal(df, before)
    built = _columns.frame(df)
    built.loc[0, "value"] = -2.0
    pd.testing.assert_frame_equal(df, before)



def test_an_integer_beyond_64_bits_is_a_schema_error_not_a_crash():
    # any reader that lets one through: its file becomes a failure, never the read's end
    with pytest.raises(SchemaError, match="block_size"):
        _columns.frame([{"source": "a", "tool": "fio", "test": "t", "metric": "iops",
                         "value": 1.0, "block_size": 2**70}])

"""Columns of Const and Runs pieces typed run by run (values and counts flattened in C, each
run's value repeated without a code per row, UTC datetimes from their microseconds) against
the rule they replace: the Const pieces of the runs, factorized (:func:`_consts_by_codes`),
typed and spread by a code per row, or the general loop (``pd.to_datetime``)."""

from __future__ import annotations

import datetime
import random

import numpy as np
import pandas as pd
import pytest

from ebsstats import schema
from ebsstats.io import _columns
from ebsstats.io._columns import Const, Runs

UTC = datetime.UTC


def _old_consts_typed(values, counts, dtype, extra):
    """The replaced rule: factorize the Const pieces, type, spread by per-row codes; ``None``
    (the general loop) for other values."""
    fast = _columns._consts_by_codes(list(map(Const, values, counts)))
    if fast is None:
        return None
    vals, codes, n = fast
    if codes is None:
        return _columns._repeat_value(vals[0], n, dtype, extra)
    return _columns._spread(_columns._from_list(vals, dtype, extra), codes, n)


def _typed(pieces, dtype, extra):
    try:
        return _columns._typed_column(pieces, dtype, extra), None
    except Exception as exc:  # (the kind and text of the failure are compared)
        return None, (type(exc), str(exc))


def _reference(monkeypatch, pieces, dtype, extra):
    with monkeypatch.context() as m:
        m.setattr(_columns, "_consts_typed", _old_consts_typed)
        m.setattr(_columns, "_flat_runs", lambda pieces: None)
        return _typed(pieces, dtype, extra)


def _same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype
    if isinstance(got, pd.arrays.ArrowStringArray):
        assert got.dtype is want.dtype
        assert got.__arrow_array__().equals(want.__arrow_array__())
        assert got.__arrow_array__().num_chunks == want.__arrow_array__().num_chunks
    if isinstance(got, pd.Categorical):
        assert got.codes.dtype == want.codes.dtype
        assert list(got.categories) == list(want.categories)
        assert got.categories.dtype == want.categories.dtype
    if isinstance(got, np.ndarray):
        np.testing.assert_array_equal(got, want)
        assert got.flags.writeable == want.flags.writeable
    else:
        pd.testing.assert_extension_array_equal(got, want, check_exact=True)
        assert getattr(got, "_readonly", None) == getattr(want, "_readonly", None)
    if isinstance(got, pd.arrays.DatetimeArray):
        assert got.asi8.flags.writeable == want.asi8.flags.writeable


T0 = datetime.datetime(2026, 11, 26, 19, 13, 24, 292000, tzinfo=UTC)
POOLS = {
    "str": ["a", "b", "", "\u00e9t\u00e9", "ext4", "a\x00b", "z" * 50],
    "str_none": ["a", "b", None, "c"],
    "surrogate": ["a", "\ud800", "b"],
    "int": [0, 1, 7, -3, 2**40],
    "int_none": [1, None, 5],
    "big": [1, 2**70],
    "mixed": [1, True, 1.0, "1", None],
    "float": [1.5, float("nan"), 2.0],
    "utc": [T0, T0 + datetime.timedelta(microseconds=1), T0 - datetime.timedelta(days=9000)],
    "utc_far": [T0, datetime.datetime(2300, 1, 1, tzinfo=UTC),
                datetime.datetime(1600, 1, 1, tzinfo=UTC)],
    "utc_edge": [T0, datetime.datetime(2255, 1, 1, tzinfo=UTC),
                 datetime.datetime(1685, 1, 1, tzinfo=UTC)],
    "other_tz": [T0, datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone(
        datetime.timedelta(hours=2)))],
    "naive_utc": [T0, datetime.datetime(2026, 1, 1)],
    "stamps": [pd.Timestamp(T0), pd.Timestamp("2024-01-01", tz="UTC")],
    "utc_none": [T0, None],
}
DTYPES = [(schema.STRING, False), (schema.STRING, True), ("category", False),
          (pd.Int64Dtype(), False), (pd.BooleanDtype(), False),
          (pd.DatetimeTZDtype("ns", "UTC"), False)]


def _pieces(rng, pool, runs, zero):
    out = []
    for _ in range(rng.choice([2, 3, 10, 70, 200])):
        if runs and rng.random() < 0.4:
            k = rng.randint(1, 4)
            counts = [rng.randint(0 if zero else 1, 40) for _ in range(k)]
            out.append(Runs([rng.choice(pool) for _ in range(k)], counts))
        else:
            out.append(Const(rng.choice(pool), rng.randint(0 if zero else 1, 40)))
    return out


@pytest.mark.parametrize("pool", sorted(POOLS))
@pytest.mark.parametrize("dtype,extra", DTYPES)
@pytest.mark.parametrize("runs", [False, True])
@pytest.mark.parametrize("decoded", [0, _columns._RUNS_DECODED])
def test_runs_typed_as_the_rule(monkeypatch, pool, dtype, extra, runs, decoded):
    monkeypatch.setattr(_columns, "_RUNS_DECODED", decoded)  # (0: every column run-wise)
    rng = random.Random(f"{pool}{dtype}{extra}{runs}")
    for case in range(30):
        pieces = _pieces(rng, POOLS[pool], runs, zero=case % 5 == 4)
        got, err = _typed(pieces, dtype, extra)
        want, want_err = _reference(monkeypatch, pieces, dtype, extra)
        assert err == want_err, (pieces, dtype, extra)
        if err is None:
            _same(got, want)


@pytest.mark.parametrize("pieces", [
    [Runs(["a", "b"], [1]), Const("c", 1)],
    [Runs(["a", "b"], [1, np.int64(2)]), Const("c", 1)],
    [Runs(["a", "b"], [1, -2]), Const("c", 1)],
    [Runs(["a", "b"], [1, True]), Const("c", 1)],
    [Runs(["a", "b"], 3), Const("c", 1)],
    [Runs(["a", "b"], [1, 2.0]), Const("c", 1)],
    [Runs(["a", "b"], [0, 0]), Const("c", 1)],
    [Const("c", 1), Const("d", -1)],
    [Const("c", 1), Const("d", np.int64(2))],
])
@pytest.mark.parametrize("dtype,extra", DTYPES)
@pytest.mark.parametrize("decoded", [0, _columns._RUNS_DECODED])
def test_bad_or_empty_runs_as_the_rule(monkeypatch, pieces, dtype, extra, decoded):
    monkeypatch.setattr(_columns, "_RUNS_DECODED", decoded)
    pieces = pieces * 40  # (many pieces: past the few-pieces paths)
    got, err = _typed(pieces, dtype, extra)
    want, want_err = _reference(monkeypatch, pieces, dtype, extra)
    assert err == want_err
    if err is None:
        _same(got, want)


def test_flat_runs_refuses_what_the_rule_drops_or_refuses():
    assert _columns._flat_runs([Const("a", 1), Runs(["b"], [2])]) == (["a", "b"], [1, 2])
    for bad in ([Runs(["b", "c"], [2, 0])], [Const("a", 0)], [Runs(["b"], [True])],
                [Runs(["b"], [1, 2])], [Runs(["b"], 1)], []):
        assert _columns._flat_runs(bad) is None


def test_aware_consts_exact_microseconds():
    times = [T0 + datetime.timedelta(microseconds=k * 7919) for k in range(500)]
    got = _columns._aware_consts(times, [2] * 500, _columns._UTC_NS)
    want = pd.to_datetime(pd.Series([t for t in times for _ in range(2)], dtype=object),
                          utc=True).astype(_columns._UTC_NS).array
    pd.testing.assert_extension_array_equal(got, want, check_exact=True)
    assert _columns._aware_consts([pd.Timestamp(T0)], [1], _columns._UTC_NS) is None
    assert _columns._aware_consts([T0], [1], pd.DatetimeTZDtype("us", "UTC")) is None


def test_absent_string_columns_share_their_nulls_as_typing_gives_them():
    nulls: list = []
    cols = [_columns._absent(schema.STRING, 5, nulls) for _ in range(3)]
    want = _columns._typed_column([Const(None, 5)], schema.STRING)
    for col in cols:
        _same(col, want)
    cols[1][0] = "x"  # (a write replaces that column's own data)
    assert cols[1].tolist()[0] == "x" and cols[0].isna().all() and cols[2].isna().all()
    for dtype in (pd.Int64Dtype(), "category", pd.BooleanDtype(), pd.Float64Dtype()):
        _same(_columns._absent(dtype, 5, nulls), _columns._typed_column([Const(None, 5)], dtype))


def test_frame_with_absent_columns_writes_one_column_only():
    df = _columns.frame_of_columns({"source": [Const("a", 2)], "tool": [Const("fio", 2)],
                                    "test": [Const("t", 2)], "metric": [Const("iops", 2)],
                                    "value": [[1.0, 2.0]], "run_key": [Const("k", 2)]}, [2])
    df.loc[0, "host"] = "h"
    assert df["host"].tolist()[0] == "h" and df["volume"].isna().all() and df["az"].isna().all()


FLOATS = [1.5, float("nan"), None, 3, True, "2.5", "x", 2**70, 2**1100, [1.0], -0.0, float("inf")]


@pytest.mark.parametrize("dtype", [np.float64, pd.Float64Dtype()])
def test_float_lists_joined_as_the_loop_joins_them(dtype):
    rng = random.Random(str(dtype))
    for _ in range(300):
        lists = [[rng.choice(FLOATS) for _ in range(rng.randint(0, 4))]
                 for _ in range(rng.randint(2, 6))]
        try:
            got, err = _columns._typed_column(lists, dtype), None
        except Exception as exc:  # (the kind and text of the failure are compared)
            got, err = None, (type(exc), str(exc))
        try:
            want, want_err = _columns._parts_typed(lists, dtype, False), None
        except Exception as exc:
            want, want_err = None, (type(exc), str(exc))
        assert err == want_err, lists
        if err is None:
            _same(got, want)


@pytest.mark.parametrize("seed", range(5))
def test_vocabulary_columns_as_indexing_by_codes(seed):
    rng = np.random.default_rng(seed)
    names = ["bandwidth", "iops", "runtime", "clat_mean", "score"][: 2 + seed % 4]
    metric = pd.Categorical.from_codes(rng.integers(-1, len(names), 500).astype(np.int8),
                                       dtype=pd.CategoricalDtype(sorted(names)))
    unit, hib = _columns._vocabulary_columns(metric)
    per_metric, unit_dtype, hib_of, known = _columns._vocabulary_of(tuple(sorted(names)))
    codes = metric.codes
    want_unit = pd.Categorical.from_codes(per_metric[codes], dtype=unit_dtype)
    want_hib = pd.arrays.BooleanArray(hib_of[codes], ~known[codes])
    pd.testing.assert_extension_array_equal(unit, want_unit)
    pd.testing.assert_extension_array_equal(hib, want_hib)
    assert unit.codes.dtype == want_unit.codes.dtype and hib._data.flags.writeable

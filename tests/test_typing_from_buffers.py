"""Typing shortcuts against the general rules they replace: a repeated string built
from its buffers, missing masked values built directly, an Index of strings built without
pandas' constructor."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ebsstats import schema
from ebsstats.io import _columns


def _repeat_by_arrow(value, n):
    """The rule: Arrow's repeat of the value's scalar (its nulls for ``None``)."""
    arr = (pa.nulls(n, pa.large_string()) if value is None
           else pa.repeat(pa.scalar(value, pa.large_string()), n))
    return pd.arrays.ArrowStringArray(arr, dtype=_columns._ARROW_STRING)


def _outcome(fn, *args):
    try:
        return fn(*args), None
    except Exception as exc:  # (the kind of failure is compared)
        return None, type(exc)


TEXTS = [None, "", "a", "ext4", "\u00e9t\u00e9", "\u4e2d\u6587", "\U0001f600", "a\x00b",
         "\ud800", "x\udfffy", " " * 300]


@pytest.mark.parametrize("value", TEXTS)
@pytest.mark.parametrize("n", [0, 1, 2, 297, 1188, 20000])
def test_repeat_str_is_arrows_repeat(value, n):
    got, err = _outcome(_columns._repeat_str, value, n)
    want, want_err = _outcome(_repeat_by_arrow, value, n)
    assert err is want_err
    if err is None:
        assert type(got) is type(want) and got.dtype is want.dtype
        assert got.__arrow_array__().type == pa.large_string()
        assert got.__arrow_array__().equals(want.__arrow_array__())
        assert got.__arrow_array__().null_count == want.__arrow_array__().null_count
        pd.testing.assert_series_equal(pd.Series(got), pd.Series(want), check_exact=True)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.integers(0, 50))
def test_repeat_str_is_arrows_repeat_on_any_text(value, n):
    got, err = _outcome(_columns._repeat_str, value, n)
    want, want_err = _outcome(_repeat_by_arrow, value, n)
    assert err is want_err
    if err is None:
        assert got.tolist() == want.tolist() == [value] * n
        assert got.__arrow_array__().equals(want.__arrow_array__())


@pytest.mark.parametrize("dtype", [pd.Int64Dtype(), pd.Float64Dtype(), pd.BooleanDtype(),
                                   schema.STRING])
@pytest.mark.parametrize("extra", [False, True])
def test_repeat_none_is_none_typed_and_repeated(dtype, extra):
    for n in (0, 1, 5):
        fast = _columns._repeat_none(dtype, extra, n)
        general = _columns._repeat_one(_columns._from_list([None], dtype, extra), n)
        assert type(fast) is type(general)
        pd.testing.assert_series_equal(pd.Series(fast), pd.Series(general), check_exact=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=12), max_size=8, unique=True))
def test_str_index_is_the_index_constructor(names):
    try:
        want = pd.Index(list(names), dtype="str")
    except Exception as exc:  # (a text Arrow refuses: the same failure)
        with pytest.raises(type(exc)):
            _columns._str_index(names)
        return
    got = _columns._str_index(names)
    assert type(got) is type(want)
    pd.testing.assert_index_equal(got, want, exact=True)
    assert got.dtype == want.dtype and got.name is None
    df = pd.DataFrame(np.zeros((1, len(names))), columns=got)  # an Index pandas takes
    assert list(df.columns) == list(names)


def test_str_index_is_the_constructor_on_categories():
    cats = ["bandwidth", "iops", "runtime"]
    a = _columns._categorical_dtype(cats)
    b = pd.CategoricalDtype(pd.Index(cats, dtype="str"))
    assert a == b and a.categories.dtype == b.categories.dtype
    pd.testing.assert_index_equal(a.categories, b.categories, exact=True)


_run_value = st.sampled_from(["", "a", "ext4", "campaign__pts__week-1__composite.xml", "\u00e9",
                              "\U0001f600", "\ud800", None, 1, True, 2.5])


def _general(pieces, dtype, extra, monkeypatch):
    with monkeypatch.context() as mp:
        mp.setattr(_columns, "_str_runs", lambda pieces: None)
        return _outcome(_columns._typed_column, pieces, dtype, extra)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_run_value, st.integers(0, 6)), min_size=1, max_size=8),
       st.booleans())
def test_string_runs_are_typed_as_their_distinct_values_spread(runs, extra):
    pieces = [_columns.Const(v, n) for v, n in runs]
    with pytest.MonkeyPatch.context() as mp:
        want, want_err = _general(pieces, schema.STRING, extra, mp)
    got, err = _outcome(_columns._typed_column, pieces, schema.STRING, extra)
    assert err is want_err
    if err is None:
        assert type(got) is type(want) and got.dtype == want.dtype
        pd.testing.assert_series_equal(pd.Series(got), pd.Series(want), check_exact=True)
        assert got.__arrow_array__().equals(want.__arrow_array__())


def test_string_runs_take_only_strs_and_counts():
    C = _columns.Const
    assert _columns._str_runs([C("a", 2), C(None, 1)]) is None
    assert _columns._str_runs([C("a", 2), C(1, 1)]) is None
    assert _columns._str_runs([C("a", 2.0)]) is None
    assert _columns._str_runs([C("a", -1)]) is None
    assert _columns._str_runs([C("\ud800", 1)]) is None
    assert _columns._str_runs([]) is None
    got = _columns._str_runs([C("ab", 2), C("", 0), C("\u00e9", 1), C("ab", 1)])
    assert got.tolist() == ["ab", "ab", "\u00e9", "ab"]
    assert got.__arrow_array__().num_chunks == 1


_zone = st.sampled_from(["UTC", "Europe/Paris", "America/New_York"])
_stamp = st.builds(lambda s, z, u: pd.Timestamp(s, unit="s", tz=z).as_unit(u),
                   st.integers(-2**33, 2**33), _zone, st.sampled_from(["s", "ms", "us", "ns"]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(_stamp, _stamp, _stamp, st.none(),
                                    st.just(pd.Timestamp(0)), st.just("2024-01-01T00:00:00Z")),
                          st.integers(1, 60), st.sampled_from(["same", "copies", "earlier"])),
                min_size=1, max_size=12))
def test_aware_rows_in_runs_type_as_the_general_factorize(runs):
    """Long runs of one object (the runs branch), equal copies, and an earlier run's object
    again, against factorize + to_datetime."""
    values: list = []
    for value, n, how in runs:
        if how == "earlier" and values:
            value = values[n % len(values)]
        if how == "copies" and isinstance(value, pd.Timestamp):
            values += [pd.Timestamp(value) for _ in range(n)]
        else:
            values += [value] * n
    dtype = schema.COLUMNS["timestamp"]
    fast = _columns._aware_rows(values, dtype)
    if fast is None:
        assert any(not isinstance(v, pd.Timestamp) or v.tz is None for v in values)
        return
    codes, uniques = _columns._factorize_objects(values)
    general = _columns._aware_timestamps(uniques, dtype).take(codes, allow_fill=True)
    pd.testing.assert_extension_array_equal(fast, general)
    want = pd.to_datetime(pd.Series(values, dtype=object), utc=True).astype(dtype).array
    pd.testing.assert_extension_array_equal(fast, want)


_text = st.one_of(st.sampled_from(["", "a", "b", "ext4", "\u00e9", "\U0001f600"]),
                  st.sampled_from(["a", "b"]), _run_value)  # (mostly strings)
_count = st.one_of(st.integers(0, 5), st.integers(0, 5), st.sampled_from([-1, 1.0, True]))
_piece = st.one_of(
    st.builds(_columns.Const, _text, st.integers(0, 5)),
    st.lists(st.tuples(_text, _count), max_size=4).map(
        lambda runs: _columns.Runs([v for v, _ in runs], [c for _, c in runs])),
    st.builds(lambda vs, cs: _columns.Runs(vs, cs), st.lists(_text, max_size=3),
              st.lists(st.integers(0, 3), max_size=3)))  # (values and counts apart)


@settings(max_examples=500, deadline=None)
@given(st.lists(_piece, min_size=1, max_size=6), st.booleans())
def test_string_runs_pieces_are_typed_as_their_consts(pieces, extra):
    """Runs and Const pieces of a string column, from their runs' bytes, as typing the Const
    pieces of the runs gives them (the rule), failures alike (bad counts, lone surrogates)."""
    got, err = _outcome(_columns._typed_column, pieces, schema.STRING, extra)
    want, want_err = _outcome(lambda: _columns._typed_column(_columns._without_runs(pieces),
                                                             schema.STRING, extra))
    assert err is want_err
    if err is None:
        assert type(got) is type(want) and got.dtype == want.dtype
        pd.testing.assert_series_equal(pd.Series(got), pd.Series(want), check_exact=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.integers(-2**63 + 1, 2**63 - 1), st.just(-2**63)), max_size=20))
def test_utc_ns_is_the_index_constructor(values):
    """Nanoseconds (NaT's among them) as the UTC array DatetimeIndex makes of them."""
    ns = np.array(values, dtype=np.int64)
    want = pd.DatetimeIndex(ns.copy().view("datetime64[ns]"), tz="UTC").array
    got = _columns._utc_ns(ns)
    assert type(got) is type(want) and got.dtype == want.dtype and str(got.dtype) == str(
        want.dtype)
    pd.testing.assert_extension_array_equal(got, want)
    assert got.asi8.tolist() == want.asi8.tolist() == values
    assert got._readonly is want._readonly  # (an Index's .array: read-only from pandas 3.1)
    pd.testing.assert_series_equal(pd.Series(got), pd.Series(want), check_exact=True)

"""Shortcuts of the typing engine (:mod:`ebsstats.io._columns`), each tested against
the general rule it replaces: run ids kept between reads (:func:`ebsstats.schema.run_id`'s
values, never another type's)."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ebsstats import schema
from ebsstats.errors import SchemaError
from ebsstats.io import _columns, _common
from ebsstats.io._columns import Const

_keys = st.one_of(st.text(max_size=8), st.integers(-3, 3), st.booleans(), st.none(),
                  st.sampled_from([1.0, 0.0, -0.0, float("nan")]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b.json", "", "1", "\udc80"]), _keys),
                max_size=12))
def test_kept_run_ids_are_run_id_whatever_was_kept_before(pairs):
    # 1, 1.0 and True are equal and hash alike, but their ids differ: none may be given
    # another's kept id, in any order, and a source that cannot be encoded raises each time
    for source, key in pairs + pairs[::-1]:
        try:
            want = schema.run_id(source, key)
        except UnicodeEncodeError:
            try:
                _columns._run_id(source, key)
            except UnicodeEncodeError:
                continue
            raise AssertionError("an unencodable source gave an id") from None
        assert _columns._run_id(source, key) == want


def test_kept_run_ids_are_bounded(monkeypatch):
    monkeypatch.setattr(_columns, "_RUN_IDS", {})
    monkeypatch.setattr(_columns, "_RUN_IDS_KEPT", 0)
    monkeypatch.setattr(_columns, "_RUN_IDS_MOST", 3)
    for k in range(10):
        assert _columns._run_id("s", k) == schema.run_id("s", k)
        assert sum(map(len, _columns._RUN_IDS.values())) == _columns._RUN_IDS_KEPT <= 3


def _chunks(key_lists: bool):
    out = []
    for j in range(3):
        n = 4
        keys = [f"r{i % 2}" for i in range(n)] if key_lists else Const(f"r{j}", n)
        out.append(({"source": Const(f"f{j}.json", n), "tool": Const("fio", n),
                     "test": Const("t", n), "metric": Const("iops", n),
                     "value": [1.0] * n, "run_key": keys}, n))
    return out


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.booleans())
def test_a_read_again_hashes_no_run_and_gives_the_same_frame(monkeypatch, key_lists):
    monkeypatch.setattr(_columns, "_RUN_IDS", {})
    monkeypatch.setattr(_columns, "_RUN_IDS_KEPT", 0)
    first = _common.results_of(_chunks(key_lists), validated=True)
    calls = []
    monkeypatch.setattr(_columns, "run_id", lambda *a: calls.append(a) or schema.run_id(*a))
    monkeypatch.setattr(_columns, "run_ids", lambda *a: calls.append(a) or schema.run_ids(*a))
    again = _common.results_of(_chunks(key_lists), validated=True)
    assert calls == []
    pd.testing.assert_frame_equal(first, again)
    want = [schema.run_id(s, k) for s, k in zip(first["source"], first["run_id"].index.map(
        lambda i: f"r{i % 2}" if key_lists else f"r{i // 4}"), strict=True)]
    assert list(first["run_id"]) == want


_printable = st.one_of(st.text(max_size=4), st.integers(), st.booleans(), st.none(),
                       st.sampled_from([2**63, -2**63 - 1, 2**64, 10**30]),
                       st.floats(allow_nan=True, width=16))


def _general_extra(values: list):
    """An extra column's list typed by the general rule (no Arrow shortcut)."""
    try:
        return pd.Series(_columns._as_string(pd.Series(values, dtype=object))._values)
    except (ValueError, TypeError) as exc:
        return type(exc)


def _extra(values: list):
    try:
        return pd.Series(_columns._from_list(values, schema.STRING, True))
    except (ValueError, TypeError) as exc:
        return type(exc)


@settings(max_examples=400, deadline=None)
@given(st.lists(_printable, min_size=1, max_size=6))
def test_short_extra_lists_of_ints_and_bools_print_as_the_general_rule(values):
    got, want = _extra(values), _general_extra(values)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want, check_exact=True)
    else:
        assert got is want


@settings(max_examples=200, deadline=None)
@given(_printable, st.integers(1, 5))
def test_one_extra_value_repeated_prints_as_the_general_rule(value, n):
    try:
        got = pd.Series(_columns._typed_column([Const(value, n)], schema.STRING, True))
    except ValueError as exc:
        got = type(exc)
    want = _general_extra([value] * n)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want, check_exact=True)
    else:
        assert got is want


def test_an_int_too_long_to_print_fails_as_the_general_rule():
    huge = 10 ** 5000
    for typed in (lambda: _columns._from_list([huge, 1], schema.STRING, True),
                  lambda: _columns._typed_column([Const(huge, 2)], schema.STRING, True)):
        try:
            typed()
        except ValueError as exc:
            assert "4300" in str(exc)
        else:
            raise AssertionError("printed")


_stamp = st.sampled_from([
    pd.Timestamp("2024-03-07 16:37:00", tz="UTC"), pd.Timestamp("2024-03-07 17:37:00+01:00"),
    pd.Timestamp("2024-03-07 16:37:00.5", tz="Europe/Paris"), pd.Timestamp("2024-03-07 16:37:00"),
    pd.Timestamp("2300-01-01", tz="UTC").as_unit("s"), "2024-03-07T16:37:00Z", None, pd.NaT])


def _timestamps_the_general_way(values: list):
    try:
        codes, uniques = pd.factorize(pd.Series(values, dtype=object))
        conv = pd.to_datetime(pd.Series(uniques, dtype=object), utc=True, format="ISO8601")
        return conv.astype(schema.COLUMNS["timestamp"]).array.take(codes, allow_fill=True)
    except (ValueError, TypeError, OverflowError) as exc:
        return type(exc)


_aware = st.sampled_from([pd.Timestamp("2024-03-07 16:37:00", tz="UTC"),
                          pd.Timestamp("2024-03-07 17:37:01+01:00"),
                          pd.Timestamp("2024-03-07 16:37:00.5", tz="Europe/Paris")])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.one_of(_aware, _aware, _aware, _stamp), st.integers(1, 40),
                          st.booleans()), min_size=1, max_size=6))
def test_timestamps_in_long_runs_of_one_object_type_as_the_general_factorize(runs):
    # a run is one object on every row (the runs way), or copies of it (each its own object)
    values = []
    for value, n, same_object in runs:
        values.extend([value] * n if same_object or not isinstance(value, pd.Timestamp)
                      else [pd.Timestamp(value) for _ in range(n)])
    want = _timestamps_the_general_way(values)
    try:
        got = _columns._fast_typed(values, schema.COLUMNS["timestamp"], False)
    except (ValueError, TypeError, OverflowError) as exc:
        got = type(exc)
    if isinstance(want, type):
        assert got is want
    else:
        pd.testing.assert_extension_array_equal(got, want)


# -- Runs: a chunk's column as (value, count) runs types as the same rows given one by one ----

_run_value = st.one_of(st.sampled_from(["x", "y", "read", "iops", "1"]), st.none(),
                       st.integers(0, 2), st.booleans(), st.sampled_from([1.0, 0.0, -0.0]),
                       st.floats(allow_nan=True, allow_infinity=False, width=16),
                       st.sampled_from([pd.Timestamp("2024-03-07 16:37", tz="UTC"), pd.NaT]))
_runs = st.lists(st.tuples(_run_value, st.integers(0, 4)), max_size=4).map(
    lambda rs: _columns.Runs([v for v, _ in rs], [n for _, n in rs]))
_piece = st.one_of(_runs, _runs, st.tuples(_run_value, st.integers(1, 3)).map(
    lambda t: Const(*t)), st.lists(_run_value, min_size=1, max_size=3))


def _rows(piece) -> list:
    if type(piece) is _columns.Runs:
        return [v for v, n in zip(piece.values, piece.counts, strict=True) for _ in range(n)]
    return [piece.value] * piece.n if type(piece) is Const else list(piece)


def _typed(pieces: list, column: str):
    dtype = _columns._RESULT_COLUMNS.get(column, schema.STRING)
    try:
        return pd.Series(_columns._typed_column(pieces, dtype, column == "extra"))
    except (ValueError, TypeError, OverflowError) as exc:
        return type(exc)


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast")
@settings(max_examples=400, deadline=None)
@given(st.lists(_piece, min_size=1, max_size=5),
       st.sampled_from(["test", "op", "metric", "block_size", "repetition", "flag", "value",
                        "higher_is_better", "timestamp", "size_gib", "extra"]))
def test_runs_type_as_their_rows_one_by_one(pieces, column):
    rows = [r for p in pieces for r in _rows(p)]
    got, want = _typed(pieces, column), _typed([rows], column)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want, check_exact=True)
    else:
        assert got is want


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["iops", "bandwidth", "lat_mean", "score"]),
                          st.sampled_from([None, "B/s", "s"]), st.sampled_from([None, True]),
                          st.sampled_from(["k1", "k2", 3]), st.integers(1, 3)),
                min_size=1, max_size=5), st.booleans())
def test_a_chunk_of_runs_reads_as_its_lists(runs, unit_given):
    # metric, unit, higher_is_better, run_key and test as runs, beside the same chunk as
    # lists: the vocabulary and the run ids are filled row by row alike
    def chunk(as_runs: bool):
        n = sum(r[-1] for r in runs)
        cols = {"source": Const("a.json", n), "tool": Const("fio", n), "value": [1.0] * n}
        names = ["metric", "unit", "higher_is_better", "run_key", "test"]
        for i, name in enumerate(names):
            if name in ("unit", "higher_is_better") and not unit_given:
                continue
            values = [r[i] if name != "test" else f"t{r[3]}" for r in runs]
            counts = [r[-1] for r in runs]
            cols[name] = (_columns.Runs(values, counts) if as_runs
                          else [v for v, c in zip(values, counts, strict=True) for _ in range(c)])
        return cols, n

    def read(as_runs: bool):
        try:
            return _common.results_of([chunk(as_runs), chunk(False)])
        except SchemaError as exc:
            return str(exc)
    got, want = read(True), read(False)
    if isinstance(want, str):
        assert got == want
    else:
        pd.testing.assert_frame_equal(got, want)


def test_runs_not_matching_their_counts_are_refused():
    for bad in (_columns.Runs(["a"], [1, 2]), _columns.Runs(["a"], [-1]),
                _columns.Runs(["a"], [1.0]), _columns.Runs(["a"], [True])):
        with pytest.raises(SchemaError):
            _columns.frame_of_columns({"source": [Const("s", 1)], "tool": [Const("fio", 1)],
                                       "test": [bad], "metric": [Const("iops", 1)],
                                       "value": [[1.0]]}, [1])
        with pytest.raises(ValueError):
            _columns._piece_list(bad)
    with pytest.raises(SchemaError, match="has 3 rows, expected 1"):
        _columns.frame_of_columns({"source": [Const("s", 1)], "tool": [Const("fio", 1)],
                                   "test": [_columns.Runs(["a", "b"], [1, 2])],
                                   "metric": [Const("iops", 1)], "value": [[1.0]]}, [1])


def test_records_of_runs_are_their_rows():
    assert _columns.records_of(({"a": _columns.Runs(["x", "y"], [1, 2]), "b": Const(0, 3)},
                                3)) == [{"a": "x", "b": 0}, {"a": "y", "b": 0},
                                        {"a": "y", "b": 0}]


# -- lists shared by files (the same object), copies of them, lists of equal values ---------

_pool = [1, 1.0, True, 0, False, -0.0, 0.0, "x", "1", None, float("nan"), 2**70,
         pd.Timestamp("2024-03-07 16:37", tz="UTC")]


@pytest.mark.filterwarnings("ignore:Parsing integer or float values")
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast")
@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.integers(0, len(_pool) - 1), max_size=4), min_size=1, max_size=3),
       st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["copy", "equal", "same"])),
                min_size=1, max_size=6),
       st.sampled_from(["test", "op", "metric", "block_size", "repetition", "flag",
                        "higher_is_better", "timestamp", "size_gib", "extra"]))
def test_lists_of_the_same_objects_type_as_their_rows(bases, picks, column):
    # a piece is a base list itself ("same"), a list of its very objects ("copy"), or of
    # objects equal to them but not the same ones ("equal": 1 and 1.0, new floats and ints)
    made = [[_pool[i] for i in b] for b in bases]
    pieces = []
    for k, how in picks:
        base = made[k % len(made)]
        if how == "same":
            pieces.append(base)
        elif how == "copy":
            pieces.append(list(base))
        else:
            pieces.append([float(v) if type(v) is int and abs(v) < 2**53 else
                           int(v) if type(v) is float and v == v and v.is_integer() else v
                           for v in base])
    rows = [v for p in pieces for v in p]
    got, want = _typed(pieces, column), _typed([rows], column)
    if isinstance(want, pd.Series):
        pd.testing.assert_series_equal(got, want, check_exact=True)
    else:
        assert got is want


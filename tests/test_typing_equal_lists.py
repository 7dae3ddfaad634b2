"""Typing shortcut against the rule it replaces: lists equal to an earlier list of the
same column (each file of a layout gives its own copy) typed once, as the lists typed one by
one give them."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from ebsstats import schema
from ebsstats.io import _columns


class _Str(str):
    """A string subclass: equal to its text, not of the family's types."""


class _Any:
    """Equal to everything (a value no reader gives, typed by the general rule)."""

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


_VALUES = ["a", "b", "", "\u00e9", None, 1, 0, -3, True, False, 1.0, 0.0, -0.0, 2**70,
           _Str("a"), pd.NA]


def _lists(rng: random.Random) -> list[list]:
    base = [[rng.choice(_VALUES[:rng.choice([5, 8, len(_VALUES)])])
             for _ in range(rng.randint(0, 6))] for _ in range(rng.randint(1, 4))]
    out = []
    for _ in range(rng.randint(1, 12)):
        p = rng.choice(base)
        r = rng.random()
        if r < 0.3:
            out.append(p)  # the same object
        elif r < 0.8:
            out.append(list(p))  # an equal copy
        else:  # a copy with one value changed for an equal one of another type, or any value
            q = list(p)
            if q:
                q[rng.randrange(len(q))] = rng.choice(_VALUES + [_Any()])
            out.append(q)
    return out


def _typed(pieces, dtype, extra):
    try:
        got = _columns._typed_column(pieces, dtype, extra)
    except Exception as exc:  # (the kind of failure is compared)
        return None, type(exc)
    return pd.Series(got), None


_DTYPES = [("category", False), (pd.Int64Dtype(), False), (schema.STRING, False),
           (schema.STRING, True)]


@pytest.mark.parametrize(("dtype", "extra"), _DTYPES)
def test_equal_lists_typed_once_as_one_by_one(monkeypatch, dtype, extra):
    rng = random.Random(7)
    cases = [_lists(rng) for _ in range(600)]
    fast = [_typed(c, dtype, extra) for c in cases]
    equal = _columns._equal_lists
    monkeypatch.setattr(_columns, "_equal_lists", lambda lists, family: {})
    slow = [_typed(c, dtype, extra) for c in cases]
    shared = 0
    for c, (got, err), (want, want_err) in zip(cases, fast, slow, strict=True):
        assert err is want_err, c
        if err is None:
            pd.testing.assert_series_equal(got, want, check_exact=True)
            assert [type(v) for v in got.tolist()] == [type(v) for v in want.tolist()]
            shared += len(equal({id(p): p for p in c}, _columns._family(dtype, extra)))
    if dtype in ("category", pd.Int64Dtype()):
        assert shared > 20  # the shortcut was taken


def test_equal_lists_only_within_the_family():
    a, b, c, d = [1, None], [1, None], [True, None], [1.0, None]
    lists = {id(p): p for p in (a, b, c, d)}
    assert _columns._equal_lists(lists, _columns._INT_OR_NONE) == {}  # (not all ints)
    lists = {id(p): p for p in (a, b, [], [2])}
    assert _columns._equal_lists(lists, _columns._INT_OR_NONE) == {id(b): id(a)}
    s, t = ["a"], [_Str("a")]
    assert _columns._equal_lists({id(s): s, id(t): t}, _columns._STR_OR_NONE) == {}
    assert _columns._family(schema.STRING, True) is None
    assert _columns._family(float, False) is None


def test_equal_lists_tries_few_earlier_lists():
    lists = [[f"v{i}", "x"] for i in range(3)] + [[f"w{i}", "x"] for i in range(10)]
    lists += [list(p) for p in lists]
    got = _columns._equal_lists({id(p): p for p in lists}, _columns._STR_OR_NONE)
    assert len(got) == 13  # (each group its own first value: one list each)
    same = [["k", str(i)] for i in range(8)] + [["k", "7"]]
    got = _columns._equal_lists({id(p): p for p in same}, _columns._STR_OR_NONE)
    assert got == {}  # its equal is beyond the tries of its group: typed again, still right


def _str_pieces(rng: random.Random) -> list:
    values = ["j0", "j1", "", "\u00e9", 1, True, 1.0, None, _Str("j0")]
    pool = values[:rng.choice([4, len(values)])]
    out = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.5:
            out.append(_columns.Const(rng.choice(pool), rng.choice([0, 1, 3, True])))
        else:
            k = rng.randint(1, 3)
            out.append(_columns.Runs([rng.choice(pool) for _ in range(k)],
                                     [rng.choice([1, 2, True]) for _ in range(k)]))
    return out


def _rows(p) -> int:
    return int(p.n) if type(p) is _columns.Const else int(sum(p.counts))


def _frame_outcome(pieces, lengths):
    try:
        return _columns.frame_of_columns(pieces, lengths), None
    except Exception as exc:  # (the kind of failure is compared)
        return None, type(exc)


def test_an_extra_column_of_a_string_columns_pieces_is_typed_as_alone(monkeypatch):
    rng = random.Random(3)
    cases = []
    for _ in range(400):
        test = _str_pieces(rng)
        r = rng.random()
        job = (list(test) if r < 0.5 else [_columns.Const(*p) if type(p) is _columns.Const
                                           else _columns.Runs(list(p.values), list(p.counts))
                                           for p in test] if r < 0.8 else _str_pieces(rng))
        n = list(map(_rows, test))
        if list(map(_rows, job)) != n:
            job = list(test)
        pieces = {"source": [_columns.Const("f.json", k) for k in n],
                  "tool": [_columns.Const("fio", k) for k in n],
                  "metric": [_columns.Const("iops", k) for k in n],
                  "value": [[1.0] * k for k in n], "test": test, "job": job}
        cases.append((pieces, n))
    fast = [_frame_outcome({k: list(v) for k, v in p.items()}, n) for p, n in cases]
    same = _columns._same_str_column
    hits = sum(same([(p["test"], pd.Series(["x"] * sum(n), dtype=schema.STRING).array)],
                    p["job"]) is not None for p, n in cases)
    monkeypatch.setattr(_columns, "_same_str_column", lambda strs, pieces: None)
    slow = [_frame_outcome({k: list(v) for k, v in p.items()}, n) for p, n in cases]
    for (got, err), (want, want_err) in zip(fast, slow, strict=True):
        assert err is want_err
        if err is None:
            pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert hits > 40


def test_a_shared_columns_write_stays_in_its_column():
    n = [3, 2]
    test = [_columns.Const("a", 3), _columns.Runs(["b", "c"], [1, 1])]
    pieces = {"source": [_columns.Const("f.json", k) for k in n],
              "tool": [_columns.Const("fio", k) for k in n],
              "metric": [_columns.Const("iops", k) for k in n],
              "value": [[1.0] * k for k in n], "test": test, "job": list(test)}
    df = _columns.frame_of_columns(pieces, n)
    assert df["job"].tolist() == df["test"].tolist() == ["a", "a", "a", "b", "c"]
    assert df["job"].array is not df["test"].array
    df.loc[0, "test"] = "x"
    df.iloc[1, df.columns.get_loc("job")] = "y"
    job = df["job"]
    job.iloc[2] = "z"  # (a Series taken from the frame: copy on write)
    df["test"].array[3] = "w"  # (the array itself, in place)
    assert df["test"].tolist() == ["x", "a", "a", "w", "c"]
    assert df["job"].tolist() == ["a", "y", "a", "b", "c"]
    assert job.tolist() == ["a", "y", "z", "b", "c"]

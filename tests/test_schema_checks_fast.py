"""The checks' shortcuts against the rules they replace: the used codes found from the code
changes (not a mark per row) are those ``np.unique`` finds; the unit of a row looked at only
when some value is negative raises as before."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ebsstats as es
from ebsstats import schema
from ebsstats.errors import SchemaError


def _unique_rule(codes, k):
    u = np.unique(codes)
    return u[(u >= 0) & (u < k)]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(-1, 9), max_size=60), st.sampled_from([np.int8, np.int16, np.int32,
                                                                    np.int64]))
def test_present_is_unique(codes, kind):
    arr = np.array(codes, dtype=kind)
    assert schema._present(arr, 10).tolist() == _unique_rule(arr, 10).tolist()


@pytest.mark.parametrize("n", [0, 1, 2, 5000])
def test_present_runs_and_alternations(n):
    rng = np.random.default_rng(n)
    for arr in (np.repeat(rng.integers(-1, 50, max(n // 10, 1)), 10)[:n],
                rng.integers(-1, 50, n), np.full(n, -1), np.arange(n) % 3):
        arr = arr.astype(np.int16)
        assert schema._present(arr, 50).tolist() == _unique_rule(arr, 50).tolist()


def _frame(values):
    n = len(values)
    df = es.frame([{"source": "a.json", "tool": "fio", "test": "t", "metric": "iops",
                    "value": v, "run_key": i} for i, v in enumerate(values)])
    assert len(df) == n
    return df


def test_negative_rate_still_refused():
    df = _frame([1.0, 2.0, 3.0])
    df.loc[1, "value"] = -1.0
    with pytest.raises(SchemaError, match=r"negative iops in row 1"):
        schema.validate(df)
    cols = {c: df[c].array for c in df.columns}
    with pytest.raises(SchemaError, match=r"negative iops in row 1"):
        schema.check_columns(cols)


def test_negative_value_of_a_unit_that_allows_it_passes():
    df = es.frame([{"source": "a", "tool": "fio", "test": "t", "metric": "score",
                    "unit": "score", "value": -2.0}])
    assert schema.validate(df) is df


def test_no_negative_value_passes():
    df = _frame([0.0, 2.0, 1e9])
    assert schema.validate(df) is df
    assert pd.api.types.is_float_dtype(df["value"])

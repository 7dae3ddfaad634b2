"""String arrays built as pandas' ``_from_pyarrow_array`` builds them (no constructor checks)
against the constructor: the same attributes, the same values, the same behaviour."""

from __future__ import annotations

import pandas as pd
import pyarrow as pa
import pytest

from ebsstats import schema
from ebsstats.io import _columns

ARRAYS = [pa.array(["a", None, "\u00e9"], type=pa.large_string()),
          pa.chunked_array([pa.array(["a"], type=pa.large_string()),
                            pa.array([None, "b"], type=pa.large_string())]),
          pa.nulls(3, pa.large_string()), pa.array([], type=pa.large_string())]


@pytest.mark.parametrize("values", ARRAYS)
@pytest.mark.parametrize("dtype", [_columns._ARROW_STRING, schema.STRING])
def test_str_array_is_the_constructors(values, dtype):
    got = _columns._str_array(values, dtype)
    want = pd.arrays.ArrowStringArray(values, dtype=dtype)
    assert type(got) is type(want)
    assert set(vars(got)) == set(vars(want))
    assert got.dtype is want.dtype
    assert got.__arrow_array__().equals(want.__arrow_array__())
    assert got.__arrow_array__().num_chunks == want.__arrow_array__().num_chunks
    pd.testing.assert_extension_array_equal(got, want, check_exact=True)
    s = pd.Series(got, copy=False)
    if len(s):
        s.iloc[0] = "z"  # (a write replaces the array's data, as the constructor's)
        assert s.iloc[0] == "z"


def test_str_array_of_other_types_goes_to_the_constructor():
    got = _columns._str_array(pa.array(["a"], type=pa.string()), _columns._ARROW_STRING)
    assert got.__arrow_array__().type == pa.large_string()
    with pytest.raises((ValueError, TypeError, pa.ArrowException)):
        _columns._str_array(pa.array([1]), _columns._ARROW_STRING)

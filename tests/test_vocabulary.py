"""The shared argument vocabulary (ebsstats._docs): parameter docs written once, old keyword
spellings mapped with a DeprecationWarning for one release, and cost()'s column keywords."""

from __future__ import annotations

import inspect
import warnings

import pandas as pd
import pytest

import ebsstats as es
from ebsstats._docs import PARAMS, column_keywords, renamed, shared_docs


@renamed(df="data", bootstrap="n_boot")
def _f(data, *, n_boot=10):
    return data, n_boot


def test_renamed_maps_old_keywords_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning, match=r"_f\(\): df= is deprecated; use data="):
        assert _f(df=1) == (1, 10)
    with pytest.warns(DeprecationWarning, match="bootstrap="):
        assert _f(2, bootstrap=99) == (2, 99)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new spelling and positional calls never warn
        assert _f(3, n_boot=5) == (3, 5)
        assert _f(data=4) == (4, 10)
    assert list(inspect.signature(_f).parameters) == ["data", "n_boot"]


def test_renamed_refuses_both_spellings_and_a_no_op_rename():
    with pytest.raises(TypeError, match="both df= .* and data="):
        _f(df=1, data=2)
    with pytest.raises(ValueError):
        renamed(data="data")


def test_shared_docs_fills_only_whole_line_placeholders():
    @shared_docs
    def g(data, confidence=0.95):
        """Doc.

        Parameters
        ----------
        {data}
        {confidence}

        >>> {"a": 1}["a"]
        1
        """

    lines = g.__doc__.splitlines()
    assert lines[4] == "        data : DataFrame"
    assert "        confidence : float" in lines
    assert '        >>> {"a": 1}["a"]' in lines  # braces inside text are left alone
    assert g.__doc__.count("Level of the confidence intervals") == 1
    with pytest.raises(KeyError):
        shared_docs(type("X", (), {"__doc__": "    {no_such_param}"}))


def test_every_shared_parameter_is_numpydoc_shaped():
    for name, text in PARAMS.items():
        head, *body = text.splitlines()
        assert head.startswith(f"{name} : "), name
        assert body and all(line.startswith("    ") for line in body), name


def test_cost_docstring_carries_the_shared_text():
    assert PARAMS["confidence"].splitlines()[1].strip() in es.cost.__doc__
    assert "{confidence}" not in es.cost.__doc__ and "{value}" not in es.cost.__doc__


def _frame(**cols):
    base = {"config": "gp2-500", "run_id": ["a", "b", "c"], "op": "read", "metric": "iops",
            "value": [1480.0, 1500.0, 1510.0], "volume_type": "gp2", "size_gib": 500.0}
    base.update(cols)
    return pd.DataFrame(base)


def test_cost_has_no_column_name_parameters_but_accepts_the_old_ones():
    params = inspect.signature(es.cost).parameters
    assert len(params) == 15  # was 27
    assert not {"metric", "op", "run", "size", "volume_type", "timestamp"} & set(params)
    ref = es.cost(_frame(), as_of="2017-06-01")
    renamed_frame = _frame().rename(columns={"size_gib": "gib", "volume_type": "type"})
    with pytest.warns(DeprecationWarning, match="volume_type=, size= deprecated"):
        old = es.cost(renamed_frame, as_of="2017-06-01", size="gib", volume_type="type")
    pd.testing.assert_frame_equal(old, ref)
    with pytest.warns(DeprecationWarning):  # default spelling: warns, same result
        pd.testing.assert_frame_equal(es.cost(_frame(), as_of="2017-06-01", run="run_id"), ref)
    with pytest.raises(TypeError):
        es.cost(_frame(), as_of="2017-06-01", no_such_keyword=1)


def test_column_keywords_replaces_a_schema_column_that_was_there():
    @column_keywords(size="size_gib")
    def h(data):
        return data["size_gib"].tolist()

    frame = pd.DataFrame({"size_gib": [1.0], "total": [4.0]})
    with pytest.warns(DeprecationWarning):
        assert h(frame, size="total") == [4.0]
    with pytest.warns(DeprecationWarning):
        assert h(data=frame, size="total") == [4.0]


RENAMED = [
    ("ebsstats.stats.design", "balance", "plan"),
    ("ebsstats.stats.dask", "summarize_dask", "ddf"),
    ("ebsstats.io.dataset", "to_parquet_dataset", "df"),
    ("ebsstats.plots.calendar", "effect_plot", "drift_frame"),
    ("ebsstats.plots.members", "members_plot", "result"),
    ("ebsstats.plots.members", "slowest_timeline_plot", "result"),
    ("ebsstats.plots.members", "array_plot", "check"),
    ("ebsstats.plots.summary", "forest_plot", "comparison"),
    ("ebsstats.plots.summary", "ci_width_plot", "curve"),
]


@pytest.mark.parametrize("module, name, old", RENAMED)
def test_renamed_functions_take_data_first_and_still_accept_the_old_name(module, name, old):
    import importlib

    func = getattr(importlib.import_module(module), name)
    assert next(iter(inspect.signature(func).parameters)) == "data"
    assert func.__renamed__ == {old: "data"}


def test_balance_with_the_old_keyword_gives_the_same_table():
    plan = es.stats.design.schedule(["a", "b"], start="2024-01-01", days=6, runs_per_day=4)
    with pytest.warns(DeprecationWarning, match="plan= is deprecated; use data="):
        old = es.stats.design.balance(plan=plan, factor="hour")
    pd.testing.assert_frame_equal(old, es.stats.design.balance(plan, "hour"))

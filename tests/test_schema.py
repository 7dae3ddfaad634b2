import numpy as np
import pandas as pd
import pytest

import ebsstats as es
from ebsstats import schema
from ebsstats.errors import ParseError, SchemaError
from ebsstats.io import _columns


def _rec(**kw):
    base = {"source": "x.json", "tool": "fio", "test": "job", "metric": "iops", "value": 100.0,
            "op": "read", "run_key": "$.jobs[0]"}
    base.update(kw)
    return base


def test_frame_has_contract_columns_and_dtypes():
    df = _columns.frame([_rec(), _rec(metric="bandwidth", value=4096.0, job="j", groupid=0)])
    es.validate(df)
    assert list(df.columns[:18]) == list(schema.COLUMNS)
    assert df["unit"].tolist() == ["IO/s", "B/s"]
    assert df["higher_is_better"].tolist() == [True, True]
    assert df["groupid"].dtype == schema.STRING  # extra keys are strings
    assert df["run_id"].nunique() == 1  # same run key -> same run


def test_run_id_is_stable():
    a = _columns.frame([_rec()])
    b = _columns.frame([_rec()])
    assert a["run_id"].equals(b["run_id"])
    assert _columns.frame([_rec(run_key="$.jobs[1]")])["run_id"][0] != a["run_id"][0]


def test_metric_vocabulary():
    assert schema.metric_info("clat_p99.9") == ("s", False)
    assert schema.percentile_metric("clat", "99.900000") == "clat_p99.9"
    assert schema.percentile_metric("lat", "50.000000") == "lat_p50"
    with pytest.raises(SchemaError):
        schema.metric_info("iopz")


def test_validate_rejects_broken_frames():
    df = _columns.frame([_rec()])
    with pytest.raises(SchemaError, match="missing columns"):
        es.validate(df.drop(columns=["op"]))
    bad = df.copy()
    bad["value"] = np.nan
    with pytest.raises(SchemaError, match="NaN value without a flag"):
        es.validate(bad)
    bad["flag"] = pd.array(["too_fast"], dtype="string")
    es.validate(bad)
    bad = df.copy()
    bad["value"] = np.inf
    with pytest.raises(SchemaError, match="infinite"):
        es.validate(bad)
    bad = df.copy()
    bad["value"] = -1.0
    with pytest.raises(SchemaError, match="negative"):
        es.validate(bad)
    with pytest.raises(SchemaError, match="unit"):
        es.validate(_columns.frame([_rec(unit="B/s")]))


def test_concat_keeps_categories():
    a = _columns.frame([_rec()])
    b = _columns.frame([_rec(metric="lat_mean", value=0.001, source="y.json")])
    df = _columns.concat([a, b])
    es.validate(df)
    assert isinstance(df["metric"].dtype, pd.CategoricalDtype)
    assert set(df["metric"]) == {"iops", "lat_mean"}


def test_series_frame():
    ts = _columns.series_frame({"run_id": ["r"] * 2, "source": ["s"] * 2, "test": ["t"] * 2,
                              "op": ["read", "write"], "metric": ["iops"] * 2, "t": [0.5, 1.0],
                              "value": [10.0, 11.0], "unit": ["IO/s"] * 2})
    es.validate_series(ts)
    assert ts["offset"].isna().all()



@pytest.mark.parametrize(("col", "row", "value", "error"), [
    ("t", 1, np.nan, "non-finite times"), ("t", 2, np.inf, "non-finite times"),
    ("value", 2, np.inf, "infinite series value in row 2"),
    ("value", 1, -np.inf, "infinite series value in row 1"),
    ("value", 3, -1.0, "negative series iops in row 3"),  # IO/s is never negative
    ("value", 0, np.nan, None),  # a missing value is allowed
])
def test_validate_series_rows(col, row, value, error):
    """The checks are reductions over the columns; each still names what is wrong and where."""
    ts = _columns.series_frame({"run_id": ["r"] * 4, "source": ["s"] * 4, "test": ["t"] * 4,
                              "op": ["read"] * 4, "metric": ["iops"] * 4,
                              "t": [0.5, 1.0, 1.5, 2.0], "value": [10.0, 11.0, 12.0, 13.0],
                              "unit": ["IO/s"] * 4})
    ts.loc[row, col] = value
    if error is None:
        assert es.validate_series(ts) is ts
    else:
        with pytest.raises(SchemaError, match=error):
            es.validate_series(ts)
    ts.loc[row, col] = -5.0 if col == "value" else 1.0
    ts["unit"] = ts["unit"].cat.rename_categories(["%"])  # a unit that admits negatives
    assert es.validate_series(ts) is ts


def test_parse_error_message_names_file_and_line():
    e = ParseError("dir/run.json", 7, "a JSON object", found="fio: engine libaio not loadable")
    assert str(e) == ("dir/run.json, line 7: expected a JSON object; "
                      "found 'fio: engine libaio not loadable'")
    assert e.position == "line 7"


def test_validate_rejects_values_outside_the_vocabularies():
    df = _columns.frame([_rec(workload="randomread")])
    with pytest.raises(SchemaError, match="workload.*randomread"):
        es.validate(df)
    es.validate(_columns.frame([_rec(workload="randread", op="sync")]))


# --- open tool names: rows from any tool through es.frame ---------------------------------

def test_frame_accepts_a_tool_it_does_not_read_and_keeps_the_dtypes():
    df = es.frame([_rec(tool="gobonniego", run_key=1), _rec(tool="gobonniego", run_key=2),
                   _rec(tool="fio", run_key=3)])
    assert es.validate(df) is df
    assert isinstance(df["tool"].dtype, pd.CategoricalDtype)
    assert list(df["tool"].cat.categories) == ["fio", "gobonniego"]  # observed values only
    assert list(df["op"].cat.categories) == ["read"]
    assert df["unit"].tolist() == ["IO/s"] * 3
    # the tidy frame's dtypes survive a concat and a parquet round trip
    both = es.io.concat([df, es.frame([_rec(tool="elbencho-3.0")])])
    assert list(both["tool"].cat.categories) == ["elbencho-3.0", "fio", "gobonniego"]
    assert es.validate(es.io.conform(both))["tool"].tolist()[-1] == "elbencho-3.0"


def test_frame_is_public_at_the_top_level():
    assert es.frame is es.io.frame is _columns.frame
    assert "frame" in dir(es)


@pytest.mark.parametrize("bad", ["", " fio", "FIO", "go bonnie", "x\x00", "tab\t", "-lead",
                                 "a" * 41, "caf\u00e9"])
def test_garbage_tool_names_are_refused_by_frame_and_validate(bad):
    with pytest.raises(SchemaError, match="tool name"):
        es.frame([_rec(tool=bad)])
    df = es.frame([_rec()])
    df["tool"] = pd.Categorical([bad])
    with pytest.raises(SchemaError, match="tool name"):
        es.validate(df)


def test_upper_case_builtin_tool_says_which_was_meant():
    with pytest.raises(SchemaError, match=r"did you mean 'bonnie\+\+'"):
        es.frame([_rec(tool="Bonnie++")])


def test_builtin_tools_and_a_forty_character_name_pass():
    names = [*schema.TOOLS, "a" * 40, "fio2", "bonnie++-2.0", "db_bench"]
    df = es.frame([_rec(tool=t, run_key=i) for i, t in enumerate(names)])
    assert sorted(es.validate(df)["tool"].astype(str)) == sorted(names)

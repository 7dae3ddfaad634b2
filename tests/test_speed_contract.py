"""The fast typing path gives exactly what the previous, per-record implementation gave.

``_reference`` below is the schema typing as it was before the performance work (commit
ead1b63: ``DataFrame.from_records`` and a cast per column); the library's ``schema.frame`` and
the folder's one-pass typing must produce identical frames (values, dtypes, categories) on every
fixture file and on generated records. No timings here: speed is measured in
``benchmarks/ingest_speed.py``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ebsstats import schema
from ebsstats.errors import ParseError, SchemaError
from ebsstats.io import _common
from ebsstats.io.sniff import sniff_text
from ebsstats.schema import COLUMNS, META_COLUMNS, SERIES_COLUMNS, STRING, metric_info, run_id

FIXTURES = Path(__file__).parent / "fixtures"

# --- the previous implementation (ead1b63), names prefixed with _ref ---------------------------

def _ref_cast(series: pd.Series, dtype) -> pd.Series:
    if dtype == "category":
        return series.astype("category")
    if isinstance(dtype, pd.DatetimeTZDtype):
        return pd.to_datetime(series, utc=True, format="ISO8601").astype(dtype)
    if isinstance(dtype, pd.CategoricalDtype):
        return series.astype(dtype)
    if dtype is STRING:
        return series.astype(STRING)
    if isinstance(dtype, pd.Int64Dtype):
        return pd.to_numeric(series, errors="raise").astype(dtype)
    if isinstance(dtype, pd.Float64Dtype):
        return pd.to_numeric(series, errors="raise").astype(dtype)
    if isinstance(dtype, pd.BooleanDtype):
        return series.astype(dtype)
    return series.astype(dtype)


def _ref_frame(records: Iterable[Mapping] | pd.DataFrame) -> pd.DataFrame:
    """Build a typed results frame from reader records (dicts) or a loose DataFrame.

    Each record needs ``source``, ``tool``, ``test``, ``metric`` and ``value``; ``unit`` and
    ``higher_is_better`` default to the metric vocabulary; ``run_id`` defaults to a hash of
    ``source`` and ``run_key`` (or ``position``). Keys outside the schema become string metadata
    columns. The result passes :func:`validate`.
    """
    df = records if isinstance(records, pd.DataFrame) else pd.DataFrame.from_records(list(records))
    if df.empty and not len(df.columns):
        return _ref_empty()
    df = df.copy()
    n = len(df)
    for col in ("source", "tool", "test", "metric", "value"):
        if col not in df:
            raise SchemaError(f"records lack required key {col!r}")
    if "unit" not in df:
        df["unit"] = None
    if "higher_is_better" not in df:
        df["higher_is_better"] = None
    missing_unit = df["unit"].isna()
    missing_hib = df["higher_is_better"].isna()
    if missing_unit.any() or missing_hib.any():
        infos = {m: metric_info(m) for m in pd.unique(df["metric"])}
        if missing_unit.any():
            df.loc[missing_unit, "unit"] = df.loc[missing_unit, "metric"].map(
                lambda m: infos[m][0])
        if missing_hib.any():
            df["higher_is_better"] = df["higher_is_better"].astype(object)
            df.loc[missing_hib, "higher_is_better"] = df.loc[missing_hib, "metric"].map(
                lambda m: infos[m][1])
    if "run_id" not in df or df["run_id"].isna().any():
        key = df["run_key"] if "run_key" in df else df.get("position", pd.Series([None] * n))
        ids = [run_id(s, k) for s, k in zip(df["source"], key, strict=True)]
        if "run_id" in df:
            df["run_id"] = df["run_id"].where(df["run_id"].notna(), pd.Series(ids, index=df.index))
        else:
            df["run_id"] = ids
    df = df.drop(columns=[c for c in ("run_key",) if c in df])
    return _ref_conform(df)


def _ref_conform(df: pd.DataFrame) -> pd.DataFrame:
    """Give a frame the schema's column order and dtypes (adding absent columns as ``<NA>``)."""
    out = {}
    n = len(df)
    for name, dtype in {**COLUMNS, **META_COLUMNS}.items():
        col = df[name] if name in df else pd.Series([None] * n, index=df.index, dtype=object)
        try:
            out[name] = _ref_cast(col, dtype)
        except (ValueError, TypeError) as exc:
            raise SchemaError(f"column {name!r} cannot be {dtype}: {exc}") from exc
    extras = sorted(c for c in df.columns if c not in out)
    for name in extras:
        col = df[name]
        out[name] = _ref_as_string(col)
    return pd.DataFrame(out, index=pd.RangeIndex(n))


def _ref_as_string(col: pd.Series) -> pd.Series:
    if col.dtype == STRING:
        return col
    if isinstance(col.dtype, pd.StringDtype):
        return col.astype(STRING)
    return col.astype(object).map(_ref_to_str, na_action="ignore").astype(STRING)


def _ref_to_str(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _ref_empty() -> pd.DataFrame:
    """An empty results frame with every schema column and dtype."""
    return _ref_conform(pd.DataFrame({c: pd.Series([], dtype=object) for c in COLUMNS}))


def _ref_series_frame(data: Mapping[str, Sequence] | pd.DataFrame) -> pd.DataFrame:
    """Build a typed series frame from columns (``t``, ``value``, ``metric``, ``unit``, ``op``, …)."""
    df = data if isinstance(data, pd.DataFrame) else pd.DataFrame(dict(data))
    n = len(df)
    out = {}
    for name, dtype in SERIES_COLUMNS.items():
        col = df[name] if name in df else pd.Series([None] * n, index=df.index, dtype=object)
        try:
            out[name] = _ref_cast(col, dtype)
        except (ValueError, TypeError) as exc:
            raise SchemaError(f"series column {name!r} cannot be {dtype}: {exc}") from exc
    for name, dtype in META_COLUMNS.items():
        if name in df:
            out[name] = _ref_cast(df[name], dtype)
    for name in sorted(c for c in df.columns if c not in out):
        col = df[name]
        out[name] = _ref_as_string(col)
    return pd.DataFrame(out, index=pd.RangeIndex(n))




# --- the comparisons ----------------------------------------------------------------------------

def _same(new: pd.DataFrame, old: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(new, old, check_categorical=True, check_exact=True)


def _empty_cats(df: pd.DataFrame) -> pd.DataFrame:
    """A categorical column with no value at all has no categories; the old code gave their
    (empty) index dtype float64 or object depending on whether a record named the key; the new
    code always gives object. Nothing else may differ."""
    df = df.copy()
    for c in df.columns:
        if isinstance(df[c].dtype, pd.CategoricalDtype) and not len(df[c].cat.categories):
            df[c] = pd.Series(df[c].astype(object), dtype=object).astype("category")
    return df


def _fixture_files():
    return sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix not in
                  (".sh", ".tsv", ".yaml", ".md", ".gz") and not p.name.startswith("."))


def _parsed(path: Path):
    data = path.read_bytes()
    sniffed = sniff_text(data[:65536].decode("utf-8", "replace"), path.name)
    if sniffed is None:
        return None
    try:
        return importlib.import_module(sniffed.module).parse(
            _common.decode(data, path.name), path.name)
    except ParseError:
        return None


def test_fixture_files_type_as_before():
    checked = 0
    for path in _fixture_files():
        parsed = _parsed(path)
        if parsed is None:
            continue
        if parsed.records:
            records = [dict(r) for r in parsed.records]
            _same(schema.frame(records), _ref_frame(records))
            # the folder's path: compact columns with metadata, typed in one pass
            meta = {"config": "gp3", "volume": "vol-1", "size_gib": 100}
            chunk = _common.record_chunk(records, meta)
            _same(_common.results_of([chunk, chunk]),
                  _ref_frame([{**r, **meta} for r in records] * 2))
            checked += 1
        for ts in parsed.series:
            if len(ts):
                _same(_common.series_of([_common.series_chunk(ts)]), _ref_series_frame(ts))
    assert checked > 50


_text = st.text(alphabet="abcxyz-_/. 0123456789", min_size=1, max_size=8)
_record = st.fixed_dictionaries(
    {"source": st.sampled_from(["a.json", "b/c.csv", "d.txt"]),
     "tool": st.sampled_from(["fio", "bonnie++", "sysbench", "pts", "other"]),
     "test": _text,
     "metric": st.sampled_from(["iops", "bandwidth", "lat_mean", "clat_p99.9", "cpu", "score"]),
     "value": st.one_of(st.floats(allow_nan=True, allow_infinity=False), st.integers(0, 10**9)),
     "run_key": st.sampled_from(["$.jobs[0]", "$.jobs[1]", "line 3"])},
    optional={"op": st.one_of(st.none(), st.sampled_from(["read", "write", "total", "bogus"])),
              "workload": st.one_of(st.none(), st.sampled_from(["randread", "seqwrite"])),
              "block_size": st.one_of(st.none(), st.integers(512, 2**20)),
              "threads": st.one_of(st.none(), st.integers(1, 64)),
              "timestamp": st.one_of(st.none(), st.sampled_from(
                  ["2024-03-04T10:00:00Z", "2024-03-05T23:59:59+02:00"]),
                  st.just(pd.Timestamp("2024-01-01", tz="UTC"))),
              "unit": st.one_of(st.none(), st.just("MB/s")),
              "higher_is_better": st.one_of(st.none(), st.booleans()),
              "position": _text, "config": st.one_of(st.none(), _text),
              "size_gib": st.one_of(st.none(), st.floats(1, 16384)),
              "job": st.one_of(st.none(), _text, st.integers(0, 9)),
              "synthetic": st.booleans(), "pass": st.integers(0, 3)})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_record, min_size=1, max_size=30))
def test_generated_records_type_as_before(records):
    new = schema.frame(records)
    half = len(records) // 2
    chunks = [_common.record_chunk(records[:half]), _common.record_chunk(records[half:])]
    _same(_common.results_of(chunks), new)  # typed per file or in one pass: the same frame
    try:
        old = _ref_frame(records)
    except (TypeError, ValueError):
        return  # the old code crashed here (e.g. a unit key that is None in every record)
    _same(_empty_cats(new), _empty_cats(old))


def test_concat_and_conform_as_before():
    a = schema.frame([{"source": "x", "tool": "fio", "test": "t", "metric": "iops",
                       "value": 1.0, "run_key": "k", "job": 3}])
    b = schema.frame([{"source": "y", "tool": "pts", "test": "u", "metric": "score",
                       "unit": "MB/s", "value": 2.0, "run_key": "k"}])
    df = schema.concat([a, b])
    assert list(df["metric"].cat.categories) == ["iops", "score"]
    assert df["job"].tolist()[0] == "3" and pd.isna(df["job"].tolist()[1])
    _same(schema.conform(df), _ref_conform(df))
    assert math.isclose(df["value"].sum(), 3.0) and np.isnan(np.nan)

"""The tidy frame: one row per observed value of one metric in one run.

Two frames carry everything ebsstats reads:

**Results frame** (:data:`COLUMNS`, then :data:`META_COLUMNS`, then any further metadata keys):

==================  =========================  ===================================================
column              dtype                      meaning
==================  =========================  ===================================================
run_id              string                     stable id of one benchmark execution: a hash of
                                               ``source`` and the run's position in it; reading the
                                               same input twice gives the same ids
source              string                     file it came from (as given, or relative to the
                                               ingest root)
position            string                     where in the file: ``line 12``, ``$.jobs[0].read``,
                                               ``/PhoronixTestSuite/Result[3]/Data/Entry[1]``
tool                category                   ``fio``, ``bonnie++``, ``sysbench``, ``pts``,
                                               ``ioping``, ``table`` (published tables) or
                                               ``sim`` (simulated)
tool_version        string                     as printed by the tool (``fio-3.33``, ``1.96``,
                                               ``1.0.20``), or ``<NA>``
timestamp           datetime64[ns, UTC]        when the run started, if the output or metadata
                                               says so; never a file's mtime
test                string                     the workload as the tool names it (fio job name,
                                               sysbench mode, bonnie++ test, PTS result title)
workload            category                   normalised (:data:`WORKLOADS`)
op                  category                   ``read``, ``write``, ``trim``, ``sync`` (fsync),
                                               ``total``
block_size          Int64                      bytes, where known
threads             Int64                      jobs / threads / clients, where known
iodepth             Int64                      queue depth, where known
metric              category                   see :func:`metric_info` (``iops``, ``bandwidth``,
                                               ``lat_mean``, ``clat_p99``, ``cpu``, ``score``, …)
value               float64                    in canonical units (:mod:`ebsstats.units`)
unit                category                   ``B/s``, ``IO/s``, ``s``, ``%``, ``ops/s``, ``B``,
                                               ``count``, or the PTS scale verbatim for ``score``
higher_is_better    boolean                    ``<NA>`` for descriptive metrics (bytes moved, …)
repetition          Int64                      index of this run among repeated runs in one file
                                               (bonnie++ ``-x``, PTS raw values, sysbench loops)
flag                string                     why a value needs care: ``too_fast`` (bonnie++
                                               ``+++++``: finished too fast to measure, value NaN),
                                               ``error=5`` (fio job error), ``aggregate`` (fio
                                               "All clients"), ``reported_mean`` (PTS Value beside
                                               its raw runs), ``spread`` (a published ± figure)
==================  =========================  ===================================================

Metadata columns (:data:`META_COLUMNS`) are always present (``<NA>`` when unknown): ``host``,
``volume``, ``config``, ``volume_type``, ``size_gib`` (Float64), ``provisioned_iops`` (Int64),
``raid_level``, ``raid_members`` (Int64), ``filesystem``, ``instance_type``, ``region``, ``az``. Any
further key (tool details such as fio's ``job``/``groupid``/``ioengine``, bonnie++'s ``file_size``,
or user keys from ``meta.yaml``) follows as a string column, sorted by name.

**Series frame** (:data:`SERIES_COLUMNS`): ``run_id``, ``source``, ``test``, ``op``, ``metric``,
``t`` (seconds since the run started, float64), ``value`` (canonical units), ``unit``, ``offset``
(Int64 bytes, fio ``log_offset=1``), ``block_size`` (Int64), then metadata columns as above.

Design notes: ``position`` and ``flag`` are core columns (every row says where in its file it came
from, and a value too fast to measure is flagged, never zero); ``op`` has ``sync`` because
fio ≥ 3.4 and sysbench report fsync rates and latencies that are neither reads nor writes; ``tool``
has ``ioping``.
"""

from __future__ import annotations

import hashlib
import itertools
import operator
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.api.types import union_categoricals

from ebsstats.errors import SchemaError

__all__ = ["TOOLS", "WORKLOADS", "OPS", "UNITS", "metric_info", "percentile_metric", "run_id",
           "frame", "empty", "series_frame", "empty_series", "concat", "conform", "validate",
           "validate_series", "columns_of", "frame_of_columns", "series_of_columns",
           "is_constant", "select", "SUMMARY_FLAGS"]

TOOLS = ["fio", "bonnie++", "sysbench", "pts", "ioping", "table", "sim"]
WORKLOADS = ["seqread", "seqwrite", "randread", "randwrite", "randrw", "rewrite", "seeks",
             "create", "stat", "delete", "mixed", "other"]
OPS = ["read", "write", "trim", "sync", "total"]

STRING = pd.StringDtype()

COLUMNS: dict[str, object] = {
    "run_id": STRING,
    "source": STRING,
    "position": STRING,
    "tool": pd.CategoricalDtype(TOOLS),
    "tool_version": STRING,
    "timestamp": pd.DatetimeTZDtype("ns", "UTC"),
    "test": STRING,
    "workload": pd.CategoricalDtype(WORKLOADS),
    "op": pd.CategoricalDtype(OPS),
    "block_size": pd.Int64Dtype(),
    "threads": pd.Int64Dtype(),
    "iodepth": pd.Int64Dtype(),
    "metric": "category",
    "value": np.float64,
    "unit": "category",
    "higher_is_better": pd.BooleanDtype(),
    "repetition": pd.Int64Dtype(),
    "flag": STRING,
}

META_COLUMNS: dict[str, object] = {
    "host": STRING,
    "volume": STRING,
    "config": STRING,
    "volume_type": STRING,
    "size_gib": pd.Float64Dtype(),
    "provisioned_iops": pd.Int64Dtype(),
    "raid_level": STRING,
    "raid_members": pd.Int64Dtype(),
    "filesystem": STRING,
    "instance_type": STRING,
    "region": STRING,
    "az": STRING,
}

SERIES_COLUMNS: dict[str, object] = {
    "run_id": STRING,
    "source": STRING,
    "test": STRING,
    "op": pd.CategoricalDtype(OPS),
    "metric": "category",
    "t": np.float64,
    "value": np.float64,
    "unit": "category",
    "offset": pd.Int64Dtype(),
    "block_size": pd.Int64Dtype(),
}

UNITS = ["B/s", "IO/s", "s", "%", "ops/s", "B", "count"]

# metric vocabulary: exact names and patterns -> (unit, higher_is_better)
_EXACT: dict[str, tuple[str | None, bool | None]] = {
    "iops": ("IO/s", True),
    "bandwidth": ("B/s", True),
    "cpu": ("%", False),
    "cpu_usr": ("%", False),
    "cpu_sys": ("%", False),
    "ops": ("ops/s", True),
    "score": (None, None),  # unit = the PTS scale verbatim; direction from Proportion
    "score_max_deviation": (None, None),  # published PTS "error": max run deviation, score's unit
    "io_bytes": ("B", None),
    "runtime": ("s", None),
    "total_ios": ("count", None),
    "events": ("count", None),
    "util": ("%", None),
    "bw_agg": ("%", None),
}
_PATTERNS: list[tuple[re.Pattern[str], tuple[str | None, bool | None]]] = [
    (re.compile(r"^(?:c|s)?lat_(?:mean|min|max|p\d+(?:\.\d+)?)$"), ("s", False)),
    (re.compile(r"^(?:c|s)?lat_stddev$"), ("s", False)),
    (re.compile(r"^iops_(?:min|max|mean)$"), ("IO/s", True)),
    (re.compile(r"^iops_stddev$"), ("IO/s", False)),
    (re.compile(r"^bandwidth_(?:min|max|mean)$"), ("B/s", True)),
    (re.compile(r"^bandwidth_stddev$"), ("B/s", False)),
    (re.compile(r"^ops_(?:min|max|mean)$"), ("ops/s", True)),
]


def metric_info(metric: str) -> tuple[str | None, bool | None]:
    """Canonical unit and direction of a metric name, or raise :class:`SchemaError`.

    Latency metrics are named for the latency fio (or the tool) measured: ``lat_*`` is total
    latency, ``clat_*`` completion latency and ``slat_*`` submission latency; ``*_p99.9`` is a
    percentile as the tool printed it.

    >>> metric_info("clat_p99.9"), metric_info("iops"), metric_info("bandwidth_stddev")
    (('s', False), ('IO/s', True), ('B/s', False))
    """
    if metric in _EXACT:
        return _EXACT[metric]
    for pattern, info in _PATTERNS:
        if pattern.match(metric):
            return info
    raise SchemaError(f"unknown metric {metric!r}; see ebsstats.schema.metric_info")


def percentile_metric(prefix: str, pct: float | str) -> str:
    """Name of a percentile metric: ``percentile_metric("clat", "99.900000") == "clat_p99.9"``."""
    p = float(pct)
    text = f"{p:.6f}".rstrip("0").rstrip(".")
    return f"{prefix}_p{text}"


def run_id(source: str, run_key: str | int | None) -> str:
    """Stable id of one run: the first 16 hex digits of SHA-1 over ``source`` and the run's key.

    >>> len(run_id("a/b.json", "$.jobs[0]")), run_id("a", 1) == run_id("a", 1) != run_id("a", 2)
    (16, True)
    """
    h = hashlib.sha1(f"{source}\x00{run_key}".encode(), usedforsecurity=False)
    return h.hexdigest()[:16]


def _has_dtype(actual, dtype) -> bool:
    """Whether a column's dtype already is the schema's ``dtype`` (then typing is a no-op)."""
    if dtype == "category":  # also CategoricalDtype(TOOLS): categories are the observed values
        return isinstance(actual, pd.CategoricalDtype)
    if dtype is STRING:
        return actual == STRING
    return actual == dtype


def _cast(series: pd.Series, dtype) -> pd.Series:
    if _has_dtype(series.dtype, dtype):
        return series
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


# --------------------------------------------------------------------------------------------
# Typing columns once: a column arrives in *pieces* (one per file or per frame, in row order),
# each a plain list, a :class:`Const` run or an array; small pieces are joined into one list and
# converted in one call (Arrow for strings, factorize for timestamps), large arrays (fio logs)
# keep their buffers. Typing per file, per column, was what made folder reads slow.
# --------------------------------------------------------------------------------------------

class Const(NamedTuple):
    """``n`` rows that hold one ``value``: a compact column piece (a file's source, its metadata).

    >>> Const("gp3", 3)
    Const(value='gp3', n=3)
    """

    value: object
    n: int


_SMALL = 4096  # array pieces shorter than this are typed together with their neighbours


def _missing(v) -> bool:
    return v is None or v is pd.NA or v is pd.NaT or (isinstance(v, float) and v != v)


def _piece_list(p, n: int | None = None) -> list:
    if type(p) is Const:
        return [p.value] * p.n
    if isinstance(p, list):
        return p
    return pd.Series(p).tolist()


def _needs(p) -> bool:
    """Whether a piece has a missing value."""
    if type(p) is Const:
        return _missing(p.value)
    if isinstance(p, list):
        arr = np.empty(len(p), dtype=object)
        try:
            arr[:] = p
        except ValueError:  # elements that are sequences themselves
            return any(map(_missing, p))
        return bool(pd.isna(arr).any())
    return bool(pd.isna(pd.Series(p)).any())


def _fast_typed(values: list, dtype, extra: bool) -> pd.Series:
    """Type a plain list in one call; raises (TypeError, ValueError, ArrowException) if the
    values need the general conversion."""
    if extra or dtype is STRING:
        try:
            arr = pa.array(values, type=pa.large_string(), from_pandas=True)
        except (pa.ArrowTypeError, pa.ArrowInvalid):
            if not extra:
                raise
            arr = _ints_as_strings(values)
        return pd.Series(pd.arrays.ArrowStringArray(arr), copy=False)
    if dtype == "category":  # CategoricalDtype(...) == "category" too: observed, sorted values
        return pd.Series(_categorical(values))
    if isinstance(dtype, pd.DatetimeTZDtype):
        codes, uniques = pd.factorize(pd.Series(values, dtype=object))
        conv = pd.to_datetime(pd.Series(uniques, dtype=object), utc=True, format="ISO8601")
        return pd.Series(conv.astype(dtype).array.take(codes, allow_fill=True))
    if isinstance(dtype, pd.api.extensions.ExtensionDtype):  # Int64, Float64, boolean
        return pd.Series(pd.array(values, dtype=dtype))
    return pd.Series(np.array(values, dtype=dtype))


def _ints_as_strings(values: list) -> pa.Array:
    """An extra column of ints (or bools) as the strings ``str(v)`` gives, in Arrow; raises
    for anything else (floats print as ints when integral: the general path does that)."""
    arr = pa.array(values, from_pandas=True)
    if pa.types.is_integer(arr.type):
        return arr.cast(pa.large_string())
    if pa.types.is_boolean(arr.type):
        return pc.if_else(arr, "True", "False").cast(pa.large_string())
    raise TypeError("not ints")


def _categorical(values: list) -> pd.Categorical:
    """``pd.Categorical(values)`` (sorted categories), via Arrow's dictionary encoding for
    strings: several times faster on long columns."""
    try:
        enc = pa.array(values, type=pa.large_string(), from_pandas=True).dictionary_encode()
    except (pa.ArrowTypeError, pa.ArrowInvalid):
        return pd.Series(values, dtype=object).astype("category").array
    cats = enc.dictionary.to_pylist()
    if not cats:  # all missing: categories of dtype object, as astype("category") makes them
        return pd.Series(values, dtype=object).astype("category").array
    order = sorted(range(len(cats)), key=cats.__getitem__)
    rank = np.empty(len(cats) + 1, dtype=np.int64)
    rank[order] = np.arange(len(cats))
    rank[-1] = -1  # null
    idx = enc.indices.fill_null(len(cats)).to_numpy(zero_copy_only=False).astype(np.int64)
    return pd.Categorical.from_codes(rank[idx], categories=pd.Index([cats[i] for i in order],
                                                                    dtype="str"))


def _from_list(values: list, dtype, extra: bool) -> pd.Series:
    try:
        return _fast_typed(values, dtype, extra)
    except (TypeError, ValueError, OverflowError, pa.ArrowException):
        pass
    s = pd.Series(values, dtype=object)
    return _as_string(s) if extra else _cast(s, dtype)


def _from_array(p, dtype, extra: bool) -> pd.Series:
    s = p.reset_index(drop=True) if isinstance(p, pd.Series) else pd.Series(p, copy=False)
    return _as_string(s) if extra else _cast(s, dtype)


def _concat_typed(parts: list[pd.Series]) -> pd.Series:
    if len(parts) == 1:
        return parts[0]
    if all(isinstance(p.dtype, pd.CategoricalDtype) for p in parts):
        if any(p.dtype != parts[0].dtype for p in parts):
            cats = [p.array for p in parts]
            if len({c.categories.dtype for c in cats}) > 1:
                cats = [pd.Categorical.from_codes(c.codes, categories=pd.Index(
                    [str(x) for x in c.categories], dtype="str")) for c in cats]
            return pd.Series(union_categoricals(cats, sort_categories=True))
    return pd.concat(parts, ignore_index=True)


def _column(pieces: Sequence, dtype, extra: bool = False) -> pd.Series:
    """One typed column from its pieces, in order."""
    if len(pieces) == 1 and type(pieces[0]) is not Const and not isinstance(pieces[0], list):
        return _from_array(pieces[0], dtype, extra)  # one frame's column: as conform always did
    parts: list[pd.Series] = []
    run: list = []
    for p in pieces:
        if type(p) is Const:
            if p.n < _SMALL:
                run.extend(itertools.repeat(p.value, p.n))
                continue
            if run:
                parts.append(_from_list(run, dtype, extra))
                run = []
            one = _from_list([p.value], dtype, extra)
            parts.append(pd.Series(one.array.take(np.zeros(p.n, dtype=np.intp))))
        elif isinstance(p, list):
            run.extend(p)
        elif len(p) < _SMALL:
            run.extend(_piece_list(p))
        else:
            if run:
                parts.append(_from_list(run, dtype, extra))
                run = []
            parts.append(_from_array(p, dtype, extra))
    if run or not parts:
        parts.append(_from_list(run, dtype, extra))
    return _concat_typed(parts)


def _build(pieces: dict[str, list], n: int, fixed: Mapping[str, object],
           optional: Mapping[str, object] | None = None, what: str = "column") -> pd.DataFrame:
    """The typed frame: ``fixed`` columns (absent ones all ``<NA>``), ``optional`` columns where
    present, then every other column as a string, sorted by name. Consumes ``pieces``."""
    out: dict[str, pd.Series] = {}
    for cols, always in ((fixed, True), (optional or {}, False)):
        for name, dtype in cols.items():
            if name not in pieces and not always:
                continue
            ps = pieces.pop(name, None) or [Const(None, n)]
            try:
                out[name] = _column(ps, dtype)
            except (ValueError, TypeError) as exc:
                raise SchemaError(f"{what} {name!r} cannot be {dtype}: {exc}") from exc
    for name in sorted(pieces, key=str):
        out[name] = _column(pieces.pop(name), STRING, extra=True)
    for name, col in out.items():
        if len(col) != n:
            raise SchemaError(f"{what} {name!r} has {len(col)} rows, expected {n}")
    return pd.DataFrame(out, index=pd.RangeIndex(n), copy=False)


def is_constant(values: list) -> bool:
    """Whether a non-empty list holds one value (of one type: ``1`` and ``True`` differ)."""
    try:
        return bool(values) and values.count(values[0]) == len(values) and len(
            set(map(type, values))) == 1
    except (TypeError, ValueError):  # values whose == is not a bool (arrays)
        return False


def columns_of(records: Sequence[Mapping], meta: Mapping | None = None,
               compact: bool = False) -> dict[str, list | Const]:
    """Reader records (dicts) as columns: ``{key: list of values}``, ``None`` where a record
    lacks the key. ``meta`` keys are set on every row (they win over the records' own keys).
    With ``compact=True`` a column holding one value is stored as a :class:`Const`.

    >>> columns_of([{"a": 1, "b": "x"}, {"a": 2, "b": "x"}], {"c": 0}, compact=True)
    {'a': [1, 2], 'b': Const(value='x', n=2), 'c': Const(value=0, n=2)}
    """
    n = len(records)
    keys = sorted(set().union(*records), key=str) if n else []
    if len(keys) > 1 and all(len(r) == len(keys) for r in records):
        # every record has every key (the usual case): transpose in C
        values = zip(*map(operator.itemgetter(*keys), records), strict=True)
    else:
        values = ([r.get(k) for r in records] for k in keys)
    cols: dict[str, list | Const] = {}
    for k, col in zip(keys, values, strict=True):
        if meta and k in meta:
            continue
        col = list(col)
        if compact and is_constant(col):
            cols[k] = Const(col[0], n)
        else:
            cols[k] = col
    for k, v in (meta or {}).items():
        cols[k] = Const(v, n)
    return cols


def frame(records: Iterable[Mapping] | pd.DataFrame) -> pd.DataFrame:
    """Build a typed results frame from reader records (dicts) or a loose DataFrame.

    Each record needs ``source``, ``tool``, ``test``, ``metric`` and ``value``; ``unit`` and
    ``higher_is_better`` default to the metric vocabulary; ``run_id`` defaults to a hash of
    ``source`` and ``run_key`` (or ``position``). Keys outside the schema become string metadata
    columns. The result passes :func:`validate`.
    """
    if isinstance(records, pd.DataFrame):
        if records.empty and not len(records.columns):
            return empty()
        n = len(records)
        return frame_of_columns({c: [records[c]] for c in records.columns}, [n])
    records = records if isinstance(records, list) else list(records)
    if not records:
        return empty()
    return frame_of_columns({k: [v] for k, v in columns_of(records).items()}, [len(records)])


def frame_of_columns(pieces: dict[str, list], lengths: Sequence[int]) -> pd.DataFrame:
    """The typed results frame from column pieces: ``pieces[name][j]`` holds the values of
    chunk ``j`` (a file), ``lengths[j]`` rows, as a list, a :class:`Const` or an array; a chunk
    that lacks a column has ``Const(None, lengths[j])`` there. What :func:`frame` does with
    records, done once for many files (:mod:`ebsstats.io.folder`). Consumes ``pieces``.
    """
    lengths = list(lengths)
    n = sum(lengths)
    for col in ("source", "tool", "test", "metric", "value"):
        if col not in pieces:
            raise SchemaError(f"records lack required key {col!r}")

    def col(name):
        return pieces.get(name) or [Const(None, m) for m in lengths]

    metric = pieces["metric"]
    unit, hib = col("unit"), col("higher_is_better")
    need_u = [j for j, p in enumerate(unit) if _needs(p)]
    need_h = [j for j, p in enumerate(hib) if _needs(p)]
    if need_u or need_h:
        names: set = set()
        for p in metric:
            names.update([p.value] if type(p) is Const else _piece_list(p))
        infos = {m: metric_info(m) for m in names if not _missing(m)}
        for need, target, k in ((need_u, unit, 0), (need_h, hib, 1)):
            table = {m: info[k] for m, info in infos.items()}
            for j in need:
                u, m = target[j], metric[j]
                if type(u) is Const and type(m) is Const:
                    target[j] = Const(table.get(m.value), lengths[j])
                elif type(u) is Const:  # the usual case: readers leave unit to the vocabulary
                    target[j] = list(map(table.get, _piece_list(m)))
                else:
                    target[j] = [infos.get(mm, (None, None))[k] if _missing(uu) else uu
                                 for uu, mm in zip(_piece_list(u), _piece_list(m), strict=True)]
        pieces["unit"], pieces["higher_is_better"] = unit, hib
    rid = col("run_id")
    need_r = [j for j, p in enumerate(rid) if _needs(p)]
    if need_r:
        source = pieces["source"]
        key = col("run_key") if "run_key" in pieces else col("position")
        pos = col("position") if "run_key" in pieces else None
        cache: dict = {}

        def one(s, k, p):
            if _missing(k):
                k = p
            try:
                return cache[s, k]
            except KeyError:
                v = cache[s, k] = run_id(s, k)
                return v
            except TypeError:  # unhashable key
                return run_id(s, k)

        for j in need_r:
            r, s, k = rid[j], source[j], key[j]
            p = pos[j] if pos is not None else Const(None, lengths[j])
            if all(type(x) is Const for x in (r, s, k, p)):
                rid[j] = Const(one(s.value, k.value, p.value), lengths[j])
            elif type(r) is Const and type(s) is Const and not _needs(k):
                keys = _piece_list(k)  # one file, several runs: hash each run once
                try:
                    ids = {kk: run_id(s.value, kk) for kk in set(keys)}
                    rid[j] = list(map(ids.__getitem__, keys))
                    continue
                except TypeError:  # unhashable keys
                    rid[j] = [run_id(s.value, kk) for kk in keys]
            else:
                rid[j] = [one(ss, kk, pp) if _missing(rr) else rr for rr, ss, kk, pp in zip(
                    _piece_list(r), _piece_list(s), _piece_list(k), _piece_list(p), strict=True)]
        pieces["run_id"] = rid
    pieces.pop("run_key", None)
    return _build(pieces, n, {**COLUMNS, **META_COLUMNS})


def conform(df: pd.DataFrame) -> pd.DataFrame:
    """Give a frame the schema's column order and dtypes (adding absent columns as ``<NA>``)."""
    return _build({c: [df[c]] for c in df.columns}, len(df), {**COLUMNS, **META_COLUMNS})


def _as_string(col: pd.Series) -> pd.Series:
    if col.dtype == STRING:
        return col
    if isinstance(col.dtype, pd.StringDtype):
        return col.astype(STRING)
    return col.astype(object).map(_to_str, na_action="ignore").astype(STRING)


def _to_str(v) -> str:
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def empty() -> pd.DataFrame:
    """An empty results frame with every schema column and dtype."""
    return conform(pd.DataFrame({c: pd.Series([], dtype=object) for c in COLUMNS}))


def _mapping_pieces(data: Mapping) -> tuple[dict[str, list], int]:
    """Columns of a mapping (lists, arrays, scalars broadcast) as one-piece columns."""
    lengths = {len(v) for v in data.values() if not _scalar(v)}
    if len(lengths) != 1 or any(isinstance(v, pd.Series) for v in data.values()):
        df = pd.DataFrame(dict(data))  # the general rules (and pandas' errors)
        return {c: [df[c]] for c in df.columns}, len(df)
    n = lengths.pop()
    return {k: [Const(v, n) if _scalar(v) else
                (v if isinstance(v, list) else v if hasattr(v, "dtype") else list(v))]
            for k, v in data.items()}, n


def _scalar(v) -> bool:
    return v is None or isinstance(v, (str, bytes, int, float, bool, np.generic, pd.Timestamp))


def series_frame(data: Mapping[str, Sequence] | pd.DataFrame) -> pd.DataFrame:
    """Build a typed series frame from columns (``t``, ``value``, ``metric``, ``unit``, ``op``, …)."""
    if isinstance(data, pd.DataFrame):
        pieces, n = {c: [data[c]] for c in data.columns}, len(data)
    else:
        pieces, n = _mapping_pieces(data)
    return series_of_columns(pieces, n)


def series_of_columns(pieces: dict[str, list], n: int) -> pd.DataFrame:
    """The typed series frame from column pieces (see :func:`frame_of_columns`)."""
    return _build(pieces, n, SERIES_COLUMNS, META_COLUMNS, what="series column")


def empty_series() -> pd.DataFrame:
    """An empty series frame with every schema column and dtype."""
    return series_frame({c: [] for c in SERIES_COLUMNS})


def concat(frames: Sequence[pd.DataFrame], series: bool = False) -> pd.DataFrame:
    """Concatenate tidy frames, keeping schema dtypes (categories are unioned, not lost)."""
    frames = [f for f in frames if f is not None and len(f.columns)]
    if not frames:
        return empty_series() if series else empty()
    if len(frames) == 1:
        return frames[0].reset_index(drop=True)
    names = list(dict.fromkeys(c for f in frames for c in f.columns))
    pieces = {c: [f[c] if c in f.columns else Const(None, len(f)) for f in frames]
              for c in names}
    n = sum(len(f) for f in frames)
    if series:
        return series_of_columns(pieces, n)
    return _build(pieces, n, {**COLUMNS, **META_COLUMNS})


def validate(df: pd.DataFrame) -> pd.DataFrame:
    """Check that ``df`` follows the results-frame contract; return it unchanged, or raise.

    Checked: every column of :data:`COLUMNS` and :data:`META_COLUMNS` present, in that order, with
    its dtype; no missing ``run_id``/``source``/``tool``/``test``/``metric``/``unit``; every metric
    in the vocabulary with its canonical unit (``score`` excepted); values finite or NaN (never
    ±inf); NaN values only where ``flag`` says why; rates and latencies not negative.

    Raises
    ------
    ebsstats.SchemaError
        naming the first broken rule and an example row.

    Examples
    --------
    >>> import ebsstats as es
    >>> es.validate(es.schema.empty()).shape[0]
    0
    """
    if not isinstance(df, pd.DataFrame):
        raise SchemaError(f"expected a pandas DataFrame, got {type(df).__name__}")
    expected = list(COLUMNS) + list(META_COLUMNS)
    got = list(df.columns[: len(expected)])
    if got != expected:
        missing = [c for c in expected if c not in df.columns]
        if missing:
            raise SchemaError(f"missing columns: {missing}")
        raise SchemaError(f"columns out of order: expected {expected}, got {got}")
    for name, dtype in {**COLUMNS, **META_COLUMNS}.items():
        actual = df[name].dtype
        if dtype == "category":
            ok = isinstance(actual, pd.CategoricalDtype)
        elif isinstance(dtype, pd.CategoricalDtype):
            ok = isinstance(actual, pd.CategoricalDtype) and list(actual.categories) == list(
                dtype.categories)
        elif dtype is STRING:
            ok = actual == STRING
        else:
            ok = actual == dtype
        if not ok:
            raise SchemaError(f"column {name!r} has dtype {actual}, expected {dtype}")
        if isinstance(dtype, pd.CategoricalDtype) and dtype.categories is not None:
            used = set(map(str, df[name].dropna().unique()))
            unknown = sorted(used - set(map(str, dtype.categories)))
            if unknown:
                raise SchemaError(f"column {name!r} has values outside the vocabulary: "
                                  f"{unknown[:5]} (allowed: {list(dtype.categories)})")
    for name in ("run_id", "source", "tool", "test", "metric", "unit"):
        if df[name].isna().any():
            row = int(np.flatnonzero(df[name].isna().to_numpy())[0])
            raise SchemaError(f"column {name!r} is missing in row {row}")
    for metric, unit in df[["metric", "unit"]].drop_duplicates().itertuples(index=False):
        want, _ = metric_info(str(metric))
        if want is not None and str(unit) != want:
            raise SchemaError(f"metric {metric!r} has unit {unit!r}, expected {want!r}")
    values = df["value"].to_numpy()
    if np.isinf(values).any():
        raise SchemaError(f"infinite value in row {int(np.flatnonzero(np.isinf(values))[0])}")
    nan_unflagged = np.isnan(values) & df["flag"].isna().to_numpy()
    if nan_unflagged.any():
        row = int(np.flatnonzero(nan_unflagged)[0])
        raise SchemaError(f"NaN value without a flag in row {row} ({df['source'].iloc[row]})")
    units = df["unit"].astype(str).to_numpy()
    rate = np.isin(units, ["B/s", "IO/s", "s", "ops/s", "B", "count"])
    negative = rate & (values < 0)
    if negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise SchemaError(f"negative {df['metric'].iloc[row]} in row {row}")
    return df


def validate_series(ts: pd.DataFrame) -> pd.DataFrame:
    """Check the series-frame contract (columns, dtypes, finite ``t``, values never ±inf and
    never negative in rate, latency or count units); return it or raise.

    Examples
    --------
    >>> import ebsstats as es
    >>> len(es.validate_series(es.schema.empty_series()))
    0
    """
    for name, dtype in SERIES_COLUMNS.items():
        if name not in ts:
            raise SchemaError(f"series frame lacks column {name!r}")
        actual = ts[name].dtype
        if dtype == "category" or isinstance(dtype, pd.CategoricalDtype):
            ok = isinstance(actual, pd.CategoricalDtype)
        elif dtype is STRING:
            ok = isinstance(actual, pd.StringDtype)
        else:
            ok = actual == dtype
        if not ok:
            raise SchemaError(f"series column {name!r} has dtype {actual}, expected {dtype}")
    if not np.isfinite(ts["t"].to_numpy()).all():
        raise SchemaError("series column 't' has non-finite times")
    values = ts["value"].to_numpy()
    if np.isinf(values).any():
        raise SchemaError(f"infinite series value in row {int(np.flatnonzero(np.isinf(values))[0])}")
    units = ts["unit"].astype(str).to_numpy()
    negative = np.isin(units, ["B/s", "IO/s", "s", "ops/s", "B", "count"]) & (values < 0)
    if negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise SchemaError(f"negative series {ts['metric'].iloc[row]} in row {row}")
    return ts


# --------------------------------------------------------------------------------------------
# selecting rows of a tidy frame
# --------------------------------------------------------------------------------------------

#: Flags of rows that summarise other rows (left out by :func:`select` unless asked for).
SUMMARY_FLAGS = ("reported_mean", "spread", "aggregate")


def select(data: pd.DataFrame, *, exclude_flags: Sequence[str] | None = SUMMARY_FLAGS,
           dropna: bool = False, **equals) -> pd.DataFrame:
    """Rows whose columns equal the given values (a list means any of them).

    By default rows that summarise other rows are left out — PTS's reported mean beside its raw
    runs (``reported_mean``), a published ± figure (``spread``) and fio's "All clients" line
    (``aggregate``) — so statistics see each run once. Columns that are not in the frame match
    nothing.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"metric": ["iops", "iops", "bandwidth"], "op": ["read", "write", "read"],
    ...                    "flag": [None, "reported_mean", None], "value": [1.0, 2.0, 3.0]})
    >>> select(df, metric="iops")["value"].tolist()
    [1.0]
    >>> select(df, op=["read", "write"], exclude_flags=None)["value"].tolist()
    [1.0, 2.0, 3.0]
    """
    keep = pd.Series(True, index=data.index)
    for col, wanted in equals.items():
        if wanted is None:
            continue
        if col not in data:
            return data.iloc[0:0]
        values = list(wanted) if isinstance(wanted, (list, tuple, set)) else [wanted]
        keep &= data[col].astype("string").isin([str(v) for v in values]).fillna(False)
    if exclude_flags and "flag" in data:
        keep &= ~data["flag"].isin(list(exclude_flags)).fillna(False)
    out = data[keep]
    if dropna:
        out = out[out["value"].notna()]
    return out

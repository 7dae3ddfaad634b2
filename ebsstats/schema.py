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
                                               ``ioping``, ``table`` (published tables),
                                               ``sim`` (simulated), or the name of any other tool
                                               (:data:`TOOL_NAME`) whose rows were brought with
                                               :func:`ebsstats.frame`
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
                                               its raw runs), ``spread`` (a published ± figure),
                                               ``interrupted`` (fio stopped on a signal),
                                               ``implausible`` (a fio latency longer than its job
                                               ran); a sysbench latency printed as ``0.00`` ms is
                                               NaN, ``too_fast``
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

import functools
import hashlib
import re
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

from ebsstats.errors import SchemaError

__all__ = ["TOOLS", "TOOL_NAME", "check_tools", "WORKLOADS", "OPS", "UNITS", "metric_info", "percentile_metric", "run_id",
           "empty", "empty_series", "validate", "validate_series", "select", "SUMMARY_FLAGS",
           "SELECT_EXCLUDES", "INTERRUPTED", "IMPLAUSIBLE",
           "WORKLOAD_PARAMETERS", "NOT_STORAGE", "measures_storage", "storage_first"]

#: The tools ebsstats reads itself (and ``table``: published tables; ``sim``: simulated runs).
TOOLS = ["fio", "bonnie++", "sysbench", "pts", "ioping", "table", "sim"]
#: Any other tool's name (rows brought with :func:`ebsstats.frame`): lowercase, 1–40 characters,
#: letters, digits and ``+._-``, starting with a letter or digit (``gobonniego``, ``elbencho``).
TOOL_NAME = re.compile(r"[a-z0-9][a-z0-9+._-]{0,39}")
WORKLOADS = ["seqread", "seqwrite", "randread", "randwrite", "randrw", "rewrite", "seeks",
             "create", "stat", "delete", "mixed", "other"]
OPS = ["read", "write", "trim", "sync", "total"]

STRING = pd.StringDtype()

COLUMNS: dict[str, object] = {
    "run_id": STRING,
    "source": STRING,
    "position": STRING,
    "tool": "category",  # an open vocabulary: TOOLS, or any name TOOL_NAME matches
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


def check_tools(values) -> None:
    """Raise :class:`SchemaError` unless every (non-missing) value is a tool name: one of
    :data:`TOOLS`, or any other name :data:`TOOL_NAME` matches in full.

    >>> check_tools(["fio", "gobonniego", "elbencho-3.0"])
    >>> try:
    ...     check_tools(["FIO"])
    ... except SchemaError as exc:
    ...     print(str(exc).endswith("(did you mean 'fio'?)"))
    True
    """
    for v in dict.fromkeys(values):
        if v is None or v is pd.NA or (isinstance(v, float) and v != v) or v in TOOLS:
            continue
        if isinstance(v, str) and TOOL_NAME.fullmatch(v):
            continue
        hint = ""
        if isinstance(v, str) and v.strip().lower() in TOOLS:
            hint = f" (did you mean {v.strip().lower()!r}?)"
        raise SchemaError(f"tool name {v!r} is not allowed: a tool is one of {TOOLS} or a "
                          f"lowercase name of 1-40 letters, digits and '+._-' that starts with "
                          f"a letter or digit{hint}")


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
    # the first 8 bytes in hex (hexdigest()[:16], without formatting the other 12)
    return _sha1(f"{source}\x00{run_key}".encode(), usedforsecurity=False).digest()[:8].hex()


def run_ids(source: str, keys: Iterable[str]) -> dict[str, str]:
    """:func:`run_id` of one source and each distinct ``str`` key, as a dict: the source's
    bytes hashed once and that SHA-1 state copied per key (a folder read hashes a PTS file's
    108 keys so: 0.59 -> 0.41 us a key). The same formula: ``f"{source}\\x00{key}"`` is the
    source's part and the key's, encoded one after the other.

    >>> ids = run_ids("a.json", ["x", "y", "x"])
    >>> ids == {"x": run_id("a.json", "x"), "y": run_id("a.json", "y")}
    True
    """
    base = _sha1(f"{source}\x00".encode(), usedforsecurity=False)
    out: dict[str, str] = {}
    for key in keys:
        if key not in out:
            h = base.copy()
            h.update(f"{key}".encode())
            out[key] = h.digest()[:8].hex()
    return out


_sha1 = hashlib.sha1


def empty() -> pd.DataFrame:
    """An empty results frame with every schema column and dtype.

    >>> empty().shape
    (0, 30)
    """
    return _empty_of("results").copy()  # a copy: the caller may add to it


def empty_series() -> pd.DataFrame:
    """An empty series frame with every schema column and dtype."""
    return _empty_of("series").copy()


@functools.cache
def _empty_of(kind: str) -> pd.DataFrame:
    """The empty frame, built once (30 casts of an empty column: 3 ms, paid by every read
    with no results rows, such as a folder of fio logs)."""
    cols = SERIES_COLUMNS if kind == "series" else {**COLUMNS, **META_COLUMNS}
    return pd.DataFrame({c: _empty_column(d) for c, d in cols.items()}, index=pd.RangeIndex(0))


def _empty_column(dtype) -> pd.Series:
    if isinstance(dtype, pd.CategoricalDtype) or dtype == "category":
        dtype = "category"  # categories are the observed values (none), as in every frame
    return pd.Series([], dtype=object).astype(dtype)


def __getattr__(name: str):
    if name in _MOVED:
        raise AttributeError(f"ebsstats.schema.{name} moved to ebsstats.io.{name} (the typing "
                             "engine is in the io layer; the schema keeps the contract)")
    raise AttributeError(f"module 'ebsstats.schema' has no attribute {name!r}")


_MOVED = {"frame", "series_frame", "conform", "concat", "columns_of", "frame_of_columns",
          "series_of_columns", "is_constant", "Const"}


def validate(df: pd.DataFrame) -> pd.DataFrame:
    """Check that ``df`` follows the results-frame contract; return it unchanged, or raise.

    Checked: every column of :data:`COLUMNS` and :data:`META_COLUMNS` present, in that order, with
    its dtype; no missing ``run_id``/``source``/``tool``/``test``/``metric``/``unit``; every tool
    one of :data:`TOOLS` or a name :data:`TOOL_NAME` matches (:func:`check_tools`); every metric
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
    _check_order(list(df.columns[: len(expected)]), df.columns)
    dtypes = dict(zip(df.columns[: len(expected)], df.dtypes.iloc[: len(expected)], strict=True))
    arrays: dict = {}  # each column's array, taken once (a column access copies df.attrs)

    def array(name: str):
        a = arrays.get(name)
        if a is None:
            a = arrays[name] = df[name].array
        return a

    _check(dtypes, array)
    return df


def check_columns(columns) -> None:
    """Check typed columns (a mapping of name to array or Series, in the frame's order) as
    :func:`validate` checks the frame they make: the same rules, the same errors; what the
    typing engine runs before it makes a frame (a column access of a frame costs more than
    the checks).

    Examples
    --------
    >>> import ebsstats as es
    >>> e = es.schema.empty()
    >>> check_columns({c: e[c].array for c in e.columns})
    >>> try:
    ...     check_columns({c: e[c].array for c in e.columns if c != "flag"})
    ... except SchemaError as exc:
    ...     print(exc)
    missing columns: ['flag']
    """
    _check_order(list(columns)[: len(COLUMNS) + len(META_COLUMNS)], columns)
    arrays = {name: _plain_array(col) for name, col in columns.items()}
    _check({name: arrays[name].dtype for name in _RESULTS}, arrays.__getitem__)


def _plain_array(col):
    """A column's values as a frame holds them: a NumPy array for NumPy dtypes (a Series'
    ``.array`` wraps it), else the extension array."""
    if isinstance(col, pd.Series):
        col = col.array
    if isinstance(col, pd.arrays.NumpyExtensionArray):
        return col.to_numpy()
    return col


def _check_order(got: list, columns) -> None:
    """The schema's columns first, in order (``columns``: every column, to name the missing)."""
    expected = list(COLUMNS) + list(META_COLUMNS)
    if got != expected:
        missing = [c for c in expected if c not in columns]
        if missing:
            raise SchemaError(f"missing columns: {missing}")
        raise SchemaError(f"columns out of order: expected {expected}, got {got}")


def _check(dtypes: dict, array) -> None:
    """The rules of :func:`validate` on the schema's columns: ``dtypes`` by name, ``array``:
    name -> the column's array."""
    for name, dtype, kind, vocabulary in _dtype_rules():
        actual = dtypes[name]  # not df[name] per column: a column access copies df.attrs
        if kind == "category":
            ok = isinstance(actual, pd.CategoricalDtype)
        elif kind == "categories":
            ok = isinstance(actual, pd.CategoricalDtype) and list(actual.categories) == list(
                dtype.categories)
        else:  # (the same dtype object: equal without asking)
            ok = actual is dtype or actual == dtype
        if not ok:
            raise SchemaError(f"column {name!r} has dtype {actual}, expected {dtype}")
        if name == "tool":
            check_tools(_used_categories(array(name)))
        if vocabulary is not None:
            used = set(map(str, _used_categories(array(name))))
            unknown = sorted(used - vocabulary)
            if unknown:
                raise SchemaError(f"column {name!r} has values outside the vocabulary: "
                                  f"{unknown[:5]} (allowed: {list(dtype.categories)})")
    for name in ("run_id", "source", "tool", "test", "metric", "unit"):
        missing = pd.isna(array(name))
        if missing.any():
            row = int(np.flatnonzero(missing)[0])
            raise SchemaError(f"column {name!r} is missing in row {row}")
    # metric and unit are categorical (checked above): work on their codes, not on strings
    metric_cat, unit_cat = array("metric"), array("unit")
    m_names, u_names = category_names(metric_cat.dtype), category_names(unit_cat.dtype)
    width = len(u_names) + 1
    pairs = metric_cat.codes.astype(np.int32 if len(m_names) * width < 2**31 else np.int64)
    pairs *= width  # (in place: one array of the rows, not three)
    pairs += unit_cat.codes
    for pair in _present(pairs, len(m_names) * width).tolist():
        m, u = divmod(pair, width)
        metric, unit = m_names[m], u_names[u]
        want, _ = metric_info(str(metric))
        if want is not None and str(unit) != want:
            raise SchemaError(f"metric {metric!r} has unit {unit!r}, expected {want!r}")
    values = np.asarray(array("value"))
    if np.isinf(values).any():
        raise SchemaError(f"infinite value in row {int(np.flatnonzero(np.isinf(values))[0])}")
    nan_unflagged = np.isnan(values) & np.asarray(pd.isna(array("flag")))
    if nan_unflagged.any():
        row = int(np.flatnonzero(nan_unflagged)[0])
        raise SchemaError(f"NaN value without a flag in row {row} ({array('source')[row]})")
    below = values < 0  # (judged first: most frames have no negative value, and then no
    # row's unit need be looked at)
    negative = _never_negative_codes(unit_cat) & below if below.any() else below
    if negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise SchemaError(f"negative {metric_cat[row]} in row {row}")


def _used_categories(cat: pd.Categorical) -> list:
    """The categories a categorical array uses (not all it has), in the categories' order;
    from its codes (an Index indexed by an array cost more than the rest of the checks)."""
    names = category_names(cat.dtype)
    return [names[i] for i in _present(cat.codes, len(names)).tolist()]


def _present(codes: np.ndarray, k: int) -> np.ndarray:
    """The distinct codes in ``0..k-1`` that ``codes`` holds, ascending (``-1``, missing, left
    out): ``np.unique`` without its sort. Only the first code and each code that differs
    from the one before it are marked (a frame's codes come in runs, a file's rows of one
    tool or metric): a mark per row was a scatter of ``n`` random writes (136,721 fio rows
    0.39 -> 0.04 ms a column).

    >>> _present(np.array([2, 2, -1, 0, 0, 2], dtype=np.int8), 4).tolist()
    [0, 2]
    """
    seen = np.zeros(k + 1, dtype=bool)  # code -1 marks the extra last slot
    if len(codes):
        seen[codes[0]] = True
        rest = codes[1:]
        seen[rest[rest != codes[:-1]]] = True
    return np.flatnonzero(seen[:k])


@functools.cache
def _dtype_rules() -> list[tuple[str, object, str, frozenset | None]]:
    """Per column of the results frame: its name, dtype, how :func:`validate` compares a
    column's dtype with it (``category``: any categorical; ``categories``: these categories;
    ``equal``) and its vocabulary (``None``: open): judged once, not per check."""
    rules = []
    for name, dtype in _RESULTS.items():
        if dtype == "category":  # CategoricalDtype(WORKLOADS) == "category" too
            kind = "category"
        elif isinstance(dtype, pd.CategoricalDtype):
            kind = "categories"
        else:
            kind = "equal"
        vocabulary = (frozenset(map(str, dtype.categories))
                      if isinstance(dtype, pd.CategoricalDtype) and dtype.categories is not None
                      else None)
        rules.append((name, dtype, kind, vocabulary))
    return rules


_NAMES: dict[int, tuple] = {}  # id of a categorical dtype -> (the dtype, its categories)


def category_names(dtype: pd.CategoricalDtype) -> list:
    """A categorical dtype's categories as a list (do not modify it), listed once per dtype
    object: the typing engine shares one dtype among the columns (and reads) of the same
    categories, and an Arrow-backed Index lists itself slowly."""
    hit = _NAMES.get(id(dtype))
    if hit is not None and hit[0] is dtype:
        return hit[1]
    names = dtype.categories.tolist()
    if len(_NAMES) >= 1024:  # (a dtype per distinct set of categories: bounded)
        _NAMES.clear()
    _NAMES[id(dtype)] = (dtype, names)
    return names


_RESULTS = {**COLUMNS, **META_COLUMNS}
_NEVER_NEGATIVE = frozenset({"B/s", "IO/s", "s", "ops/s", "B", "count"})  # rates, times, counts


def _never_negative(unit: pd.Series) -> np.ndarray:
    """Rows whose unit admits no negative value; judged on a categorical's codes (one test per
    category), not on a string per row."""
    if isinstance(unit.dtype, pd.CategoricalDtype):
        return _never_negative_codes(unit.array)
    return np.isin(unit.astype(str).to_numpy(), list(_NEVER_NEGATIVE))


def _never_negative_codes(unit: pd.Categorical) -> np.ndarray:
    """:func:`_never_negative` of a categorical array."""
    hit = np.array([str(c) in _NEVER_NEGATIVE for c in category_names(unit.dtype)] + [False],
                   dtype=bool)
    return hit[unit.codes]  # code -1 (missing) takes the last entry


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
    if not len(ts):
        return ts
    # reductions, not per-row masks (a fio log's series is millions of rows); NaN values are
    # allowed: fmin/fmax pass over them, while min/max of t return NaN if there is one
    t = ts["t"].to_numpy()
    if not (np.isfinite(t.min()) and np.isfinite(t.max())):
        raise SchemaError("series column 't' has non-finite times")
    values = ts["value"].to_numpy()
    low, high = np.fmin.reduce(values), np.fmax.reduce(values)
    if np.isinf(low) or np.isinf(high):
        raise SchemaError(f"infinite series value in row {int(np.flatnonzero(np.isinf(values))[0])}")
    negative = _never_negative(ts["unit"]) & (values < 0) if low < 0 else None
    if negative is not None and negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise SchemaError(f"negative series {ts['metric'].iloc[row]} in row {row}")
    return ts


# --------------------------------------------------------------------------------------------
# selecting rows of a tidy frame
# --------------------------------------------------------------------------------------------

#: Flags of rows that summarise other rows (left out by :func:`select` unless asked for).
SUMMARY_FLAGS = ("reported_mean", "spread", "aggregate")
#: The flag of the rows of a run fio stopped on a signal before its end (a shorter run than the
#: job asked for).
INTERRUPTED = "interrupted"
#: The flag of a value too fast to measure, NaN, never zero: bonnie++'s ``+++++`` and a
#: latency sysbench printed as zero (under the 0.005 ms its two decimals show).
TOO_FAST = "too_fast"
#: The flag of a value its run cannot have measured: a fio latency longer than the job ran
#: (fio's clock or counters gone wrong), with the other statistics of its latency family.
IMPLAUSIBLE = "implausible"
#: What :func:`select` leaves out by default: :data:`SUMMARY_FLAGS`, :data:`INTERRUPTED` and
#: :data:`IMPLAUSIBLE`.
SELECT_EXCLUDES = (*SUMMARY_FLAGS, INTERRUPTED, IMPLAUSIBLE)

#: The columns that say what a run asked of the storage, beyond its test's name: the schema's
#: workload, block size, threads and queue depth, and the options the readers keep as extra
#: columns (fio's ``rw`` and the read share of a mix, engine, direct I/O, file size, rate cap;
#: sysbench's file and CPU options; bonnie++'s sizes and file counts; a PTS test's
#: ``arguments`` and ``description``: the results of one execution, such as Tinymembench's
#: memcpy and memset, share arguments). Runs that differ in one of them measured different
#: things: their values are not repetitions of one another.
WORKLOAD_PARAMETERS = (
    "workload", "block_size", "threads", "iodepth",
    "rw", "rwmixread", "rw_ratio", "ioengine", "direct", "job_size", "rate_iops",
    "io_mode", "file_total_size", "file_num", "fsync_freq", "fsync_all", "fsync_end",
    "extra_flags", "cpu_max_prime", "memory_oper", "memory_scope", "sysbench_tables",
    "sysbench_table_size", "sql_mix", "target_rate",
    "file_size", "chunk_size", "files", "num_files", "max_size", "min_size", "dirs",
    "concurrency", "seeks", "seek_proc_count",
    "arguments", "description",
)


#: Tests that measure no storage, by tool: sysbench's ``cpu``, ``memory``, ``threads`` and
#: ``mutex`` modes (a memory test's bandwidth is the RAM's, a CPU test's latency a prime loop's).
#: They stay in the frame; the reports choose and plot storage tests first
#: (:func:`measures_storage`).
NOT_STORAGE: dict[str, frozenset[str]] = {
    "sysbench": frozenset({"cpu", "memory", "threads", "mutex"})}


def measures_storage(data: pd.DataFrame) -> pd.Series:
    """Whether each row's test measures storage: every row but those of :data:`NOT_STORAGE`
    (a tool's test as the reader names it: a ``--pattern`` that renames ``test`` hides it).

    >>> df = pd.DataFrame({"tool": ["sysbench", "sysbench", "fio"],
    ...                    "test": ["memory", "fileio", "memory"]})
    >>> measures_storage(df).tolist()
    [False, True, True]
    """
    out = pd.Series(True, index=data.index)
    if "tool" not in data or "test" not in data:
        return out
    tool, test = data["tool"].astype("string"), data["test"].astype("string")
    for name, tests in NOT_STORAGE.items():
        out &= ~(tool.eq(name) & test.isin(sorted(tests))).fillna(False).astype(bool)
    return out


def storage_first(data: pd.DataFrame) -> pd.DataFrame:
    """The rows of tests that measure storage (:func:`measures_storage`) when there are any,
    else every row: what the report pages choose from and plot.

    >>> df = pd.DataFrame({"tool": "sysbench", "test": ["memory", "fileio"]})
    >>> storage_first(df)["test"].tolist(), storage_first(df[:1])["test"].tolist()
    (['fileio'], ['memory'])
    """
    storage = measures_storage(data)
    return data[storage] if storage.any() else data


def select(data: pd.DataFrame, *, exclude_flags: Sequence[str] | None = SELECT_EXCLUDES,
           dropna: bool = False, **equals) -> pd.DataFrame:
    """Rows whose columns equal the given values (a list means any of them).

    By default rows that summarise other rows are left out — PTS's reported mean beside its raw
    runs (``reported_mean``), a published ± figure (``spread``) and fio's "All clients" line
    (``aggregate``) — so statistics see each run once, and so are the rows of a run fio stopped
    on a signal (``interrupted``: :data:`SELECT_EXCLUDES`). Columns that are not in the frame
    match nothing.

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

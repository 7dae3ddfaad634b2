"""Beyond one machine: partitioned Parquet datasets and a Dask path with the same schema.

When to switch (see also ``benchmarks/ingest_speed.py``):

* **pandas** (:func:`ebsstats.read`) while the tidy frame fits in memory a few times over: a
  10,000-file campaign is ~0.5 M rows, ~0.5 GB; reading it takes seconds to tens of seconds.
* **Parquet** (:func:`to_parquet_dataset`) as soon as you read the same results more than once:
  ingest once, then every notebook, script or SQL engine reads columns in milliseconds. Partition
  by ``tool`` / ``config`` / ``date`` so that a question about one configuration or one week reads
  only those files.
* **DuckDB** for SQL over the Parquet dataset on one machine, larger than memory
  (``SELECT ... FROM read_parquet('tidy/**/*.parquet', hive_partitioning = true)``).
* **Dask** (:func:`read_dask`, then :func:`ebsstats.summarize_dask`) when the raw outputs themselves are too many
  or too large for one process (a fleet's results, terabytes of fio logs): files are parsed in
  parallel partitions on a ``dask.distributed`` cluster, and group statistics run without
  collecting the rows.

>>> import ebsstats.io.dataset as sc
>>> sc.dataset_date(__import__("pandas").Series(["2024-03-04T10:00:00Z", None],
...                 dtype="datetime64[ns, UTC]")).tolist()
['2024-03-04', 'unknown']
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import pandas as pd

from ebsstats import schema
from ebsstats._docs import renamed
from ebsstats.atomic import atomic_dir
from ebsstats.io import _columns as engine

__all__ = ["read_dask", "to_parquet_dataset", "read_dataset", "file_partitions", "dataset_date",
           "PARTITION_COLS"]

PARTITION_COLS = ["tool", "config", "date"]


# --------------------------------------------------------------------------------------------
# raw outputs -> Dask DataFrame
# --------------------------------------------------------------------------------------------

def file_partitions(path: str | os.PathLike, files_per_partition: int = 256) -> list[list[Path]]:
    """The files under ``path`` in partitions of about ``files_per_partition``; a folder's files
    stay together (fio logs take their version from the JSON report beside them).

    >>> file_partitions("no/such/dir")
    []
    """
    from ebsstats.io.folder import _walk

    root = Path(path)
    if not root.is_dir():
        return [[root]] if root.exists() else []
    by_dir: dict[Path, list[Path]] = {}
    for f in _walk(root):
        by_dir.setdefault(f.parent, []).append(f)
    parts: list[list[Path]] = []
    current: list[Path] = []
    for files in by_dir.values():
        if current and len(current) + len(files) > files_per_partition:
            parts.append(current)
            current = []
        current.extend(files)
    if current:
        parts.append(current)
    return parts


def _columns(series: bool, extra: Sequence[str]) -> dict[str, object]:
    base = dict(schema.SERIES_COLUMNS) if series else {**schema.COLUMNS}
    base.update(schema.META_COLUMNS)
    for name in extra:
        base.setdefault(name, schema.STRING)
    return base


def _meta(series: bool, extra: Sequence[str]) -> pd.DataFrame:
    cols = _columns(series, extra)
    empty = schema.empty_series() if series else schema.empty()
    out = {}
    for name in cols:
        col = empty[name] if name in empty else pd.Series([], dtype=schema.STRING)
        if isinstance(col.dtype, pd.CategoricalDtype):
            col = col.cat.set_categories(["__UNKNOWN_CATEGORIES__"])  # dask: unknown categories
        out[name] = col
    return pd.DataFrame(out)


def _shape(df: pd.DataFrame, series: bool, extra: Sequence[str]) -> pd.DataFrame:
    """A partition with exactly the Dask frame's columns and dtypes."""
    cols = _columns(series, extra)
    n = len(df)
    out = {}
    for name, dtype in cols.items():
        if name in df:
            col = df[name].reset_index(drop=True)
            if dtype is schema.STRING and col.dtype != schema.STRING:
                col = engine._as_string(col)
        else:
            col = engine._column([engine.Const(None, n)], dtype)
        out[name] = col
    return pd.DataFrame(out, index=pd.RangeIndex(n))


def _read_partition(root: str, files: list[str], series: bool, extra: tuple[str, ...],
                    pattern: str | None, meta: Mapping | None, dedupe: bool) -> pd.DataFrame:
    from ebsstats.io import folder

    outcomes, _ = folder._ingest(root, errors="collect", pattern=pattern, meta=meta,
                                 progress=False, jobs=1, max_bytes=folder.FOLDER_MAX_BYTES,
                                 dedupe=dedupe, series=series,
                                 files=[Path(f) for f in files])
    res = folder._assemble(outcomes, series)
    return _shape(res[1] if series else res, series, extra)


def read_dask(path: str | os.PathLike, *, series: bool = False, extra: Sequence[str] = (),
              pattern: str | None = None, meta: Mapping | None = None,
              files_per_partition: int = 256, dedupe: bool = False):
    """Read a folder tree of benchmark outputs (or a Parquet dataset) into a Dask DataFrame.

    Parameters
    ----------
    path : path
        A folder of raw outputs (read like :func:`ebsstats.read`, one partition per
        ``files_per_partition`` files, parsed where the Dask scheduler runs the task), or a
        Parquet dataset written by :func:`to_parquet_dataset` (read column-wise by Dask).
    series : bool
        The time-series frame instead of the results frame.
    extra : sequence of str
        Columns beyond the schema's to keep (``job``, ``rw``, user metadata, …). Every partition
        of a Dask frame has the same columns: the schema's (:data:`ebsstats.schema.COLUMNS` and
        ``META_COLUMNS``, or ``SERIES_COLUMNS``) plus these, ``<NA>`` where absent.
    pattern, meta
        As for :func:`ebsstats.read`.
    files_per_partition : int
        Files parsed per task; a folder's files stay in one partition.
    dedupe : bool
        Drop identical files within a partition (across partitions this would need every
        file's digest first; default off).

    Returns
    -------
    dask.dataframe.DataFrame
        Same columns and dtypes as the pandas frame (categories are "unknown" to Dask until
        computed); ``compute()`` gives a frame that passes :func:`ebsstats.validate` for the
        schema columns. Files that cannot be read are left out: list them with
        :func:`ebsstats.check`.

    Examples
    --------
    >>> import ebsstats as es, ebsstats.io.dataset as sc
    >>> ddf = sc.read_dask("tests/fixtures/bonnie")              # doctest: +SKIP
    >>> es.summarize_dask(ddf, by=["test"]).compute()            # doctest: +SKIP
    """
    import dask
    import dask.dataframe as dd

    p = Path(path)
    extra = tuple(extra)
    if p.is_dir() and any(p.rglob("*.parquet")) and not any(
            f.suffix not in (".parquet", ".crc") for f in p.rglob("*") if f.is_file()):
        return read_dataset(p, dask=True, extra=extra)
    parts = file_partitions(p, files_per_partition)
    root = str(p if p.is_dir() else p.parent)
    if not p.is_dir():
        parts = [[p]]
        root = str(p.parent)
    tasks = [dask.delayed(_read_partition)(root, [str(f) for f in files], series, extra,
                                          pattern, dict(meta) if meta else None, dedupe)
             for files in parts]
    meta_df = _meta(series, extra)
    if not tasks:
        return dd.from_pandas(_shape(meta_df.iloc[:0], series, extra), npartitions=1)
    return dd.from_delayed(tasks, meta=meta_df, verify_meta=False)


# --------------------------------------------------------------------------------------------
# partitioned Parquet dataset
# --------------------------------------------------------------------------------------------

def dataset_date(timestamp: pd.Series) -> pd.Series:
    """The ``date`` partition value: the UTC date of ``timestamp`` (``"unknown"`` when missing)."""
    ts = pd.to_datetime(timestamp, utc=True)
    out = ts.dt.strftime("%Y-%m-%d")
    return out.astype(object).where(ts.notna(), "unknown").astype(schema.STRING)


def _partition_ready(df: pd.DataFrame, partition_cols: Sequence[str]) -> pd.DataFrame:
    df = df.copy(deep=False)
    if "date" in partition_cols and "date" not in df:
        df["date"] = dataset_date(df["timestamp"])
    for c in partition_cols:
        col = df[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            col = col.astype(object)
        df[c] = col.astype(object).where(col.notna(), "unknown").astype(str)
    return df


@renamed(df="data")
def to_parquet_dataset(data, path: str | os.PathLike, *,
                       partition_cols: Sequence[str] = PARTITION_COLS) -> Path:
    """Write a tidy frame (pandas or Dask) as a hive-partitioned Parquet dataset, atomically.

    ``partition_cols`` default to ``tool`` / ``config`` / ``date``, where ``date`` is the UTC day
    of ``timestamp`` (added as a column); missing partition values are written as
    ``"unknown"``. The dataset is built in a temporary folder beside ``path`` and renamed into
    place (an existing dataset is replaced only once the new one is complete).

    Examples
    --------
    >>> import ebsstats as es, ebsstats.io.dataset as sc, tempfile, os
    >>> df = es.io.frame([{"source": "a.json", "tool": "fio", "test": "t", "metric": "iops",
    ...                        "value": 1.0, "config": "gp3", "timestamp": "2024-03-04T10:00Z"}])
    >>> out = sc.to_parquet_dataset(df, os.path.join(tempfile.mkdtemp(), "tidy"))
    >>> sorted(p.relative_to(out).parent.as_posix() for p in out.rglob("*.parquet"))
    ['tool=fio/config=gp3/date=2024-03-04']
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    cols = list(partition_cols)
    if not isinstance(data, pd.DataFrame):  # Dask
        ready = data.map_partitions(_partition_ready, cols)
        with atomic_dir(target) as tmp:
            ready.to_parquet(str(tmp), partition_on=cols, write_index=False,
                             write_metadata_file=False)
        return target
    from ebsstats.io.parquet import to_parquet

    return to_parquet(_partition_ready(data, cols), target, partition_cols=cols)


def _restore(df: pd.DataFrame, series: bool, keep: Sequence[str]) -> pd.DataFrame:
    df = df.reset_index(drop=True)
    for c in df.columns:  # partition columns come back as dictionary categoricals
        if isinstance(df[c].dtype, pd.CategoricalDtype) and c in ("config", "date"):
            df[c] = df[c].astype(object).where(df[c].notna(), None)
    for c in ("config",):
        if c in df:
            df[c] = df[c].where(df[c] != "unknown", None)
    if "date" in df and "date" not in keep:
        df = df.drop(columns="date")
    return engine.series_frame(df) if series else engine.conform(df)


def read_dataset(path: str | os.PathLike, *, filters=None, columns: Sequence[str] | None = None,
                 dask: bool = False, extra: Sequence[str] = (), keep_date: bool = False):
    """Read a dataset written by :func:`to_parquet_dataset` back into the tidy schema.

    ``filters`` (pyarrow/pandas syntax, e.g. ``[("config", "==", "gp3")]``) read only the
    matching partitions. With ``dask=True`` a Dask DataFrame (schema columns plus ``extra``).
    The ``date`` partition column is dropped unless ``keep_date``.

    Examples
    --------
    >>> import ebsstats as es, tempfile
    >>> df = es.io.frame([{"source": "a.json", "tool": "fio", "test": "randread",
    ...                        "metric": "iops", "value": v, "config": c, "run_key": i}
    ...                       for i, (c, v) in enumerate([("gp2", 2900.0), ("gp3", 3010.0)])])
    >>> root = es.to_parquet_dataset(df, tempfile.mkdtemp())
    >>> es.read_dataset(root, filters=[("config", "==", "gp3")])["value"].tolist()
    [3010.0]
    """
    if dask:
        import dask.dataframe as dd

        ddf = dd.read_parquet(str(path), filters=filters, columns=columns)
        keep = ("date",) if keep_date else ()
        meta = _meta(False, tuple(extra) + keep)
        return ddf.map_partitions(
            lambda part: _shape(_restore(part, False, keep), False, tuple(extra) + keep),
            meta=meta)
    df = pd.read_parquet(path, filters=filters, columns=columns)
    return _restore(df, False, ("date",) if keep_date else ())

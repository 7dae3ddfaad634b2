"""Parquet in and out, atomically, with the schema's dtypes restored on the way back."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ebsstats._docs import renamed
from ebsstats.atomic import atomic_dir, atomic_file
from ebsstats.io import _columns

__all__ = ["to_parquet", "read_parquet"]


@renamed(df="data")
def to_parquet(data: pd.DataFrame, path: str | os.PathLike, *,
               partition_cols: list[str] | None = None) -> Path:
    """Write a tidy frame to Parquet atomically (a temporary file or folder, then a rename).

    With ``partition_cols`` (e.g. ``["tool", "config"]``) a partitioned dataset folder is written;
    an existing one at ``path`` is replaced only once the new one is complete. A single file
    keeps what the read said of its files (``data.attrs["failures"]``: files refused or read in
    part, the readers' notes) in its metadata, and :func:`read_parquet` gives it back: a
    report made from ``ebsstats ingest``'s Parquet says what a report made from the folder
    says. Other ``attrs`` are not kept.

    Examples
    --------
    >>> import ebsstats as es, tempfile, os
    >>> p = es.to_parquet(es.schema.empty(), os.path.join(tempfile.mkdtemp(), "t.parquet"))
    >>> es.read_parquet(p).shape[0]
    0
    """
    target = Path(path)
    failures = data.attrs.get("failures")
    data = data.copy(deep=False)
    data.attrs = {}
    target.parent.mkdir(parents=True, exist_ok=True)
    if partition_cols:
        with atomic_dir(target) as tmp:
            data.to_parquet(tmp, partition_cols=partition_cols, index=False)
        return target
    if failures:  # (a list of dicts of texts: pandas keeps attrs as JSON in the file)
        data.attrs = {"failures": failures}
    with atomic_file(target) as tmp:
        data.to_parquet(tmp, index=False)
    return target


def read_parquet(path: str | os.PathLike, **kwargs) -> pd.DataFrame:
    """Read a tidy frame (or series frame) written by :func:`to_parquet`, dtypes restored.

    Examples
    --------
    >>> import ebsstats as es, tempfile
    >>> df = es.io.frame([{"source": "a.json", "tool": "fio", "test": "randread",
    ...                        "metric": "iops", "value": 3000.0}])
    >>> path = es.to_parquet(df, tempfile.mkdtemp() + "/tidy.parquet")
    >>> es.read_parquet(path).equals(df)
    True
    """
    df = pd.read_parquet(path, **kwargs)
    if "t" in df.columns and "offset" in df.columns:
        return _columns.series_frame(df)
    out = _columns.conform(df)
    failures = df.attrs.get("failures")
    if isinstance(failures, list):
        out.attrs["failures"] = failures
    return out

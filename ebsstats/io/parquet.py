"""Parquet in and out, atomically, with the schema's dtypes restored on the way back."""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pandas as pd

from ebsstats._docs import renamed
from ebsstats.atomic import atomic_dir, atomic_file
from ebsstats.io import _columns

__all__ = ["to_parquet", "read_parquet", "read_parquet_data"]


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


def parquet_files(path: str | os.PathLike) -> tuple[list[Path], list[Path]] | None:
    """The Parquet files of a data path read as Parquet, and the companions set aside (notes,
    sidecars beside them); ``None`` for a folder of benchmark outputs (with a warning when it
    also holds Parquet files). A folder is a Parquet folder when it holds Parquet files and
    every other file is a companion (README, ``*.md``, ...: what a folder read never reads
    either); hidden files and ``_``-prefixed ones are pyarrow's, not data."""
    from ebsstats.io.sniff import is_companion_name

    p = Path(path)
    if not p.is_dir():
        return ([p], []) if p.suffix == ".parquet" else None
    rel = {q: q.relative_to(p).as_posix() for q in p.rglob("*") if q.is_file()}
    files = sorted(q for q, r in rel.items() if not r.startswith((".", "_")) and "/." not in r)
    parquet = [q for q in files if q.suffix == ".parquet"]
    others = [q for q in files if q.suffix != ".parquet"]
    if not parquet:
        return None
    if any(not is_companion_name(q.name) for q in others):
        warnings.warn(f"{len(parquet)} Parquet file(s) under {p} not read: a folder that holds "
                      "benchmark outputs is read as outputs (give the Parquet file itself)",
                      UserWarning, stacklevel=3)
        return None
    return parquet, others


def read_parquet_data(path: str | os.PathLike) -> pd.DataFrame | None:
    """Data given as Parquet: a ``.parquet`` file, or a folder of them (:func:`parquet_files`)
    read as one frame; ``None`` for anything else (a folder of benchmark outputs: read it
    with :func:`ebsstats.read`). In a folder, rows that are exact copies of others (the same
    runs ingested twice: two copies of one file) are counted once; warnings say what was set
    aside and how many copies were dropped.

    >>> import ebsstats as es, tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> df = es.io.frame([{"source": "a.json", "tool": "fio", "test": "randread",
    ...                    "metric": "iops", "value": 3000.0}])
    >>> _ = es.to_parquet(df, d / "a.parquet"), (d / "README.md").write_text("notes")
    >>> read_parquet_data(d).equals(df), read_parquet_data(d / "README.md") is None
    (True, True)
    """
    p = Path(path)
    found = parquet_files(p)
    if found is None:
        return None
    parquet, ignored = found
    if ignored:
        warnings.warn(f"{p}: read its {len(parquet)} Parquet file(s); set aside "
                      f"{', '.join(str(q.relative_to(p)) for q in ignored[:5])}"
                      + (f" and {len(ignored) - 5} more" if len(ignored) > 5 else "")
                      + " (companions: notes, sidecars)", UserWarning, stacklevel=2)
    if not p.is_dir():
        return read_parquet(p)
    df = read_parquet(parquet[0] if len(parquet) == 1 else [str(q) for q in parquet])
    again = df.duplicated()
    if again.any():
        warnings.warn(f"{p}: {int(again.sum()):,} row(s) are exact copies of other rows (the "
                      "same runs in two Parquet files); each is counted once", UserWarning,
                      stacklevel=2)
        df = df[~again].reset_index(drop=True)
    return df

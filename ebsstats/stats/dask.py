"""Group statistics on Dask frames: the numbers of :func:`ebsstats.summarize` without
collecting the rows (for frames from :func:`ebsstats.io.dataset.read_dask`).

Nothing here reads files: the frame comes from any reader or Parquet dataset.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats import schema
from ebsstats._docs import renamed, shared_docs

__all__ = ["summarize_dask", "SUMMARY_COLUMNS"]

SUMMARY_COLUMNS = ["n", "n_excluded", "mean", "median", "sd", "cv", "min", "max"]
_WITHIN = ["test", "op", "metric"]  # as ebsstats.summarize(within="auto")


@renamed(ddf="data")
@shared_docs
def summarize_dask(data, by: str | Sequence[str] | None = None, value: str = "value",
                   within: str | Sequence[str] | None = "auto"):
    """``n, n_excluded, mean, median, sd, cv, min, max`` per group of a Dask (or pandas) frame.

    The same groups and the same numbers as :func:`ebsstats.summarize` for those columns:
    grouping is ``by`` plus ``test``, ``op``, ``metric`` where present (``within="auto"``), NA
    keys form their own group, rows whose value is NaN or ±inf are left out and counted in
    ``n_excluded``; ``sd`` has ddof=1 and ``cv = sd / mean``.

    Parameters
    ----------
    data : dask.dataframe.DataFrame or DataFrame
        A tidy frame, e.g. from :func:`ebsstats.io.dataset.read_dask` (a pandas frame is
        wrapped in one partition).
    {by}
    {value}
    {within}

    Returns
    -------
    dask.dataframe.DataFrame
        Lazy (``.compute()`` it): one row per group, sorted by the keys.

    Notes
    -----
    The median is exact: Dask computes it per group after a shuffle that brings each group's
    values into one partition (fine for benchmark groups, which are thousands of values, not
    billions). The confidence intervals of :func:`ebsstats.summarize` (order statistics, BCa
    bootstrap) need each group's values: run ``summarize`` on the computed subset of interest.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> df = pd.DataFrame({"config": ["a"] * 4 + ["b"] * 2, "value": [1., 2, 3, 10, 5, 7]})
    >>> s = summarize_dask(dd.from_pandas(df, npartitions=2), by="config").compute()
    >>> s[["config", "n", "median", "mean", "max"]].values.tolist()
    [['a', 4, 2.5, 4.0, 10.0], ['b', 2, 6.0, 6.0, 7.0]]
    """
    import dask.dataframe as dd

    ddf = dd.from_pandas(data, npartitions=1) if isinstance(data, pd.DataFrame) else data
    keys = [by] if isinstance(by, str) else list(by or [])
    keys = [k.strip() for key in keys for k in key.split(",")]
    if within == "auto":
        extra = [c for c in _WITHIN if c in ddf.columns]
    else:
        extra = [within] if isinstance(within, str) else list(within or [])
    keys = keys + [c for c in extra if c not in keys]
    missing = [c for c in [value, *keys] if c not in ddf.columns]
    if missing:
        raise KeyError(f"columns not in the frame: {missing}")

    def prepare(part: pd.DataFrame) -> pd.DataFrame:
        out = pd.DataFrame(index=part.index)
        for k in keys:
            col = part[k]
            if isinstance(col.dtype, pd.CategoricalDtype):
                col = col.astype(object).where(col.notna(), None).astype(schema.STRING)
            out[k] = col
        x = pd.to_numeric(part[value], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        ok = np.isfinite(x)
        out["_x"] = np.where(ok, x, np.nan)
        out["_bad"] = (~ok).astype(np.int64)
        return out

    meta = prepare(ddf._meta)
    pre = ddf.map_partitions(prepare, meta=meta)
    if not keys:
        pre = pre.assign(_all=1)
        group_keys = ["_all"]
    else:
        group_keys = keys
    stats = pre.groupby(group_keys, dropna=False).agg(
        {"_x": ["count", "mean", "std", "min", "max", "median"], "_bad": ["sum"]}, shuffle=True)
    res = stats.reset_index()
    names = {("_x", "count"): "n", ("_x", "std"): "sd", ("_bad", "sum"): "n_excluded"}

    def finish(part: pd.DataFrame) -> pd.DataFrame:
        out = part.copy()
        out.columns = [names.get(c, c[1] if c[0] == "_x" else c[0]) if isinstance(c, tuple)
                       else c for c in out.columns]
        out["n"] = out["n"].astype(np.int64)
        out["n_excluded"] = out["n_excluded"].astype(np.int64)
        out["sd"] = out["sd"].where(out["n"] > 1)
        mean_ok = (out["n"] > 1) & (out["mean"] != 0)
        out["cv"] = (out["sd"] / out["mean"]).where(mean_ok)
        cols = [k for k in group_keys if k != "_all"] + SUMMARY_COLUMNS
        return out[cols]

    res = res.map_partitions(finish, meta=finish(res._meta))
    if keys:
        res = res.sort_values(keys, na_position="last")
    return res

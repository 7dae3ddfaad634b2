"""What a read produced: counts per tool, configuration and test (for the overview notebook)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ebsstats.stats._core import SUMMARY_FLAGS

__all__ = ["inventory", "select", "SUMMARY_FLAGS"]


def inventory(data: pd.DataFrame, by: Sequence[str] = ("tool", "tool_version", "config")
              ) -> pd.DataFrame:
    """Runs, rows, tests and metrics per group of a tidy frame.

    Examples
    --------
    >>> import ebsstats as es
    >>> es.inventory(es.schema.empty()).columns.tolist()
    ['tool', 'tool_version', 'config', 'runs', 'rows', 'tests', 'metrics', 'first', 'last']
    """
    by = [b for b in by if b in data.columns]
    keyed = data.assign(**{b: data[b].astype("string").fillna("–") for b in by})
    g = keyed.groupby(by, observed=True, dropna=False, sort=True)
    out = g.agg(runs=("run_id", "nunique"), rows=("value", "size"), tests=("test", "nunique"),
                metrics=("metric", "nunique"), first=("timestamp", "min"),
                last=("timestamp", "max"))
    return out.reset_index()




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

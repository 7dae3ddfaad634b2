"""What a read produced: counts per tool, configuration and test (for the overview notebook).

:func:`select` lives in :mod:`ebsstats.schema` (it filters rows by the contract's columns, so
readers and plots can use it too); it is re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from ebsstats.schema import SUMMARY_FLAGS, select  # the contract's row filter, re-exported
from ebsstats.stats._core import natural_key

__all__ = ["inventory", "select", "SUMMARY_FLAGS"]


def inventory(data: pd.DataFrame, by: Sequence[str] = ("tool", "tool_version", "config")
              ) -> pd.DataFrame:
    """Runs, rows, tests and metrics per group of a tidy frame.

    Examples
    --------
    >>> import ebsstats as es
    >>> es.inventory(es.schema.empty()).columns.tolist()
    ['tool', 'tool_version', 'config', 'runs', 'rows', 'tests', 'metrics', 'first', 'last']
    >>> d = pd.DataFrame({"tool": "fio", "config": ["iops10000", "iops2000", "gp2"],
    ...                   "run_id": ["a", "b", "c"], "value": 1.0, "test": "t", "metric": "iops",
    ...                   "timestamp": pd.NaT})
    >>> es.inventory(d)["config"].tolist()
    ['gp2', 'iops2000', 'iops10000']
    """
    by = [b for b in by if b in data.columns]
    keyed = data.assign(**{b: data[b].astype("string").fillna("–") for b in by})
    if "flag" in data:  # (a row that stands for others, a PTS reported mean, is not a run)
        keyed["run_id"] = keyed["run_id"].where(~data["flag"].isin(SUMMARY_FLAGS).fillna(False))
    g = keyed.groupby(by, observed=True, dropna=False, sort=True)
    out = g.agg(runs=("run_id", "nunique"), rows=("value", "size"), tests=("test", "nunique"),
                metrics=("metric", "nunique"), first=("timestamp", "min"),
                last=("timestamp", "max"))
    # (labels in the order of the numbers in them: iops2000 before iops10000, as on the axes)
    return out.reset_index().sort_values(by, key=lambda col: col.map(natural_key),
                                         ignore_index=True)

"""Input checks shared by statistics that must not run on impossible values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

RATE_UNITS = ("B/s", "IO/s", "s", "ops/s", "B", "count")


def refuse_impossible(data: pd.DataFrame, value: str, who: str, *,
                      metrics: Sequence[str] | None = None,
                      columns: Sequence[str] = ()) -> None:
    """Raise ``ValueError`` naming the rows if ``value`` holds ±inf, or a negative rate,
    latency or count (rows whose ``unit`` is one of those, or every row without a ``unit``
    column), or if any of ``columns`` (sizes, provisioned IOPS) is negative or infinite. NaN is
    allowed (a flagged missing value). ``metrics`` limits the check to those metrics.

    >>> import pandas as pd
    >>> refuse_impossible(pd.DataFrame({"value": [1.0, float("nan")]}), "value", "f")
    >>> refuse_impossible(pd.DataFrame({"value": [1.0, -2.0]}), "value", "cost")
    Traceback (most recent call last):
    ...
    ValueError: cost: 1 negative or infinite value(s) in column 'value' (rows [1]): fix or drop these rows first
    """
    if value not in data:
        return
    d = data
    if metrics is not None and "metric" in d:
        d = d.loc[d["metric"].astype(str).isin(list(metrics))]
    checks = [(value, "unit" in d)] + [(c, False) for c in columns if c in d]
    for col, by_unit in checks:
        v = pd.to_numeric(d[col], errors="coerce").to_numpy(float, na_value=np.nan)
        bad = np.isinf(v)
        negative = v < 0
        if by_unit:
            negative &= np.isin(d["unit"].astype(str).to_numpy(), RATE_UNITS)
        bad |= negative
        if bad.any():
            rows = list(d.index[bad][:5])
            raise ValueError(f"{who}: {int(bad.sum())} negative or infinite value(s) in column "
                             f"{col!r} (rows {rows}): fix or drop these rows first")

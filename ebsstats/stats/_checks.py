"""Input checks shared by statistics that must not run on impossible values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats.schema import WORKLOAD_PARAMETERS
from ebsstats.stats._core import key_value

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


def mixed_parameters(data: pd.DataFrame, keys: Sequence[str], *, most: int = 3,
                     subject: str = "the group") -> dict[tuple, str]:
    """``{group key: warning}`` for the groups of ``data`` by ``keys`` (as
    :func:`~ebsstats.stats._core.iter_groups` forms them: a tuple of the key values, missing
    ones as ``None``) whose rows differ in a workload parameter
    (:data:`ebsstats.schema.WORKLOAD_PARAMETERS`) that is not among ``keys``, the values named
    in the order the rows hold them: their values are not repetitions of one configuration,
    and a spread, an average or a comparison of them says nothing about run-to-run variance.
    A missing value counts as a value of its own (a default beside an explicit setting).
    ``subject`` names what mixes them (``compare`` says "the baseline").

    >>> d = pd.DataFrame({"config": ["a", "a", "b", "b"], "block_size": [4096, 4096, 4096, 2**20],
    ...                   "value": [1.0, 2.0, 3.0, 4.0]})
    >>> mixed_parameters(d, ["config"])
    {('b',): 'the group mixes block_size 4096/1048576: add it to `by`, or select one value'}
    """
    return {k: f"{subject} mixes {', '.join(map(_shown, v))}: add "
               f"{'it' if len(v) == 1 else 'them'} to `by`, or select one value"
            for k, v in mixed_items(data, keys, most=most).items()}


def mixed_items(data: pd.DataFrame, keys: Sequence[str], *, most: int = 3
                ) -> dict[tuple, list[tuple[str, list, int]]]:
    """:func:`mixed_parameters` as ``{group key: [(column, its first values, how many), ...]}``
    (at most ``most`` values, in the order the rows hold them, missing ones as ``None``), for
    a caller that words its own message. One grouping per column that varies at all.

    >>> mixed_items(pd.DataFrame({"threads": [1, 4, 1], "value": [1.0, 2.0, 3.0]}), [])
    {(): [('threads', [1, 4], 2)]}
    """
    cols = [c for c in WORKLOAD_PARAMETERS if c in data.columns and c not in keys
            and data[c].nunique(dropna=False) > 1]
    if not cols or data.empty:
        return {}
    said: dict[tuple, list[tuple[str, list, int]]] = {}
    for col in cols:
        if keys:  # (distinct counts of every group first: values only of the mixed ones)
            grouped = data.groupby(list(keys), dropna=False, observed=True, sort=False)
            mixed = grouped[col].nunique(dropna=False).to_numpy() > 1
            if not mixed.any():
                continue
            rows = data[mixed[grouped.ngroup().to_numpy()]]
            per_group = rows.groupby(list(keys), dropna=False, observed=True, sort=False)[
                col].unique().items()
        else:
            per_group = [((), data[col].unique())]
        for key, vals in per_group:
            if len(vals) < 2:
                continue
            key = key if isinstance(key, tuple) else (key,)  # (keyed as iter_groups keys)
            said.setdefault(tuple(map(key_value, key)), []).append(
                (col, [key_value(v.item() if isinstance(v, np.generic) else v)
                       for v in list(vals)[:most]], len(vals)))
    return said


def _shown(item: tuple[str, list, int]) -> str:
    """``block_size 4096/1048576`` (``(+2 more)`` after the values left out)."""
    col, vals, n = item
    text = f"{col} {'/'.join('NA' if v is None else str(v) for v in vals)}"
    return text + (f" (+{n - len(vals)} more)" if n > len(vals) else "")

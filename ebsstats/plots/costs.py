"""Cost plots: cost against performance with the Pareto frontier, and the monthly-cost breakdown.

Both take the frame :func:`ebsstats.stats.costs` returns (or any frame with the same column names) and
return the matplotlib Axes; neither calls ``plt.show()``.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ebsstats.plots._text import plain_text

__all__ = ["cost_breakdown_plot", "cost_performance_plot"]

LABELS = {
    "iops": "IOPS (median of runs)",
    "bandwidth_mbps": "MB/s (median of runs, 10⁶ B/s)",
    "bandwidth_mibps": "MiB/s (median of runs)",
    "monthly_usd": "USD per month",
    "usd_per_iops_month": "USD per IOPS-month",
    "usd_per_mbps_month": "USD per (MB/s)-month",
    "usd_per_mibps_month": "USD per (MiB/s)-month",
    "entitled_iops": "entitled IOPS",
    "delivered_ratio": "delivered / entitled",
}
COMPONENTS = {
    "storage_usd": "storage (GB-month)",
    "disk_usd": "disk (size tier)",
    "iops_usd": "provisioned IOPS",
    "throughput_usd": "provisioned throughput",
    "requests_usd": "I/O requests",
    "instance_usd": "instance-hours",
}


def _err(data: pd.DataFrame, col: str) -> np.ndarray | None:
    lo, hi = f"{col}_ci_low", f"{col}_ci_high"
    if lo not in data or hi not in data:
        return None
    v = data[col].to_numpy(float)
    low = np.clip(v - data[lo].to_numpy(float), 0, None)
    high = np.clip(data[hi].to_numpy(float) - v, 0, None)
    if np.all(np.isnan(low)) and np.all(np.isnan(high)):
        return None
    return np.vstack([np.nan_to_num(low), np.nan_to_num(high)])


def cost_performance_plot(data: pd.DataFrame, x: str = "iops", y: str = "monthly_usd", *,
                          label: str | None = "config", ci: bool = True, frontier: bool = True,
                          logx: bool = False, logy: bool = False, ax=None):
    """Scatter of cost against performance, with CI error bars and the Pareto frontier.

    Parameters
    ----------
    data : DataFrame
        A :func:`ebsstats.stats.costs` result.
    x, y : str
        Performance column (``iops``, ``bandwidth_mbps``) and cost column (``monthly_usd``, or a
        cost per unit such as ``usd_per_iops_month``). ``<col>_ci_low``/``<col>_ci_high`` give
        the error bars when present.
    label : str or None
        Column whose values annotate the points.
    ci : bool
        Draw the CIs as error bars.
    frontier : bool
        Draw the frontier: the points no other point beats on both lower ``y`` and higher ``x``
        (recomputed for these axes with :func:`ebsstats.stats.costs.pareto_front`).
    logx, logy : bool
        Log scales (useful when instance store and magnetic share a plot).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from ebsstats.plots.costs import cost_performance_plot
    >>> r = pd.DataFrame({"config": ["a", "b", "c"], "iops": [100., 3000., 2000.],
    ...                   "monthly_usd": [5., 50., 80.]})
    >>> ax = cost_performance_plot(r)
    >>> ax.get_xlabel()
    'IOPS (median of runs)'
    """
    from ebsstats.stats.costs import pareto_front

    for col in (x, y):
        if col not in data:
            raise KeyError(f"cost_performance_plot: column {col!r} not in data")
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4.5))
    xv = data[x].to_numpy(float)
    yv = data[y].to_numpy(float)
    on = pareto_front(yv, xv)
    xerr = _err(data, x) if ci else None
    yerr = _err(data, y) if ci else None
    ax.errorbar(xv, yv, xerr=xerr, yerr=yerr, fmt="none", ecolor="0.6", elinewidth=1,
                capsize=2, zorder=1)
    ax.scatter(xv[~on], yv[~on], color="C0", zorder=2, label="configuration")
    ax.scatter(xv[on], yv[on], color="C3", zorder=3, label="on the frontier")
    if frontier and on.any():
        order = np.argsort(xv[on])
        ax.plot(xv[on][order], yv[on][order], color="C3", lw=1.2, ls="--", zorder=2,
                label="Pareto frontier")
    if label is not None and label in data:
        for xi, yi, text in zip(xv, yv, data[label].astype(str), strict=True):
            if np.isfinite(xi) and np.isfinite(yi):
                ax.annotate(text, (xi, yi), textcoords="offset points", xytext=(4, 4),
                            fontsize=8)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(LABELS.get(x, x))
    ax.set_ylabel(LABELS.get(y, y))
    ax.set_title("Cost vs performance (lower right is better)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))  # never over data
    return plain_text(ax)


def cost_breakdown_plot(data: pd.DataFrame, x: str = "config", *,
                        components: Sequence[str] | None = None, component: str = "component",
                        value: str = "monthly_usd", horizontal: bool = False, ax=None):
    """Stacked bars of the monthly cost of each configuration, by price component.

    Parameters
    ----------
    data : DataFrame
        Either a :func:`ebsstats.stats.costs` result (wide: one ``*_usd`` column per component, see
        :data:`ebsstats.stats.costs.COMPONENT_COLUMNS`) or a long frame with ``x``, ``component`` and
        ``value`` columns (e.g. :func:`ebsstats.volume_cost` breakdowns concatenated with a
        ``config`` column).
    x : str
        Column naming the configurations (one bar each).
    components : list of str, optional
        Wide columns to stack (default: every ``*_usd`` component column with a non-zero total).
    component, value : str
        Columns of a long frame.
    horizontal : bool
        Horizontal bars (long configuration names).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from ebsstats.plots.costs import cost_breakdown_plot
    >>> r = pd.DataFrame({"config": ["gp3", "io1"], "storage_usd": [80., 12.5],
    ...                   "iops_usd": [5., 65.]})
    >>> ax = cost_breakdown_plot(r)
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['storage (GB-month)', 'provisioned IOPS']
    """
    if x not in data:
        raise KeyError(f"cost_breakdown_plot: column {x!r} not in data")
    if component in data and value in data:
        wide = data.pivot_table(index=x, columns=component, values=value, aggfunc="sum",
                                fill_value=0.0, observed=True)
        names = {c: str(c) for c in wide.columns}
    else:
        cols = list(components) if components is not None else [
            c for c in COMPONENTS if c in data and float(data[c].fillna(0).abs().sum()) > 0]
        if not cols:
            raise ValueError("cost_breakdown_plot: no component columns (*_usd) in data")
        wide = data.groupby(x, sort=False, observed=True)[cols].sum()
        names = {c: COMPONENTS.get(c, c) for c in cols}
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 4.5))
    pos = np.arange(len(wide))
    base = np.zeros(len(wide))
    for i, col in enumerate(wide.columns):
        v = wide[col].to_numpy(float)
        if horizontal:
            ax.barh(pos, v, left=base, color=f"C{i}", label=names[col])
        else:
            ax.bar(pos, v, bottom=base, color=f"C{i}", label=names[col])
        base = base + v
    labels = [str(i) for i in wide.index]
    if horizontal:
        ax.set_yticks(pos, labels)
        ax.set_xlabel("USD per month")
    else:
        ax.set_xticks(pos, labels, rotation=30 if len(labels) > 4 else 0, ha="right"
                      if len(labels) > 4 else "center")
        ax.set_ylabel("USD per month")
    ax.set_title("Monthly cost by component")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    return plain_text(ax)

"""Plots of spread and comparisons: distributions with median CIs, forest plot of ratios, and
CONFIRM's CI-width-versus-runs curve. Seaborn style: ``data=`` plus column names; each function
returns the matplotlib Axes and never calls ``plt.show()``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns

from ebsstats._docs import renamed
from ebsstats.plots._text import plain_text
from ebsstats.stats._core import first_value, median_ci_array
from ebsstats.units import display


def _ax(ax):
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 4))
    return ax


def distribution_plot(data: pd.DataFrame, x: str = "config", value: str = "value",
                      confidence: float = 0.95, unit: str | None = None, ax=None,
                      order=None, log: bool | None = None, **strip_kws):
    """Every run as a dot per group, with the median and its order-statistic CI as a bar.

    The value axis is logarithmic when the groups' medians span more than a factor of 20
    (``log=None``), so that a slow volume type and an NVMe instance store both stay readable;
    group labels are rotated when there are many.

    Parameters
    ----------
    data : DataFrame
        Tidy frame of *one* metric (filter first, e.g. ``df.query("metric == 'iops'")``).
    x : str
        Column of groups on the x axis.
    value : str
        Column of values (canonical units; shown in display units, B/s → MB/s, s → ms).
    confidence : float
        Level of the median CI (:func:`ebsstats.median_ci`).
    unit : str, optional
        Canonical unit; default the frame's ``unit`` column.
    ax : matplotlib Axes, optional
    order : list, optional
        Group order.
    log : bool, optional
        Logarithmic value axis (default: automatic, see above).
    **strip_kws
        Passed to :func:`seaborn.stripplot`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd, ebsstats.plots.summary as pv
    >>> df = pd.DataFrame({"config": ["a"] * 6 + ["b"] * 6, "value": range(12), "unit": "IO/s"})
    >>> ax = pv.distribution_plot(df)
    >>> ax.get_ylabel()
    'value [IOPS]'
    """
    ax = _ax(ax)
    unit = unit or first_value(data, "unit")
    factor, label = display(str(unit)) if unit and unit != "mixed" else (1.0, "")
    d = data[[x, value]].copy()
    d[x] = d[x].astype(str)
    d["_v"] = pd.to_numeric(d[value], errors="coerce") * factor
    d = d[np.isfinite(d["_v"])]
    order = list(order) if order is not None else list(pd.unique(d[x]))
    strip_kws = {"alpha": 0.6, "size": 4, "jitter": 0.15, "color": "0.45", **strip_kws}
    sns.stripplot(data=d, x=x, y="_v", order=order, ax=ax, **strip_kws)
    for i, grp in enumerate(order):
        vals = d.loc[d[x] == grp, "_v"].to_numpy()
        if len(vals) == 0:
            continue
        med, lo, hi, level = median_ci_array(vals, confidence)
        if np.isfinite(lo):
            ax.errorbar(i + 0.3, med, yerr=[[med - lo], [hi - med]], fmt="o", color="C3",
                        capsize=4, lw=2, label=None)
        else:
            ax.plot(i + 0.3, med, "o", color="C3")
    ax.set_xlabel(x)
    ax.set_ylabel(f"{value} [{label}]" if label else value)
    ax.set_title(f"runs and median with {confidence:.0%} order-statistic CI", fontsize=10)
    meds = d.groupby(x)["_v"].median()
    meds = meds[meds > 0]
    if log is None:
        log = len(meds) > 1 and bool(d["_v"].min() > 0) and meds.max() / meds.min() > 20
    if log:
        ax.set_yscale("log")
    if len(order) > 4 or max((len(str(o)) for o in order), default=0) > 10:
        ax.tick_params(axis="x", labelrotation=35)
        for t in ax.get_xticklabels():
            t.set_horizontalalignment("right")
    return plain_text(ax)


@renamed(comparison="data")
def forest_plot(data: pd.DataFrame, label: str | list[str] | None = None, ax=None,
                log: bool = True):
    """Forest plot of a :func:`ebsstats.stats.comparison` result: ratio of medians with its CI per row,
    a line at 1 (no change), colour by verdict.

    Parameters
    ----------
    data : DataFrame
        Output of :func:`ebsstats.stats.comparison`.
    label : str or list of str, optional
        Columns that name a row; default every text column before ``baseline``.
    ax : matplotlib Axes, optional
    log : bool
        Logarithmic ratio axis (a halving and a doubling look alike).

    Returns
    -------
    matplotlib.axes.Axes
    """
    c = data.reset_index(drop=True)
    if ax is None:  # one row per comparison: the figure grows with them (24 configs stay legible)
        _, ax = plt.subplots(figsize=(7, max(2.2, 0.9 + 0.32 * len(c))))
    if label is None:
        label = list(c.columns[: list(c.columns).index("baseline")])
    label = [label] if isinstance(label, str) else list(label)
    names = (c[label].astype("string").fillna("NA").agg(" ".join, axis=1) if label
             else c.index.astype(str))  # (a missing op of a PTS score: "NA", not a float)
    colors = {"better": "C2", "worse": "C3", "higher": "C0", "lower": "C1", "~": "0.5"}
    y = np.arange(len(c))[::-1]
    for yi, (_, r) in zip(y, c.iterrows(), strict=True):
        col = colors.get(str(r["verdict"]), "0.5")
        lo, hi = r["ratio_ci_low"], r["ratio_ci_high"]
        if np.isfinite(lo) and np.isfinite(hi):
            ax.plot([lo, hi], [yi, yi], color=col, lw=2)
        ax.plot(r["ratio"], yi, "o", color=col)
    ax.axvline(1.0, color="k", lw=0.8, ls="--")
    if log:
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yticks(y)
    ax.set_yticklabels(list(names))
    base = c["baseline"].iloc[0] if len(c) else ""
    conf = c["confidence"].iloc[0] if len(c) else 0.95
    ax.set_xlabel(f"ratio of medians to {base} ({conf:.0%} CI)")
    return plain_text(ax)


@renamed(curve="data")
def ci_width_plot(data: pd.DataFrame, hue: str | None = None, precision: float | None = None,
                  ax=None):
    """CONFIRM-style curve: relative CI half-width of the median against the number of runs.

    Parameters
    ----------
    data : DataFrame
        Output of :func:`ebsstats.repetitions_needed` (the default, long form).
    hue : str, optional
        Column distinguishing curves (e.g. ``"config"``).
    precision : float, optional
        Target half-width drawn as a line; default the frame's ``precision``.
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    ax = _ax(ax)
    groups = [(None, data)] if hue is None else list(data.groupby(hue, sort=True))
    # (a group of too few runs to model has no curve: named in the table beside, not drawn)
    groups = [(name, g) for name, g in groups if g["half_width_rel"].notna().any()]
    if not groups:
        ax.text(0.5, 0.5, "no group has enough runs to draw the curve", ha="center",
                va="center", transform=ax.transAxes)
    for i, (name, g) in enumerate(groups):
        g = g.sort_values("n")
        col = f"C{i % 10}"
        ax.plot(g["n"], 100 * g["half_width_rel"], color=col,
                label=None if name is None else str(name))
        ax.fill_between(g["n"], 100 * g["half_width_rel_ci_low"],
                        100 * g["half_width_rel_ci_high"], color=col, alpha=0.2)
        needed = g["n_needed"].dropna()
        if len(needed):
            ax.axvline(float(needed.iloc[0]), color=col, ls=":", lw=1)
    if precision is None and "precision" in data and len(data):
        precision = float(data["precision"].iloc[0])
    if precision is not None:
        ax.axhline(100 * precision, color="k", ls="--", lw=0.8)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # runs are whole numbers
    ax.set_xlabel("runs (n)")
    ax.set_ylabel("CI half-width of the median [% of median]")
    if hue is not None and groups:
        ax.legend(title=hue, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1),
                  ncols=1 + len(groups) // 16)
        ax.figure.tight_layout()
    return plain_text(ax)

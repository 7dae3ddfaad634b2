"""Drift plots: weekday × hour heatmap, effect plot with CIs, series with trend and changepoints.

Each function takes ``data=`` plus column names (or a result frame of
:mod:`ebsstats.stats.calendar`), returns the matplotlib Axes or Figure, and never calls
``plt.show()``.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ebsstats._docs import renamed
from ebsstats.plots._text import plain_text
from ebsstats.stats._core import MixedDirectionError, metric_direction
from ebsstats.stats.calendar import WEEKDAYS, local_calendar
from ebsstats.units import display

__all__ = ["weekday_hour_heatmap", "effect_plot", "series_plot"]


def _colour_map(data: pd.DataFrame, cmap: str | None) -> str:
    """``cmap`` if given, else the diverging map with red on the worse side: reversed for a
    lower-is-better metric by the project's one rule
    (:func:`~ebsstats.stats._core.metric_direction`: the ``higher_is_better`` column, else a
    latency unit or name), the plain map when the direction is unknown. Rows labelled both
    ways have no worse side: an error."""
    if cmap:
        return cmap
    try:
        hib = metric_direction(data, unknown=True)
    except MixedDirectionError as exc:  # (TPS and latency pooled: no colour means 'worse' for both)
        raise ValueError(f"{exc}, or pass cmap= to choose the colours") from exc
    return "RdBu" if hib else "RdBu_r"


def weekday_hour_heatmap(data: pd.DataFrame, value: str = "value", time: str = "timestamp", *,
                         by: str | list[str] | None = None, tz: str | None = None,
                         region: str | None = None, ax=None, annot: bool = False,
                         cmap: str | None = None):
    """Median relative performance per local weekday × hour (value / overall median).

    With ``by`` (e.g. ``"config"``) each value is first divided by its own group's median, so
    configurations of very different speed can share one map.

    Colour is centred at 1.0; for lower-is-better metrics (latency: the ``higher_is_better``
    column, else a unit ``s`` or a latency name such as ``clat_p99``) the colour map is reversed
    so that red always means worse. Rows whose ``higher_is_better`` holds both True and False
    (a PTS test's TPS and its latency) raise ``ValueError`` unless ``cmap`` is given.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> t = pd.date_range("2024-01-01", periods=24 * 14, freq="h", tz="UTC")
    >>> ax = weekday_hour_heatmap(pd.DataFrame({"timestamp": t, "value": np.ones(len(t))}))
    >>> ax.get_ylabel()
    'weekday'
    """
    import seaborn as sns

    d = data[data[value] > 0]
    cm = _colour_map(d, cmap)  # (before any figure is made: a refused frame leaves none)
    cal = local_calendar(d, time, tz=tz, region=region)
    if by:
        keys = [by] if isinstance(by, str) else list(by)
        rel = d[value].astype(float) / d.groupby(keys, observed=True)[value].transform("median")
    else:
        rel = d[value].astype(float) / float(d[value].median())
    grid = (pd.DataFrame({"weekday": cal["weekday"], "hour": cal["hour"], "rel": rel})
            .groupby(["weekday", "hour"])["rel"].median().unstack("hour")
            .reindex(index=range(7), columns=range(24)))
    grid.index = WEEKDAYS
    if ax is None:
        _, ax = plt.subplots(figsize=(10, 3.5))
    span = float(np.nanmax(np.abs(grid.to_numpy() - 1))) if grid.notna().any().any() else 0.1
    sns.heatmap(grid, ax=ax, cmap=cm, center=1.0, vmin=1 - span, vmax=1 + span, annot=annot,
                fmt=".2f",
                cbar_kws={"label": "median / " + ("group" if by else "overall") + " median"})
    ax.set_xlabel(f"hour of day ({cal['tz'].iloc[0] if len(cal) else 'UTC'})")
    ax.set_ylabel("weekday")
    return plain_text(ax)


@renamed(drift_frame="data")
def effect_plot(data: pd.DataFrame, *, hue: str | None = None, fig=None):
    """Weekday and hour effects (ratios) with their CIs, one panel per factor.

    Parameters
    ----------
    data : DataFrame
        Output of :func:`ebsstats.stats.calendar.drift`.
    hue : str, optional
        Group column to distinguish (offset and colour); default the first ``by`` column if any.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import pandas as pd
    >>> eff = pd.DataFrame({"factor": ["weekday"] * 2, "level": ["Mon", "Tue"],
    ...                     "level_index": [0, 1], "ratio": [1.01, 0.99],
    ...                     "ratio_ci_low": [0.99, 0.97], "ratio_ci_high": [1.03, 1.01]})
    >>> len(effect_plot(eff).axes)
    1
    """
    factors = [f for f in ("weekday", "hour") if f in set(data["factor"])]
    known = {"factor", "level", "level_index", "ratio", "ratio_ci_low", "ratio_ci_high",
             "p_value", "n", "confidence", "coding", "method"}
    if hue is None:
        extra = [c for c in data.columns if c not in known]
        hue = extra[0] if extra else None
    if fig is None:
        fig = plt.figure(figsize=(5 + 5 * (len(factors) > 1), 3.5))
    if not factors:  # nothing estimable (e.g. too few days): say so instead of failing
        ax = fig.subplots()
        ax.set_axis_off()
        ax.text(0.5, 0.5, "no weekday or hour effect is estimable from this data",
                ha="center", va="center", transform=ax.transAxes)
        return fig
    axes = fig.subplots(1, len(factors), squeeze=False)[0]
    groups = list(data.groupby(hue, sort=True)) if hue else [(None, data)]
    for ax, f in zip(axes, factors, strict=True):
        for i, (g, sub) in enumerate(groups):
            s = sub[sub["factor"] == f].sort_values("level_index")
            step = min(0.15, 0.8 / len(groups))  # 24 groups stay within their level's slot
            x = np.arange(len(s)) + (i - (len(groups) - 1) / 2) * step
            yerr = [s["ratio"] - s["ratio_ci_low"], s["ratio_ci_high"] - s["ratio"]]
            ax.errorbar(x, s["ratio"], yerr=yerr, fmt="o", capsize=3 if len(groups) < 8 else 0,
                        ms=6 if len(groups) < 8 else 3,
                        label=None if g is None else str(g))
            ax.set_xticks(np.arange(len(s)), s["level"], rotation=0 if f == "weekday" else 45)
        ax.axhline(1.0, color="grey", lw=0.8, ls="--")
        ax.set_title(f"{f} effect")
        ax.set_ylabel("ratio to typical level")
    if hue and len(groups) > 1:  # outside the last panel: a legend never covers an interval
        axes[-1].legend(title=hue, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1),
                        ncols=1 + len(groups) // 16)
    plain_text(fig).tight_layout()
    return fig


def series_plot(data: pd.DataFrame, value: str = "value", time: str = "timestamp", *,
                trend=None, changepoints=None, freq: str = "D", unit: str | None = None,
                ax=None):
    """Runs over time, per-period medians, Theil–Sen trend and changepoint segment levels.

    Parameters
    ----------
    data : DataFrame
        One group's runs.
    trend : DataFrame or bool, optional
        A row of :func:`ebsstats.stats.trends.trend` (or ``True`` to compute it).
    changepoints : DataFrame or bool, optional
        Output of :func:`ebsstats.stats.changepoint.changepoints_frame` (or ``True`` to compute it).
    freq : str
        Period of the medians (and of computed trend / changepoints).
    unit : str, optional
        Canonical unit for display (default the frame's ``unit`` column if unique).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> t = pd.date_range("2024-01-01", periods=60, freq="12h", tz="UTC")
    >>> df = pd.DataFrame({"timestamp": t, "value": np.linspace(100, 110, 60)})
    >>> ax = series_plot(df, trend=True, changepoints=True)
    >>> ax.get_xlabel()
    'time (UTC)'
    """
    d = data[data[value] > 0].sort_values(time)
    if unit is None and "unit" in d.columns and d["unit"].nunique() == 1:
        unit = str(d["unit"].iloc[0])
    factor, label = display(unit) if unit else (1.0, "")
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.5))
    t = pd.to_datetime(d[time], utc=True)
    ax.plot(t, d[value] * factor, ".", alpha=0.35, color="grey", label="runs")
    med = np.exp(np.log(d[value].astype(float)).groupby(t.dt.floor(freq)).median())
    ax.plot(med.index, med.to_numpy() * factor, "o-", color="C0", ms=3, lw=1,
            label=f"per-{freq} median")
    if trend is True:
        from ebsstats.stats.trends import trend as _trend

        trend = _trend(d, value, time, freq=freq)
    if isinstance(trend, pd.DataFrame) and len(trend) and np.isfinite(trend["level_start"].iloc[0]):
        row = trend.iloc[0]
        days = np.asarray((med.index - row["origin"]) / pd.Timedelta(days=1), dtype=float)
        ax.plot(med.index, row["level_start"] * row["ratio_per_day"] ** days * factor, "-",
                color="C1", label=f"trend {row['slope_pct_per_day']:+.2f} %/day")
    if changepoints is True:
        from ebsstats.stats.changepoint import changepoints_frame

        changepoints = changepoints_frame(d, value, time, freq=freq)
    if isinstance(changepoints, pd.DataFrame) and len(changepoints):
        for i, seg in changepoints.reset_index(drop=True).iterrows():
            ax.hlines(seg["level"] * factor, seg["start_time"], seg["end_time"], color="C3",
                      lw=2, label="segments" if i == 0 else None)
            if i > 0:
                ax.axvline(seg["start_time"], color="C3", ls=":", lw=1)
    ax.set_xlabel("time (UTC)")
    ax.set_ylabel(f"{value} ({label})" if label else value)
    import matplotlib.dates as mdates

    locator = mdates.AutoDateLocator(maxticks=8)  # date labels that never collide
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(locator))
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.figure.tight_layout()
    return plain_text(ax)

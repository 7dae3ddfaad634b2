"""History bands: each group's past runs, the prediction band of its latest regime, the new runs.

Draws what :func:`ebsstats.stats.history.regressions` decided: history in grey (the latest regime
darker), a dashed line at the changepoint where the regime starts, the prediction interval of one
new run (following the trend where one was found) and the new run(s) coloured by verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ebsstats.units import display

__all__ = ["history_plot"]

_COLOURS = {"worse": "tab:red", "better": "tab:green", "higher": "tab:orange",
            "lower": "tab:orange", "~": "black"}


def _select(frame: pd.DataFrame, row: pd.Series, keys: Sequence[str]) -> pd.DataFrame:
    mask = np.ones(len(frame), dtype=bool)
    for k in keys:
        v = row[k]
        col = frame[k].astype(object)
        mask &= (col.isna().to_numpy() if v is None or v is pd.NA or v != v
                 else (col == v).to_numpy())
    return frame[mask]


def _band(ax, row: pd.Series, t_new, factor: float) -> None:
    start = row["regime_start"]
    if not isinstance(start, pd.Timestamp) or pd.isna(row["pi_low"]):
        return
    t = pd.date_range(start, t_new, periods=20)
    days = np.asarray((t - t_new) / pd.Timedelta(days=1), dtype=float)
    slope = np.log1p((row["trend_pct_per_day"] or 0.0) / 100)
    g = np.exp(slope * days)
    ax.fill_between(t, row["pi_low"] * g * factor, row["pi_high"] * g * factor, color="tab:blue",
                    alpha=0.15, lw=0, label=f"{row['confidence']:.0%} prediction band")
    ax.plot(t, row["expected"] * g * factor, color="tab:blue", lw=1)
    if row.get("changepoint"):
        ax.axvline(start, color="tab:blue", ls="--", lw=0.8, label="latest regime starts")


def history_plot(history: pd.DataFrame, new: pd.DataFrame, result: pd.DataFrame,
                 value: str = "value", time: str = "timestamp", max_groups: int = 12,
                 ncols: int = 3, unit: str | None = None):
    """Small multiples, one per group of ``result`` (at most ``max_groups``, out-of-line first).

    Parameters
    ----------
    history, new : DataFrame
        The frames given to :func:`ebsstats.stats.history.regressions`.
    result : DataFrame
        Its result (one row per group).
    value, time : str
        Columns.
    max_groups, ncols : int
        How many panels, in how many columns.
    unit : str, optional
        Display unit of the values (``"IO/s"``, ``"s"`` …); default: raw values.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    keys = [c for c in result.columns if c in history.columns and c in new.columns
            and c not in (value, time, "higher_is_better")]
    r = result.sort_values("p_value", na_position="last").head(max_groups)
    n = max(len(r), 1)
    ncols = min(ncols, n)
    nrows = int(np.ceil(n / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 2.8 * nrows), squeeze=False)
    factor, label = display(unit) if unit else (1.0, value)
    for ax, (_, row) in zip(axes.ravel(), r.iterrows(), strict=False):
        h = _select(history, row, keys).sort_values(time)
        w = _select(new, row, keys)
        ax.scatter(h[time], h[value] * factor, s=8, color="0.65", label="history")
        if isinstance(row["regime_start"], pd.Timestamp):
            reg = h[h[time] >= row["regime_start"]]
            ax.scatter(reg[time], reg[value] * factor, s=8, color="0.25", label="latest regime")
        if len(w):
            _band(ax, row, w[time].max(), factor)
            ax.scatter(w[time], w[value] * factor, s=30, marker="D",
                       color=_COLOURS.get(row["verdict"], "black"),
                       label=f"new: {row['verdict']} ({row['change_pct']:+.1f} %)")
        ax.set_title(" · ".join(str(row[k]) for k in keys), fontsize="small")
        ax.set_ylabel(label, fontsize="small")
        ax.tick_params(axis="x", labelrotation=30, labelsize="x-small")
        ax.legend(fontsize="xx-small", loc="best")
    for ax in axes.ravel()[len(r):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig

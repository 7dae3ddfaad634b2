"""The overview figure: the main metrics of everything read, in MB/s, IOPS and ms."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from ebsstats.plots._text import natural_key, plain_text
from ebsstats.schema import IMPLAUSIBLE, TOO_FAST, storage_first
from ebsstats.units import display

MAIN_METRICS = ("bandwidth", "iops", "lat_mean", "clat_mean")


def overview_plot(data: pd.DataFrame, *, metrics: Sequence[str] = MAIN_METRICS,
                  y: str | None = None, hue: str = "tool", value: str = "value",
                  height_per_row: float = 0.28):
    """One panel per main metric: the spread of run values per configuration (or test) as box
    plots on a log scale (boxes, not one dot per run: a corpus has tens of thousands of runs).
    Values of 0 have no place on a log axis, nor values too fast to measure (NaN, flagged
    ``too_fast``: bonnie++'s ``+++++``, a sysbench latency printed as ``0.00`` ms): both are left
    out and counted in the axis label, as are values no run can have measured (flagged
    ``implausible``: a fio latency longer than its job ran). Tests that measure no storage
    (sysbench's ``cpu`` and ``memory`` modes: :func:`ebsstats.schema.measures_storage`) are
    left out when the data has others, and counted in the title.

    Parameters
    ----------
    data : DataFrame
        A tidy results frame.
    metrics : sequence of str
        Metrics to show, in this order, when present (default bandwidth, IOPS, mean latency).
    y : str, optional
        Column on the vertical axis (default ``config`` when filled, else ``test``).
    hue : str
        Column for colour (default the tool).

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    kept = storage_first(data)  # (sysbench's memory bandwidth is no disk's: apart)
    others = (data["run_id"].nunique() - kept["run_id"].nunique()) if "run_id" in data else 0
    data = kept
    present = [m for m in metrics if (data["metric"] == m).any()]
    if not present:
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.text(0.5, 0.5, "no bandwidth, IOPS or latency rows", ha="center", va="center")
        ax.set_axis_off()
        return plain_text(fig)
    if y is None:
        y = "config" if "config" in data and data["config"].notna().mean() > 0.5 else "test"
    chosen = data["metric"].isin(present)
    fast = (data.loc[chosen & data[value].isna() & data["flag"].eq(TOO_FAST).fillna(False)
                     .astype(bool), "metric"].astype(str).value_counts()
            if "flag" in data else pd.Series(dtype="int64"))  # (a flag of pandas' NA: no)
    odd = (data["flag"].eq(IMPLAUSIBLE).fillna(False).astype(bool) if "flag" in data
           else pd.Series(False, index=data.index))  # (no run can have measured them)
    odd_n = data.loc[chosen & odd, "metric"].astype(str).value_counts()
    rows = data[chosen & data[value].notna() & ~odd].copy()
    rows[y] = rows[y].astype("string").fillna("–")
    order = sorted(rows[y].unique(), key=natural_key)  # (iops2000 before iops10000)
    n_levels = max(len(order), 2)
    fig, axes = plt.subplots(1, len(present), figsize=(4.2 * len(present),
                             1.2 + height_per_row * n_levels), squeeze=False, sharey=False)
    for ax, metric in zip(axes[0], present, strict=True):
        sub = rows[rows["metric"] == metric]
        unit = (sub if len(sub) else data[data["metric"] == metric])["unit"].iloc[0]
        factor, label = display(str(unit))  # (a metric of NaN values only: its unit as read)
        sub = sub.assign(shown=sub[value] * factor)
        zeros = int((sub["shown"] <= 0).sum())  # (a log axis has no place for them: said)
        sub = sub[sub["shown"] > 0]
        note = "".join(f"; {k:,} {what} not shown" for k, what in (
            (zeros, "zero value(s)"), (int(fast.get(metric, 0)), "too fast to measure"),
            (int(odd_n.get(metric, 0)), "implausible")) if k)
        if len(sub):
            sns.boxplot(data=sub, x="shown", y=y, hue=hue if hue in sub else None, order=order,
                        ax=ax, fliersize=1.5, linewidth=0.8, legend=ax is axes[0][-1],
                        log_scale=True)
            _log_ticks(ax)
        else:
            ax.text(0.5, 0.5, "every value is 0" if zeros else "no value to show", ha="center",
                    va="center", transform=ax.transAxes)
            ax.set_yticks([])
        ax.set_xlabel(f"{metric} ({label}{note})")
        ax.set_ylabel(y if ax is axes[0][0] else "")
        if ax is not axes[0][0]:
            ax.set_yticklabels([])
    if axes[0][-1].get_legend() is not None:  # beside the panels, never over a box
        sns.move_legend(axes[0][-1], "upper left", bbox_to_anchor=(1.02, 1), fontsize="small")
    if others:
        fig.suptitle(f"{others:,} run(s) of tests that measure no storage (sysbench cpu, "
                     "memory, threads, mutex) not shown", fontsize="small", x=0.01, ha="left")
    plain_text(fig).tight_layout()
    return fig


def _log_ticks(ax) -> None:
    """Label a log x axis by two or more of its powers of ten, else by 1, 2 and 5 times them,
    never also by its minor ticks (matplotlib labelled 2, 3, 4 and 6 times each power beside
    the powers on a narrow panel, and the labels ran into each other); an axis too narrow for
    two such ticks is labelled at 2 to 4 round values, as plain numbers (matplotlib labelled
    1.4, 1.6, … 2.4 x 10^-1 there, one label over the next)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    lo, hi = ax.get_xlim()
    if not 0 < lo < hi:
        return
    powers = range(math.floor(math.log10(lo)), math.ceil(math.log10(hi)) + 1)
    for subs in ((1.0,), (1.0, 2.0, 5.0)):
        if sum(lo <= s * 10.0**e <= hi for e in powers for s in subs) >= 2:
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=subs))
            ax.xaxis.set_minor_formatter(NullFormatter())
            return
    ax.xaxis.set_major_locator(MaxNLocator(nbins=3))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())

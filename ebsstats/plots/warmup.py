"""Plots of warm-up and steady state, first vs repeat touch, and burst depletion.

Seaborn style: ``data=`` plus column names; each function returns the matplotlib Axes (or
Figure) and never calls ``plt.show()``. Display units (MB/s, ms) via
:func:`ebsstats.units.display`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ebsstats.plots._text import plain_text
from ebsstats.units import display


def _unit(data: pd.DataFrame, unit: str | None) -> tuple[float, str]:
    if unit is None and "unit" in data.columns and len(data):
        unit = str(data["unit"].iloc[0])
    return display(unit) if unit else (1.0, "value")


def _state_title(r: pd.Series) -> str:
    """The class and regime count of a series, or why it was not analysed (its ``method``:
    ``not testable: rows mix …``, where the class and count are missing).

    >>> _state_title(pd.Series({"klass": "steady", "n_regimes": 2, "method": "PELT"}))
    'steady: 2 regime(s)'
    >>> _state_title(pd.Series({"klass": None, "n_regimes": np.nan, "method": "not testable: x"}))
    'not testable: x'
    """
    if pd.isna(r.get("klass")):
        return str(r.get("method") or "not analysed")
    return f"{r['klass']}: {r['n_regimes']} regime(s)"


def steady_state_plot(data: pd.DataFrame, value: str = "value", time: str = "t", *,
                      result: pd.DataFrame | None = None, regimes: pd.DataFrame | None = None,
                      unit: str | None = None, title: str | None = None, ax=None, **kwargs):
    """One series with its regimes, the steady-state window and level (with CI).

    ``data`` holds one series (filter it first); ``result`` and ``regimes`` are the outputs of
    :func:`ebsstats.stats.warmup.steady_state` and :func:`ebsstats.stats.warmup.segments` for it (computed
    here with ``kwargs`` when not given). Grey points: the rounds analysed (bins of per-I/O
    logs); dashed lines: regime boundaries (changepoints); green band: steady state from its
    start to the end, with the steady level and its CI; the triangle marks where the SNIA rule
    alone would have stopped (its first steady window).
    """
    import matplotlib.pyplot as plt

    from ebsstats.stats.warmup import segments, steady_state

    d = data.sort_values(time)
    if result is None:
        result = steady_state(d, value=value, time=time, by=[], **kwargs)
    if regimes is None:
        regimes = segments(d, value=value, time=time, by=[], **{
            k: v for k, v in kwargs.items() if k in ("penalty", "equivalence", "bin", "log",
                                                     "max_points", "agg", "min_size")})
    r = result.iloc[0]
    f, label = _unit(d, unit)
    ax = ax or plt.subplots(figsize=(9, 3.5))[1]
    ax.plot(d[time], d[value] * f, ".", color="0.6", ms=2, label="observations")
    for i, g in enumerate(regimes.itertuples()):
        ax.hlines(g.level * f, g.start_time, g.end_time, color="tab:blue", lw=2,
                  label="regime level" if i == 0 else None)
        if i > 0:
            ax.axvline(g.start_time, color="tab:blue", ls="--", lw=1,
                       label="changepoint" if i == 1 else None)
    if r["steady_start"] is not None and not pd.isna(r["steady_start"]):
        end = d[time].max()
        ax.axvspan(r["steady_start"], end, color="tab:green", alpha=0.12, label="steady state")
        ax.fill_between([r["steady_start"], end], r["steady_level_ci_low"] * f,
                        r["steady_level_ci_high"] * f, color="tab:green", alpha=0.35,
                        label=f"steady level {r['confidence']:.0%} CI")
    if r["snia_first_window"] is not None and not pd.isna(r["snia_first_window"]):
        y0 = float(np.nanmax(d[value])) * f
        ax.plot([r["snia_first_window"]], [y0], "v", color="tab:orange",
                label="SNIA first steady window")
    ax.set_xlabel(time if time != "t" else "time into run (s)")
    ax.set_ylabel(label)
    ax.set_title(title or _state_title(r))
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))  # never over data
    return plain_text(ax)


def touch_plot(data: pd.DataFrame, value: str = "value", *, x: str = "elapsed",
               unit: str | None = None, ax=None):
    """Latency of first and repeat touches over the I/O stream (log scale).

    ``data`` is :func:`ebsstats.stats.firstwrite.touch_table` output. A first-touch penalty shows as
    two bands (first touches above) at *every* time; a burst bucket running dry shows as a step
    in both bands at once. ``x`` may be ``elapsed`` (s of I/O) or ``cum_bytes``.
    """
    import matplotlib.pyplot as plt

    f, label = _unit(data, unit)
    ax = ax or plt.subplots(figsize=(9, 3.5))[1]
    xs = data[x] / (2**20 if x == "cum_bytes" else 1.0)
    for flag, color, name in ((False, "tab:blue", "repeat touch"),
                              (True, "tab:red", "first touch")):
        m = data["first_touch"].to_numpy(dtype=bool) == flag
        ax.plot(xs[m], data.loc[m, value] * f, ".", ms=2, color=color, alpha=0.5, label=name)
    if "run_order" in data:
        starts = data.groupby("run_order")[x].min() / (2**20 if x == "cum_bytes" else 1.0)
        for s in starts.iloc[1:]:
            ax.axvline(s, color="0.3", lw=0.8, ls=":")
    ax.set_yscale("log")
    ax.set_xlabel("MiB written" if x == "cum_bytes" else "seconds of I/O (runs end to end)")
    ax.set_ylabel(label)
    ax.legend(fontsize="small", markerscale=4, loc="upper left", bbox_to_anchor=(1.01, 1))
    return plain_text(ax)


def burst_plot(data: pd.DataFrame, check: pd.DataFrame, value: str = "value", time: str = "t",
               *, unit: str | None = None, ax=None):
    """A long run against the burst model: predicted depletion time and plateau vs observed.

    ``check`` is the row of :func:`ebsstats.stats.burst.burst_check` for this series. Red dashed:
    predicted depletion time and plateau; black dotted: the observed step.
    """
    import matplotlib.pyplot as plt

    c = check.iloc[0] if isinstance(check, pd.DataFrame) else check
    f, label = _unit(data, unit)
    ax = ax or plt.subplots(figsize=(9, 3.5))[1]
    d = data.sort_values(time)
    ax.plot(d[time], d[value] * f, "-", color="0.5", lw=1, label="observed")
    ax.axhline(c["predicted_burst_level"] * f, color="tab:red", ls="-.", lw=1,
               label="rated burst level")
    ax.axhline(c["predicted_plateau"] * f, color="tab:red", ls="--", lw=1,
               label="predicted plateau (baseline)")
    if np.isfinite(c["predicted_depletion_s"]):
        ax.axvline(c["predicted_depletion_s"], color="tab:red", ls="--",
                   label=f"predicted depletion {c['predicted_depletion_s']:.0f} s")
    if np.isfinite(c["observed_depletion_s"]):
        ax.axvline(c["observed_depletion_s"], color="k", ls=":",
                   label=f"observed {c['observed_depletion_s']:.0f} s "
                         f"({c['depletion_rel_error']:+.1%})")
    ax.set_xlabel("time into run (s)")
    ax.set_ylabel(label)
    ax.set_title(f"{c['volume_type']} {c['size_gib']:g} GiB")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1))  # never over data
    return plain_text(ax)

"""Trend across days: Theil–Sen slope with CI, Mann–Kendall test, and STL decomposition.

:func:`trend` answers "is performance creeping up or down over the campaign?" as a relative slope
per day with a confidence interval; :func:`decompose` splits a dense regular series (hourly means
over weeks) into trend, daily seasonality and remainder with STL.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ebsstats._docs import renamed
from ebsstats.stats._core import check_levels, period_grid, period_starts

__all__ = ["trend", "decompose"]

_DAY = pd.Timedelta(days=1)


def _log_values(data, value, time, by_cols):
    d = data[[*by_cols, value, time]].copy()
    v = pd.to_numeric(d[value], errors="coerce").astype(float)
    ok = np.isfinite(v) & (v > 0) & d[time].notna()
    d = d[ok.to_numpy()].copy()
    d["_y"] = np.log(v[ok])
    d["_t"] = pd.to_datetime(d[time], utc=True)
    return d, int((~ok).sum())


@renamed(adjust="padjust")
def trend(data: pd.DataFrame, value: str = "value", time: str = "timestamp",
          by: str | Sequence[str] | None = None, freq: str | None = "D",
          confidence: float = 0.95, tz: str | None = None,
          padjust: str | None = "holm") -> pd.DataFrame:
    """Relative trend per day (Theil–Sen on log values) with CI and a Mann–Kendall test.

    Parameters
    ----------
    data : DataFrame
        Tidy frame with positive ``value`` and UTC ``time``.
    value, time : str
        Column names.
    by : str or list of str, optional
        Grouping columns; one trend per group.
    freq : str or None
        Aggregate to per-period medians of log(value) first (default per day, ``"D"``), so that
        days with many runs do not dominate; ``None`` uses every run.
    confidence : float
        Level of the slope CI.
    tz : str, optional
        Zone in which periods are cut (default UTC), on the local wall clock: a local day is 23
        or 25 hours long across a change of summer time, and the hour repeated when summer time
        ends gives two distinct hourly periods (the rule of
        :func:`ebsstats.stats._core.period_starts`, as in :func:`decompose` and
        :func:`ebsstats.stats.changepoint.changepoints_frame`).
    padjust : str or None
        Multiple-comparison method across groups (statsmodels ``multipletests``).

    Returns
    -------
    DataFrame
        Per group: ``ratio_per_day`` (exp of the Theil–Sen slope of log value per day: 1.01 =
        +1 %/day), ``ratio_per_day_ci_low``, ``ratio_per_day_ci_high``, ``slope_pct_per_day``,
        ``total_change_pct`` (slope over the observed span), ``tau`` and ``p_value`` (Mann–Kendall:
        Kendall's tau of value vs time), ``p_adjusted``, ``level_start`` (fitted level at
        ``origin``), ``origin`` (first period), ``span_days``, ``n`` (periods), ``n_runs``,
        ``n_excluded``, ``shape`` (``"slope"``, ``"step"`` — a one-time level change fits
        better than a line — or ``"none"`` when ``p_adjusted`` ≥ 0.05; ``""`` with fewer than 6
        periods), ``step_time`` (first period after the best single split) and ``step_ratio``
        (level after / before), ``note`` (why there are no estimates: every value of the group
        excluded, fewer than 3 periods, or all runs at one time; missing otherwise),
        ``confidence``, ``method``. A
        group whose values are all excluded (zero, negative, NaN or without a time) is kept with
        ``n = 0``, its ``n_excluded`` and NaN estimates.

    Notes
    -----
    Theil (1950) / Sen (1968) median-of-pairwise-slopes estimator with its distribution-free CI
    (``scipy.stats.theilslopes``); Mann (1945) / Kendall (1975) trend test as Kendall's tau
    against time (``scipy.stats.kendalltau``). Both assume independent periods; autocorrelated
    series (e.g. a slowly wandering level) make the p-value too small. A one-time step also
    gives a significant Mann–Kendall test and a Theil–Sen "slope": ``shape`` compares the best
    single-split step (two means; Hinkley 1970) with the least-squares line by BIC
    (Schwarz 1978; the split counts as a parameter) so a step is not reported as a creep.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> t = pd.date_range("2024-01-01", periods=30, freq="D", tz="UTC")
    >>> v = 100 * 1.01 ** np.arange(30) * np.exp(np.random.default_rng(0).normal(0, 0.01, 30))
    >>> r = trend(pd.DataFrame({"timestamp": t, "value": v}))
    >>> round(float(r.slope_pct_per_day.iloc[0]), 1)
    1.0
    """
    by_cols = [by] if isinstance(by, str) else list(by or [])
    check_levels(confidence=confidence)
    groups = (data.groupby(by_cols, sort=True, observed=True, dropna=False) if by_cols
              else [((), data)])
    rows = []
    for key, g in groups:
        key = key if isinstance(key, tuple) else (key,)
        gd, n_excluded = _log_values(g, value, time, by_cols)
        if tz:
            gd["_t"] = gd["_t"].dt.tz_convert(tz)
        rows.append({**dict(zip(by_cols, key, strict=True)),
                     **_trend_row(gd, n_excluded, freq, tz, confidence)})
    return _finish(pd.DataFrame(rows), padjust)


def _trend_row(g: pd.DataFrame, n_excluded: int, freq: str | None, tz: str | None,
               confidence: float) -> dict:
    """One group's trend columns from its kept rows ``g`` (``_t``, ``_y``)."""
    if freq:
        s = g.groupby(period_starts(g["_t"], freq, tz))["_y"].median()
        tt, yy = pd.DatetimeIndex(s.index), s.to_numpy()
    else:
        g = g.sort_values("_t")
        tt, yy = pd.DatetimeIndex(g["_t"]), g["_y"].to_numpy()
    note = None
    if not len(g):
        note = f"all {n_excluded} values excluded (zero, negative, NaN or no time): no trend"
    elif len(yy) < 3:
        note = f"{len(yy)} {'period' if freq else 'run'}(s): at least 3 needed for a trend"
    row = {"ratio_per_day": np.nan, "ratio_per_day_ci_low": np.nan,
           "ratio_per_day_ci_high": np.nan, "slope_pct_per_day": np.nan,
           "total_change_pct": np.nan, "tau": np.nan, "p_value": np.nan,
           "p_adjusted": np.nan, "level_start": np.nan,
           "origin": tt[0] if len(tt) else pd.NaT, "span_days": np.nan, "n": len(yy),
           "n_runs": len(g), "n_excluded": n_excluded, "confidence": confidence,
           "method": "Theil-Sen slope of log(value) per day; Mann-Kendall tau"
                     + (f" on per-{freq} medians" if freq else "")}
    if len(yy) >= 3:
        x = np.asarray((tt - tt[0]) / _DAY, dtype=float)
        if np.ptp(x) > 0:
            ts = stats.theilslopes(yy, x, alpha=confidence)
            kt = stats.kendalltau(x, yy)
            span = float(np.ptp(x))
            row.update(ratio_per_day=np.exp(ts.slope),
                       ratio_per_day_ci_low=np.exp(ts.low_slope),
                       ratio_per_day_ci_high=np.exp(ts.high_slope),
                       slope_pct_per_day=np.expm1(ts.slope) * 100,
                       total_change_pct=np.expm1(ts.slope * span) * 100,
                       tau=float(kt.statistic), p_value=float(kt.pvalue),
                       level_start=float(np.exp(ts.intercept)), span_days=span)
        else:
            note = "all runs at the same time: no trend"
    row.update(_shape(yy, tt))
    row["note"] = note
    return row


def _finish(out: pd.DataFrame, padjust: str | None) -> pd.DataFrame:
    """Adjust p-values across groups, set ``shape`` to ``"none"`` when not significant."""
    if len(out):
        valid = out["p_value"].notna().to_numpy()
        if valid.sum() > 1 and padjust not in (None, "none"):
            from ebsstats.stats._core import adjust_pvalues

            out.loc[valid, "p_adjusted"] = adjust_pvalues(out.loc[valid, "p_value"], padjust)
        else:
            out["p_adjusted"] = out["p_value"]
        out.loc[(out["shape"] != "") & ~(out["p_adjusted"] < 0.05), "shape"] = "none"
        cols = [c for c in out.columns if c not in ("note", "confidence", "method")]
        out = out[[*cols, "note", "confidence", "method"]]
    return out


def _shape(yy: np.ndarray, tt) -> dict:
    """Step or slope: BIC of the best single split (3 parameters) vs the OLS line (2)."""
    n = len(yy)
    if n < 6:
        return {"shape": "", "step_time": pd.NaT, "step_ratio": np.nan}
    x = np.asarray((tt - tt[0]) / _DAY, dtype=float)
    rss_line = float(np.sum((yy - np.polyval(np.polyfit(x, yy, 1), x)) ** 2))
    best = (np.inf, 0)
    for k in range(2, n - 1):
        rss = float(np.sum((yy[:k] - yy[:k].mean()) ** 2) + np.sum((yy[k:] - yy[k:].mean()) ** 2))
        best = min(best, (rss, k))
    rss_step, k = best
    tiny = 1e-12 * max(float(np.sum((yy - yy.mean()) ** 2)), 1e-300)

    def bic(rss, p):
        return n * np.log(max(rss, tiny) / n) + p * np.log(n)

    step = bic(rss_step, 3) < bic(rss_line, 2)
    return {"shape": "step" if step else "slope", "step_time": tt[k],
            "step_ratio": float(np.exp(yy[k:].mean() - yy[:k].mean()))}


def decompose(data: pd.DataFrame, value: str = "value", time: str = "timestamp", *,
              freq: str = "h", period: int | None = None, tz: str | None = None,
              robust: bool = True, max_gap_fraction: float = 0.1) -> pd.DataFrame:
    """STL decomposition of a dense, regular series of log values (one group).

    Parameters
    ----------
    data : DataFrame
        One group's rows (filter first), positive ``value``, UTC ``time``.
    freq : str
        Regular grid (pandas alias); each cell is the median log value of its runs.
    period : int, optional
        Season length in grid cells; default one day (24 for ``"h"``) when a day is a whole
        number (>= 2) of cells, a week (7) for ``freq="D"``; any other ``freq`` (e.g. ``"7h"``,
        ``"2D"``) needs ``period`` (``ValueError`` otherwise).
    tz : str, optional
        Zone of the grid (so that the daily season follows local time). Cells are cut on the
        local wall clock without ambiguity errors: the hour repeated when summer time ends gives
        two distinct cells (a 25-hour local day), the hour skipped when it starts gives none (a
        23-hour day), and a daily cell is a local calendar day. The grid is not stretched to 24
        cells per local day, so after a change of summer time the hourly season of ``period``
        cells is one hour out of phase with the local clock; STL's seasonal smoother follows the
        shift over the next few days.
    robust : bool
        Robust STL (downweights outlying runs).
    max_gap_fraction : float
        Refuse (``ValueError``) if more than this fraction of grid cells is empty; shorter gaps
        are filled by linear interpolation (flagged in ``filled``).

    Returns
    -------
    DataFrame
        ``time``, ``log_value``, ``trend``, ``seasonal``, ``resid`` (log scale), ``filled``, and
        ``seasonal_ratio`` = exp(seasonal) (1.02 = 2 % above the trend at that time of day).

    Notes
    -----
    STL: Cleveland, Cleveland, McRae & Terpenning (1990), J. Official Statistics 6:3;
    ``statsmodels.tsa.seasonal.STL``. For sparse campaigns (a few runs a day) use
    :func:`ebsstats.stats.calendar.drift` instead.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> t = pd.date_range("2024-01-01", periods=24 * 14, freq="h", tz="UTC")
    >>> v = 100 * np.exp(0.02 * np.sin(2 * np.pi * t.hour / 24))
    >>> out = decompose(pd.DataFrame({"timestamp": t, "value": v}))
    >>> round(float(out.seasonal_ratio.max()), 2)
    1.02
    """
    from statsmodels.tsa.seasonal import STL

    d, _ = _log_values(data, value, time, [])
    if tz:
        d["_t"] = d["_t"].dt.tz_convert(tz)
    s = d.groupby(period_starts(d["_t"], freq, tz))["_y"].median()
    if s.empty:
        raise ValueError("no positive values to decompose")
    grid = period_grid(pd.DatetimeIndex(s.index), freq, tz)
    s = s.reindex(grid)
    missing = s.isna()
    if missing.mean() > max_gap_fraction:
        raise ValueError(f"{missing.mean():.0%} of the {freq!r} grid is empty (more than "
                         f"{max_gap_fraction:.0%}): the series is too sparse for STL; use drift()")
    if period is None:
        period = _default_period(freq)
    if len(s) < 2 * period + 1:
        raise ValueError(f"need at least two seasons ({2 * period + 1} cells), got {len(s)}")
    filled = s.interpolate(limit_direction="both")
    res = STL(filled.to_numpy(), period=period, robust=robust).fit()
    return pd.DataFrame({"time": grid, "log_value": filled.to_numpy(), "trend": res.trend,
                         "seasonal": res.seasonal, "resid": res.resid,
                         "filled": missing.to_numpy(), "seasonal_ratio": np.exp(res.seasonal)})


def _default_period(freq: str) -> int:
    """Cells in a day (a week of cells for ``"D"``); ``ValueError`` if that is no season."""
    try:  # (.nanos: pandas 3.0 cannot make a Timedelta of a Day offset, 3.1 can)
        cell = pd.to_timedelta(pd.tseries.frequencies.to_offset(freq).nanos, unit="ns")
    except ValueError as err:
        raise ValueError(f"freq {freq!r} is not a fixed length: pass period (the season "
                         "length in cells)") from err
    per_day = _DAY / cell
    if per_day == 1:
        return 7
    if per_day < 2 or per_day != round(per_day):
        raise ValueError(f"a day is {per_day:g} cells of {freq!r}: no default season; pass "
                         "period (the season length in cells)")
    return int(round(per_day))

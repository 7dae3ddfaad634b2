"""Is the newest run out of line with its history? :func:`regressions` for CI pipelines.

For each group (configuration × test × op × metric), the history's own spread and drift decide:

1. **latest regime** — the history (on log scale, in time order) is segmented by PELT
   (:func:`ebsstats.stats.changepoint.changepoints`, ``mbic`` penalty, segments of ≥ 5 runs); only
   the last segment is used, so a past step change neither widens the band nor shifts its centre.
   A change counts only when a permutation rank test (:func:`change_test`, the search over
   positions included) confirms it at 1 %; a change PELT proposes but the test does not confirm
   leaves two candidate regimes (whole history, last segment), and the new runs must be out of
   line with both (intersection–union test);
2. **trend** — within that regime a Mann–Kendall test (:func:`ebsstats.stats.trends.trend`)
   decides whether the level drifts; if so the Theil–Sen line is extrapolated to the new run's
   time and the spread is taken from the residuals. A trend confirmed at 1 % is the regime's; one
   found at 5 % only (or a line BIC prefers to a flat history) leaves the regime with and without
   it, and the new runs must be out of line with both (intersection–union test);
3. **robust prediction interval** — centre = median of the (detrended) regime, scale = Rousseeuw &
   Croux's Qn (:func:`statsmodels.robust.scale.qn_scale`: 50 % breakdown, 82 % Gaussian
   efficiency) widened by the regime's own tail (:func:`_tail_factor`: a bimodal or spiky
   metric gets the band its history shows), a Student-t quantile with Qn's effective degrees of
   freedom;
4. **test** — one new run: its standardised distance from the predicted centre (the prediction
   interval inverted); several new runs: Mann–Whitney U of their residuals against the regime's
   (distribution-free), effect from the Hodges–Lehmann shift with its Moses interval;
5. **multiplicity** — p-values adjusted over every group of the call (Holm by default);
6. **verdict** — ``better``/``worse`` (or ``higher``/``lower`` when the metric's direction is
   unknown) when the adjusted p-value is below ``alpha``, else ``~``; the effect is the ratio
   new / history with its CI.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ebsstats.stats._core import (
    adjust_pvalues,
    as_list,
    check_columns,
    check_levels,
    direction_or_reason,
    direction_word,
    group_keys,
)
from ebsstats.stats.changepoint import change_test, changepoints
from ebsstats.stats.comparison import hodges_lehmann
from ebsstats.stats.trends import trend

__all__ = ["regressions", "split_by_time", "RECOMMENDED_HISTORY", "OUT_OF_LINE", "CHANGE_ALPHA"]

RECOMMENDED_HISTORY = 20  # runs; see benchmarks/validate_regressions.py
MIN_REGIME = 5
#: a changepoint found by PELT picks the latest regime only when the rank change test
#: (:func:`change_test`) rejects "no change" at this level
CHANGE_ALPHA = 0.01
# Qn: small-sample consistency factors (Croux & Rousseeuw 1992, as in R robustbase's Qn) and
# the effective degrees of freedom of the corrected Qn for Gaussian samples, df = eff(n) (n - 1),
# eff measured as 1 / (2 CV(Qn)^2) over 3000 simulated samples per n (0.82 asymptotically)
_QN_SMALL = {2: 0.399, 3: 0.994, 4: 0.512, 5: 0.844, 6: 0.611, 7: 0.857, 8: 0.669, 9: 0.872}
_QN_EFF_N = (5, 8, 10, 15, 20, 30, 40, 60, 100, 1000)
_QN_EFF = (0.43, 0.55, 0.60, 0.63, 0.67, 0.71, 0.75, 0.77, 0.80, 0.82)
TREND_ALPHA = 0.05
#: a Mann–Kendall trend below :data:`TREND_ALPHA` but not below this level leaves the history
#: with and without its line as candidates (an intersection–union test, as an unconfirmed
#: change does)
TREND_CONFIRM = 0.01
TAIL_Z90 = 1.6448536269514722  # Gaussian 95 % quantile = 90 % quantile of |z|
OUT_OF_LINE = ("worse", "higher", "lower")  # verdicts that fail a CI pipeline
_DAY = pd.Timedelta(days=1)


def qn(x: np.ndarray) -> float:
    """Rousseeuw–Croux Qn scale with its small-sample correction (unbiased for Gaussian data).

    >>> round(qn(np.array([1.0, 2, 3, 4, 5, 6, 7, 8, 9, 10])), 3)
    3.216
    """
    from statsmodels.robust.scale import qn_scale

    n = len(x)
    if n < 2:
        return np.nan
    d = _QN_SMALL[n] if n <= 9 else (n / (n + 1.4) if n % 2 else n / (n + 3.8))
    return float(qn_scale(np.asarray(x, dtype=float))) * d


def qn_df(n: int) -> float:
    """Effective degrees of freedom of :func:`qn` at sample size ``n`` (Gaussian data)."""
    return max(1.0, float(np.interp(n, _QN_EFF_N, _QN_EFF)) * (n - 1))


def _days(sub: pd.DataFrame, time: str | None, origin) -> np.ndarray | None:
    if time is None or time not in sub.columns:
        return None
    t = pd.to_datetime(sub[time], utc=True)
    if t.isna().any():
        return None
    return np.asarray((t - origin) / _DAY, dtype=float)


def _positive_log(sub: pd.DataFrame, value: str) -> tuple[pd.DataFrame, np.ndarray]:
    v = pd.to_numeric(sub[value], errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    ok = np.isfinite(v) & (v > 0)
    return sub[ok], np.log(v[ok])


def _clip_outliers(y: np.ndarray) -> np.ndarray:
    """Isolated outliers pulled to 3 noise SDs of a running median (window 5), steps kept.

    The noise SD is Qn of the first differences / sqrt 2, which level shifts barely move; without
    this, PELT carves single slow runs (a noisy neighbour) into regimes of their own."""
    if y.size < 5:
        return y
    med = pd.Series(y).rolling(5, center=True, min_periods=1).median().to_numpy()
    sd = qn(np.diff(y)) / np.sqrt(2)
    if not sd > 0:
        return y
    return med + np.clip(y - med, -3 * sd, 3 * sd)


def _theil_sen(x: np.ndarray, y: np.ndarray, times) -> tuple[float, float]:
    """Theil–Sen slope of log value per day and Mann–Kendall p (via :func:`trend`)."""
    tr = trend(pd.DataFrame({"timestamp": times, "value": np.exp(y)}), freq=None, padjust=None)
    return float(np.log(tr["ratio_per_day"].iloc[0])), float(tr["p_value"].iloc[0])


def _bic(rss: float, n: int, k: int) -> float:
    return n * np.log(max(rss, 1e-300) / n) + k * np.log(n)


def _model(y: np.ndarray, yc: np.ndarray | None, x: np.ndarray | None, times, regime: str,
           seg: pd.DataFrame | None, line: tuple[float, float, float] | None
           ) -> list[tuple[int, float, float]]:
    """Candidate ``(start of the latest regime, slope per day, Mann–Kendall p)`` for one
    segmentation ``seg`` (None: no change): the last segment, or the whole-history Theil–Sen
    ``line`` (slope, RSS, Mann–Kendall p) when BIC prefers it to the steps; then a drift within
    the regime when Mann–Kendall finds one (:func:`_trend_candidates`). ``yc`` (outliers
    clipped) is None when no changepoint or line is considered."""
    start = 0
    if yc is not None:
        if seg is None:
            rss_steps, k_steps = float(((yc - yc.mean()) ** 2).sum()), 1
        else:
            start = int(seg["start"].iloc[-1])
            rss_steps = float(sum(((yc[a:b] - yc[a:b].mean()) ** 2).sum()
                                  for a, b in zip(seg["start"], seg["end"], strict=True)))
            k_steps = 2 * len(seg) - 1  # segment means and changepoint locations
        if line is not None and _bic(line[1], y.size, 2) < _bic(rss_steps, y.size, k_steps):
            return _trend_candidates(0, line[0], line[2])
    if regime in ("auto", "trend") and x is not None and y.size - start >= 8 \
            and np.ptp(x[start:]) > 0:
        slope, p = ((line[0], line[2]) if start == 0 and line is not None else
                    _theil_sen(x[start:], y[start:], times[start:]))
        if p < TREND_ALPHA:  # a drift within the latest regime
            return _trend_candidates(start, slope, p)
    return [(start, 0.0, np.nan)]


def _trend_candidates(start: int, slope: float, p: float) -> list[tuple[int, float, float]]:
    """The regime from ``start`` with its trend when Mann–Kendall confirms it (p below
    :data:`TREND_CONFIRM`), else both with and without it: a line chosen because it fits the
    noise best (by BIC, or by Mann–Kendall at :data:`TREND_ALPHA`) and extrapolated to the new
    runs is a biased baseline, as a spurious changepoint's segment is; the new runs must then be
    out of line under both (:func:`_least_surprised`).

    >>> _trend_candidates(0, 0.01, 0.001), _trend_candidates(3, 0.01, 0.03)
    ([(0, 0.01, 0.001)], [(3, 0.01, 0.03), (3, 0.0, nan)])
    """
    if p < TREND_CONFIRM:
        return [(start, slope, p)]
    return [(start, slope, p), (start, 0.0, np.nan)]


def _regimes(y: np.ndarray, x: np.ndarray | None, times,
             regime: str) -> tuple[list[tuple[int, float, float]], float]:
    """Candidate latest regimes ``[(start, slope per day, trend p), ...]`` (:func:`_model`) and
    the change test's p.

    PELT (``mbic``) proposes the segmentation; its latest segment is the regime only when
    :func:`change_test` confirms a change (p < :data:`CHANGE_ALPHA`). A change PELT proposes
    but the test does not confirm leaves the regime uncertain: both the whole history and the
    latest segment are candidates, and :func:`_group` keeps the larger p (an intersection–union
    test). On stable histories PELT carves a spurious last segment out of 3-7 % of them; the
    short segment, chosen because its level stands out, rejected new runs from the same
    distribution in 10-18 % of those groups at a nominal 5 %."""
    if y.size < 2 * MIN_REGIME or regime == "all":
        return _model(y, None, x, times, regime, None, None), np.nan
    yc = _clip_outliers(y)
    line = None
    if regime in ("auto", "trend") and x is not None and np.ptp(x) > 0:
        slope, p_line = _theil_sen(x, y, times)
        resid = yc - slope * x
        line = (slope, float(((resid - np.median(resid)) ** 2).sum()), p_line)
    seg = changepoints(yc, penalty="mbic", min_size=MIN_REGIME) if regime != "trend" else None
    if seg is None or len(seg) == 1:
        return _model(y, yc, x, times, regime, None, line), np.nan
    p_change = change_test(y, min_size=MIN_REGIME)[1]
    latest = _model(y, yc, x, times, regime, seg, line)
    if p_change < CHANGE_ALPHA:
        return latest, p_change
    # the whole history without steps: a line only where Mann–Kendall finds a trend (BIC alone
    # prefers a line to a flat history whenever a spurious step made one)
    whole = _model(y, None, x, times, regime, None, line)
    return whole + [c for c in latest if c not in whole], p_change


def _tail_factor(resid: np.ndarray, center: float, scale: float) -> float:
    """How much heavier than Gaussian the regime's own tails are (>= 1): the 90 % quantile of
    ``|r - centre| / Qn`` over its Gaussian value 1.645. Qn measures the core of the
    distribution; a history with frequent spikes (a bimodal or heavy-tailed metric) must widen
    its band by its own tail, or every spike is a false alarm."""
    if not scale > 0 or resid.size < 8:
        return 1.0
    q = float(np.quantile(np.abs(resid - center) / scale, 0.9))
    return max(1.0, q / TAIL_Z90)


def _fits(h: pd.DataFrame, y: np.ndarray, x, time, regime: str) -> tuple[list[dict], float]:
    """One fit per candidate latest regime (:func:`_regimes`), and the change test's p."""
    order = np.argsort(x, kind="stable") if x is not None else np.arange(y.size)
    y, xs = y[order], (x[order] if x is not None else None)
    times = h[time].iloc[order].to_numpy() if xs is not None else None
    cands, p_change = _regimes(y, xs, times, regime)
    when = h[time].iloc[order] if xs is not None else None
    return [_fit(y, xs, when, start, slope, p) for start, slope, p in cands], p_change


def _fit(y: np.ndarray, xs, when: pd.Series | None, start: int, slope: float,
         trend_p: float = np.nan) -> dict:
    yr = y[start:]
    xr = xs[start:] if xs is not None else None
    resid = yr - slope * (xr if xr is not None else 0.0)
    center, scale = float(np.median(resid)), qn(resid)
    tails = _tail_factor(resid, center, scale)
    return {"y": yr, "x": xr, "resid": resid, "slope": slope, "start": start,
            "center": center, "scale": scale * tails, "tail_factor": tails, "n_regime": yr.size,
            "regime_start": when.iloc[start] if when is not None else start,
            "df": qn_df(yr.size), "trend_p": trend_p}


def _leverage(fit: dict, xn: np.ndarray | None) -> np.ndarray:
    if fit["slope"] == 0.0 or xn is None or fit["x"] is None:
        return np.zeros(1 if xn is None else xn.size)
    xr = fit["x"]
    sxx = float(((xr - xr.mean()) ** 2).sum())
    return (xn - xr.mean()) ** 2 / sxx if sxx > 0 else np.zeros(xn.size)


def _test(fit: dict, yn: np.ndarray, xn, confidence: float) -> dict:
    """Prediction-interval test (one new run) or Mann–Whitney (several)."""
    n = fit["n_regime"]
    rn = yn - fit["slope"] * (xn if xn is not None else 0.0)
    lev = _leverage(fit, xn)
    se = fit["scale"] * np.sqrt(1 + 1 / n + lev)
    tq = float(stats.t.ppf(0.5 + confidence / 2, fit["df"]))
    x_new = float(np.median(xn)) if xn is not None else 0.0
    pred = fit["center"] + fit["slope"] * x_new
    se_mid = float(np.median(se))
    out = {"expected": np.exp(pred), "pi_low": np.exp(pred - tq * se_mid),
           "pi_high": np.exp(pred + tq * se_mid)}
    if yn.size == 1:
        d = float(rn[0] - fit["center"])
        z = d / float(se[0]) if se[0] > 0 else (0.0 if d == 0 else np.inf * np.sign(d))
        out.update(p_value=float(2 * stats.t.sf(abs(z), fit["df"])), shift=d,
                   ratio=np.exp(d), ratio_ci_low=np.exp(d - tq * se[0]),
                   ratio_ci_high=np.exp(d + tq * se[0]), z=z,
                   test_method="robust prediction interval (median, Qn, Student t)")
    else:
        shift, lo, hi, _ = hodges_lehmann(fit["resid"], rn, confidence)
        p = float(stats.mannwhitneyu(rn, fit["resid"], alternative="two-sided").pvalue)
        method = "Mann-Whitney U vs latest regime; Hodges-Lehmann ratio"
        if xn is not None and fit["slope"] != 0.0:
            p, lo, hi = _with_trend_error(fit, rn, xn, p, shift, lo, hi, tq)
            method += "; trend extrapolation error included"
        out.update(p_value=p, shift=shift, ratio=np.exp(shift), ratio_ci_low=np.exp(lo),
                   ratio_ci_high=np.exp(hi), z=np.nan, test_method=method)
    return out


def _with_trend_error(fit: dict, rn: np.ndarray, xn: np.ndarray, p: float, shift: float,
                      lo: float, hi: float, tq: float) -> tuple[float, float, float]:
    """The several-runs test and interval once the history's trend is extrapolated to the new
    runs: the rank test treats the fitted slope as known. p is also that of the new runs'
    median against the trend's prediction with its error (Qn scale; the median of k runs at
    variance pi/(2k), the regime's centre 1/n, the slope's leverage at the runs' mean time),
    and the larger p is kept; the interval is widened by the slope's error in quadrature.
    Stable histories with 20 runs and 3 new rejected 6.8 % at alpha 5 % (24 % when a
    spurious trend was fitted)."""
    n, k = fit["n_regime"], rn.size
    lev = float(_leverage(fit, np.array([float(np.mean(xn))]))[0])
    d = float(np.median(rn)) - fit["center"]
    se = fit["scale"] * np.sqrt(np.pi / (2 * k) + 1 / n + lev)
    p_pred = float(2 * stats.t.sf(abs(d) / se, fit["df"])) if se > 0 else p
    extra = tq * fit["scale"] * np.sqrt(lev)
    return (max(p, p_pred), shift - float(np.hypot(shift - lo, extra)),
            shift + float(np.hypot(hi - shift, extra)))


def _nan_row(reason: str) -> dict:
    return {"expected": np.nan, "pi_low": np.nan, "pi_high": np.nan, "p_value": np.nan,
            "shift": np.nan, "ratio": np.nan, "ratio_ci_low": np.nan, "ratio_ci_high": np.nan,
            "z": np.nan, "test_method": None, "warning": reason,
            "verdict": reason}  # (no test ran: "~" would say it found the runs in line)


def _least_surprised(fits: list[dict], yn: np.ndarray, xn, confidence: float,
                     p_change: float) -> tuple[dict, dict]:
    """The test against each candidate regime; the row of the one with the largest p.

    Several candidates when the change or the trend is uncertain (:func:`_regimes`): the new
    runs are out of line only if they are out of line under every one, an intersection–union
    test (Berger 1982), of level alpha whichever candidate is the true regime."""
    tests = [(_test(f, yn, xn, confidence), f) for f in fits]
    res, fit = max(tests, key=lambda rf: (rf[0]["p_value"] if np.isfinite(rf[0]["p_value"])
                                          else -np.inf))
    if len(tests) > 1:
        res["test_method"] += f"; {_uncertain(fits, p_change)}"
    return res, fit


def _uncertain(fits: list[dict], p_change: float) -> str:
    """What the candidates of :func:`_least_surprised` differ in, for the method text.

    >>> _uncertain([{"start": 0, "trend_p": 0.02}, {"start": 0, "trend_p": np.nan}], np.nan)
    'trend uncertain (Mann-Kendall p = 0.020): larger p of 2 candidate regimes'
    """
    why = []
    if len({f["start"] for f in fits}) > 1:
        why.append(f"change test p = {p_change:.3f}")
    ps = [f["trend_p"] for f in fits if np.isfinite(f["trend_p"])]
    if ps:
        why.append("Mann-Kendall p = " + ", ".join(f"{p:.3f}" for p in sorted(set(ps))))
    what = "regime" if len({f["start"] for f in fits}) > 1 else "trend"
    return f"{what} uncertain ({'; '.join(why)}): larger p of {len(fits)} candidate regimes"


def _group(h: pd.DataFrame, nw: pd.DataFrame, value: str, time: str | None, regime: str,
           confidence: float, alpha: float, min_history: int) -> dict:
    h, y = _positive_log(h, value)
    nw, yn = _positive_log(nw, value)
    base = {"n_history": y.size, "n_new": yn.size, "new": np.exp(np.median(yn)) if yn.size
            else np.nan}
    if yn.size == 0:
        return {**base, **_nan_row("not testable: no new run with a positive value")}
    if y.size < min_history:
        return {**base, **_nan_row(f"not testable: {y.size} history run(s), fewer than "
                                   f"min_history={min_history}")}
    origin = pd.to_datetime(h[time], utc=True).min() if time in h.columns else None
    x = _days(h, time, origin) if origin is not None else None
    xn = _days(nw, time, origin) if x is not None else None
    fits, p_change = _fits(h, y, x if xn is not None else None, time, regime)
    fits = [f for f in fits if f["scale"] > 0]
    if not fits:
        return {**base, **_nan_row("not testable: the latest regime has no spread (all runs "
                                   "equal)")}
    res, fit = _least_surprised(fits, yn, xn if x is not None else None, confidence, p_change)
    warn = (f"latest regime has only {fit['n_regime']} runs" if fit["n_regime"] < 10 else None)
    return {**base, "n_regime": fit["n_regime"], "regime_start": fit["regime_start"],
            "changepoint": fit["start"] > 0, "changepoint_p": p_change,
            "trend_pct_per_day": 100 * np.expm1(fit["slope"]), "tail_factor": fit["tail_factor"],
            **res, "warning": warn}


def split_by_time(data: pd.DataFrame, new_fraction: float = 0.15,
                  by: str | Sequence[str] | None = "config", *, within: str | Sequence[str] |
                  None = "auto", time: str = "timestamp") -> tuple[pd.DataFrame, pd.DataFrame]:
    """One campaign as a history and a "new" campaign: in each group (``by`` and ``within``,
    the groups :func:`regressions` tests), the runs in the last ``new_fraction`` of the
    group's own time span are new, the earlier ones its history. Rows without a time are in
    neither.

    Each group is cut on its own span, not the campaign's: where configurations ran at
    different times (dyu/vps-comparison: one VPS plan three days before the others), one cut
    of the whole span left whole groups with no history and others with nothing new.

    Returns
    -------
    (history, new) : tuple of DataFrame
        Rows of ``data``, in its order.

    Examples
    --------
    >>> t = pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-10",
    ...                     "2024-01-11", "2024-01-12"], utc=True)
    >>> df = pd.DataFrame({"config": list("aaabbb"), "metric": "iops", "timestamp": t,
    ...                    "value": 1.0})
    >>> history, new = split_by_time(df, 0.4)
    >>> new["timestamp"].dt.day.tolist(), len(history)
    ([3, 12], 4)
    """
    if not 0 < new_fraction < 1:
        raise ValueError(f"new_fraction must be between 0 and 1, got {new_fraction}")
    keys = group_keys(data, by, within)
    check_columns(data, [time, *keys])
    t = pd.to_datetime(data[time], utc=True)
    grouped = t.groupby([data[k] for k in keys], dropna=False, observed=True) if keys else None
    t0 = grouped.transform("min") if keys else t.min()
    t1 = grouped.transform("max") if keys else t.max()
    cut = t1 - (t1 - t0) * new_fraction
    is_new = (t >= cut).fillna(False).astype(bool) & t.notna()
    return data[t.notna() & ~is_new], data[is_new]


def regressions(history: pd.DataFrame, new: pd.DataFrame, by: str | Sequence[str] | None = "config",
                within: str | Sequence[str] | None = "auto", value: str = "value",
                time: str | None = "timestamp", confidence: float = 0.95, alpha: float = 0.05,
                padjust: str = "holm", regime: str = "auto", min_history: int = 8,
                higher_is_better: bool | None = None) -> pd.DataFrame:
    """Is each group's new run (or new campaign) consistent with its history?

    Parameters
    ----------
    history, new : DataFrame
        Tidy frames (:func:`ebsstats.read`) of the past runs and of the run(s) to check.
    by : str or list of str, optional
        Columns naming the groups (default ``config``).
    within : "auto", str, list of str or None
        Columns never pooled over (default: ``test``, ``op``, ``metric`` where present).
    value, time : str
        Value column (positive: the effect is a ratio) and time column (UTC). Without times the
        history is taken in row order and no trend is fitted.
    confidence : float
        Level of the prediction interval and of the ratio CI.
    alpha : float
        Level for the verdict (adjusted p-values) and for the Mann–Kendall trend decision.
    padjust : {"holm", "fdr_bh", "bonferroni", "none"}
        Multiplicity adjustment across the groups of the call.
    regime : {"auto", "changepoint", "trend", "all"}
        ``auto``: latest PELT regime (a change confirmed by :func:`change_test`), detrended if it
        trends; ``changepoint``: the same without trends; ``trend``: no changepoints;
        ``all``: the whole history, no trend.
    min_history : int
        Groups with fewer history runs are "not testable" (NaN p-value, reason in ``warning``).
    higher_is_better : bool, optional
        Direction for the verdict; default: the frame's ``higher_is_better`` per group, else
        lower-is-better for a latency (a time unit, a ``lat``/``clat``/``slat`` metric), else
        unknown (verdicts ``higher``/``lower``); without it, a group whose column holds both
        ``True`` and ``False`` is not tested (verdict ``not testable: rows mix …``: it pools
        metrics of opposite direction; :func:`ebsstats.stats._core.metric_direction`).

    Returns
    -------
    DataFrame
        One row per group: the group columns, ``n_history``, ``n_regime``, ``regime_start``
        (time of the latest regime's first run), ``changepoint`` (the regime tested against
        starts after a changepoint), ``changepoint_p`` (permutation p of :func:`change_test`
        where PELT proposed a change, else NaN: below :data:`CHANGE_ALPHA` the change picks
        the regime; above it both candidate regimes are tested),
        ``trend_pct_per_day`` (0 when no trend was found), ``expected`` (predicted value at
        the new run's time), ``pi_low``/``pi_high`` (prediction interval of one new run),
        ``n_new``, ``new`` (median of the new runs), ``ratio`` (new / history), ``ratio_ci_low``,
        ``ratio_ci_high``, ``change_pct``, ``z`` (one run: standardised distance), ``p_value``,
        ``p_adjusted``, ``padjust``, ``test_method``, ``higher_is_better``, ``verdict``
        (``better``/``worse``/``higher``/``lower``/``~``, or ``not testable: why`` where no
        test ran: too short a history, no spread, no new run), ``out_of_line`` (verdict in
        :data:`OUT_OF_LINE`: what makes ``ebsstats regress`` exit 1), ``confidence``,
        ``warning``.

    Notes
    -----
    Prediction interval for one new observation, ``centre ± t · s · sqrt(1 + 1/n + h)`` (``h``:
    leverage of the extrapolated trend; Hahn & Meeker 1991, ch. 4), with ``s`` the Qn scale
    (Rousseeuw & Croux 1993, JASA 88:1273) so that history outliers neither widen the band nor
    shift its centre (Qn with its small-sample factors, Croux & Rousseeuw 1992); ``t`` has the
    effective degrees of freedom of Qn, ``eff(n) (n - 1)`` with eff from 0.43 at n = 5 to 0.82
    (:func:`qn_df`). The scale is multiplied by ``max(1, q90(|r - centre| / Qn) / 1.645)``, so
    Gaussian histories keep their band and heavy-tailed ones are not flagged at every spike (on
    Leitner & Scheuner's fresh-VM sysbench series, UCC 2016, the rolling out-of-line rate fell
    from 22 % to 10 %). Trend by Mann–Kendall / Theil–Sen (Sen 1968), several new runs by
    Mann–Whitney U and the Hodges–Lehmann shift (Hollander & Wolfe), p-values adjusted by Holm
    (1979). This is the question Daly et al. (ICPE 2020, "The use of change point detection to
    identify software performance regressions") answer for MongoDB's CI.

    Latest regime: PELT (Killick, Fearnhead & Eckley 2012) proposes changepoints; a segment
    picked *because* its level stands out is a biased baseline, so a proposed change picks the
    regime only when :func:`change_test` confirms it at ``CHANGE_ALPHA = 1 %``: the largest
    standardised Wilcoxon rank-sum statistic over all splits (Pettitt 1979, Applied Statistics
    28:126), its p-value by permuting the history (Antoch & Hušková 2001, Statist. Probab.
    Lett. 53:37), which calibrates the search over positions exactly when there is no change.
    A stable history therefore keeps a spurious short regime in at most 1 % of groups. When
    PELT proposes a change the test does not confirm, the regime is uncertain: the p-value is
    the larger of those against the whole history (no steps; a line only where Mann–Kendall
    finds one) and against PELT's latest segment, an intersection–union test (Berger 1982,
    Technometrics 24:295) of level ``alpha`` whichever of the two is the true regime; the row
    (band, ratio) is that of the larger p. A trend is treated the same way: a line fitted to
    noise and extrapolated is as biased a baseline as a spurious segment, so a Mann–Kendall
    trend (or a line BIC prefers to a flat history) not confirmed at ``TREND_CONFIRM = 1 %``
    leaves the regime with and without it as candidates. On 9,000 stable histories (10-30
    runs, 1 or 3 new; ``benchmarks/validate_regressions.py --trend 1500``) a line had been
    fitted to 5.6-13.6 %, and 9.9 % of those 779 were rejected at 5 % (95 % CI 8.0-12.2 %);
    with the candidates 2.7 % (1.8-4.1 %); over all of them 4.0-5.7 % -> 2.8-5.1 %. Detection
    of a 10 % drop changed by at most 1.3 points (stable, 10 runs, one new: 69.3 -> 68.0 %,
    400 groups), of a drift or a step by at most 0.5.

    Measured by ``benchmarks/validate_regressions.py`` (200 simulated groups per cell, 3 %
    run-to-run CV unless said; unadjusted p, i.e. one group per call): stable histories of 10,
    20 and 30 runs are rejected at 5 % (two-sided) in 2.5-5 % of groups (1-4.5 % flagged
    ``worse``; 3.9-5.2 % over 1500 groups per design). Among the stable histories in which PELT
    proposes a (spurious) change (3.4-7.1 % of them), 4-11 % (``--spurious 2000``, seed 22,
    68-141 groups per design; up to 14 % before the trend candidates below), against 10-18 %
    when PELT's latest segment was the regime. A 10 % drop is caught in 87 % of groups of 20 runs with one new run
    and 98 % with three (39 % and 82 % at 5 % CV), within a point of before; after a real -15 %
    step as before (57 % and 98 %). A weak drift (-0.3 %/day) that goes undetected is rejected
    in up to 10 % of groups (10 runs, three new). Histories with frequent slow runs (10 % of
    runs 30 % low) lower the single-run detection to about 40 % (65 % with three; 45 % and 70 %
    when spurious short regimes were kept): their band is wider, by design. 20 history runs are
    recommended.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(3)
    >>> t = pd.date_range("2024-01-01", periods=21, freq="D", tz="UTC")
    >>> v = 3000 * np.exp(rng.normal(0, 0.02, 21))
    >>> v[-1] *= 0.85  # the newest run lost 15 %
    >>> df = pd.DataFrame({"config": "gp3", "metric": "iops", "timestamp": t, "value": v,
    ...                    "higher_is_better": True})
    >>> r = regressions(df.iloc[:20], df.iloc[20:])
    >>> r[["config", "metric", "verdict"]].values.tolist()
    [['gp3', 'iops', 'worse']]
    >>> bool(r["ratio_ci_high"].iloc[0] < 1)
    True
    """
    if padjust not in ("holm", "fdr_bh", "bonferroni", "none"):
        raise ValueError(f"padjust must be holm, fdr_bh, bonferroni or none, got {padjust!r}")
    if regime not in ("auto", "changepoint", "trend", "all"):
        raise ValueError(f"regime must be auto, changepoint, trend or all, got {regime!r}")
    check_levels(confidence=confidence, alpha=alpha)  # (alpha=5 failed a CI on a 1 % dip)
    keys = group_keys(history, by, within)
    keys = [k for k in keys if k in history.columns or k in as_list(by)]
    check_columns(history, [value, *keys])
    check_columns(new, [value, *keys])
    tcol = time if (time and time in history.columns and time in new.columns) else None
    hist_groups = {(k if isinstance(k, tuple) else (k,)): g for k, g in
                   history.groupby(keys, observed=True, sort=True, dropna=False)} if keys else {
        (): history}
    new_groups = {(k if isinstance(k, tuple) else (k,)): g for k, g in
                  new.groupby(keys, observed=True, sort=True, dropna=False)} if keys else {
        (): new}
    rows = []
    for key, nw in new_groups.items():
        h = hist_groups.get(key, history.iloc[:0])
        # (override, column, else lower-is-better for a latency: a 15 % faster clat_p99 was
        # 'lower' and out of line; else unknown: higher/lower verdicts, never guessed)
        hib, why = direction_or_reason(pd.concat([h, nw]), higher_is_better)
        if why:  # (rows labelled both ways: this group is not tested, the others are; a CI
            # check is not stopped by one pooled group)
            got = {"n_history": len(h), "n_new": len(nw), "new": np.nan, **_nan_row(why)}
        else:
            got = _group(h, nw, value, tcol, regime, confidence, alpha, min_history)
        rows.append({**dict(zip(keys, key, strict=True)), **got, "higher_is_better": hib})
    return _finish(pd.DataFrame(rows), padjust, alpha, confidence)


_ORDER = ["n_history", "n_regime", "regime_start", "changepoint", "changepoint_p",
          "trend_pct_per_day",
          "tail_factor",
          "expected", "pi_low", "pi_high", "n_new", "new", "ratio", "ratio_ci_low",
          "ratio_ci_high", "change_pct", "z", "p_value", "p_adjusted", "padjust", "test_method",
          "higher_is_better", "verdict", "out_of_line", "confidence", "warning"]


def _finish(out: pd.DataFrame, padjust: str, alpha: float, confidence: float) -> pd.DataFrame:
    if out.empty:
        return pd.DataFrame(columns=_ORDER)
    for c in ("n_regime", "regime_start", "changepoint", "changepoint_p", "trend_pct_per_day",
              "tail_factor"):
        if c not in out.columns:
            out[c] = np.nan
    p = out["p_value"].to_numpy(dtype=float)
    ok = np.isfinite(p)
    padj = np.full(p.size, np.nan)
    if ok.any():
        padj[ok] = p[ok] if padjust == "none" else adjust_pvalues(p[ok], padjust)
    out["p_adjusted"] = padj
    out["padjust"] = padjust
    out["change_pct"] = 100 * (out["ratio"] - 1)
    untested = out["verdict"] if "verdict" in out else pd.Series(None, index=out.index)
    out["verdict"] = [direction_word(np.sign(s), hib) if pa < alpha else "~" if pa == pa else
                      why if isinstance(why, str) else "not testable"  # (_nan_row's reason)
                      for pa, s, hib, why in zip(padj, out["shift"], out["higher_is_better"],
                                                 untested, strict=True)]
    out["out_of_line"] = out["verdict"].isin(OUT_OF_LINE)
    out["confidence"] = confidence
    keys = [c for c in out.columns if c not in _ORDER and c != "shift"]
    return out[[*keys, *_ORDER]]

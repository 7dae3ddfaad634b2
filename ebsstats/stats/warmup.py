"""Steady state after the fact: the SNIA PTS window rule and a changepoint classification.

:func:`steady_state` takes any series in time order — fio logs, sysbench ``--report-interval``
lines, or repeated runs of one test in the order they were made — and says, per series,

* whether the SNIA PTS steady-state rule holds (a window of ``window`` rounds whose range is
  at most ``range_tol`` of the window mean and whose least-squares slope moves the level by at
  most ``slope_tol`` of the mean across the window), where the last such stretch starts, and
  where an online PTS run would have stopped;
* a changepoint classification in the manner of Barrett et al. (2017): ``flat``, ``warmup``
  (the run ends in its best regime), ``slowdown`` (it ends below a regime it had before) or
  ``no_steady_state`` (the last regime is too short to call it the end state);
* the time at which steady state starts and the steady level with a confidence interval.

Steady state is the regime the run **ends** in: a flat stretch before a level shift (300 s of
first-write plateau, then a higher level) is warm-up, and steady state starts at the shift.

:func:`segments` returns the changepoint segmentation behind the classification.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from ebsstats._docs import renamed
from ebsstats.stats._core import check_levels, direction_or_reason
from ebsstats.stats.changepoint import changepoints

__all__ = ["steady_state", "segments", "snia_windows", "batch_means_ci", "KLASSES"]

KLASSES = ("flat", "warmup", "slowdown", "no_steady_state", "too_short")
_DEFAULT_BY = ("run_id", "op", "metric")


# ---------------------------------------------------------------------------------------------
# building blocks


def snia_windows(values: Sequence[float], window: int = 5, range_tol: float = 0.20,
                 slope_tol: float = 0.10) -> pd.DataFrame:
    """The SNIA PTS steady-state test on every window of ``window`` consecutive rounds.

    Parameters
    ----------
    values : sequence of float
        One value per round (per interval of a log, per run of a repeated test), in order.
    window : int
        Rounds per measurement window (PTS: 5).
    range_tol : float
        Largest allowed data excursion, ``max - min``, as a fraction of the window mean (0.20).
    slope_tol : float
        Largest allowed slope excursion, ``|slope| * (window - 1)`` with the least-squares slope
        per round, as a fraction of the window mean (0.10).

    Returns
    -------
    DataFrame
        One row per window start ``i``: ``i``, ``mean``, ``range_frac``, ``slope_frac``,
        ``range_ok``, ``slope_ok``, ``steady`` (both).

    Notes
    -----
    SNIA Solid State Storage Performance Test Specification (PTS-E 1.1, §3 "steady state"): the
    measurement window is the last five rounds; steady state when the data excursion is within
    20 % of the window average and the slope excursion of the least-squares line within 10 %.
    CloudHarmony's ``BlockStorageTest::isSteadyState`` implements the same rule with the slope
    times 4 (= window - 1).

    Examples
    --------
    >>> w = snia_windows([100, 101, 99, 100, 102, 150], window=5)
    >>> w["steady"].tolist()
    [True, False]
    """
    x = np.asarray(values, dtype=float)
    window = int(window)
    if window < 2:
        raise ValueError("window must be >= 2")
    cols = ["i", "mean", "range_frac", "slope_frac", "range_ok", "slope_ok", "steady"]
    if x.size < window:
        return pd.DataFrame(columns=cols)
    w = np.lib.stride_tricks.sliding_window_view(x, window)
    m = w.mean(axis=1)
    k = np.arange(window) - (window - 1) / 2.0
    slope = (w * k).sum(axis=1) / (k * k).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        rng_frac = (w.max(axis=1) - w.min(axis=1)) / np.abs(m)
        slp_frac = np.abs(slope) * (window - 1) / np.abs(m)
    # (at the limit passes, "no more than": a relative tolerance so that 0.9/1.1/1 round by
    # round, range 0.2000000000000001 of the mean, is as steady as 90/110/100)
    r_ok = rng_frac <= range_tol * (1 + 1e-9)
    s_ok = slp_frac <= slope_tol * (1 + 1e-9)
    return pd.DataFrame({"i": np.arange(len(m)), "mean": m, "range_frac": rng_frac,
                         "slope_frac": slp_frac, "range_ok": r_ok, "slope_ok": s_ok,
                         "steady": r_ok & s_ok})


def batch_means_ci(values: Sequence[float], batches: int = 10,
                   confidence: float = 0.95) -> tuple[float, float, float, int]:
    """Mean of an autocorrelated series with a non-overlapping batch-means t interval.

    The series is cut into ``batches`` contiguous batches of equal length (the first few points
    are dropped when the length does not divide); the batch means are nearly independent when a
    batch is much longer than the correlation time, so a t interval on them with
    ``batches - 1`` degrees of freedom covers the mean. Fewer batches are used for short series
    (at least 2 points per batch).

    Returns
    -------
    (mean, ci_low, ci_high, batches_used)

    Notes
    -----
    Schmeiser, "Batch size effects in the analysis of simulation output", Operations Research
    30(3), 1982; 10–30 batches is the usual advice. A plain t or bootstrap interval over the
    points would be too narrow for a series whose neighbours are correlated.

    Examples
    --------
    >>> m, lo, hi, k = batch_means_ci(np.r_[np.ones(10), 3 * np.ones(10)], batches=2)
    >>> float(m), k
    (2.0, 2)
    """
    check_levels(confidence=confidence)
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    mean = float(x.mean())
    k = min(int(batches), n // 2)
    if k < 2:
        return mean, math.nan, math.nan, 0
    size = n // k
    xb = x[n - k * size:].reshape(k, size).mean(axis=1)
    se = float(xb.std(ddof=1)) / math.sqrt(k)
    q = float(stats.t.ppf(0.5 + confidence / 2.0, k - 1))
    return mean, mean - q * se, mean + q * se, k


def _to_seconds(t: pd.Series) -> tuple[np.ndarray, bool]:
    if not pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_datetime64_any_dtype(t):
        # text (a frame read back from CSV): times, as trend and regressions read them
        num = pd.to_numeric(t, errors="coerce")
        if num.notna().sum() < t.notna().sum():
            t = pd.to_datetime(t, utc=True, format="mixed")
        else:
            t = num
    if pd.api.types.is_datetime64_any_dtype(t):
        tt = pd.to_datetime(t, utc=True)
        return ((tt - tt.min()).dt.total_seconds()).to_numpy(dtype=float), True
    return t.to_numpy(dtype=float), False


def _bin_series(t: np.ndarray, x: np.ndarray, bin_width: float | None, agg: str):
    """Equal-width time bins (bin start time, aggregated value, count)."""
    if bin_width is None or bin_width <= 0:
        return t, x, np.ones_like(x, dtype=int)
    k = np.floor((t - t[0]) / bin_width).astype(np.int64)
    df = pd.DataFrame({"k": k, "t": t, "x": x})
    g = df.groupby("k", sort=True)
    if agg == "ios_rate":
        vals = (g["x"].sum() / bin_width).to_numpy(dtype=float)
    else:
        vals = g["x"].agg(agg).to_numpy(dtype=float)
    return g["t"].min().to_numpy(), vals, g.size().to_numpy()


def robust_ar1(y: np.ndarray) -> float:
    """Lag-1 autocorrelation of a series with level shifts, from its differences.

    ``ρ = (MAD(y[t+2] − y[t]) / MAD(y[t+1] − y[t]))² − 1`` (centred MADs): for an AR(1),
    ``Var(y[t+2] − y[t]) / Var(y[t+1] − y[t]) = 1 + ρ``, and a few level shifts (or a linear
    drift, once centred) do not move the medians. Chakar, Lebarbier, Lévy-Leduc & Robin,
    Bernoulli 23(2), 2017, §3.
    """
    if y.size < 10:
        return 0.0
    d1, d2 = np.diff(y), y[2:] - y[:-2]
    m1 = float(np.median(np.abs(d1 - np.median(d1))))
    m2 = float(np.median(np.abs(d2 - np.median(d2))))
    if m1 <= 0:
        return 0.0
    return float(np.clip((m2 / m1) ** 2 - 1, 0.0, 0.95))


def _segment_ar1(y: np.ndarray, penalty, min_size: int) -> pd.DataFrame:
    """PELT with the noise scale inflated for lag-1 autocorrelation.

    Neighbouring rounds of a log are positively correlated; a mean-shift cost with the i.i.d.
    noise SD then sees changes everywhere. ``phi`` is estimated robustly from the differences
    (:func:`robust_ar1`) — not from the residuals of a first segmentation, which soaks up the
    wandering and under-estimates it — and the cost uses the long-run SD
    ``sigma * sqrt((1 + phi) / (1 - phi))`` (the AR(1) variance inflation of Chakar et al.
    2017), with ``sigma`` the marginal SD implied by the MAD of the first differences.
    """
    phi = robust_ar1(y)
    if phi <= 0.05:
        return changepoints(y, penalty=penalty, min_size=min_size, model="normal_mean")
    d1 = np.diff(y)
    s_d1 = 1.4826 * float(np.median(np.abs(d1 - np.median(d1))))
    sigma = s_d1 / math.sqrt(2 * (1 - phi)) * math.sqrt((1 + phi) / (1 - phi))
    if not np.isfinite(sigma) or sigma <= 0:
        return changepoints(y, penalty=penalty, min_size=min_size, model="normal_mean")
    return changepoints(y, penalty=penalty, min_size=min_size, model="normal_mean",
                        sigma=sigma)


def trend_excursion(y: np.ndarray, horizon: int, confidence: float = 0.95) -> tuple[float, float]:
    """Least-squares trend of a window, as the change it would make over ``horizon`` rounds.

    Returns ``(excursion, p)``: ``|slope| × (horizon − 1)`` (on the log scale ≈ the relative
    change) and the two-sided p-value of the slope with a Newey–West (HAC) standard error
    (statsmodels OLS, ``maxlags = floor(4 (n/100)^(2/9))``), so that autocorrelated rounds do not
    make a flat window look trending. Newey & West, Econometrica 55(3), 1987.
    """
    import statsmodels.api as sm

    n = y.size
    if n < 6 or np.ptp(y) == 0:
        return 0.0, 1.0
    x = sm.add_constant(np.arange(n, dtype=float))
    lags = max(1, int(4 * (n / 100) ** (2 / 9)))
    fit = sm.OLS(y, x).fit(cov_type="HAC", cov_kwds={"maxlags": lags})
    return abs(float(fit.params[1])) * (horizon - 1), float(fit.pvalues[1])


def _merge_regimes(seg: pd.DataFrame, y: np.ndarray, equivalence: float, log: bool):
    """Merge adjacent segments whose levels differ by less than ``equivalence`` (relative)."""
    bounds = list(zip(seg["start"].tolist(), seg["end"].tolist(), strict=True))

    def level(a, b):
        m = float(y[a:b].mean())
        return math.exp(m) if log else m

    merged = True
    while merged and len(bounds) > 1:
        merged = False
        levels = [level(a, b) for a, b in bounds]
        diffs = [abs(levels[i + 1] / levels[i] - 1.0) if levels[i] != 0 else math.inf
                 for i in range(len(bounds) - 1)]
        j = int(np.argmin(diffs))
        if diffs[j] < equivalence:
            bounds[j] = (bounds[j][0], bounds[j + 1][1])
            del bounds[j + 1]
            merged = True
    return bounds, [level(a, b) for a, b in bounds]


def _relative(y: np.ndarray, use_log: bool) -> np.ndarray:
    """Values on a relative scale: log values as they are, others over their mean."""
    if use_log or not y.size:
        return y
    m = abs(float(np.mean(y)))
    return y / m if m > 0 else y


def _final_start(bounds, levels, equivalence: float, short: int) -> tuple[int, int]:
    """Index of the earliest regime from which the run stays at its final level, allowing
    short excursions (dips or spikes, each shorter than ``short`` rounds) in between; and the
    number of such excursions. A regime that returns to the earlier level is a dip, not the
    end of a warm-up."""
    final = levels[-1]
    start, dips = len(bounds) - 1, 0
    for i in range(len(bounds) - 2, -1, -1):
        if _equivalent(levels[i], final, equivalence):
            start = i
        elif bounds[i][1] - bounds[i][0] >= short:
            break
    dips = sum(1 for j in range(start, len(bounds) - 1)
               if not _equivalent(levels[j], final, equivalence))
    return start, dips


def _equivalent(level: float, final: float, equivalence: float) -> bool:
    """Whether ``level`` is within ``equivalence`` of ``final`` (relative; a final level of 0,
    a stalled volume, is matched only by 0).

    >>> _equivalent(0.0, 0.0, 0.05), _equivalent(3000.0, 0.0, 0.05), _equivalent(98, 100, 0.05)
    (True, False, True)
    """
    if final == 0:
        return level == 0
    return abs(level / final - 1) < equivalence


def _changepoint_part(y, t_out, use_log, *, penalty, equivalence, min_final, min_size,
                      lower_better, slope_tol, n_min):
    """Regimes, class, steady start index; trend check inside the final regime."""
    n = y.size
    if n < n_min:
        # a handful of rounds cannot tell a shift from noise: not classified
        return {"klass": "too_short" if n else None, "start": None, "n_cp": 0, "n_reg": 1,
                "dips": 0, "trend": math.nan, "trend_p": math.nan}, []
    seg = _segment_ar1(y, penalty, min_size)
    bounds, levels = _merge_regimes(seg, y, equivalence, use_log)
    short = max(min_size, math.ceil(min_final * n))
    first, dips = _final_start(bounds, levels, equivalence, short)
    head = levels[:first] or [levels[-1]]
    best = min(head) if lower_better else max(head)
    final_best = (levels[-1] <= best * (1 + equivalence) if lower_better
                  else levels[-1] >= best * (1 - equivalence))
    start = bounds[first][0]
    trend, p = trend_excursion(_relative(y[start:], use_log), n)
    if first == 0:
        klass = "flat"
    elif bounds[-1][1] - start < short:
        klass = "no_steady_state"
    else:
        klass = "warmup" if final_best else "slowdown"
    if klass != "no_steady_state" and trend > slope_tol and p < 0.05:
        klass = "no_steady_state"      # the level still moves: not a steady state
    seg_rows = [{"regime": r, "start_time": t_out[a], "end_time": t_out[b - 1],
                 "n_rounds": b - a, "level": lv,
                 "ratio_to_final": lv / levels[-1] if levels[-1] else math.nan,
                 "final": r == len(bounds) - 1}
                for r, ((a, b), lv) in enumerate(zip(bounds, levels, strict=True))]
    return {"klass": klass, "start": start if klass != "no_steady_state" else None,
            "n_cp": len(seg) - 1, "n_reg": len(bounds), "dips": dips, "trend": trend,
            "trend_p": p}, seg_rows


def _snia_part(xb, t_out, y, use_log, window, range_tol, slope_tol):
    """SNIA windows; the last unbroken steady stretch must not trend beyond ``slope_tol``
    across the stretch, or across the last quarter of the run when the stretch is shorter (a
    slow drift passes every 5-round window)."""
    w = snia_windows(xb, window, range_tol, slope_tol)
    if not len(w):
        return False, None, None, None
    ok = w["steady"].to_numpy()
    first = t_out[int(np.flatnonzero(ok)[0])] if ok.any() else None
    if not ok[-1]:
        return False, None, first, None
    bad = np.flatnonzero(~ok)
    i0 = int(bad[-1]) + 1 if bad.size else 0
    j0 = min(i0, y.size - y.size // 4)   # at least the last quarter of the run
    trend, p = trend_excursion(_relative(y[j0:], use_log), y.size - j0)
    if trend > slope_tol and p < 0.05:
        return False, None, first, None
    return True, t_out[i0], first, i0


def _analyse(t_raw, t_sec, x, *, lower_better, window, range_tol, slope_tol, penalty,
             equivalence, min_final, min_size, bin_width, agg, log, batches, confidence,
             method, min_rounds=12):
    tb, xb, _ = _bin_series(t_sec, x, bin_width, agg)
    # map the bin start times back to the caller's time scale
    t_out = t_raw[np.searchsorted(t_sec, tb)] if bin_width else t_raw
    n = xb.size
    use_log = bool(log) and n > 0 and bool(np.all(xb > 0))
    y = np.log(xb) if use_log else xb.astype(float)
    row: dict = {"n": int(x.size), "n_rounds": int(n)}
    cp: dict = {"klass": None, "start": 0, "n_cp": 0, "n_reg": 1, "dips": 0,
                "trend": math.nan, "trend_p": math.nan}
    seg_rows: list[dict] = []
    if method in ("both", "changepoint"):
        cp, seg_rows = _changepoint_part(
            y, t_out, use_log, penalty=penalty, equivalence=equivalence, min_final=min_final,
            min_size=min_size, lower_better=lower_better, slope_tol=slope_tol,
            n_min=max(4 * min_size, min_rounds))
    start_idx = cp["start"]
    snia = (None, None, None, None)
    if method in ("both", "snia"):
        snia = _snia_part(xb, t_out, y, use_log, window, range_tol, slope_tol)
        if method == "snia":
            start_idx = snia[3]
    row.update(_level_part(xb, t_out, start_idx, window, batches, confidence))
    row.update(klass=cp["klass"], n_changepoints=cp["n_cp"], n_regimes=cp["n_reg"],
               snia_steady=snia[0], snia_window_start=snia[1], snia_first_window=snia[2],
               lower_is_better=lower_better, log_scale=use_log, n_dips=cp["dips"],
               steady_trend=cp["trend"], steady_trend_p=cp["trend_p"])
    return row, seg_rows


def _level_part(xb, t_out, start_idx, window, batches, confidence) -> dict:
    n = xb.size
    if start_idx is None or not n:
        return dict(steady_start=None, steady_level=math.nan, steady_level_ci_low=math.nan,
                    steady_level_ci_high=math.nan, n_steady=0, batches=0,
                    first_level=float(np.mean(xb[:window])) if n else math.nan)
    tail = xb[start_idx:]
    lv, lo, hi, k = batch_means_ci(tail, batches, confidence)
    first = xb[: max(1, min(start_idx, window))] if start_idx else xb[:window]
    return dict(steady_start=t_out[start_idx], steady_level=lv, steady_level_ci_low=lo,
                steady_level_ci_high=hi, n_steady=int(tail.size), batches=k,
                first_level=float(np.mean(first)))


def _groups(ts: pd.DataFrame, by_cols: list[str]):
    if not by_cols:
        yield (), ts
        return
    yield from ts.groupby(by_cols, sort=True, observed=True, dropna=False)


def _resolve_by(ts: pd.DataFrame, by) -> list[str]:
    if by is None:
        return [c for c in _DEFAULT_BY if c in ts.columns]
    return [by] if isinstance(by, str) else list(by)


#: Points above which ``bin=None`` warns: PELT keeps every candidate of a series with no
#: change (no pruning applies), so its time grows with the square of the points (20,000: 2 s
#: here; 200,000: about 100 s).
PELT_UNBINNED_WARN = 50_000


def _bin_width(t_sec: np.ndarray, bin, max_points: int, per_io: bool) -> float | None:
    if bin is None:
        if t_sec.size > PELT_UNBINNED_WARN:
            warnings.warn(f"steady_state: {t_sec.size:,} points without binning (bin=None): "
                          "PELT's time grows with the square of the points where the series "
                          "has no change (200,000: about 100 s); bin='auto' bins them to "
                          "max_points rounds", UserWarning, stacklevel=5)
        return None
    if isinstance(bin, str):
        if bin != "auto":
            raise ValueError("bin must be None, 'auto' or a number of seconds")
        n = t_sec.size
        if n <= max_points and not per_io:
            return None
        # per-I/O logs: at least 20 I/Os per bin, so that a bin's mean reflects the mixture of
        # slow and fast I/Os rather than which of them happened to fall in it
        k = min(max_points, n // 20) if per_io else max_points
        span = float(t_sec[-1] - t_sec[0])
        return span / max(k, 1) * (1 + 1e-9) if span > 0 else None
    return float(bin)


def _untested(n: int, confidence: float, why: str) -> dict:
    """The row of a series that is not analysed: no class, level or segments, its reason
    (``not testable: ...``) as its ``method``."""
    return {"klass": None, "steady_start": None, "snia_steady": None, "snia_window_start": None,
            "snia_first_window": None, "n": int(n), "lower_is_better": None,
            "confidence": confidence, "method": why}


def _run(ts, value, time, by, *, window, range_tol, slope_tol, method, penalty, equivalence,
         min_final, min_size, bin, max_points, agg, log, higher_is_better, batches, confidence):
    if method not in ("both", "snia", "changepoint"):
        raise ValueError("method must be 'both', 'snia' or 'changepoint'")
    for c in (value, time):
        if c not in ts.columns:
            raise KeyError(f"column {c!r} not in the series frame")
    by_cols = _resolve_by(ts, by)
    rows, segs = [], []
    for key, g in _groups(ts, by_cols):
        key = key if isinstance(key, tuple) else (key,)
        g = g[g[value].notna() & g[time].notna()]
        g = g.sort_values(time, kind="stable")
        x = g[value].to_numpy(dtype=float)
        fin = np.isfinite(x)
        g, x = g[fin], x[fin]
        t_sec, _ = _to_seconds(g[time])
        t_raw = g[time].to_numpy()
        hib, why = direction_or_reason(g, higher_is_better, unknown=True)
        if why:  # (TPS and latency pooled: no regime is the best one, so this series is not
            # analysed; the other series are)
            rows.append({**dict(zip(by_cols, key, strict=True)),
                         **_untested(x.size, confidence, why)})
            continue
        lower = not hib
        per_io = "sampling" in g and len(g) and str(g["sampling"].iloc[0]) == "per_io"
        metric = str(g["metric"].iloc[0]) if "metric" in g and len(g) else ""
        bw = _bin_width(t_sec, bin, max_points, bool(per_io))
        g_agg = agg
        if per_io and metric == "ios" and bw:
            # per-I/O count log: the round's value is the rate (I/Os per second in the bin)
            g_agg = "ios_rate"
        row, seg_rows = _analyse(
            t_raw, t_sec, x, lower_better=lower, window=window, range_tol=range_tol,
            slope_tol=slope_tol, penalty=penalty, equivalence=equivalence, min_final=min_final,
            min_size=min_size, bin_width=bw, agg=g_agg, log=log, batches=batches,
            confidence=confidence, method=method)
        row.pop("_cp", None)
        keys = dict(zip(by_cols, key, strict=True))
        row["bin_width"] = bw if bw else math.nan
        desc = []
        if method in ("both", "changepoint"):
            desc.append(f"PELT ({penalty}) on {'log ' if row['log_scale'] else ''}"
                        f"{agg if bw else ''}{' per bin' if bw else 'values'}, regimes within "
                        f"{equivalence:.0%} merged (Barrett et al. 2017)")
        if method in ("both", "snia"):
            desc.append(f"SNIA PTS window {window} rounds, range <= {range_tol:.0%}, slope "
                        f"excursion <= {slope_tol:.0%}")
        desc.append("steady level: mean of the final regime, batch-means CI")
        row["method"] = "; ".join(desc)
        row["confidence"] = confidence
        rows.append({**keys, **row})
        for s in seg_rows:
            segs.append({**keys, **s})
    cols = [*by_cols, "klass", "steady_start", "steady_level", "steady_level_ci_low",
            "steady_level_ci_high", "confidence", "n_steady", "batches", "first_level",
            "snia_steady", "snia_window_start", "snia_first_window", "n_changepoints",
            "n_regimes", "n", "n_rounds", "bin_width", "lower_is_better", "log_scale", "method",
            "n_dips", "steady_trend", "steady_trend_p"]
    res = pd.DataFrame(rows, columns=cols)
    seg_cols = [*by_cols, "regime", "start_time", "end_time", "n_rounds", "level",
                "ratio_to_final", "final"]
    return res, pd.DataFrame(segs, columns=seg_cols)


_DOC_PARAMS = """
    ts : DataFrame
        A series frame (``ebsstats.read_series``) or any frame with a time and a value column;
        repeated runs in order work with ``time="timestamp"`` (datetimes are turned into
        seconds since the first run, and reported back as given).
    value, time : str
        Column names.
    by : str or list of str, optional
        One series per group; default ``["run_id", "op", "metric"]`` (those present).
    window, range_tol, slope_tol
        The SNIA rule (:func:`snia_windows`): 5 rounds, 20 % range, 10 % slope excursion.
    method : {"both", "changepoint", "snia"}
        Which analyses to run. With ``"snia"`` alone, steady state starts where the last
        unbroken stretch of steady SNIA windows starts.
    penalty : str or float
        PELT penalty (:func:`ebsstats.stats.changepoint.changepoints`); ``"mbic"`` by default
        because a spurious change is the costly error (a flat run called warm-up).
    equivalence : float
        Adjacent regimes whose levels differ by less than this fraction are one regime
        (Barrett et al. treat statistically distinct but tiny shifts as equivalent, too).
    min_final : float
        The final regime must hold for at least this fraction of the rounds, else the run has
        ``no_steady_state``.
    min_size : int
        Minimum rounds per segment.
    bin : None, "auto" or float
        Aggregate into equal time bins of this many seconds first (one bin = one round);
        ``"auto"`` bins series longer than ``max_points`` into about ``max_points`` bins, and
        per-I/O logs (``sampling == "per_io"``) always, with at least 20 I/Os per bin; a per-I/O
        count log (fio ``iops`` log without ``log_avg_msec``, metric ``ios``) becomes I/Os per
        second of each bin.
    max_points : int
        See ``bin``.
    agg : str
        Aggregate per bin (``"mean"``: for per-I/O latencies the bin mean is the time-average
        a rate follows from, and moves smoothly with the share of slow I/Os; ``"median"`` is
        robust to tails but jumps when that share crosses one half).
    log : bool
        Segment the log of the values (multiplicative shifts), when all are positive.
    higher_is_better : bool, optional
        Direction; default the rows' ``higher_is_better``, else from the unit (``s`` → lower
        is better) and the metric name, else higher is better
        (:func:`ebsstats.stats._core.metric_direction`).
    batches : int
        Batches for the steady level's batch-means interval (:func:`batch_means_ci`).
    confidence : float
"""


@renamed(ts="data")
def steady_state(data: pd.DataFrame, value: str = "value", time: str = "t",
                 by: str | Sequence[str] | None = None, *, window: int = 5,
                 range_tol: float = 0.20, slope_tol: float = 0.10, method: str = "both",
                 penalty: str | float = "mbic", equivalence: float = 0.05,
                 min_final: float = 0.10, min_size: int = 3, bin: str | float | None = "auto",
                 max_points: int = 300, agg: str = "mean", log: bool = True,
                 higher_is_better: bool | None = None, batches: int = 10,
                 confidence: float = 0.95) -> pd.DataFrame:
    """Classify each series (flat / warmup / slowdown / no_steady_state) and find its steady state.

    Parameters
    ----------{params}
    Returns
    -------
    DataFrame
        One row per series: the ``by`` columns, ``klass``, ``steady_start`` (time at which the
        final regime starts, in the units of ``time``; ``None`` without steady state),
        ``steady_level`` with ``steady_level_ci_low/high`` (mean of the rounds of the final
        regime, batch-means interval), ``confidence``, ``n_steady`` (rounds in it), ``batches``,
        ``first_level`` (mean of the first rounds, before steady state), ``snia_steady`` (the
        last SNIA window is steady by the PTS rule, *and* the last unbroken stretch of steady
        windows, or the last quarter of the run if that is longer, has no significant trend
        beyond ``slope_tol``: a slow drift of 0.5 % a round passes every 5-round window of the
        PTS rule and still is no steady state), ``snia_window_start`` (start of the last
        unbroken stretch of steady windows), ``snia_first_window`` (the start of the first
        steady window; an online PTS run would have stopped at its end, ``window - 1`` rounds
        later — early plateaus make this misleading), ``n_changepoints`` (PELT, before
        merging), ``n_regimes`` (after merging), ``n`` (points), ``n_rounds`` (after binning),
        ``bin_width``, ``lower_is_better``, ``log_scale``, ``method``. A series whose
        ``higher_is_better`` holds both True and False (a PTS test's TPS and its latency, both
        ``score``) is not analysed unless ``higher_is_better=`` is given: ``klass`` None, NaN
        levels, no segments, ``method`` ``not testable: rows mix …``; the others are.

    Notes
    -----
    Classification after Barrett, Bolz-Tereick, Killick, Mount & Tratt, "Virtual machine warmup
    blows hot and cold", OOPSLA 2017: PELT changepoints (Killick et al. 2012), equivalent
    neighbouring segments merged; one regime → ``flat``; the last regime shorter than
    ``min_final`` of the series → ``no_steady_state``; the last regime the best (within
    ``equivalence``; best = highest rate or lowest latency) → ``warmup``; otherwise
    ``slowdown``; fewer than ``max(12, 4 * min_size)`` rounds: ``too_short``. On EBS,
    ``warmup`` is typically a first-write (first-touch) penalty fading,
    ``slowdown`` a burst bucket running dry. SNIA PTS-E 1.1 steady-state window as in
    :func:`snia_windows`. Georges, Buytaert & Eeckhout (OOPSLA 2007) argue for reporting
    start-up and steady state separately: ``first_level`` and ``steady_level`` do that.

    The level interval uses batch means because neighbouring rounds of a log are correlated;
    an i.i.d. bootstrap would be too narrow.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(1)
    >>> t = np.arange(600.0)
    >>> v = np.where(t < 300, 20.0, 100.0) * np.exp(rng.normal(0, 0.03, 600))
    >>> data = pd.DataFrame({{"t": t, "value": v, "metric": "iops", "unit": "IO/s"}})
    >>> r = steady_state(data, by="metric")
    >>> r[["klass", "snia_first_window"]].values.tolist()
    [['warmup', 0.0]]
    >>> bool(290 <= r["steady_start"].iloc[0] <= 310)
    True
    """
    check_levels(confidence=confidence)  # (95 gave a NaN interval, 0 one of zero width)
    res, _ = _run(data, value, time, by, window=window, range_tol=range_tol, slope_tol=slope_tol,
                  method=method, penalty=penalty, equivalence=equivalence, min_final=min_final,
                  min_size=min_size, bin=bin, max_points=max_points, agg=agg, log=log,
                  higher_is_better=higher_is_better, batches=batches, confidence=confidence)
    return res


@renamed(ts="data")
def segments(data: pd.DataFrame, value: str = "value", time: str = "t",
             by: str | Sequence[str] | None = None, *, penalty: str | float = "mbic",
             equivalence: float = 0.05, min_final: float = 0.10, min_size: int = 3,
             bin: str | float | None = "auto", max_points: int = 300, agg: str = "mean",
             log: bool = True, higher_is_better: bool | None = None) -> pd.DataFrame:
    """The regimes (merged changepoint segments) behind :func:`steady_state`, per series.

    Parameters are those of :func:`steady_state`.

    Returns
    -------
    DataFrame
        One row per regime: the ``by`` columns, ``regime`` (0, 1, …), ``start_time``,
        ``end_time`` (first and last round), ``n_rounds``, ``level`` (geometric mean of the
        rounds when on log scale, else the mean), ``ratio_to_final`` (level / final level),
        ``final`` (the regime the run ends in).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> t = np.arange(100.0)
    >>> data = pd.DataFrame({"t": t, "value": np.where(t < 60, 3000.0, 100.0), "metric": "iops"})
    >>> seg = segments(data, by="metric")
    >>> seg["start_time"].tolist(), seg["level"].round(6).tolist()
    ([0.0, 60.0], [3000.0, 100.0])
    """
    _, seg = _run(data, value, time, by, window=5, range_tol=0.2, slope_tol=0.1,
                  method="changepoint", penalty=penalty, equivalence=equivalence,
                  min_final=min_final, min_size=min_size, bin=bin, max_points=max_points,
                  agg=agg, log=log, higher_is_better=higher_is_better, batches=10,
                  confidence=0.95)
    return seg


steady_state.__doc__ = steady_state.__doc__.format(params=_DOC_PARAMS)

"""Run-to-run spread and confidence intervals: :func:`summarize` and :func:`median_ci`.

The median comes with the distribution-free order-statistic interval (benchstat, CONFIRM), the
mean with a Student-t and a BCa bootstrap interval, and every group says how many rows it left out
(NaN values such as bonnie++ ``+++++``) and warns when it holds too few runs for the requested
confidence.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

# grouping, the never-pool policy and the median CI live in the one statistical core; the names
# stay importable from here for the modules that import them from summary.
from ebsstats._docs import renamed
from ebsstats.schema import IMPLAUSIBLE, INTERRUPTED, TOO_FAST
from ebsstats.stats._checks import mixed_parameters
from ebsstats.stats._core import (  # noqa: F401
    WITHIN,
    as_list,
    bootstrap_interval,
    bootstrap_method,
    check_columns,
    check_levels,
    clean_values,
    first_value,
    group_keys,
    iter_groups,
    median_ci_array,
    median_warning,
    order_stat_ranks,
    pct,
)

__all__ = ["summarize", "median_ci", "median_ci_array", "order_stat_ranks", "median_warning"]

RATE_UNITS = frozenset({"B/s", "IO/s", "ops/s"})
AVERAGES = ("auto", "arithmetic", "harmonic", "geometric")


def median_ci(data, value: str = "value", by: str | Sequence[str] | None = None,
              confidence: float = 0.95, within: str | Sequence[str] | None = "auto"
              ) -> pd.DataFrame:
    """Distribution-free confidence interval of the median from order statistics.

    Parameters
    ----------
    data : DataFrame or array-like
        Tidy frame (or plain values: one group).
    value, by, within : str or list of str
        Value column, grouping columns, and the identity columns never pooled over
        (default: ``test``, ``op``, ``metric`` where present; ``[]`` to pool).
    confidence : float
        Requested coverage. The chosen interval covers at least this much when ``n`` allows.

    Returns
    -------
    DataFrame
        One row per group: ``n``, ``n_excluded``, ``median``, ``median_ci_low``,
        ``median_ci_high``, ``median_ci_level`` (exact coverage), ``rank_low``, ``rank_high``
        (1-based order statistics), ``confidence``, ``method``, ``warning``.

    Notes
    -----
    For continuous data the number of observations below the median is Binomial(n, 1/2), so
    :math:`P(X_{(j)} \\le m \\le X_{(n+1-j)}) = 1 - 2 F(j-1)` exactly (Le Boudec, *Performance
    Evaluation of Computer and Communication Systems*, 2010, Thm 2.1; benchstat; Maricq et al.,
    OSDI 2018). With ties the coverage is at least the reported level. At ``n`` ≤ 5 no interval
    reaches 95 %: the widest one, ``[min, max]``, covers 93.75 % at ``n = 5`` and the warning
    says so.

    Examples
    --------
    >>> import ebsstats as es
    >>> r = es.median_ci(list(range(1, 11)))
    >>> r[["median", "median_ci_low", "median_ci_high"]].iloc[0].tolist()
    [5.5, 2.0, 9.0]
    >>> round(float(r["median_ci_level"].iloc[0]), 4)
    0.9785
    """
    check_levels(confidence=confidence)  # (1.5 or 0 gave an interval labelled with that level)
    if not isinstance(data, pd.DataFrame):
        data = pd.DataFrame({value: np.asarray(data, dtype=float)})
    keys = group_keys(data, by, within)
    check_columns(data, [value, *keys])
    rows = []
    for key, sub in iter_groups(data, keys):
        x, n_excl = clean_values(sub, value)
        med, lo, hi, level = median_ci_array(x, confidence)
        j, k, _, _ = order_stat_ranks(max(len(x), 1), confidence)
        rows.append({**key, "n": len(x), "n_excluded": n_excl, "median": med,
                     "median_ci_low": lo, "median_ci_high": hi, "median_ci_level": level,
                     "rank_low": int(j[0]) if len(x) >= 2 else pd.NA,
                     "rank_high": int(k[0]) if len(x) >= 2 else pd.NA,
                     "confidence": confidence, "method": "order statistics (binomial)",
                     "warning": median_warning(len(x), confidence)})
    return _frame(rows, keys)


def _group_warning(x: np.ndarray, n_excl: int, median: str | None, mixed: str | None,
                   meth: str, interrupted: int, too_fast: int = 0,
                   implausible: int = 0) -> str | None:
    """What :func:`summarize` says of one group: too few values, runs of different workloads,
    NaN values left out (``too_fast`` of them too fast to measure: the fastest runs, so the
    rest lean slow), runs fio stopped early, an average undefined for its values.

    >>> print(_group_warning(np.ones(1), 4, None, None, "arithmetic", 0, too_fast=4))
    ... # doctest: +NORMALIZE_WHITESPACE
    4 NaN value(s) excluded, 4 of them too fast to measure (flag 'too_fast'): the values
    kept are the slower runs
    """
    warn = [w for w in (median, mixed) if w]
    if n_excl:
        warn.append(f"{n_excl} NaN value(s) excluded" + (
            f", {too_fast} of them too fast to measure (flag {TOO_FAST!r}): the values kept "
            "are the slower runs" if too_fast else ""))
    if interrupted:
        warn.append(f"{interrupted} value(s) of runs fio stopped on a signal (flag "
                    f"{INTERRUPTED!r}: shorter than asked; ebsstats.select leaves them out)")
    if implausible:
        warn.append(f"{implausible} value(s) longer than their fio job ran (flag "
                    f"{IMPLAUSIBLE!r}: fio's clock or counters went wrong; ebsstats.select "
                    "leaves them out)")
    if meth in ("harmonic", "geometric") and len(x) and np.any(x <= 0):
        warn.append(f"{meth} mean undefined for values <= 0")
    return "; ".join(warn) if warn else None


def _frame(rows: list[dict], keys: list[str]) -> pd.DataFrame:
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    for c in ("n", "n_excluded"):
        if c in out:
            out[c] = out[c].astype("int64")
    for c in ("rank_low", "rank_high"):
        if c in out:
            out[c] = out[c].astype("Int64")
    if "warning" in out:
        out["warning"] = out["warning"].astype("string")
    return out.reset_index(drop=True)


# --------------------------------------------------------------------------------------------
# rate-aware averages
# --------------------------------------------------------------------------------------------
def average_method(average: str, unit, metric=None, tool=None, time_based=None) -> tuple[str, str]:
    """Resolve ``average="auto"`` into ``(method, reason)``.

    ``auto``: rates (B/s, IO/s, ops/s) get the harmonic mean — the right average of rates when
    every run moved the same amount of work (fio ``size=``, bonnie++) — unless the runs were
    fixed-time (sysbench, which stops after ``--time``, or a true ``time_based`` column), where
    the arithmetic mean is right; ratios (unit or metric named ``ratio``) get the geometric
    mean; costs (latencies, times, bytes, counts) the arithmetic mean (Hoefler & Belli, SC'15).

    >>> average_method("auto", "IO/s"), average_method("auto", "IO/s", tool="sysbench")[0]
    (('harmonic', 'rate, fixed-work runs assumed'), 'arithmetic')
    """
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {AVERAGES}, got {average!r}")
    if average != "auto":
        return average, "requested"
    unit = None if unit is None else str(unit)
    if unit == "ratio" or (metric is not None and "ratio" in str(metric)):
        return "geometric", "ratio"
    if unit in RATE_UNITS:
        if str(tool) == "sysbench":
            return "arithmetic", "rate, fixed-time runs (sysbench --time)"
        if time_based is not None and str(time_based).strip().lower() in (
                "", "1", "1.0", "true", "yes", "on"):  # ("": a bare --time_based in fio JSON)
            return "arithmetic", "rate, fixed-time runs (time_based)"
        return "harmonic", "rate, fixed-work runs assumed"
    return "arithmetic", "cost or count"


def _average(x: np.ndarray, method: str) -> float:
    if len(x) == 0:
        return np.nan
    if method == "arithmetic":
        return float(np.mean(x))
    if np.any(x <= 0):
        return np.nan
    if method == "harmonic":
        return float(stats.hmean(x))
    return float(stats.gmean(x))


# --------------------------------------------------------------------------------------------
# summarize
# --------------------------------------------------------------------------------------------
def _bca_mean(x: np.ndarray, confidence: float, n_resamples: int,
              rng: np.random.Generator) -> tuple[float, float]:
    if n_resamples <= 0 or len(x) < 3 or np.ptp(x) == 0:
        return np.nan, np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return bootstrap_interval(x, "mean", confidence, n_resamples, rng)


_BOOT_NAMES = {"BCa": "BCa bootstrap", "percentile": "percentile bootstrap",
               "bag of little bootstraps": "bag of little bootstraps (Kleiner et al. 2014)"}


@renamed(bootstrap="n_boot")
def summarize(data: pd.DataFrame, value: str = "value", by: str | Sequence[str] | None = None,
              confidence: float = 0.95, average: str = "auto", n_boot: int = 1999,
              seed: int = 0, within: str | Sequence[str] | None = "auto") -> pd.DataFrame:
    """Location, spread and confidence intervals per group of a tidy frame.

    Parameters
    ----------
    data : DataFrame
        Tidy results frame, or any frame with the named columns.
    value : str
        Column of values. Rows whose value is NaN (e.g. bonnie++ ``too_fast``) are left out and
        counted in ``n_excluded``.
    by : str or list of str, optional
        Grouping columns (``"config,test"`` works too).
    confidence : float
        Confidence level of every interval.
    average : {"auto", "arithmetic", "harmonic", "geometric"}
        The rate-aware average reported in ``average`` (see :func:`average_method`).
    n_boot : int
        Resamples of the BCa bootstrap interval of the mean (``0`` skips it).
    seed : int
        Seed of the bootstrap; group ``i`` (in output order) uses
        ``numpy.random.default_rng([seed, i])``, so results are deterministic.
    within : "auto", list of str or None
        Identity columns always added to the grouping: by default ``test``, ``op`` and
        ``metric`` where present, so different metrics are never pooled. ``[]`` pools.

    Returns
    -------
    DataFrame
        One row per group: the grouping columns, ``n``, ``n_excluded``, ``mean``,
        ``mean_ci_low``/``mean_ci_high`` (Student t), ``mean_boot_ci_low``/``mean_boot_ci_high``
        (BCa), ``median``, ``median_ci_low``/``median_ci_high`` and ``median_ci_level`` (exact
        coverage of the order-statistic pair), ``sd``, ``cv`` (sd / mean), ``mad`` (scaled by
        1.4826 to estimate the sd of normal data), ``iqr``, ``min``, ``max``, ``average`` and
        ``average_method``, ``unit``, ``higher_is_better`` (where the frame has them),
        ``confidence``, ``method`` and ``warning``; then ``cv_ci_low``/``cv_ci_high`` (BCa
        bootstrap), ``lag1_autocorr`` (bias-corrected, in ``timestamp``/``repetition`` order),
        ``n_eff``, ``median_ci_low_dep``/``median_ci_high_dep`` (effective-n interval of the
        median, :func:`ebsstats.stats.independence.median_ci_dependent`) and ``bimodality``
        (verdict on log values); dependent runs and bimodal groups add to ``warning``.

    Notes
    -----
    Median CI: order statistics, exact binomial coverage (Le Boudec 2010, Thm 2.1; see
    :func:`median_ci`). Mean CI: Student t, and BCa bootstrap (Efron 1987) via
    :func:`scipy.stats.bootstrap` (the percentile interval above
    :data:`~ebsstats.stats._core.BCA_MAX_N` values, where BCa's jackknife needs n² memory, and
    the bag of little bootstraps of Kleiner et al. 2014 above
    :data:`~ebsstats.stats._core.BLB_MIN_N`: :func:`~ebsstats.stats._core.bootstrap_interval`).
    MAD: :func:`scipy.stats.median_abs_deviation` with
    ``scale="normal"``. Averages of rates follow Hoefler & Belli (SC'15): harmonic for rates of
    fixed-work runs, arithmetic for fixed-time runs, geometric for ratios.

    Examples
    --------
    >>> import pandas as pd, ebsstats as es
    >>> df = pd.DataFrame({"config": ["a"] * 10 + ["b"] * 5, "value": list(range(1, 16))})
    >>> s = es.summarize(df, by="config", n_boot=0)
    >>> s[["config", "n", "median", "median_ci_low", "median_ci_high"]].values.tolist()
    [['a', 10, 5.5, 2.0, 9.0], ['b', 5, 13.0, 11.0, 15.0]]
    >>> print(s["warning"].iloc[1])
    n=5: no order-statistic interval reaches 95 %; widest covers 93.75 %
    """
    check_levels(confidence=confidence)
    if average not in AVERAGES:
        raise ValueError(f"average must be one of {AVERAGES}, got {average!r}")
    keys = group_keys(data, by, within)
    check_columns(data, [value, *keys])
    mixed = mixed_parameters(data, keys)  # groups whose runs measured different workloads
    # runs fio stopped on a signal (select() leaves them out; a frame given as read has them)
    cut = "flag" in data and bool((data["flag"] == INTERRUPTED).any())
    fast = "flag" in data and bool((data["flag"] == TOO_FAST).any())
    odd = "flag" in data and bool((data["flag"] == IMPLAUSIBLE).any())
    rows = []
    for i, (key, sub) in enumerate(iter_groups(data, keys)):
        x, n_excl = clean_values(sub, value)
        n = len(x)
        row: dict = dict(key)
        row["n"], row["n_excluded"] = n, n_excl
        mean = float(np.mean(x)) if n else np.nan
        sd = float(np.std(x, ddof=1)) if n > 1 else np.nan
        if n > 1:
            sem = sd / math.sqrt(n)
            lo, hi = ((mean, mean) if sem == 0 else
                      stats.t.interval(confidence, n - 1, loc=mean, scale=sem))
        else:
            lo = hi = np.nan
        rng = np.random.default_rng([seed, i])  # group i of the call: reproducible
        blo, bhi = _bca_mean(x, confidence, n_boot, rng)
        med, mlo, mhi, level = median_ci_array(x, confidence)
        unit = first_value(sub, "unit")
        metric = key.get("metric", first_value(sub, "metric"))
        meth, why = average_method(average, unit, metric, first_value(sub, "tool"),
                                   first_value(sub, "time_based"))
        row.update({
            "mean": mean, "mean_ci_low": float(lo), "mean_ci_high": float(hi),
            "mean_boot_ci_low": blo, "mean_boot_ci_high": bhi,
            "median": med, "median_ci_low": mlo, "median_ci_high": mhi,
            "median_ci_level": level,
            "sd": sd, "cv": sd / mean if n > 1 and mean != 0 else np.nan,
            "mad": float(stats.median_abs_deviation(x, scale="normal")) if n else np.nan,
            "iqr": float(stats.iqr(x)) if n else np.nan,
            "min": float(np.min(x)) if n else np.nan, "max": float(np.max(x)) if n else np.nan,
            "average": _average(x, meth), "average_method": f"{meth} ({why})",
        })
        if "unit" not in key:
            row["unit"] = unit
        if "higher_is_better" in data.columns and "higher_is_better" not in key:
            row["higher_is_better"] = first_value(sub, "higher_is_better")
        row["confidence"] = confidence
        row["method"] = ("median: order statistics (binomial); mean: Student t"
                         + (f", {_BOOT_NAMES[bootstrap_method(n)]} ({n_boot} resamples)"
                            if n_boot > 0 else ""))
        row["warning"] = _group_warning(
            x, n_excl, median_warning(n, confidence), mixed.get(tuple(key.values())), meth,
            int((sub["flag"] == INTERRUPTED).sum()) if cut else 0,
            int((sub["flag"] == TOO_FAST).sum()) if fast else 0,
            int((sub["flag"] == IMPLAUSIBLE).sum()) if odd else 0)
        rows.append(row)
    from ebsstats.stats.independence import summary_extras  # CV CI, independence, bimodality

    return summary_extras(_frame(rows, keys), data, keys, value, confidence, n_boot, seed)

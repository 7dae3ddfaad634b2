"""Which configuration is really faster: :func:`compare` every group with a baseline.

Per comparison: the ratio of medians with a bootstrap CI, the Hodges–Lehmann shift with its
Moses (Mann–Whitney inversion) interval, Cliff's delta and the common-language effect size, a
Mann–Whitney U (or permutation) p-value, p-values adjusted over every comparison of the call
(Holm by default), and a benchstat-like verdict that respects ``higher_is_better``. Runs
interleaved on the same volume or instance can be compared as pairs (Wilcoxon signed-rank,
Hodges–Lehmann of paired differences, ratio from the median paired log-ratio).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from functools import lru_cache

import numpy as np
import pandas as pd
from scipy import stats

from ebsstats._docs import renamed
from ebsstats.stats._checks import mixed_parameters
from ebsstats.stats._core import (
    adjust_pvalues,
    as_list,
    baseline_key,
    best_adjusted_p,
    check_columns,
    check_levels,
    clean_values,
    direction_or_reason,
    direction_word,
    group_keys,
    iter_groups,
    key_text,
    min_p,
    order_stat_ranks,
    pct,
    runs_needed,
)
from ebsstats.stats.independence import _group_row, _order_column

__all__ = ["compare", "ratio_ci", "hodges_lehmann", "hodges_lehmann_paired", "cliffs_delta",
           "min_p", "u_null_cdf", "signed_rank_null_cdf"]

TESTS = ("mannwhitney", "permutation")
#: Columns checked for unbalanced composition between the compared groups.
STRATA = ("instance_type", "volume_type", "size_gib", "provisioned_iops", "filesystem",
          "raid_level", "region", "az", "host", "instance", "volume")
IMBALANCE_TVD = 0.2
CORRECTIONS = ("holm", "fdr_bh", "bonferroni", "none")
DEPENDENCE = ("auto", "ignore", "block")
#: Fewest runs a side given a bootstrap ratio-of-medians interval: the median of 2-4 resampled
#: runs takes a handful of values, and the interval stating 95 % covered 65-93 % (2 vs 2: 65 %,
#: 2 vs 30: 72 %, 3 vs 30: 87 %, 4 vs 4: 93 %; 5 vs 5: 97 %, 600 log-normal simulations each).
RATIO_CI_MIN_N = 5
#: Lag-1 autocorrelation above which (and significantly > 0) a group's runs count as dependent:
#: the rule of :func:`ebsstats.summarize`.
DEPENDENCE_THRESHOLD = 0.2
EXACT_MAX = 2500  # exact null distributions when m*n (or n(n+1)/2) is at most this


# --------------------------------------------------------------------------------------------
# exact null distributions (for the interval ranks; p-values come from scipy)
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=256)
def u_null_cdf(m: int, n: int) -> np.ndarray:
    """Exact CDF of the Mann–Whitney U statistic under H0 (no ties), ``P(U <= u)``, u = 0..mn.

    The counts are the coefficients of the Gaussian binomial coefficient
    :math:`\\binom{m+n}{m}_q = \\prod_{i=1}^{m} (1 - q^{n+i}) / (1 - q^i)`.
    (scipy computes the same distribution inside ``mannwhitneyu(method="exact")`` but does not
    expose it; the tests check this one against scipy's p-values.)

    >>> np.round(u_null_cdf(2, 2), 4).tolist()
    [0.1667, 0.3333, 0.6667, 0.8333, 1.0]
    """
    m, n = sorted((int(m), int(n)))
    deg = m * n
    c = np.zeros(deg + 1)
    c[0] = 1.0
    for i in range(1, m + 1):
        a = n + i
        if a <= deg:
            c[a:] = c[a:] - c[:-a]
        for r in range(i):  # divide by (1 - q^i): running sums with stride i
            c[r::i] = np.cumsum(c[r::i])
    c = np.maximum(c, 0.0)
    out = np.minimum(np.cumsum(c) / c.sum(), 1.0)
    out.flags.writeable = False  # cached: shared between calls
    return out


@lru_cache(maxsize=256)
def signed_rank_null_cdf(n: int) -> np.ndarray:
    """Exact CDF of the Wilcoxon signed-rank statistic T+ under H0, t = 0..n(n+1)/2.

    Coefficients of :math:`\\prod_{i=1}^{n} (1 + q^i)`.

    >>> np.round(signed_rank_null_cdf(3), 3).tolist()
    [0.125, 0.25, 0.375, 0.625, 0.75, 0.875, 1.0]
    """
    deg = n * (n + 1) // 2
    c = np.zeros(deg + 1)
    c[0] = 1.0
    for i in range(1, n + 1):
        c[i:] = c[i:] + c[:-i].copy()
    out = np.minimum(np.cumsum(c) / c.sum(), 1.0)
    out.flags.writeable = False
    return out


def _rank_interval(sorted_vals: np.ndarray, cdf: np.ndarray | None, sd: float,
                   confidence: float) -> tuple[float, float, float]:
    """Interval ``[v_(c), v_(N+1-c)]`` from a null CDF (exact) or its normal approximation."""
    big_n = len(sorted_vals)
    a2 = (1 - confidence) / 2
    if cdf is not None:
        # c - 1 = largest t with P(T <= t) <= a2
        c = int(np.searchsorted(cdf, a2 * (1 + 1e-12), side="right"))
        level = 1 - 2 * cdf[c - 1] if c >= 1 else 0.0
    else:
        z = stats.norm.ppf(1 - a2)
        c = int(math.floor(big_n / 2 - z * sd))
        level = confidence
    if c < 1:  # even the extremes do not reach the level
        c = 1
        level = 1 - 2 * cdf[0] if cdf is not None else np.nan
    return float(sorted_vals[c - 1]), float(sorted_vals[big_n - c]), float(level)


def hodges_lehmann(x: np.ndarray, y: np.ndarray, confidence: float = 0.95
                   ) -> tuple[float, float, float, float]:
    """Hodges–Lehmann shift ``y - x`` with the Moses interval: ``(shift, low, high, level)``.

    The estimate is the median of all ``m·n`` differences ``y_i - x_j``; the interval takes the
    ``C``-th smallest and largest differences, ``C`` from the exact null distribution of U
    (normal approximation with ties or large samples).

    >>> hodges_lehmann(np.array([1., 2, 3]), np.array([4., 5, 6]))[0]
    3.0
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    m, n = len(x), len(y)
    if m == 0 or n == 0:
        return (np.nan,) * 4
    if m * n > 4_000_000:  # memory guard: thin the larger sample deterministically
        rng = np.random.default_rng(0)
        x = np.sort(rng.choice(x, min(m, 2000), replace=False))
        y = np.sort(rng.choice(y, min(n, 2000), replace=False))
        m, n = len(x), len(y)
    d = np.sort((y[:, None] - x[None, :]).ravel())
    shift = float(np.median(d))
    ties = len(np.unique(np.concatenate([x, y]))) < m + n
    cdf = u_null_cdf(m, n) if (m * n <= EXACT_MAX and not ties) else None
    lo, hi, level = _rank_interval(d, cdf, math.sqrt(m * n * (m + n + 1) / 12), confidence)
    return shift, lo, hi, level


def hodges_lehmann_paired(d: np.ndarray, confidence: float = 0.95
                          ) -> tuple[float, float, float, float]:
    """Hodges–Lehmann estimate of paired differences (median of Walsh averages) with Tukey's
    signed-rank interval: ``(shift, low, high, level)``.

    >>> hodges_lehmann_paired(np.array([1., 2, 3, 4]))[0]
    2.5
    """
    d = np.asarray(d, float)
    n = len(d)
    if n == 0:
        return (np.nan,) * 4
    i, j = np.triu_indices(n)
    w = np.sort((d[i] + d[j]) / 2)
    ties = len(np.unique(np.abs(d))) < n or np.any(d == 0)
    big_n = n * (n + 1) // 2
    cdf = signed_rank_null_cdf(n) if (big_n <= EXACT_MAX and not ties) else None
    lo, hi, level = _rank_interval(w, cdf, math.sqrt(n * (n + 1) * (2 * n + 1) / 24),
                                   confidence)
    return float(np.median(w)), lo, hi, level


# --------------------------------------------------------------------------------------------
# effect sizes and the ratio-of-medians interval
# --------------------------------------------------------------------------------------------
def cliffs_delta(x: np.ndarray, y: np.ndarray) -> float:
    """Cliff's delta ``P(Y > X) - P(Y < X)``: the mean sign of all differences ``y_i - x_j``
    (from mid-ranks, ``2U/mn - 1``, for large samples).

    >>> cliffs_delta(np.array([1., 2]), np.array([3., 4])), cliffs_delta([1., 3], [2., 3])
    (1.0, 0.25)
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) * len(y) <= 1_000_000:
        return float(np.sign(y[:, None] - x[None, :]).mean())
    return float(_delta_ranks(x, y, axis=-1))


def _delta_ranks(x, y, axis=-1):
    x, y = np.moveaxis(np.asarray(x), axis, -1), np.moveaxis(np.asarray(y), axis, -1)
    m, n = x.shape[-1], y.shape[-1]
    ranks = stats.rankdata(np.concatenate([y, x], axis=-1), axis=-1)
    u_y = ranks[..., :n].sum(axis=-1) - n * (n + 1) / 2
    return 2 * u_y / (m * n) - 1


def _log_median_ratio(y, x, axis=-1):
    return np.log(np.median(y, axis=axis)) - np.log(np.median(x, axis=axis))


def ratio_ci(x: np.ndarray, y: np.ndarray, confidence: float = 0.95, n_boot: int = 1999,
             method: str = "percentile", rng=None) -> tuple[float, float, float]:
    """Ratio of medians ``median(y) / median(x)`` with a bootstrap CI: ``(ratio, low, high)``.

    Resamples each group independently (:func:`scipy.stats.bootstrap`), on the log ratio;
    ``method`` is ``"percentile"`` (default; its coverage is in the validation script) or
    ``"BCa"``. Values must be positive. With fewer than :data:`RATIO_CI_MIN_N` runs on a side
    the interval is NaN: a bootstrap of so few runs' medians covers far less than it states.

    >>> ratio_ci([1.0, 1.1, 0.9], [2.0, 2.2, 1.8, 2.1, 1.9])
    (2.0, nan, nan)
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) == 0 or len(y) == 0 or np.any(x <= 0) or np.any(y <= 0):
        return np.nan, np.nan, np.nan
    ratio = float(np.median(y) / np.median(x))
    if n_boot <= 0 or min(len(x), len(y)) < RATIO_CI_MIN_N:
        return ratio, np.nan, np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap((y, x), _log_median_ratio, confidence_level=confidence,
                              n_resamples=n_boot, method=method, vectorized=True,
                              rng=np.random.default_rng(rng))
    lo, hi = res.confidence_interval
    return ratio, float(np.exp(lo)), float(np.exp(hi))


def _delta_ci(x, y, confidence, n_boot, rng) -> tuple[float, float]:
    if n_boot <= 0 or len(x) < 2 or len(y) < 2:
        return np.nan, np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = stats.bootstrap((x, y), _delta_ranks, confidence_level=confidence,
                              n_resamples=n_boot, method="percentile", vectorized=True,
                              rng=rng)
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def _median_diff(y, x, axis=-1):
    return np.median(y, axis=axis) - np.median(x, axis=axis)


# --------------------------------------------------------------------------------------------
# dependence between successive runs
# --------------------------------------------------------------------------------------------
def _log_median(x, axis=-1):
    return np.log(np.median(x, axis=axis))


def _ratio_ci_neff(x: np.ndarray, y: np.ndarray, rho_x: float, rho_y: float,
                   confidence: float, n_boot: int, rng) -> tuple[float, float]:
    """Effective-n interval of the ratio of medians ``median(y) / median(x)``.

    Each group's bootstrap variance of ``log median`` (:func:`scipy.stats.bootstrap`) is
    multiplied by the AR(1) variance inflation ``(1 + ρ)/(1 − ρ)`` of its own lag-1
    autocorrelation (``ρ ≤ 0`` or NaN: 1); normal interval of the log ratio, exponentiated.
    """
    if n_boot <= 0 or len(x) < 2 or len(y) < 2 or np.any(x <= 0) or np.any(y <= 0):
        return np.nan, np.nan
    var = 0.0
    for v, r in ((x, rho_x), (y, rho_y)):
        r = max(float(r), 0.0) if r == r else 0.0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            se = stats.bootstrap((v,), _log_median, n_resamples=n_boot, vectorized=True,
                                 method="percentile", rng=rng).standard_error
        var += (1 + r) / (1 - r) * float(se) ** 2
    centre = math.log(float(np.median(y)) / float(np.median(x)))
    half = float(stats.norm.ppf(0.5 + confidence / 2)) * math.sqrt(var)
    return math.exp(centre - half), math.exp(centre + half)


def _dependence(base_sub: pd.DataFrame, sub: pd.DataFrame, x: np.ndarray, y: np.ndarray,
                row: dict, o: dict, rng) -> dict:
    """Lag-1 autocorrelation of both groups in run order and the dependence-robust ratio CI.

    ``_dep_used``: the verdict must also pass the robust CI (``dependence="block"``, or
    ``"auto"`` with a group flagged dependent by the rule of :func:`ebsstats.summarize`).
    """
    out = {"lag1_autocorr": np.nan, "lag1_autocorr_baseline": np.nan,
           "ratio_ci_low_dep": np.nan, "ratio_ci_high_dep": np.nan,
           "_dep_used": False, "_dep_note": None}
    col = o["order"]
    if col is None:
        return out
    g = _group_row(sub, o["value"], col, DEPENDENCE_THRESHOLD, o["confidence"])
    b = _group_row(base_sub, o["value"], col, DEPENDENCE_THRESHOLD, o["confidence"])
    out.update(lag1_autocorr=g["rho"], lag1_autocorr_baseline=b["rho"])
    lo = hi = np.nan
    if np.isfinite(g["rho"]) and np.isfinite(b["rho"]):  # else: < 8 ordered runs or constant
        lo, hi = _ratio_ci_neff(x, y, b["rho"], g["rho"], o["confidence"], o["n_boot"], rng)
        # never narrower than the i.i.d. interval
        lo = float(np.fmin(lo, row.get("ratio_ci_low", np.nan))) if lo == lo else lo
        hi = float(np.fmax(hi, row.get("ratio_ci_high", np.nan))) if hi == hi else hi
    out.update(ratio_ci_low_dep=lo, ratio_ci_high_dep=hi)
    flagged = g["dependent"] is True or b["dependent"] is True
    out["_dep_used"] = bool(lo == lo and (o["dependence"] == "block" or flagged))
    if flagged:
        out["_dep_note"] = (
            f"runs not independent: lag-1 autocorrelation {g['rho']:.2f} (group), "
            f"{b['rho']:.2f} (baseline) in {col} order; the i.i.d. ratio CI is too narrow"
            + ("; verdict from ratio_ci_low_dep/high_dep (effective n)" if lo == lo
               else "; no robust CI (a group has < 8 ordered runs, constant values or "
                    "n_boot=0)"))
    return out


def _apply_dependence(out: pd.DataFrame) -> None:
    """Verdicts of rows using the robust CI need it to exclude 1; method and warning say so."""
    used = out.pop("_dep_used").to_numpy(bool)
    notes = out.pop("_dep_note")
    excl = (out["ratio_ci_low_dep"] > 1) | (out["ratio_ci_high_dep"] < 1)
    out.loc[used & ~excl.to_numpy(bool), "verdict"] = "~"
    out["method"] = [m + ("; verdict also needs the effective-n ratio CI (lag-1 autocorrelation "
                          "in run order) to exclude 1" if u else "")
                     for m, u in zip(out["method"], used, strict=True)]
    out["warning"] = pd.Series(
        ["; ".join(v for v in (w, n) if isinstance(v, str)) or None
         for w, n in zip(out["warning"].astype(object), notes, strict=True)],
        index=out.index, dtype="string")


# --------------------------------------------------------------------------------------------
# one comparison
# --------------------------------------------------------------------------------------------
def _unpaired(x, y, test, confidence, n_boot, ratio_method, n_permutations, rng) -> dict:
    out: dict = {}
    ratio, rlo, rhi = ratio_ci(x, y, confidence, n_boot, ratio_method, rng)
    out.update(ratio=ratio, ratio_ci_low=rlo, ratio_ci_high=rhi)
    shift, slo, shi, slevel = hodges_lehmann(x, y, confidence)
    out.update(shift=shift, shift_ci_low=slo, shift_ci_high=shi, shift_ci_level=slevel)
    if len(x) and len(y):
        delta = cliffs_delta(x, y)
        dlo, dhi = _delta_ci(x, y, confidence, n_boot, rng)
    else:
        delta = dlo = dhi = np.nan
    out.update(cliffs_delta=delta, cliffs_delta_ci_low=dlo, cliffs_delta_ci_high=dhi,
               cles=(delta + 1) / 2)
    p = np.nan
    if len(x) >= 1 and len(y) >= 1 and len(x) + len(y) >= 3:
        if np.ptp(np.concatenate([x, y])) == 0:
            p = 1.0
        elif test == "mannwhitney":
            p = float(stats.mannwhitneyu(y, x, alternative="two-sided").pvalue)
        else:
            p = float(stats.permutation_test((y, x), _median_diff, vectorized=True,
                                             n_resamples=n_permutations,
                                             alternative="two-sided", rng=rng).pvalue)
    out["p_value"] = p
    out["test_sign"] = float(np.sign(shift)) if shift == shift else np.nan
    return out


def _paired(xb: pd.Series, yb: pd.Series, test, confidence, n_permutations, rng) -> dict:
    """Blocks present in both groups; ``xb``/``yb`` are per-block medians indexed by block."""
    common = xb.index.intersection(yb.index)
    x = xb.loc[common].to_numpy(float)
    y = yb.loc[common].to_numpy(float)
    n = len(common)
    out: dict = {"n_pairs": n}
    if n and np.all(x > 0) and np.all(y > 0):
        lr = np.sort(np.log(y) - np.log(x))
        ratio = float(np.exp(np.median(lr)))
        if n >= 2:
            j, k, level, _ = order_stat_ranks(n, confidence)
            rlo, rhi = float(np.exp(lr[j[0] - 1])), float(np.exp(lr[k[0] - 1]))
            out["paired_ratio_level"] = float(level[0])  # (< confidence to 5 pairs at 95 %)
        else:
            rlo = rhi = np.nan
    else:
        ratio = rlo = rhi = np.nan
    out.update(ratio=ratio, ratio_ci_low=rlo, ratio_ci_high=rhi)
    d = y - x
    shift, slo, shi, slevel = hodges_lehmann_paired(d, confidence)
    out.update(shift=shift, shift_ci_low=slo, shift_ci_high=shi, shift_ci_level=slevel)
    delta = float((np.sum(d > 0) - np.sum(d < 0)) / n) if n else np.nan
    out.update(cliffs_delta=delta, cliffs_delta_ci_low=np.nan, cliffs_delta_ci_high=np.nan,
               cles=(delta + 1) / 2)
    # the test is made on the paired log ratios (scale-free, the estimand's own scale) when all
    # values are positive: a big volume's absolute difference must not outvote many small ones
    pos = bool(n) and np.all(x > 0) and np.all(y > 0)
    ty, tx = (np.log(y), np.log(x)) if pos else (y, x)
    p = np.nan
    out["test_sign"] = float(np.sign(hodges_lehmann_paired(ty - tx)[0])) if n else np.nan
    if n >= 2:
        if np.all(d == 0):
            p = 1.0
        elif test == "mannwhitney":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                p = float(stats.wilcoxon(ty, tx, alternative="two-sided").pvalue)
        else:
            p = float(stats.permutation_test((ty, tx), _median_diff, vectorized=True,
                                             permutation_type="samples",
                                             n_resamples=n_permutations,
                                             alternative="two-sided", rng=rng).pvalue)
    out["p_value"] = p
    out["median_pairs"] = float(np.median(y)) if n else np.nan
    out["median_pairs_baseline"] = float(np.median(x)) if n else np.nan
    return out


def _one_verdict(p_adj: float, alpha: float, ratio: float, median: float, median_base: float,
                 test_sign: float, hib) -> str:
    """One effect: the direction is the ratio's (the estimand); a better/worse verdict is given
    only when the adjusted p is below ``alpha`` *and* the printed medians and the rank test's own
    location estimate move the same way, so the row can never contradict itself in direction."""
    if not (p_adj < alpha) or not (ratio == ratio):
        return "~"
    sign = float(np.sign(np.log(ratio))) if ratio > 0 else np.nan
    signs = {sign, float(np.sign(median - median_base)), test_sign}
    if len(signs) != 1:
        return "~"
    return direction_word(sign, hib)


def _direction_note(r) -> str | None:
    """Why a significant row got ``~`` (its ratio, medians and rank-test estimate disagree in
    direction), or why its verdict stands beside a ratio CI that holds 1."""
    if not (r.p_adjusted < r.alpha_level) or not (r.ratio == r.ratio):
        return None
    if r.verdict == "~":
        return ("ratio of medians, printed medians and the rank test's location estimate "
                "disagree in direction (skewed or mixed blocks): no verdict; look at the "
                "distributions")
    lo, hi = r.ratio_ci_low, r.ratio_ci_high
    if lo == lo and hi == hi and lo <= 1 <= hi:
        return (f"the verdict is the rank test's (p_adjusted {r.p_adjusted:.3g}); the ratio "
                f"of medians' CI [{lo:.3g}, {hi:.3g}] holds 1: the groups differ in where "
                "their runs fall more clearly than in median (spread, shape, a second mode); "
                "look at the distributions")
    return None


# --------------------------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------------------------
@renamed(correction="padjust")
def compare(data: pd.DataFrame, value: str = "value", by: str | Sequence[str] = "config",
            baseline=None, test: str = "mannwhitney", padjust: str = "holm",
            confidence: float = 0.95, paired: str | Sequence[str] | None = None,
            higher_is_better: bool | None = None, alpha: float = 0.05, seed: int = 0,
            within: str | Sequence[str] | None = "auto", n_boot: int = 1999,
            ratio_method: str = "percentile", n_permutations: int = 9999,
            strata: str | Sequence[str] | None = None,
            dependence: str = "auto") -> pd.DataFrame:
    """Compare every group with a baseline: ratio of medians, shift, effect size, adjusted p.

    Parameters
    ----------
    data : DataFrame
        Tidy results frame (or any frame with the named columns). NaN values are left out and
        counted in ``n_excluded``.
    value : str
        Column of values.
    by : str or list of str
        Columns naming the groups to compare (``"config"``).
    baseline : scalar, tuple or None
        The ``by`` value (a tuple for several ``by`` columns) everything is compared with;
        default: the first group in the frame's order (benchstat's first file). Numbers match
        by value (``100`` finds ``100.0``). Rows without a ``by`` value are left out, with a
        warning.
    test : {"mannwhitney", "permutation"}
        Two-sided test. Unpaired: Mann–Whitney U (:func:`scipy.stats.mannwhitneyu`) or a
        permutation test of the difference of medians (:func:`scipy.stats.permutation_test`).
        Paired: Wilcoxon signed-rank (:func:`scipy.stats.wilcoxon`) or a paired permutation test.
    padjust : {"holm", "fdr_bh", "bonferroni", "none"}
        Adjustment of the p-values over *all* comparisons of this call
        (:func:`statsmodels.stats.multitest.multipletests`).
    confidence : float
        Level of every interval.
    paired : str or list of str, optional
        Block columns (e.g. ``"volume"`` or ``["instance", "repetition"]``) when the runs were
        interleaved on the same volume/instance: each group is reduced to its median per block,
        blocks present in both groups are paired.
    higher_is_better : bool, optional
        Direction for the verdict; default: the frame's ``higher_is_better`` column per
        within-cell, else lower-is-better for a latency (a time unit, a ``lat``/``clat``/
        ``slat`` metric), else unknown (verdict ``higher``/``lower``); without it, a cell whose
        column holds both ``True`` and ``False`` is not compared (its rows' verdict and warning
        ``not testable: rows mix …``, NaN estimates and p-value: it pools metrics of opposite
        direction; :func:`ebsstats.stats._core.metric_direction`), the other cells are.
    alpha : float
        Level of the adjusted p-value below which a verdict is given.
    seed : int
        Seed of bootstrap and permutation resampling (deterministic results).
    within : "auto", list of str or None
        Columns never pooled over: comparisons are made within each combination (default:
        ``test``, ``op``, ``metric`` where present).
    n_boot : int
        Bootstrap resamples for the ratio and Cliff's delta intervals (0 skips them).
    ratio_method : {"percentile", "BCa"}
        Bootstrap interval of the ratio of medians.
    n_permutations : int
        Resamples of the permutation test.
    strata : str or list of str, optional
        Columns (e.g. ``"instance_type"``) within whose levels the groups are compared: each
        stratum gets its own rows (and counts in the multiplicity adjustment). Without it, a row
        warns when a column of :data:`STRATA` is distributed differently in the group and in the
        baseline (total-variation distance ≥ 0.2), because the difference may then be one of
        composition, not of the compared factor.
    dependence : {"auto", "ignore", "block"}
        Independence check of unpaired comparisons, from the run order the frame holds
        (``timestamp``, else ``repetition``). ``"auto"`` (default): each group's lag-1
        autocorrelation is estimated; when a group's runs are dependent (bias-corrected lag-1
        autocorrelation > 0.2 and significantly positive, the rule of
        :func:`ebsstats.summarize`) the row warns and its verdict also needs the
        dependence-robust ratio CI to exclude 1; otherwise the verdict is unchanged.
        ``"block"``: every row with an estimate uses the robust CI for its verdict.
        ``"ignore"``: no check (the robust columns are NaN).

    Returns
    -------
    DataFrame
        One row per (within-cell, group ≠ baseline): the ``within`` and ``by`` columns,
        ``baseline``, ``n``, ``n_baseline``, ``n_excluded``, ``n_pairs`` (paired only),
        ``median``, ``median_baseline``, ``ratio`` (median / baseline median),
        ``ratio_ci_low``/``ratio_ci_high``, ``change_pct`` (+ CI), ``ratio_ci_low_dep``/
        ``ratio_ci_high_dep`` (dependence-robust ratio CI), ``lag1_autocorr`` and
        ``lag1_autocorr_baseline`` (bias-corrected, in run order; NaN without run order, with
        fewer than 8 runs, paired or ``dependence="ignore"``), ``shift`` (Hodges–Lehmann,
        value units) with ``shift_ci_low``/``shift_ci_high``/``shift_ci_level``,
        ``cliffs_delta`` (+ bootstrap CI), ``cles`` (P(group > baseline) + ½ P(tie)),
        ``p_value``, ``p_adjusted``, ``test_method`` (not ``test``, which names the
        workload in the tidy frame), ``correction`` (the ``padjust`` method),
        ``higher_is_better``,
        ``verdict`` (``better``/``worse``/``~``, ``higher``/``lower`` with no direction, or
        ``not testable: why`` where no test was made), ``confidence``, ``method``, ``warning``.

    Notes
    -----
    **Estimand.** One effect per comparison: unpaired, the ratio of medians
    ``median(group) / median(baseline)``; paired, the median of the paired log ratios
    ``exp(median(log y_b - log x_b))`` over blocks ``b`` (the rank test is then made on those log
    ratios). The verdict follows benchstat — ``~`` unless the adjusted p-value is below
    ``alpha`` — and its direction is the ratio's; it is ``better``/``worse`` only when the
    ratio, the printed medians (paired: of the paired blocks) and the rank test's own location
    estimate (Hodges–Lehmann) move the same way, otherwise ``~`` with a warning, so a row never
    contradicts itself in direction. The rank test asks whether one group's runs tend to fall
    above the other's, the ratio CI how far apart the medians are: groups that differ in spread
    or shape more than in median can pass the first and not the second, and such a row warns
    beside its verdict. Requiring the ratio CI to exclude 1 as well would cost power, since
    a median is a less efficient estimate than a rank test: with 10 % log-normal noise, 0.38
    instead of 0.46 at 10 runs per side and +10 %, 0.35 instead of 0.48 at 30 and +5 %
    (``benchmarks/validate_statistics.py``, section 5). A row warns when
    :data:`STRATA` columns are unbalanced between the groups (Simpson's paradox; pass
    ``strata=``) and when ``padjust`` over the call's comparisons
    makes a significant verdict unattainable for its sample sizes (the exact floor
    ``2 / C(m+n, m)`` times the number of comparisons for Holm), with the runs per side that
    would make it attainable. Holm (1979) controls the family-wise error under any dependence (the comparisons
    share a baseline); Benjamini–Hochberg (1995) controls the false discovery rate. Shift
    interval: Moses (1953) / Hollander & Wolfe, by inverting Mann–Whitney; paired: Tukey's
    Walsh-average interval. Ratio of medians: bootstrap of the log ratio (Kalibera & Jones,
    2013, argue for ratio CIs; coverage at n = 10 and 30 is in
    ``benchmarks/validate_statistics.py``). Paired ratio: exp of the median paired log-ratio
    with its order-statistic interval. Laaber et al. (EMSE 2019) show that interleaving the
    configurations on the same instances is what makes small slowdowns detectable.

    **Independence.** Every unpaired interval and test assumes independent runs; back-to-back
    runs carry a burst bucket, cache or neighbour over (with AR(1) ρ = 0.5 and 10–40 runs per
    side the bootstrap ratio CI stating 95 % covers 77–83 %, the effective-n CI 94–97 %). The
    lag-1 autocorrelation of each group in run order is bias-corrected (Marriott & Pope, Biometrika 41, 1954; see
    :func:`ebsstats.stats.independence.lag1`). The robust ratio CI is an effective-sample-size
    interval (Bayley & Hammersley, JRSS B 8(2), 1946): each group's bootstrap variance of
    ``log median`` is inflated by ``(1 + ρ)/(1 − ρ)`` and the normal interval of the log ratio
    is taken, never narrower than the i.i.d. interval (its coverage under AR(1) ρ = 0, 0.5, 0.8
    is printed by ``benchmarks/validate_dependence.py``). The robust CI is unadjusted for
    multiplicity; it can only take a verdict away, never give one. Paired comparisons are not
    checked (pairing within a block absorbs what successive runs share).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from ebsstats.stats.comparison import compare  # or: import ebsstats as es; es.compare(...)
    >>> rng = np.random.default_rng(1)
    >>> df = pd.DataFrame({"config": ["gp2"] * 10 + ["gp3"] * 10,
    ...                    "value": np.r_[rng.normal(100, 3, 10), rng.normal(120, 3, 10)],
    ...                    "higher_is_better": True})
    >>> r = compare(df, by="config", baseline="gp2", n_boot=199)
    >>> r[["config", "baseline", "verdict"]].values.tolist()
    [['gp3', 'gp2', 'better']]
    >>> bool(r["ratio_ci_low"].iloc[0] > 1)
    True
    """
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}")
    if padjust not in CORRECTIONS:
        raise ValueError(f"padjust must be one of {CORRECTIONS}, got {padjust!r}")
    if dependence not in DEPENDENCE:
        raise ValueError(f"dependence must be one of {DEPENDENCE}, got {dependence!r}")
    check_levels(confidence=confidence, alpha=alpha)
    by_cols = as_list(by)
    if not by_cols:
        raise ValueError("compare needs at least one 'by' column")
    block_cols = as_list(paired)
    cells = [c for c in group_keys(data, None, within) if c not in by_cols]
    cells += [c for c in as_list(strata) if c not in by_cols and c not in cells]
    check_columns(data, [value, *by_cols, *cells, *block_cols])
    data = _with_groups(data, by_cols)
    baseline, base_key = baseline_key(data, by_cols, baseline)
    opts = dict(value=value, by_cols=by_cols, block_cols=block_cols, test=test,
                confidence=confidence, n_boot=n_boot, ratio_method=ratio_method,
                n_permutations=n_permutations, seed=seed, higher_is_better=higher_is_better,
                baseline=baseline if len(by_cols) > 1 else base_key[0],
                watch=[c for c in STRATA if c in data.columns
                       and c not in (*by_cols, *cells, *block_cols)],
                dependence=dependence,
                order=None if dependence == "ignore" or block_cols else _order_column(data, None))
    rows: list[dict] = []
    strata_notes: dict[int, str] = {}
    found_baseline = False
    for cell_key, cell in iter_groups(data, cells):
        found_baseline |= _compare_cell(cell_key, cell, base_key, rows, strata_notes, opts)
    if not found_baseline:
        raise ValueError(f"baseline {baseline!r} not found in column(s) {by_cols}")
    out = pd.DataFrame(rows)
    if out.empty:
        return _nothing_compared(out, cells, by_cols)
    return _finish(out, cells, by_cols, block_cols, test, padjust, alpha, confidence,
                   ratio_method, n_boot, strata_notes)


def _keep_estimate_inside(out: pd.DataFrame) -> None:
    """An interval bound beyond its ratio by rounding alone (exp of a log: 1.1999999999999993
    beside 1.2 with tied runs) is set to the ratio; a bound beyond it by more is the interval's
    own (a percentile bootstrap may exclude its estimate) and stays."""
    r = out["ratio"].to_numpy(float)
    tol = 1e-9 * np.abs(r)
    for c, beyond in (("ratio_ci_low", np.greater), ("ratio_ci_high", np.less)):
        b = out[c].to_numpy(float)
        out[c] = np.where(beyond(b, r) & (np.abs(b - r) <= tol), r, b)


def _nothing_compared(out: pd.DataFrame, cells: list[str], by_cols: list[str]) -> pd.DataFrame:
    """The empty result of a call where no cell holds the baseline and another group, with the
    reason said (in ``attrs["reason"]`` and a warning): strata nested in the groups (each host
    ran one configuration) leave nothing to compare within them."""
    why = (f"compare found nothing to compare: no cell of {cells} holds the baseline and "
           f"another {'/'.join(by_cols)} group" + (
               " (a column among them is nested in the groups: each of its values ran one "
               "group, so the groups cannot be compared within it; compare without it)"
               if cells else ""))
    out.attrs["reason"] = why
    warnings.warn(why, UserWarning, stacklevel=3)
    return out


def _with_groups(data: pd.DataFrame, by_cols: list[str]) -> pd.DataFrame:
    """``data`` without the rows that name no group (a missing ``by`` value), with a warning
    saying how many: such rows are no group to compare, and as one they would count in the
    multiplicity adjustment of every real comparison."""
    missing = data[by_cols].isna().any(axis=1)
    if missing.any():
        warnings.warn(f"compare: {int(missing.sum())} row(s) without a value in "
                      f"{'/'.join(by_cols)} left out", UserWarning, stacklevel=4)
        data = data[~missing.to_numpy()]
    return data


def _compare_cell(cell_key: dict, cell: pd.DataFrame, base_key: tuple, rows: list,
                  strata_notes: dict, o: dict) -> bool:
    """Append one row per group ≠ baseline of one within-cell; False if the cell lacks it."""
    by_cols, value, block_cols = o["by_cols"], o["value"], o["block_cols"]
    base_str = tuple(key_text(b) for b in base_key)
    groups = list(iter_groups(cell, by_cols))
    base = [sub for key, sub in groups if tuple(key_text(key[c]) for c in by_cols) == base_str]
    if not base:
        return False
    base_sub = base[0]
    # (runs of other workloads pooled in the baseline)
    base_mix = mixed_parameters(base_sub, [], subject="the baseline").get(())
    xb, xb_excl = clean_values(base_sub, value)
    # (the project's one rule; rows labelled both ways, a PTS TPS and latency: cell untested)
    hib, untested = direction_or_reason(cell, o["higher_is_better"])
    for key, sub in groups:
        if tuple(key_text(key[c]) for c in by_cols) == base_str:
            continue
        rng = np.random.default_rng([o["seed"], len(rows)])  # comparison i: reproducible
        y, y_excl = clean_values(sub, value)
        row = {**cell_key, **key, "baseline": o["baseline"],
               "n": len(y), "n_baseline": len(xb), "n_excluded": y_excl + xb_excl,
               "median": float(np.median(y)) if len(y) else np.nan,
               "median_baseline": float(np.median(xb)) if len(xb) else np.nan,
               "higher_is_better": hib, "_untested": untested}
        if untested:
            rows.append(_untested_row(row, base_sub, sub, o))
            continue
        if block_cols:
            xbk = _block_medians(base_sub, value, block_cols)
            ybk = _block_medians(sub, value, block_cols)
            row.update(_paired(xbk, ybk, o["test"], o["confidence"], o["n_permutations"], rng))
        else:
            row.update(_unpaired(xb, y, o["test"], o["confidence"], o["n_boot"],
                                 o["ratio_method"], o["n_permutations"], rng))
        row.update(_dependence(base_sub, sub, xb, y, row, o, rng))
        notes = [_imbalance(base_sub, sub, o["watch"]), mixed_parameters(sub, []).get(()),
                 base_mix]
        if any(notes):
            strata_notes[len(rows)] = "; ".join(n for n in notes if n)
        rows.append(row)
    return True


#: The estimates of a row whose cell is not tested (NaN: no comparison was made).
_UNTESTED_NAN = ("median", "median_baseline", "ratio", "ratio_ci_low", "ratio_ci_high", "shift",
                 "shift_ci_low", "shift_ci_high", "shift_ci_level", "cliffs_delta",
                 "cliffs_delta_ci_low", "cliffs_delta_ci_high", "cles", "p_value", "test_sign",
                 "lag1_autocorr", "lag1_autocorr_baseline", "ratio_ci_low_dep",
                 "ratio_ci_high_dep")


def _untested_row(row: dict, base_sub: pd.DataFrame, sub: pd.DataFrame, o: dict) -> dict:
    """``row`` (group, counts, reason in ``_untested``) with NaN estimates and p-value: it is
    no test, so it counts in no multiplicity adjustment, and gets no verdict."""
    row = {**row, **dict.fromkeys(_UNTESTED_NAN, np.nan), "_dep_used": False, "_dep_note": None}
    if o["block_cols"]:  # (the pairs there are, none compared)
        common = _block_medians(base_sub, o["value"], o["block_cols"]).index.intersection(
            _block_medians(sub, o["value"], o["block_cols"]).index)
        row.update(n_pairs=len(common), median_pairs=np.nan, median_pairs_baseline=np.nan)
    return row


def _mark_untested(out: pd.DataFrame) -> None:
    """A row of an untested cell has its reason (``not testable: ...``) as its verdict and its
    warning, the way :func:`ebsstats.stats.history.regressions` reports an untested group."""
    why = out.pop("_untested").astype(object)
    has = why.notna().to_numpy(bool)
    if has.any():
        out.loc[has, "verdict"] = why[has]
        out["warning"] = out["warning"].astype(object)
        out.loc[has, "warning"] = why[has]
        out["warning"] = out["warning"].astype("string")


def _finish(out, cells, by_cols, block_cols, test, correction, alpha, confidence, ratio_method,
            n_boot, strata_notes) -> pd.DataFrame:
    """Adjusted p-values, changes in %, verdicts, method and warnings; the column order."""
    p = out["p_value"].to_numpy(float)
    ok = np.isfinite(p)
    out["p_adjusted"] = adjust_pvalues(p, correction)
    _keep_estimate_inside(out)
    for c in ("", "_ci_low", "_ci_high"):
        out[f"change_pct{c}"] = (out[f"ratio{c}"] - 1) * 100
    paired_name = "wilcoxon signed-rank" if test == "mannwhitney" else "paired permutation"
    out["test_method"] = paired_name if block_cols else test
    out["correction"] = correction
    if block_cols:  # paired: the medians the ratio is about are those of the paired blocks
        med = out.pop("median_pairs").to_numpy(float)
        med_b = out.pop("median_pairs_baseline").to_numpy(float)
    else:
        med, med_b = out["median"].to_numpy(float), out["median_baseline"].to_numpy(float)
    out["verdict"] = [_one_verdict(pa, alpha, r, m1, m0, ts, h) for pa, r, m1, m0, ts, h in zip(
        out["p_adjusted"], out["ratio"], med, med_b, out["test_sign"], out["higher_is_better"],
        strict=True)]
    out["alpha_level"] = alpha
    out["confidence"] = confidence
    if block_cols:
        out["method"] = (f"paired by {'+'.join(block_cols)} (median per block); ratio: exp median "
                         "paired log-ratio, order-statistic CI; test on the paired log ratios; "
                         "shift: HL of paired differences, Tukey CI")
    else:
        out["method"] = (f"ratio of medians, {ratio_method} bootstrap CI ({n_boot} resamples); "
                         "shift: Hodges-Lehmann, Moses CI")
    m_tests = int(ok.sum())
    out["warning"] = [_warn(r, block_cols, alpha, m_tests, correction, strata_notes.get(i))
                      for i, r in enumerate(out.itertuples(index=False))]
    out["warning"] = out["warning"].astype("string")
    _apply_dependence(out)
    _mark_untested(out)
    out["higher_is_better"] = out["higher_is_better"].astype("boolean")
    first = [*cells, *by_cols, "baseline", "n", "n_baseline", "n_excluded"]
    first += ["n_pairs"] if block_cols else []
    first += ["median", "median_baseline", "ratio", "ratio_ci_low", "ratio_ci_high",
              "change_pct", "change_pct_ci_low", "change_pct_ci_high", "ratio_ci_low_dep",
              "ratio_ci_high_dep", "lag1_autocorr", "lag1_autocorr_baseline", "shift", "shift_ci_low",
              "shift_ci_high", "shift_ci_level", "cliffs_delta", "cliffs_delta_ci_low",
              "cliffs_delta_ci_high", "cles", "p_value", "p_adjusted", "test_method",
              "correction", "higher_is_better", "verdict", "confidence", "method", "warning"]
    return out[first].reset_index(drop=True)


def _imbalance(base: pd.DataFrame, sub: pd.DataFrame, cols: list[str]) -> str | None:
    """A warning naming the columns whose composition differs between the two groups."""
    bad = []
    for c in cols:
        a = base[c].astype("string").dropna()
        b = sub[c].astype("string").dropna()
        if a.nunique() + b.nunique() < 2 or not len(a) or not len(b) \
                or not 2 <= pd.concat([a, b]).nunique() <= (len(a) + len(b)) / 2:
            continue  # one level, or (nearly) one level per run: not a stratum
        pa, pb = a.value_counts(normalize=True), b.value_counts(normalize=True)
        tvd = 0.5 * float(pa.sub(pb, fill_value=0).abs().sum())
        if tvd >= IMBALANCE_TVD:
            show = ", ".join(f"{k} {100 * pa.get(k, 0):.0f}/{100 * pb.get(k, 0):.0f} %"
                             for k in sorted(set(pa.index) | set(pb.index))[:4])
            bad.append((c, tvd, show))
    if not bad:
        return None
    txt = "; ".join(f"{c} (baseline/group: {show})" for c, _, show in bad)
    shared = [c for c, _, _ in bad if set(base[c].astype("string").dropna())
              & set(sub[c].astype("string").dropna())]
    if not shared:  # (every value ran one group: nested, no stratum holds both)
        return (f"unbalanced strata: {txt}: the two groups share no {bad[0][0]}, so the "
                f"difference cannot be told from one of {bad[0][0]} (nested: no strata can "
                "separate them)")
    return (f"unbalanced strata: {txt}: the difference may be one of composition; compare "
            f"within strata with strata={shared[0]!r}")


def _block_medians(sub: pd.DataFrame, value: str, blocks: list[str]) -> pd.Series:
    s = sub[[*blocks, value]].copy()
    s[value] = pd.to_numeric(s[value], errors="coerce")
    s = s[np.isfinite(s[value].to_numpy(float, na_value=np.nan))]
    for b in blocks:
        s[b] = s[b].astype(str)
    return s.groupby(blocks, observed=True)[value].median()


def _warn(r, paired, alpha, m_tests=1, correction="holm", strata=None) -> str | None:
    msgs = []
    floor = min_p(r.n_pairs) if paired else min_p(r.n, r.n_baseline)
    size = f"{r.n_pairs} pairs" if paired else f"n={r.n} vs {r.n_baseline}"
    need = runs_needed(alpha, m_tests, correction, paired=bool(paired))
    more = (f"; {need} {'pairs' if paired else 'runs per side'} would make it attainable"
            if need else "")
    if floor >= alpha:
        msgs.append(f"{size}: a {'signed-rank' if paired else 'rank-test'} p-value cannot go "
                    f"below {alpha:g}{more}")
    elif best_adjusted_p(floor, m_tests, correction) >= alpha:
        msgs.append(f"{size}: with {m_tests} comparisons, {correction} cannot reach p_adj < "
                    f"{alpha:g} (best attainable {best_adjusted_p(floor, m_tests, correction):.3g})"
                    f"{more}")
    note = _direction_note(r)
    if note:
        msgs.append(note)
    if strata:
        msgs.append(strata)
    if r.n_excluded:
        msgs.append(f"{r.n_excluded} NaN value(s) excluded")
    if not (r.ratio == r.ratio):
        msgs.append("ratio undefined (values <= 0 or missing)")
    elif paired:
        level = getattr(r, "paired_ratio_level", np.nan)
        if level == level and level < r.confidence - 1e-12:
            msgs.append(f"{r.n_pairs} pairs: the ratio CI (the extreme pair ratios) covers "
                        f"{pct(level)}, not {pct(r.confidence)}")
    elif (min(r.n, r.n_baseline) < RATIO_CI_MIN_N and r.n_baseline and r.n
          and r.ratio_ci_low != r.ratio_ci_low):
        msgs.append(f"no ratio CI: n={r.n} vs {r.n_baseline}, a bootstrap of the medians of "
                    f"fewer than {RATIO_CI_MIN_N} runs covers far less than it states (the "
                    "shift CI's level is exact: shift_ci_level)")
    return "; ".join(msgs) if msgs else None
